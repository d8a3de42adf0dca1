// Access: users and their API tokens (a new token's secret is shown once), ACL entries, and the
// server certificate's fingerprint with a copy button.
import * as api from '../api.js';
import { h, fmtTime, table, action, lazy, showInfo } from '../ui.js';

export async function render(main) {
  main.append(h('h1', {}, 'Access'));
  const secretBox = h('div', { id: 'token-secret' });
  const users = await api.get('/access/users', { include_tokens: 1 });
  main.append(h('h2', {}, 'Users and API tokens'), table([
    { title: 'User', cell: u => h('span', { class: 'mono' }, u.userid) },
    { title: 'Comment', cell: u => u.comment || '' },
    { title: 'Enabled', cell: u => (u.enable === false ? 'no' : 'yes') },
    { title: 'Expires', cell: u => (u.expire ? fmtTime(u.expire) : 'never') },
    { title: 'Tokens', cell: u => (u.tokens || []).map(t => h('div', { class: 'mono token' }, t.tokenid, t.comment ? h('span', { class: 'muted' }, ` (${t.comment})`) : '')) },
  ], users, { class: 'users' }));
  main.append(tokenForm(users, secretBox), secretBox);
  main.append(h('h2', {}, 'Permissions (ACL)'), lazy(async () => table([
    { title: 'Path', cell: a => h('span', { class: 'mono' }, a.path) },
    { title: 'User or token', cell: a => h('span', { class: 'mono' }, a.ugid) },
    { title: 'Role', cell: a => a.roleid },
    { title: 'Propagate', cell: a => (a.propagate ? 'yes' : 'no') },
  ], await api.get('/access/acl'), { class: 'acl', empty: 'no ACL entry visible to you' })));
  main.append(h('h2', {}, 'Server certificate'), lazy(certificate));
}

function tokenForm(users, secretBox) {
  const user = h('select', { id: 'token-user', 'aria-label': 'user' }, users.map(u => h('option', { value: u.userid }, u.userid)));
  const name = h('input', { id: 'token-name', required: true, placeholder: 'name', size: 12 });
  const comment = h('input', { id: 'token-comment', placeholder: 'comment (optional)', size: 20 });
  const create = action('Create token', async () => {
    if (!name.value.trim()) { name.focus(); return; }
    const path = `/access/users/${encodeURIComponent(user.value)}/token/${encodeURIComponent(name.value.trim())}`;
    const t = await api.post(path, { comment: comment.value.trim() });
    const value = h('code', { id: 'token-value', class: 'mono' }, t.value);
    secretBox.replaceChildren(h('div', { class: 'card secret', role: 'alert' },
      h('p', {}, h('strong', {}, 'Token ', h('span', { class: 'mono', id: 'token-id' }, t.tokenid), ' created.'),
        ' Copy its secret now: it is shown only this once and cannot be read again.'),
      h('p', {}, value, ' ', copyButton(t.value, 'copy-secret')),
      h('p', { class: 'muted' }, 'A new token has no privileges of its own: give it roles with an ACL entry.'),
      h('button', { onclick: () => secretBox.replaceChildren() }, 'Done, hide the secret')));
    name.value = '';
  }, { id: 'token-create', class: 'primary', type: 'submit' });
  return h('form', { class: 'filters', onsubmit: ev => ev.preventDefault() },
    h('label', {}, 'User ', user), h('label', {}, 'Token name ', name), h('label', {}, 'Comment ', comment), create);
}

export function copyButton(text, id) {
  return h('button', {
    id, class: 'small', onclick: async ev => {
      ev.preventDefault();
      try {
        await navigator.clipboard.writeText(text);
        showInfo('Copied to the clipboard.');
      } catch (e) {
        showInfo('Copying was refused by the browser: select the text and copy it by hand.');
      }
    },
  }, 'Copy');
}

async function certificate() {
  const [c] = await api.get('/nodes/localhost/certificates/info');
  return h('dl', { class: 'kv', id: 'certificate' },
    h('dt', {}, 'Fingerprint (SHA-256)'), h('dd', {}, h('code', { id: 'fingerprint', class: 'mono' }, c.fingerprint), ' ', copyButton(c.fingerprint, 'copy-fingerprint')),
    h('dt', {}, 'Subject'), h('dd', {}, c.subject),
    h('dt', {}, 'Issuer'), h('dd', {}, c.issuer),
    h('dt', {}, 'Valid'), h('dd', {}, `${fmtTime(c.notbefore)} to ${fmtTime(c.notafter)}`),
    h('dt', {}, 'Names'), h('dd', {}, (c.san || []).join(', ')));
}
