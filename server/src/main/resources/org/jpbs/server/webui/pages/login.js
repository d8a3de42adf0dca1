// The login form: POST access/ticket with user@realm and password (PBS's realms: pbs, and root@pam).
import * as api from '../api.js';
import { h } from '../ui.js';

export function render(main, ctx) {
  const user = h('input', { id: 'login-user', name: 'username', autocomplete: 'username', required: true, value: 'root@pam' });
  const pass = h('input', { id: 'login-password', name: 'password', type: 'password', autocomplete: 'current-password', required: true });
  const msg = h('p', { id: 'login-message', class: ctx.message ? 'msg info' : 'hidden', role: 'alert' }, ctx.message || '');
  const submit = h('button', { id: 'login-submit', type: 'submit', class: 'primary' }, 'Log in');
  const form = h('form', {
    class: 'login card',
    onsubmit: async ev => {
      ev.preventDefault();
      submit.disabled = true;
      msg.className = 'msg info';
      msg.textContent = 'Logging in…';
      try {
        let name = user.value.trim();
        if (name && !name.includes('@')) name += '@pbs';
        await api.login(name, pass.value);
        ctx.done();
      } catch (e) {
        msg.className = 'msg error';
        msg.textContent = e.status === 401 ? 'Login failed. Please try again.' : e.message;
        submit.disabled = false;
        pass.select();
      }
    },
  },
  h('h1', {}, 'jpbs login'),
  msg,
  h('label', { for: 'login-user' }, 'User name (user@realm)'), user,
  h('label', { for: 'login-password' }, 'Password'), pass,
  submit);
  main.append(form);
  (user.value ? pass : user).focus();
}
