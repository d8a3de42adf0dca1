// Dashboard: usage and estimated full date per datastore, backups of the last 24 h / 7 days,
// running and failed tasks, last GC / verify / sync per datastore, and stale groups.
import * as api from '../api.js';
import { h, fmtBytes, fmtTime, fmtAge, now, table, badge, taskHref, taskStatusBadge } from '../ui.js';

const DAY = 86400;
const VERIFY_TYPES = ['verify', 'verificationjob', 'verify_group', 'verify_snapshot'];
const SYNC_TYPES = ['syncjob', 'sync'];
/** Datastores listed at first (the fullest) when there are more; "Show all" lists every one. */
const STORES_SHOWN = 100;
/** Stale groups listed (the oldest first); the rest are counted. */
const STALE_SHOWN = 100;
/**
 * User Timing marks (performance.mark): the datastore table, the stale groups in the page;
 * bench/DashboardPage.java reads them (milliseconds from the start of the navigation).
 */
const MARK_TABLE = 'dashboard:datastores';
const MARK_STALE = 'dashboard:stale';

/** The datastore a task is about: its worker id up to the first ':' (PBS's convention). */
export function taskStore(t) {
  return (t.worker_id || '').split(':')[0];
}

function staleHours() {
  return Number(localStorage.getItem('jpbs.staleHours') || 36);
}

const TASKS = '/nodes/localhost/tasks';
const OK = 'ok,warning';
const FAILED = 'error,unknown';

/**
 * How many tasks match (the list's total; one entry fetched): the counts never download the
 * week's task list, which a server with many datastores fills (bench/dashboard.sh).
 */
async function count(params) {
  return (await api.call('GET', TASKS, { ...params, limit: 1 })).total;
}

/**
 * Every API call of the dashboard but the stale groups' (status/stale-groups), at once: usage, running tasks, backup
 * counts, failed tasks, and the week's GC / verify / sync tasks (typefilter matches a part of
 * the worker type). bench/DashboardLoad.java makes the same calls.
 */
function load(t) {
  const week = t - 7 * DAY;
  const list = typefilter => api.get(TASKS, { since: week, typefilter, limit: 0 });
  return Promise.all([
    api.get('/status/datastore-usage', { history: 0 }),
    api.get(TASKS, { running: 1, limit: 0 }),
    count({ typefilter: 'backup', since: t - DAY, statusfilter: OK }),
    count({ typefilter: 'backup', since: t - DAY, statusfilter: FAILED }),
    count({ typefilter: 'backup', since: week, statusfilter: OK }),
    count({ typefilter: 'backup', since: week, statusfilter: FAILED }),
    api.call('GET', TASKS, { since: week, statusfilter: FAILED, limit: 20 }),
    list('garbage_collection'), list('verif'), list('sync'),
  ]);
}

export async function render(main) {
  const t = now();
  main.append(h('h1', {}, 'Dashboard'));
  for (const m of [MARK_TABLE, MARK_STALE]) performance.clearMarks(m);
  const stale = staleSection(); // its call runs alongside the others, its table fills in when it answers
  const [usage, running, ok1, failed1, ok7, failed7, failed, gcs, verifies, syncs] = await load(t);
  const d1 = { ok: ok1, failed: failed1 };
  const d7 = { ok: ok7, failed: failed7 };
  const tasks = [...gcs, ...verifies, ...syncs];
  const stat = (id, label, value, kind) => h('div', { class: `stat ${kind || ''}`, id }, h('span', { class: 'value' }, value), h('span', { class: 'label' }, label));
  main.append(h('section', { class: 'stats', 'aria-label': 'summary' },
    stat('backups-24h-ok', 'backups OK, last 24 h', d1.ok, 'ok'),
    stat('backups-24h-failed', 'backups failed, last 24 h', d1.failed, d1.failed ? 'failed' : ''),
    stat('backups-7d-ok', 'backups OK, last 7 days', d7.ok, 'ok'),
    stat('backups-7d-failed', 'backups failed, last 7 days', d7.failed, d7.failed ? 'failed' : ''),
    stat('tasks-running', 'running tasks', running.length, running.length ? 'running' : ''),
    stat('tasks-failed', 'failed tasks, last 7 days', failed.total, failed.total ? 'failed' : '')));

  const newest = newestByStore(tasks); // one pass: the dashboard may list a thousand datastores
  const last = (store, types) => newest.get(`${types[0]} ${store}`);
  const lastCell = x => x ? h('span', {}, taskStatusBadge(x), ' ', h('a', { href: taskHref(x.upid) }, fmtTime(x.starttime))) : h('span', { class: 'muted' }, 'none in 7 days');
  const storeTable = rows => table([
    { title: 'Datastore', cell: u => h('a', { href: '#/datastore/' + encodeURIComponent(u.store), class: 'store-link' }, u.store) },
    { title: 'Usage', cell: u => usageCell(u) },
    { title: 'Estimated full', cell: u => fullCell(u) },
    { title: 'Last GC', cell: u => gcCell(u, last(u.store, ['garbage_collection'])) },
    { title: 'Last verify', cell: u => lastCell(last(u.store, VERIFY_TYPES)) },
    { title: 'Last sync', cell: u => lastCell(last(u.store, SYNC_TYPES)) },
  ], rows, { class: 'datastores', empty: 'no datastore visible to you' });
  const box = h('div', { id: 'datastore-table' });
  if (usage.length > STORES_SHOWN) {
    // a thousand rows cost the browser more than all the calls: the fullest first, the rest on demand
    const fullest = [...usage].sort((a, b) => fraction(b) - fraction(a));
    const all = h('button', { id: 'stores-all', onclick: () => box.replaceChildren(storeTable(usage)) }, `Show all ${usage.length}`);
    box.append(h('p', { class: 'muted', id: 'stores-count' }, `The ${STORES_SHOWN} fullest of ${usage.length} datastores. `, all),
      storeTable(fullest.slice(0, STORES_SHOWN)));
  } else {
    box.append(storeTable(usage));
  }
  main.append(h('h2', {}, 'Datastores'), box);
  performance.mark(MARK_TABLE);

  main.append(h('h2', {}, 'Running tasks'), taskTable(running, 'no task running'));
  main.append(h('h2', {}, 'Failed tasks (last 7 days)'), failed.total > failed.data.length
    ? h('p', { class: 'muted' }, `The newest ${failed.data.length} of ${failed.total}; all in `, h('a', { href: '#/tasks' }, 'Tasks'), '.') : '',
  taskTable(failed.data, 'no failed task'));
  main.append(stale);
}

/** The newest task of each kind (GC, verify, sync) per datastore, keyed "<first type of the kind> <store>". */
function newestByStore(tasks) {
  const kinds = [['garbage_collection'], VERIFY_TYPES, SYNC_TYPES];
  const out = new Map();
  for (const x of tasks) {
    const kind = kinds.find(k => k.includes(x.worker_type));
    if (!kind) continue;
    const key = `${kind[0]} ${taskStore(x)}`;
    const seen = out.get(key);
    if (!seen || seen.starttime < x.starttime) out.set(key, x);
  }
  return out;
}

/** Used part of a datastore's space (-1 when unknown: listed last). */
function fraction(u) {
  return u.total ? u.used / u.total : -1;
}

function usageCell(u) {
  if (u.error) return h('span', { class: 'msg error' }, u.error);
  if (!u.total) return h('span', { class: 'muted' }, 'no access to the usage');
  const pct = Math.round((u.used / u.total) * 1000) / 10;
  return h('div', { class: 'usage' },
    h('meter', { min: 0, max: 1, low: 0.8, high: 0.9, optimum: 0, value: u.used / u.total, title: `${pct}%` }),
    h('span', {}, `${fmtBytes(u.used)} of ${fmtBytes(u.total)} (${pct}%)`));
}

function fullCell(u) {
  const e = u['estimated-full-date'];
  if (e === undefined || e === null) return h('span', { class: 'muted' }, u.total ? 'not enough history yet' : '');
  if (e <= 0 || e < now()) return h('span', {}, 'never (usage not growing)');
  return h('span', { class: e - now() < 30 * DAY ? 'warn-text' : '' }, fmtTime(e).slice(0, 10));
}

function gcCell(u, task) {
  const gc = u['gc-status'] || {};
  const upid = gc.upid || (task && task.upid);
  if (!upid) return h('span', { class: 'muted' }, 'never');
  return h('span', {}, task ? taskStatusBadge(task) : '', ' ', h('a', { href: taskHref(upid) }, task ? fmtTime(task.starttime) : 'last run'),
    gc['removed-bytes'] !== undefined ? ` (freed ${fmtBytes(gc['removed-bytes'])})` : '');
}

function taskTable(list, empty) {
  return table([
    { title: 'Started', cell: x => h('a', { href: taskHref(x.upid) }, fmtTime(x.starttime)) },
    { title: 'Type', cell: x => x.worker_type },
    { title: 'ID', cell: x => x.worker_id || '' },
    { title: 'User', cell: x => x.user },
    { title: 'Status', cell: x => taskStatusBadge(x) },
  ], list, { empty });
}

function staleSection() {
  const hours = h('input', { id: 'stale-hours', type: 'number', min: 1, value: staleHours(), class: 'narrow' });
  const box = h('div', { id: 'stale-groups' });
  const load = () => {
    localStorage.setItem('jpbs.staleHours', String(Number(hours.value) || 36));
    box.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
    staleGroups((Number(hours.value) || 36) * 3600).then(
      ({ rows, total }) => box.replaceChildren(total > rows.length
        ? h('p', { class: 'muted', id: 'stale-count' }, `${total} stale groups; the ${rows.length} oldest:`) : '', table([
        { title: 'Datastore', cell: r => h('a', { href: '#/datastore/' + encodeURIComponent(r.store) }, r.store) },
        { title: 'Namespace', cell: r => r.ns || '(root)' },
        { title: 'Group', cell: r => `${r['backup-type']}/${r['backup-id']}` },
        { title: 'Newest snapshot', cell: r => fmtTime(r['last-backup']) },
        { title: 'Age', cell: r => badge(fmtAge(now() - r['last-backup']), 'failed') },
        { title: 'Owner', cell: r => r.owner || '' },
      ], rows, { empty: 'every group has a recent snapshot', class: 'stale' })),
      e => box.replaceChildren(h('p', { class: 'msg error', role: 'alert' }, e.message)))
      .finally(() => performance.mark(MARK_STALE));
  };
  hours.addEventListener('change', load);
  load();
  return h('section', {}, h('h2', {}, 'Stale groups'),
    h('p', {}, h('label', { for: 'stale-hours' }, 'Groups whose newest snapshot is older than '), hours, ' hours'), box);
}

/**
 * The groups (of every datastore and namespace the user may list) whose newest snapshot is
 * older than maxAge seconds, the oldest first: one call (status/stale-groups) however many
 * datastores the server has.
 */
async function staleGroups(maxAge) {
  const r = await api.call('GET', '/status/stale-groups', { 'older-than': maxAge, limit: STALE_SHOWN });
  return { rows: r.data, total: r.total };
}
