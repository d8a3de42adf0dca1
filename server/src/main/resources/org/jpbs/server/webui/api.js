// The one way the pages talk to the server: the public PBS-style API under /api2/json.
// A ticket lives in the PBSAuthCookie cookie (as PBS's GUI), the CSRF token in local storage;
// every write carries the CSRFPreventionToken header.
const BASE = '/api2/json';
const COOKIE = 'PBSAuthCookie';
const RENEW_AFTER_MS = 15 * 60 * 1000;

/** An API failure: the HTTP status and PBS's one-line message. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

let expiredHandler = () => {};

/** Called with a message when a call is refused with 401 (ticket expired or revoked). */
export function onExpired(f) {
  expiredHandler = f;
}

export function user() {
  return localStorage.getItem('jpbs.user');
}

function ticket() {
  for (const part of document.cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === COOKIE) return decodeURIComponent(v.join('='));
  }
  return null;
}

export function loggedIn() {
  return !!user() && !!ticket();
}

function store(d) {
  document.cookie = `${COOKIE}=${encodeURIComponent(d.ticket)}; path=/; secure; samesite=strict`;
  localStorage.setItem('jpbs.user', d.username);
  localStorage.setItem('jpbs.csrf', d.CSRFPreventionToken);
  localStorage.setItem('jpbs.issued', String(Date.now()));
}

export function logout() {
  document.cookie = `${COOKIE}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT; secure; samesite=strict`;
  for (const k of ['jpbs.user', 'jpbs.csrf', 'jpbs.issued']) localStorage.removeItem(k);
}

async function toError(r) {
  let text = '';
  try {
    text = (await r.text()).trim();
  } catch (e) { /* no body */ }
  let line = text.split('\n')[0].trim();
  if (line.startsWith('{')) { // a JSON error object: take its message
    try {
      const j = JSON.parse(text);
      line = j.message || (j.errors ? Object.entries(j.errors).map(([k, v]) => `${k}: ${v}`).join('; ') : line);
    } catch (e) { /* keep the line */ }
  }
  if (line.length > 300) line = line.slice(0, 300) + '…';
  return new ApiError(r.status, line || `${r.status} ${r.statusText}`);
}

/** Logs in (POST access/ticket); throws ApiError with PBS's message on failure. */
export async function login(username, password) {
  const r = await send('POST', BASE + '/access/ticket', new URLSearchParams({ username, password }), false);
  if (!r.ok) throw await toError(r);
  store((await r.json()).data);
}

/** Renews the ticket (a valid ticket is accepted as password, as PBS) when it is older than 15 minutes. */
export async function renewIfOld() {
  const issued = Number(localStorage.getItem('jpbs.issued') || 0);
  if (!loggedIn() || Date.now() - issued < RENEW_AFTER_MS) return;
  try {
    await login(user(), ticket());
  } catch (e) {
    if (e.status === 401) expiredHandler('Your session has expired, please log in again.');
  }
}

async function send(method, url, body, csrf) {
  const headers = {};
  if (body) headers['Content-Type'] = 'application/x-www-form-urlencoded';
  if (csrf) headers.CSRFPreventionToken = localStorage.getItem('jpbs.csrf') || '';
  try {
    return await fetch(url, { method, headers, body, credentials: 'same-origin', cache: 'no-store' });
  } catch (e) {
    throw new ApiError(0, 'Connection error - server offline?');
  }
}

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (v === undefined || v === null || v === '') continue;
    for (const one of Array.isArray(v) ? v : [v]) q.append(k, typeof one === 'boolean' ? (one ? '1' : '0') : String(one));
  }
  return q;
}

/** True if a 401's message says the ticket itself was refused (expired, revoked, unknown key, no CSRF token). */
function sessionRefused(message) {
  return !message || /^(authentication failed|no authentication credentials|401 )/.test(message);
}

/** One call; answers the whole JSON object ({data, total, ...}). */
export async function call(method, path, params) {
  const q = query(params);
  const inUrl = method === 'GET' || method === 'DELETE';
  const qs = q.toString();
  const url = BASE + path + (inUrl && qs ? '?' + qs : '');
  const r = await send(method, url, inUrl || !qs ? undefined : q, method !== 'GET');
  if (r.status === 401) {
    const err = await toError(r);
    // PBS answers 401 also to a few refusals of a valid session (e.g. a change of owner the
    // caller may not make); only a failed authentication ends the session
    if (sessionRefused(err.message)) {
      expiredHandler(`Your session has expired or is no longer valid, please log in again (${err.message}).`);
    }
    throw err;
  }
  if (!r.ok) throw await toError(r);
  return r.json();
}

export const get = (path, params) => call('GET', path, params).then(j => j.data);
export const post = (path, params) => call('POST', path, params).then(j => j.data);
export const put = (path, params) => call('PUT', path, params).then(j => j.data);
export const del = (path, params) => call('DELETE', path, params).then(j => j.data);

/** The URL of a GET (for links such as downloads; the ticket cookie authenticates it). */
export function url(path, params) {
  const qs = query(params).toString();
  return BASE + path + (qs ? '?' + qs : '');
}

/** Path of a datastore call: /admin/datastore/<store>/<call>. */
export function ds(store, call) {
  return `/admin/datastore/${encodeURIComponent(store)}${call ? '/' + call : ''}`;
}

/**
 * The caller's privileges on an ACL path (PBS's access/permissions), as a Set of names such as
 * 'Datastore.Modify'; null if the server would not say (then the pages show every button and
 * the server's refusal, one line, is what the user sees).
 */
export async function privileges(path) {
  try {
    const m = await get('/access/permissions', { path });
    return new Set(Object.keys(m[path] || {}));
  } catch (e) {
    return null;
  }
}

/** True if privs (from privileges()) is unknown or holds one of names. */
export function may(privs, ...names) {
  return privs === null || names.some(n => privs.has(n));
}

/** The ACL path of a datastore or one of its namespaces. */
export function dsPath(store, ns) {
  return `/datastore/${store}${ns ? '/' + ns : ''}`;
}
