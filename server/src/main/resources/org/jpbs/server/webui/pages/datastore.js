// A datastore's content as a tree: namespaces → groups → snapshots, with size, owner, verify
// state, protection and notes (edited inline); forget, protect, change owner, download; a file
// archive's contents browsed (catalog.js).
import * as api from '../api.js';
import { h, fmtBytes, fmtTime, badge, action, showInfo, showError, taskHref, table } from '../ui.js';
import { browsable, catalogBrowser } from './catalog.js';

export async function render(main, ctx) {
  const store = ctx.args[0];
  main.append(h('h1', {}, 'Datastore ', h('span', { class: 'mono' }, store)),
    h('p', { class: 'links' }, h('a', { href: '#/maintenance/' + encodeURIComponent(store) }, 'Maintenance (GC, prune, verify)'), ' · ',
      h('a', { href: '#/charts/' + encodeURIComponent(store), id: 'charts-link' }, 'Charts (usage, throughput)')));
  let namespaces;
  try {
    namespaces = (await api.get(api.ds(store, 'namespace'))).map(n => n.ns || '');
  } catch (e) {
    namespaces = [''];
  }
  const tree = h('div', { class: 'tree', id: 'content-tree' });
  main.append(tree);
  for (const ns of namespaces) {
    tree.append(await namespaceNode(store, ns));
  }
}

async function namespaceNode(store, ns) {
  const body = h('div', {});
  const node = h('details', { class: 'ns', open: ns === '', dataset: { ns } },
    h('summary', {}, h('span', { class: 'kind' }, 'namespace'), ' ', ns || '(root)'), body);
  let groups;
  let snaps;
  let privs;
  try {
    [groups, snaps, privs] = await Promise.all([api.get(api.ds(store, 'groups'), { ns }), api.get(api.ds(store, 'snapshots'), { ns }),
      api.privileges(api.dsPath(store, ns))]);
  } catch (e) {
    body.append(h('p', { class: 'msg error' }, e.message));
    return node;
  }
  if (!groups.length) body.append(h('p', { class: 'muted' }, 'no backup group here (or none you may see)'));
  for (const g of groups) {
    const mine = snaps.filter(s => s['backup-type'] === g['backup-type'] && s['backup-id'] === g['backup-id'])
      .sort((a, b) => b['backup-time'] - a['backup-time']);
    body.append(groupNode(store, ns, g, mine, privs));
  }
  return node;
}

/**
 * A group with its snapshots. Buttons appear only where the user's privileges on the namespace
 * (privs) allow the call, as PBS checks it: the groups listed to a user with only
 * Datastore.Backup or Datastore.Prune are its own, where those count as the owner's right.
 */
function groupNode(store, ns, g, snaps, privs) {
  const write = api.may(privs, 'Datastore.Modify', 'Datastore.Backup'); // notes, protection, owner
  const remove = api.may(privs, 'Datastore.Modify', 'Datastore.Prune'); // forget
  const name = `${g['backup-type']}/${g['backup-id']}`;
  const gp = { ns, 'backup-type': g['backup-type'], 'backup-id': g['backup-id'] };
  const owner = h('span', { class: 'owner' }, g.owner || '');
  const changeOwner = action('Change owner', async () => {
    const next = prompt(`New owner of ${name} (user@realm or user@realm!token):`, g.owner || '');
    if (!next || next === g.owner) return;
    await api.post(api.ds(store, 'change-owner'), { ...gp, 'new-owner': next });
    g.owner = next;
    owner.textContent = next;
    showInfo(`Owner of ${name} changed to ${next}.`);
  }, { class: 'small' });
  const rows = table([
    { title: 'Snapshot', cell: s => h('span', { class: 'mono snap-time' }, fmtTime(s['backup-time'])) },
    { title: 'Size', cell: s => fmtBytes(s.size) },
    { title: 'Verify', cell: s => verifyBadge(s) },
    { title: 'Protected', cell: s => protectToggle(store, gp, s, write) },
    { title: 'Notes', cell: s => notesCell(store, gp, s, write) },
    { title: 'Actions', cell: s => snapshotActions(store, gp, s, remove) },
  ], snaps, { empty: 'no snapshots', class: 'snapshots', rowAttrs: s => ({ dataset: { time: s['backup-time'] } }) });
  return h('details', { class: 'group', dataset: { group: name } },
    h('summary', {}, h('span', { class: 'kind' }, g['backup-type']), ' ', h('strong', {}, g['backup-id']),
      ` — ${g['backup-count']} snapshot(s), last ${fmtTime(g['last-backup'])}, owner `, owner,
      g.comment ? h('span', { class: 'muted' }, ` — ${g.comment}`) : ''),
    write ? h('div', { class: 'group-actions' }, changeOwner) : '', rows);
}

function verifyBadge(s) {
  const v = s.verification;
  if (!v) return badge('none', 'unknown');
  const b = badge(v.state, v.state === 'ok' ? 'ok' : 'failed');
  return v.upid ? h('a', { href: taskHref(v.upid) }, b) : b;
}

function snapParams(gp, s) {
  return { ...gp, 'backup-time': s['backup-time'] };
}

function protectToggle(store, gp, s, write) {
  const box = h('input', { type: 'checkbox', class: 'protect', checked: !!s.protected, 'aria-label': 'protected', disabled: !write });
  box.addEventListener('change', async () => {
    box.disabled = true;
    try {
      await api.put(api.ds(store, 'protected'), { ...snapParams(gp, s), protected: box.checked });
      s.protected = box.checked;
    } catch (e) {
      box.checked = !!s.protected;
      showError(e, 'protect');
    } finally {
      box.disabled = false;
    }
  });
  return box;
}

function notesCell(store, gp, s, write) {
  const cell = h('div', { class: 'notes' });
  const show = text => {
    cell.replaceChildren(h('span', { class: 'comment' }, text ? text.split('\n')[0] : ''), ' ',
      write ? h('button', { class: 'small edit-notes', 'aria-label': 'edit notes', onclick: edit }, 'Edit') : '');
  };
  const edit = async () => {
    let full;
    try {
      full = await api.get(api.ds(store, 'notes'), snapParams(gp, s));
    } catch (e) {
      showError(e, 'notes');
      return;
    }
    const area = h('textarea', { class: 'notes-text', rows: 3, 'aria-label': 'notes' });
    area.value = full || '';
    const save = action('Save', async () => {
      await api.put(api.ds(store, 'notes'), { ...snapParams(gp, s), notes: area.value });
      s.comment = area.value.split('\n')[0];
      show(area.value);
      showInfo('Notes saved.');
    }, { class: 'small primary save-notes' });
    const cancel = h('button', { class: 'small', onclick: () => show(s.comment) }, 'Cancel');
    area.addEventListener('keydown', ev => { if (ev.key === 'Escape') show(s.comment); });
    cell.replaceChildren(area, h('div', {}, save, ' ', cancel));
    area.focus();
  };
  show(s.comment);
  return cell;
}

function snapshotActions(store, gp, s, remove) {
  const files = h('div', { class: 'files' });
  const showFiles = h('button', {
    class: 'small', onclick: () => {
      if (files.childElementCount) { files.replaceChildren(); return; }
      files.replaceChildren(h('ul', {}, (s.files || []).map(f => {
        const name = typeof f === 'string' ? f : f.filename;
        return h('li', {}, h('a', { href: api.url(api.ds(store, 'download'), { ...snapParams(gp, s), 'file-name': name }), download: name }, name),
          f.size ? ` (${fmtBytes(f.size)})` : '');
      })));
    },
  }, 'Files');
  const forget = !remove ? '' : action('Forget', async b => {
    if (!confirm(`Forget snapshot ${gp['backup-type']}/${gp['backup-id']}/${fmtTime(s['backup-time'])}? This removes it.`)) return;
    await api.del(api.ds(store, 'snapshots'), snapParams(gp, s));
    b.closest('tr').remove();
    showInfo('Snapshot removed.');
  }, { class: 'small danger forget' });
  const names = (s.files || []).map(f => (typeof f === 'string' ? f : f.filename));
  const browse = browsable(names) ? h('button', {
    class: 'small browse', 'aria-expanded': 'false', onclick: () => {
      const open = files.querySelector('.catalog');
      files.replaceChildren(...(open ? [] : [catalogBrowser(store, snapParams(gp, s), names)]));
      browse.setAttribute('aria-expanded', String(!open));
    },
  }, 'Browse') : '';
  return h('div', { class: 'actions' }, showFiles, ' ', browse, ' ', forget, files);
}
