// Maintenance of one datastore: GC status and "run now", verify now, and the prune simulator
// (keep-* options → which snapshots a prune would remove, from the prune dry-run API), and the
// datastore's prune, verify and sync jobs with their next runs.
import * as api from '../api.js';
import { h, fmtBytes, fmtTime, action, showTask, table, badge, taskHref, lazy } from '../ui.js';
import { jobSection } from './jobs.js';

const KEEP = ['keep-last', 'keep-hourly', 'keep-daily', 'keep-weekly', 'keep-monthly', 'keep-yearly'];

export async function render(main, ctx) {
  const store = ctx.args[0] || (ctx.stores[0] && ctx.stores[0].store);
  main.append(h('h1', {}, 'Maintenance'));
  if (!store) {
    main.append(h('p', { class: 'muted' }, 'No datastore visible to you.'));
    return;
  }
  const pick = h('select', { id: 'maint-store', 'aria-label': 'datastore' },
    ctx.stores.map(s => h('option', { value: s.store, selected: s.store === store }, s.store)));
  pick.addEventListener('change', () => { location.hash = '#/maintenance/' + encodeURIComponent(pick.value); });
  main.append(h('p', {}, h('label', { for: 'maint-store' }, 'Datastore '), pick));
  // buttons only where the call is allowed (as PBS checks it); otherwise a line says what is needed
  const privs = await api.privileges(api.dsPath(store));
  const needs = (id, text) => h('p', { class: 'muted needs', id }, `${text} on ${api.dsPath(store)}.`);
  main.append(h('section', { class: 'card' }, h('h2', {}, 'Garbage collection'), lazy(() => gcStatus(store)),
    api.may(privs, 'Datastore.Modify')
      ? action('Start GC now', async () => showTask('Garbage collection', await api.post(api.ds(store, 'gc'))), { id: 'gc-run', class: 'primary' })
      : needs('gc-needs', 'Starting GC needs Datastore.Modify')));
  const ignoreVerified = h('input', { type: 'checkbox', id: 'verify-ignore', checked: true });
  const outdated = h('input', { type: 'number', id: 'verify-outdated', min: 1, class: 'narrow', placeholder: 'days' });
  main.append(h('section', { class: 'card' }, h('h2', {}, 'Verify'),
    h('p', {}, h('label', {}, ignoreVerified, ' skip snapshots already verified'), ' ',
      h('label', {}, 're-verify after ', outdated, ' days')),
    api.may(privs, 'Datastore.Verify', 'Datastore.Backup')
      ? action('Verify now', async () => showTask('Verify', await api.post(api.ds(store, 'verify'), {
        'ignore-verified': ignoreVerified.checked, 'outdated-after': outdated.value || undefined,
      })), { id: 'verify-run', class: 'primary' })
      : needs('verify-needs', 'Verifying needs Datastore.Verify or Datastore.Backup')));
  main.append(api.may(privs, 'Datastore.Modify', 'Datastore.Prune') ? await pruneSimulator(store)
    : h('section', { class: 'card' }, h('h2', {}, 'Prune simulator'), needs('prune-needs', 'Pruning needs Datastore.Modify or Datastore.Prune')));
  main.append(h('section', { class: 'card', id: 'store-jobs' }, h('h2', {}, 'Jobs of this datastore'),
    h('p', { class: 'muted' }, 'Their schedules and next runs; all jobs and remotes are on the ', h('a', { href: '#/jobs' }, 'Jobs'), ' page.'),
    ['prune', 'verify', 'sync'].map(kind => jobSection(kind, ctx, { store }))));
}

async function gcStatus(store) {
  const gc = await api.get(api.ds(store, 'gc'));
  if (!gc || !gc.upid) return h('p', { id: 'gc-status', class: 'muted' }, 'GC has not run yet.');
  const rows = [
    ['Last run', h('a', { href: taskHref(gc.upid) }, gc.upid)],
    ['Removed', `${fmtBytes(gc['removed-bytes'])} in ${gc['removed-chunks'] ?? 0} chunks`],
    ['Pending', `${fmtBytes(gc['pending-bytes'])} in ${gc['pending-chunks'] ?? 0} chunks`],
    ['Disk', `${fmtBytes(gc['disk-bytes'])} in ${gc['disk-chunks'] ?? 0} chunks`],
    ['Index data', fmtBytes(gc['index-data-bytes'])],
  ];
  return h('dl', { id: 'gc-status', class: 'kv' }, rows.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
}

async function pruneSimulator(store) {
  let namespaces = [''];
  try {
    namespaces = (await api.get(api.ds(store, 'namespace'))).map(n => n.ns || '');
  } catch (e) { /* root only */ }
  const groups = [];
  for (const ns of namespaces) {
    try {
      for (const g of await api.get(api.ds(store, 'groups'), { ns })) groups.push({ ns, ...g });
    } catch (e) { /* no privilege on this namespace */ }
  }
  const pick = h('select', { id: 'prune-group', 'aria-label': 'group' }, groups.map((g, i) =>
    h('option', { value: i }, `${g.ns ? g.ns + ': ' : ''}${g['backup-type']}/${g['backup-id']}`)));
  const keep = Object.fromEntries(KEEP.map(k => [k, h('input', { type: 'number', min: 1, id: 'prune-' + k, class: 'narrow' })]));
  const out = h('div', { id: 'prune-result' });
  const params = () => {
    const g = groups[Number(pick.value)];
    const p = { ns: g.ns, 'backup-type': g['backup-type'], 'backup-id': g['backup-id'] };
    for (const k of KEEP) if (keep[k].value) p[k] = keep[k].value;
    return p;
  };
  const simulate = action('Simulate', async () => {
    const list = await api.post(api.ds(store, 'prune'), { ...params(), 'dry-run': true });
    const gone = list.filter(x => !x.keep).length;
    out.replaceChildren(h('p', { id: 'prune-summary' }, `${list.length - gone} kept, ${gone} would be removed.`),
      table([
        { title: 'Snapshot', cell: x => h('span', { class: 'mono' }, fmtTime(x['backup-time'])) },
        { title: 'Result', cell: x => (x.keep ? badge(x.protected ? 'keep (protected)' : 'keep', 'ok') : badge('remove', 'failed')) },
      ], list, { class: 'prune', empty: 'no snapshots', rowAttrs: x => ({ class: x.keep ? 'keep' : 'remove' }) }),
      action('Prune now', async () => {
        if (!confirm(`Remove ${gone} snapshot(s)?`)) return;
        const upid = await api.post(api.ds(store, 'prune'), { ...params(), 'use-task': true });
        showTask('Prune', upid);
      }, { id: 'prune-run', class: 'danger' }));
  }, { id: 'prune-simulate', class: 'primary' });
  if (!groups.length) return h('section', { class: 'card' }, h('h2', {}, 'Prune simulator'), h('p', { class: 'muted' }, 'No group to prune.'));
  return h('section', { class: 'card' }, h('h2', {}, 'Prune simulator'),
    h('p', {}, h('label', { for: 'prune-group' }, 'Group '), pick),
    h('div', { class: 'keep-grid' }, KEEP.map(k => h('label', { for: 'prune-' + k }, k, ' ', keep[k]))),
    h('p', {}, simulate), out);
}
