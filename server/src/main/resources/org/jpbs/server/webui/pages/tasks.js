// The task list with PBS's filters (running, errors, type, user, datastore, status, since), paged.
import * as api from '../api.js';
import { h, fmtTime, table, taskHref, taskStatusBadge } from '../ui.js';

const PAGE = 50;

export async function render(main, ctx) {
  main.append(h('h1', {}, 'Tasks'));
  const f = {
    running: h('input', { type: 'checkbox', id: 'f-running' }),
    errors: h('input', { type: 'checkbox', id: 'f-errors' }),
    typefilter: h('input', { id: 'f-type', placeholder: 'e.g. backup', size: 12 }),
    userfilter: h('input', { id: 'f-user', placeholder: 'user@realm', size: 12 }),
    store: h('select', { id: 'f-store' }, h('option', { value: '' }, 'all'), ctx.stores.map(s => h('option', { value: s.store }, s.store))),
    since: h('input', { id: 'f-since', type: 'date' }),
  };
  let start = 0;
  const list = h('div', { id: 'task-list' });
  const pager = h('p', { class: 'pager' });
  const load = async () => {
    const q = {
      start, limit: PAGE, running: f.running.checked || undefined, errors: f.errors.checked || undefined,
      typefilter: f.typefilter.value.trim(), userfilter: f.userfilter.value.trim(), store: f.store.value,
      since: f.since.value ? Math.floor(new Date(f.since.value).getTime() / 1000) : undefined,
    };
    let answer;
    try {
      answer = await api.call('GET', '/nodes/localhost/tasks', q);
    } catch (e) {
      list.replaceChildren(h('p', { class: 'msg error', role: 'alert' }, e.message));
      return;
    }
    list.replaceChildren(table([
      { title: 'Started', cell: t => h('a', { href: taskHref(t.upid), class: 'task-link' }, fmtTime(t.starttime)) },
      { title: 'Ended', cell: t => fmtTime(t.endtime) },
      { title: 'Type', cell: t => t.worker_type },
      { title: 'ID', cell: t => t.worker_id || '' },
      { title: 'User', cell: t => t.user },
      { title: 'Status', cell: t => taskStatusBadge(t) },
    ], answer.data, { empty: 'no task matches', class: 'tasks' }));
    const total = answer.total;
    pager.replaceChildren(
      h('button', { disabled: start === 0, onclick: () => { start = Math.max(0, start - PAGE); load(); } }, '← Newer'), ' ',
      `${total ? start + 1 : 0}–${Math.min(total, start + PAGE)} of ${total}`, ' ',
      h('button', { disabled: start + PAGE >= total, onclick: () => { start += PAGE; load(); } }, 'Older →'));
  };
  const field = (label, input) => h('label', { class: 'filter' }, label, ' ', input);
  main.append(h('form', { class: 'filters', onsubmit: ev => { ev.preventDefault(); start = 0; load(); } },
    field('Running only', f.running), field('Errors only', f.errors), field('Type', f.typefilter),
    field('User', f.userfilter), field('Datastore', f.store), field('Since', f.since),
    h('button', { type: 'submit', class: 'primary' }, 'Filter')), list, pager);
  for (const input of [f.running, f.errors, f.store]) input.addEventListener('change', () => { start = 0; load(); });
  await load();
  const timer = setInterval(() => { if (!document.hidden) load(); }, 10000);
  ctx.cleanup = () => clearInterval(timer);
}
