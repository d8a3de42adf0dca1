// Jobs: prune, verify and sync jobs with their schedules, next and last runs (admin/<kind>), and
// remotes (config/remote): list, create, edit, remove, run now. A run shows its task (UPID) and
// a link to its log; an API error is shown as the server's one-line message.
import * as api from '../api.js';
import { h, fmtTime, table, action, showTask, showInfo, taskHref, badge } from '../ui.js';
import { KINDS, form, truthy } from './jobfields.js';

/** The one line of a job's last run: its state badge and a link to its task. */
function lastRun(j) {
  if (!j['last-run-upid']) return h('span', { class: 'muted' }, 'never');
  const state = j['last-run-state'] || 'running';
  const kind = state === 'OK' ? 'ok' : state === 'running' || !j['last-run-endtime'] ? 'running' : state.startsWith('WARN') ? 'warn' : 'failed';
  return h('span', { class: 'last-run' }, badge(j['last-run-endtime'] ? state : 'running', kind), ' ',
    h('a', { href: taskHref(j['last-run-upid']) }, j['last-run-endtime'] ? fmtTime(j['last-run-endtime']) : 'log'));
}

function nextRun(j) {
  if (truthy(j.disable)) return h('span', { class: 'muted' }, 'disabled');
  if (!j.schedule) return h('span', { class: 'muted' }, 'not scheduled');
  if (!j['next-run']) return h('span', { class: 'muted' }, 'never');
  return h('span', { class: 'next-run mono', 'data-time': j['next-run'] }, fmtTime(j['next-run']));
}

const keepText = j => ['last', 'hourly', 'daily', 'weekly', 'monthly', 'yearly']
  .filter(k => j['keep-' + k]).map(k => `${k} ${j['keep-' + k]}`).join(', ') || h('span', { class: 'muted' }, 'none');

function scopeText(j) {
  return [j.ns ? `ns ${j.ns}` : '', j['max-depth'] !== undefined ? `depth ${j['max-depth']}` : ''].filter(Boolean).join(', ');
}

/** The columns of each kind, between the id and the actions. */
const COLUMNS = {
  prune: [{ title: 'Keep', cell: keepText }],
  verify: [{ title: 'Options', cell: j => [truthy(j['ignore-verified'] ?? true) ? 'skip verified' : 'all snapshots',
    j['outdated-after'] ? `, re-verify after ${j['outdated-after']} days` : ''].join('') }],
  sync: [{ title: 'From / to', cell: j => `${j['sync-direction'] === 'push' ? 'push to' : 'pull from'} ${j.remote || '(local)'}:${j['remote-store']}${j['remote-ns'] ? '/' + j['remote-ns'] : ''}` }],
};

const JOB_COLUMNS = kind => [
  { title: 'ID', cell: j => h('span', { class: 'mono job-id' }, j.id) },
  { title: 'Datastore', cell: j => [h('a', { href: '#/datastore/' + encodeURIComponent(j.store) }, j.store),
    scopeText(j) ? h('div', { class: 'muted' }, scopeText(j)) : ''] },
  { title: 'Schedule', cell: j => (j.schedule ? h('span', { class: 'mono' }, j.schedule) : '') },
  { title: 'Next run', cell: nextRun },
  { title: 'Last run', cell: lastRun },
  ...COLUMNS[kind],
  { title: 'Comment', cell: j => j.comment || '' },
];

const REMOTE_COLUMNS = [
  { title: 'Name', cell: r => h('span', { class: 'mono job-id' }, r.name) },
  { title: 'Host', cell: r => `${r.host}${r.port ? ':' + r.port : ''}` },
  { title: 'Auth ID', cell: r => h('span', { class: 'mono' }, r['auth-id']) },
  { title: 'Fingerprint', cell: r => (r.fingerprint ? h('span', { class: 'mono fp' }, r.fingerprint) : h('span', { class: 'muted' }, 'system trust')) },
  { title: 'Comment', cell: r => r.comment || '' },
];

const capital = s => s[0].toUpperCase() + s.slice(1);

async function remotes() {
  try {
    return await api.get('/config/remote');
  } catch (e) {
    return []; // no Remote.Audit anywhere: only local syncs can be chosen
  }
}

/**
 * One kind's section: its table (jobs: from admin/<kind> with next and last run; remotes: from
 * config/remote) with run/edit/remove per row, and the create/edit form. opts.store limits a
 * job list to one datastore (the maintenance page).
 */
export function jobSection(kind, ctx, opts = {}) {
  const k = KINDS[kind];
  const isJob = kind !== 'remote';
  const formBox = h('div', { class: 'form-box' });
  const box = h('div', { id: `jobs-${kind}` });
  const state = { digest: null };
  const close = () => formBox.replaceChildren();
  const formCtx = async () => ({ stores: ctx.stores, digest: state.digest, remotes: kind === 'sync' ? await remotes() : [] });
  const openForm = async current => {
    const f = form(kind, current, await formCtx(), saved, close);
    if (!current && opts.store) f.querySelector(`#job-${kind}-store`).value = opts.store;
    formBox.replaceChildren(f);
  };
  const rowActions = j => {
    const id = j[k.idKey];
    return h('span', { class: 'row-actions' },
      isJob ? [action('Run now', async () => showTask(`${capital(k.one)} '${id}'`,
        await api.post(`/admin/${kind}/${encodeURIComponent(id)}/run`)), { class: 'small run-job' }), ' '] : '',
      action('Edit', () => openForm(j), { class: 'small edit-job' }), ' ',
      action('Remove', async () => {
        if (!confirm(`Remove ${k.one} '${id}'?`)) return;
        await api.del(`/config/${kind}/${encodeURIComponent(id)}`, { digest: state.digest });
        showInfo(`${capital(k.one)} '${id}' removed.`);
        await load();
      }, { class: 'small danger remove-job' }));
  };
  const load = async () => {
    const answer = await api.call('GET', isJob ? `/admin/${kind}` : '/config/remote', { store: opts.store });
    state.digest = answer.digest;
    box.replaceChildren(table([...(isJob ? JOB_COLUMNS(kind) : REMOTE_COLUMNS), { title: 'Actions', cell: rowActions }],
      answer.data, { class: `jobs ${kind}`, empty: `no ${k.one} (or none you may see)`, rowAttrs: j => ({ 'data-id': j[k.idKey] }) }));
  };
  const saved = async message => { close(); showInfo(message); await load(); };
  const create = action(`New ${k.one}`, () => openForm(null), { id: `new-${kind}`, class: 'primary' });
  load().catch(e => box.replaceChildren(h('p', { class: 'msg error', role: 'alert' }, e.message)));
  return h('section', { class: 'jobs-section', 'aria-label': k.title }, h(opts.store ? 'h3' : 'h2', {}, k.title, ' ', create), formBox, box);
}

export async function render(main, ctx) {
  main.append(h('h1', {}, 'Jobs'),
    h('p', { class: 'muted' }, 'Scheduled prune, verify and sync jobs of every datastore you may see, and the remotes sync jobs pull from or push to. ',
      'Schedules are calendar events (', h('span', { class: 'mono' }, 'daily'), ', ', h('span', { class: 'mono' }, 'mon..fri 02:00'),
      ', ', h('span', { class: 'mono' }, '*/15'), '); "Run now" starts a job at once as a task.'));
  for (const kind of ['prune', 'verify', 'sync', 'remote']) main.append(jobSection(kind, ctx));
}
