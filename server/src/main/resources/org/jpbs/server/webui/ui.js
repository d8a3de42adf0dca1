// Small DOM helpers shared by the pages: element builder, formatting, notices, tables.

/** h('div', {class: 'x', onclick: f}, child, 'text', [more]) */
export function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else if (k === 'class') e.className = v;
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k === 'value' || k === 'checked') e[k] = v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  append(e, children);
  return e;
}

function append(e, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(e, c);
    else e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function fmtBytes(n) {
  if (n === undefined || n === null) return '';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let i = 0;
  let v = Number(n);
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(v < 10 ? 2 : 1)} ${units[i]}`;
}

export function fmtTime(epoch) {
  if (!epoch && epoch !== 0) return '';
  const d = new Date(epoch * 1000);
  const p = n => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

export function fmtAge(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172800) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86400)} days`;
}

export const now = () => Math.floor(Date.now() / 1000);

/** #/task/<upid> */
export function taskHref(upid) {
  return '#/task/' + encodeURIComponent(upid);
}

const notice = () => document.getElementById('notice');

/** Shows an API error as one line (PBS's message), never a stack trace. */
export function showError(e, what) {
  const msg = e && e.message ? e.message : String(e);
  notice().replaceChildren(h('p', { class: 'msg error', role: 'alert' },
    what ? `${what}: ` : '', msg, ' ', closeButton()));
}

export function showInfo(...parts) {
  notice().replaceChildren(h('p', { class: 'msg info' }, ...parts, ' ', closeButton()));
}

/** Every write that starts a task says so, with its UPID and a link to its log. */
export function showTask(what, upid) {
  showInfo(`${what} started: task `, h('a', { href: taskHref(upid), class: 'upid' }, upid), ' (open its log)');
}

export function clearNotice() {
  notice().replaceChildren();
}

function closeButton() {
  return h('button', { class: 'link', 'aria-label': 'dismiss', onclick: clearNotice }, '×');
}

/**
 * A table in a horizontally scrollable box (the page itself never scrolls sideways).
 * columns: [{title, cell: row => node|string, class?}]
 */
export function table(columns, rows, opts = {}) {
  const head = h('tr', {}, columns.map(c => h('th', { scope: 'col', class: c.class }, c.title)));
  const body = rows.length
    ? rows.map(r => h('tr', opts.rowAttrs ? opts.rowAttrs(r) : {}, columns.map(c => h('td', { class: c.class, 'data-label': c.title }, c.cell(r)))))
    : [h('tr', {}, h('td', { colspan: columns.length, class: 'empty' }, opts.empty || 'nothing here'))];
  return h('div', { class: 'table-wrap' }, h('table', { class: opts.class }, h('thead', {}, head), h('tbody', {}, body)));
}

/** A status badge: ok / failed / running / unknown. */
export function badge(text, kind) {
  return h('span', { class: `badge ${kind}` }, text);
}

export function taskStatusBadge(t) {
  if (!t.endtime && !t.status) return badge('running', 'running');
  if (t.status === 'OK') return badge('OK', 'ok');
  if (t.status && t.status.startsWith('WARNINGS')) return badge(t.status, 'warn');
  return badge(t.status || 'unknown', 'failed');
}

/** Runs an async action from a button: disables it meanwhile, shows errors as one line. */
export function action(label, f, attrs = {}) {
  const b = h('button', {
    ...attrs,
    onclick: async ev => {
      ev.preventDefault();
      b.disabled = true;
      try {
        await f(b);
      } catch (e) {
        showError(e, label);
      } finally {
        b.disabled = false;
      }
    },
  }, label);
  return b;
}

/** "Loading…" placeholder that is replaced by the result of an async builder, or the error line. */
export function lazy(build) {
  const box = h('div', { class: 'lazy' }, h('p', { class: 'muted' }, 'Loading…'));
  build().then(node => box.replaceChildren(node), e => box.replaceChildren(h('p', { class: 'msg error', role: 'alert' }, e.message || String(e))));
  return box;
}
