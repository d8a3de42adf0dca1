// Browsing a snapshot's file archives (GET catalog, docs/api.md#file-archives-get-catalog-get-pxar-file-download):
// directories open lazily, one catalog call each; a file downloads raw, a directory as a zip or a
// tar.zst (GET pxar-file-download). Archives with a catalog are listed from it; a split archive
// (NAME.mpxar.didx, no catalog) is read through archive-name.
import * as api from '../api.js';
import { h, fmtBytes, fmtTime } from '../ui.js';

/** base64 of a path's UTF-8 bytes, as the API's filepath. */
export function b64(path) {
  let s = '';
  for (const byte of new TextEncoder().encode(path)) s += String.fromCharCode(byte);
  return btoa(s);
}

const KIND = { d: 'directory', f: 'file', l: 'symlink', h: 'hardlink', b: 'block device', c: 'char device', p: 'fifo', s: 'socket' };

/** True if the snapshot has something to browse: a catalog or a split archive. */
export function browsable(files) {
  return files.some(n => n === 'catalog.pcat1.didx' || n.endsWith('.mpxar.didx'));
}

/**
 * The browser of one snapshot: snap = the snapshot's parameters (ns, backup-type, backup-id,
 * backup-time), files = its file names.
 */
export function catalogBrowser(store, snap, files) {
  const box = h('div', { class: 'catalog', role: 'tree', 'aria-label': 'archive contents' });
  const roots = [];
  if (files.includes('catalog.pcat1.didx')) roots.push({ text: 'catalog', filepath: 'root', root: true });
  for (const n of files.filter(f => f.endsWith('.mpxar.didx'))) roots.push({ text: n, filepath: b64('/'), archive: n, type: 'd' });
  for (const r of roots) {
    if (r.root) {
      box.append(h('div', {}, lazyList(store, snap, { filepath: 'root' })));
    } else {
      box.append(entryNode(store, snap, r, r.archive));
    }
  }
  return box;
}

function lazyList(store, snap, where, archive) {
  const ul = h('ul', { class: 'catalog-list', role: 'group' }, h('li', { class: 'muted' }, 'Loading…'));
  api.get(api.ds(store, 'catalog'), { ...snap, filepath: where.filepath, 'archive-name': archive })
    .then(entries => {
      entries.sort((a, b) => Number(a.leaf) - Number(b.leaf) || a.text.localeCompare(b.text));
      ul.replaceChildren(...(entries.length ? entries.map(e => h('li', { role: 'treeitem' }, entryNode(store, snap, e, archive)))
        : [h('li', { class: 'muted' }, 'empty directory')]));
    }, e => ul.replaceChildren(h('li', { class: 'msg error', role: 'alert' }, e.message)));
  return ul;
}

function download(store, snap, e, archive, tar) {
  const name = e.text + (e.leaf ? '' : tar ? '.tar.zst' : '.zip');
  return h('a', {
    class: 'small-link', download: name,
    href: api.url(api.ds(store, 'pxar-file-download'), { ...snap, filepath: e.filepath, 'archive-name': archive, tar: tar ? 1 : undefined }),
  }, e.leaf ? 'download' : tar ? 'tar.zst' : 'zip');
}

function entryNode(store, snap, e, archive) {
  if (!e.leaf) {
    const d = h('details', { class: 'catalog-dir', dataset: { path: e.text } });
    const summary = h('summary', {}, h('span', { class: 'name' }, e.text, '/'), ' ',
      // an archive at the catalog's root is downloaded as a whole through the snapshot's files
      e.type === 'd' || archive ? [download(store, snap, e, archive, false), ' ', download(store, snap, e, archive, true)] : '');
    d.append(summary);
    d.addEventListener('toggle', () => {
      if (d.open && d.childElementCount === 1) d.append(lazyList(store, snap, e, archive));
    });
    return d;
  }
  return h('span', { class: 'catalog-file', dataset: { path: e.text } }, h('span', { class: 'name mono' }, e.text), ' ',
    h('span', { class: 'muted' }, [KIND[e.type] && e.type !== 'f' ? KIND[e.type] : '', e.size !== undefined ? fmtBytes(e.size) : '',
      e.mtime ? fmtTime(e.mtime) : ''].filter(Boolean).join(', ')), ' ',
    e.type === 'f' || e.type === 'h' ? download(store, snap, e, archive, false) : '');
}
