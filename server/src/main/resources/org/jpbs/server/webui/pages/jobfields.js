// The fields of each kind of job and of remotes (docs/jobs.md#configuration-files), and the form
// that creates or edits one through config/<kind>: PBS's keys, cleared fields sent as `delete`,
// the file's digest sent back so a concurrent change is refused.
import * as api from '../api.js';
import { h, action } from '../ui.js';

const KEEP = ['keep-last', 'keep-hourly', 'keep-daily', 'keep-weekly', 'keep-monthly', 'keep-yearly'];

const text = (key, label, extra = {}) => ({ key, label, type: 'text', ...extra });
const num = (key, label, extra = {}) => ({ key, label, type: 'number', ...extra });
const bool = (key, label, dflt = false) => ({ key, label, type: 'bool', dflt });
const storeField = { key: 'store', label: 'Datastore', type: 'store', required: true };
const scope = [text('ns', 'Namespace', { placeholder: 'root' }), num('max-depth', 'Max. depth', { min: 0, max: 7 })];
const schedule = (required, placeholder) => text('schedule', 'Schedule', { required, placeholder, hint: 'calendar event, e.g. daily, mon..fri 02:00, */15' });

/** Per kind: the API path part, the id parameter, titles and fields (in form order). */
export const KINDS = {
  prune: {
    title: 'Prune jobs', one: 'prune job', idKey: 'id', worker: 'prunejob',
    fields: [storeField, ...scope, schedule(true, 'daily'), ...KEEP.map(k => num(k, k, { min: 1 })),
      bool('disable', 'Disabled'), text('comment', 'Comment', { wide: true })],
  },
  verify: {
    title: 'Verify jobs', one: 'verify job', idKey: 'id', worker: 'verificationjob',
    fields: [storeField, ...scope, schedule(true, 'daily'), bool('ignore-verified', 'Skip verified snapshots', true),
      num('outdated-after', 'Re-verify after (days)', { min: 0 }), text('comment', 'Comment', { wide: true })],
  },
  sync: {
    title: 'Sync jobs', one: 'sync job', idKey: 'id', worker: 'syncjob',
    fields: [storeField, ...scope, schedule(false, 'none: run by hand'),
      { key: 'sync-direction', label: 'Direction', type: 'select', options: ['', 'pull', 'push'], labels: ['pull (default)', 'pull', 'push'] },
      { key: 'remote', label: 'Remote', type: 'remote' }, text('remote-store', 'Remote datastore', { required: true }),
      text('remote-ns', 'Remote namespace', { placeholder: 'root' }), text('owner', 'Local owner', { placeholder: 'user@realm' }),
      text('group-filter', 'Group filter', { placeholder: 'e.g. type:vm' }), num('transfer-last', 'Transfer last', { min: 1 }),
      bool('remove-vanished', 'Remove vanished'), bool('encrypted-only', 'Encrypted only'), bool('verified-only', 'Verified only'),
      bool('resync-corrupt', 'Re-sync corrupt'), text('rate-in', 'Rate in', { placeholder: 'e.g. 10MiB' }),
      text('rate-out', 'Rate out', { placeholder: 'e.g. 10MiB' }), text('comment', 'Comment', { wide: true })],
  },
  remote: {
    title: 'Remotes', one: 'remote', idKey: 'name',
    fields: [text('host', 'Host', { required: true }), num('port', 'Port', { min: 1, max: 65535, placeholder: '8007' }),
      text('auth-id', 'Auth ID', { required: true, placeholder: 'user@realm!token' }),
      { key: 'password', label: 'Password or secret', type: 'password', required: true },
      text('fingerprint', 'Fingerprint', { wide: true, placeholder: 'aa:bb:... (SHA-256)' }), text('comment', 'Comment', { wide: true })],
  },
};

export function truthy(v) {
  return v === true || v === 1 || v === 'true' || v === '1' || v === 'yes' || v === 'on';
}

function input(kind, f, value, ctx, editing) {
  const id = `job-${kind}-${f.key}`;
  const has = value !== undefined && value !== null;
  switch (f.type) {
    case 'bool':
      return h('input', { type: 'checkbox', id, checked: has ? truthy(value) : f.dflt });
    case 'store':
      return h('select', { id, required: true }, ctx.stores.map(s => h('option', { value: s.store, selected: s.store === value }, s.store)));
    case 'remote':
      return h('select', { id }, h('option', { value: '' }, '(local: no remote)'),
        (ctx.remotes || []).map(r => h('option', { value: r.name, selected: r.name === value }, r.name)));
    case 'select':
      return h('select', { id }, f.options.map((o, i) => h('option', { value: o, selected: o === (value || '') }, f.labels[i])));
    case 'password':
      return h('input', { type: 'password', id, autocomplete: 'new-password', required: !editing,
        placeholder: editing ? 'unchanged' : '' });
    default:
      return h('input', { type: f.type, id, value: has ? String(value) : '', required: !!f.required,
        placeholder: f.placeholder, min: f.min, max: f.max, title: f.hint, class: f.type === 'number' ? 'narrow' : undefined });
  }
}

/** The value the field should send ('' for none). */
function valueOf(f, el) {
  if (f.type === 'bool') return el.checked ? 'true' : 'false';
  return el.value.trim();
}

/**
 * The create (current == null) or edit form of one job or remote, in a card; done(message, id)
 * runs after the write was accepted, cancel() when the user gives up (button or Escape).
 */
export function form(kind, current, ctx, done, cancel) {
  const k = KINDS[kind];
  const editing = !!current;
  const idInput = h('input', { id: `job-${kind}-id`, required: true, value: editing ? current[k.idKey] : '', disabled: editing,
    placeholder: '3..32 letters, digits, . _ -', minlength: 3, maxlength: 32 });
  const els = Object.fromEntries(k.fields.map(f => [f.key, input(kind, f, current ? current[f.key] : undefined, ctx, editing)]));
  const cell = (label, el, f = {}) => h('label', { class: f.wide ? 'wide' : undefined, for: el.id },
    h('span', {}, label, f.required ? ' *' : ''), el);
  const submit = action(editing ? 'Save' : 'Create', async () => {
    const form = submit.form;
    if (!form.reportValidity()) return;
    const id = idInput.value.trim();
    const params = {};
    const remove = [];
    for (const f of k.fields) {
      const v = valueOf(f, els[f.key]);
      const before = current ? current[f.key] : undefined;
      const hadValue = before !== undefined && before !== null && before !== '';
      const isDefault = f.type === 'bool' ? v === String(f.dflt) : v === '';
      if (f.type === 'password' && v === '') continue; // unchanged
      if (isDefault) {
        if (editing && hadValue) remove.push(f.key);
        continue;
      }
      if (!editing || String(before) !== v || f.type === 'password') params[f.key] = v;
    }
    const base = `/config/${kind}`;
    if (editing) {
      await api.put(`${base}/${encodeURIComponent(id)}`, { ...params, delete: remove.length ? remove.join(',') : undefined, digest: ctx.digest });
    } else {
      await api.post(base, { [k.idKey]: id, ...params });
    }
    done(`${k.one[0].toUpperCase()}${k.one.slice(1)} '${id}' ${editing ? 'saved' : 'created'}.`, id);
  }, { type: 'submit', class: 'primary', id: `job-${kind}-save` });
  const f = h('form', {
    class: 'card job-form', id: `job-${kind}-form`, 'aria-label': `${editing ? 'Edit' : 'New'} ${k.one}`,
    onsubmit: ev => ev.preventDefault(),
    onkeydown: ev => { if (ev.key === 'Escape') { ev.preventDefault(); cancel(); } },
  },
  h('h3', {}, editing ? `Edit ${k.one} ` : `New ${k.one}`, editing ? h('span', { class: 'mono' }, current[k.idKey]) : ''),
  h('div', { class: 'form-grid' }, cell(k.idKey === 'name' ? 'Name' : 'Job ID', idInput, { required: true }),
    k.fields.map(fd => cell(fd.label, els[fd.key], fd))),
  h('p', {}, submit, ' ', h('button', { type: 'button', onclick: cancel }, 'Cancel')));
  setTimeout(() => (editing ? f.querySelector('input:not([disabled]), select') : idInput).focus(), 0);
  return f;
}
