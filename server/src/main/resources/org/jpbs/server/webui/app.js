// The web interface's entry point: session handling, navigation, and the hash router.
import * as api from './api.js';
import { h, showError, clearNotice } from './ui.js';
import * as loginPage from './pages/login.js';
import * as dashboard from './pages/dashboard.js';
import * as datastore from './pages/datastore.js';
import * as tasks from './pages/tasks.js';
import * as task from './pages/task.js';
import * as maintenance from './pages/maintenance.js';
import * as access from './pages/access.js';
import * as charts from './pages/charts.js';
import * as jobs from './pages/jobs.js';

const routes = [
  { re: /^#\/?$|^#\/dashboard$/, page: dashboard, nav: 'dashboard' },
  { re: /^#\/datastore\/([^/]+)$/, page: datastore, nav: 'datastore' },
  { re: /^#\/tasks$/, page: tasks, nav: 'tasks' },
  { re: /^#\/task\/(.+)$/, page: task, nav: 'tasks' },
  { re: /^#\/maintenance(?:\/([^/]+))?$/, page: maintenance, nav: 'maintenance' },
  { re: /^#\/jobs$/, page: jobs, nav: 'jobs' },
  { re: /^#\/access$/, page: access, nav: 'access' },
  { re: /^#\/charts\/([^/]+)$/, page: charts, nav: 'datastore' },
];

let loginMessage = null;
let current = null; // the page being shown: its cleanup runs on navigation

api.onExpired(message => {
  api.logout();
  loginMessage = message;
  route();
});

function header(stores) {
  const top = document.getElementById('top');
  if (!api.loggedIn()) {
    top.replaceChildren(h('div', { class: 'bar' }, h('span', { class: 'brand' }, 'jpbs')));
    return;
  }
  const link = (href, text, key) => h('a', { href, 'data-nav': key }, text);
  top.replaceChildren(h('div', { class: 'bar' },
    h('a', { class: 'brand', href: '#/dashboard' }, 'jpbs'),
    h('nav', { 'aria-label': 'main' },
      link('#/dashboard', 'Dashboard', 'dashboard'),
      storeLinks(stores, link),
      link('#/tasks', 'Tasks', 'tasks'),
      link('#/maintenance', 'Maintenance', 'maintenance'),
      link('#/jobs', 'Jobs', 'jobs'),
      link('#/access', 'Access', 'access')),
    h('span', { class: 'who' }, h('span', { id: 'username' }, api.user()), ' ',
      h('button', { id: 'logout', onclick: () => { api.logout(); loginMessage = 'Logged out.'; location.hash = '#/'; route(); } }, 'Log out'))));
}

/** Few datastores: a link each; many (a server may have a thousand): a menu that scrolls. */
const STORE_LINKS = 6;

function storeLinks(stores, link) {
  const links = stores.map(s => link('#/datastore/' + encodeURIComponent(s.store), s.store, 'datastore:' + s.store));
  if (stores.length <= STORE_LINKS) return links;
  const menu = h('details', { class: 'menu', id: 'store-menu' }, h('summary', {}, `Datastores (${stores.length})`),
    h('div', { class: 'menu-list' }, links));
  menu.addEventListener('click', ev => { if (ev.target.tagName === 'A') menu.open = false; });
  return menu;
}

let storeList = null;
let routeSeq = 0; // the newest navigation: an older one still loading gives way

async function route() {
  const seq = ++routeSeq;
  if (current && current.cleanup) current.cleanup();
  current = null;
  clearNotice();
  const main = document.getElementById('main');
  if (!api.loggedIn()) {
    storeList = null;
    header([]);
    main.replaceChildren();
    loginPage.render(main, { message: loginMessage, done: () => { loginMessage = null; route(); } });
    return;
  }
  await api.renewIfOld();
  if (!api.loggedIn() || seq !== routeSeq) return; // the session expired (the login is shown), or a newer navigation
  const hash = location.hash || '#/';
  const r = routes.find(x => x.re.test(hash)) || routes[0];
  const args = (hash.match(r.re) || []).slice(1).map(a => (a === undefined ? undefined : decodeURIComponent(a)));
  try {
    if (!storeList) storeList = await api.get('/admin/datastore');
  } catch (e) {
    if (!api.loggedIn()) return;
    storeList = [];
    showError(e, 'datastores');
  }
  if (seq !== routeSeq) return;
  header(storeList);
  const navKey = r.nav === 'datastore' ? 'datastore:' + args[0] : r.nav;
  for (const a of document.querySelectorAll('[data-nav]')) {
    if (a.dataset.nav === navKey) a.setAttribute('aria-current', 'page');
  }
  // each navigation renders into its own box: a page still loading when the user moved on
  // fills a box that is no longer shown
  const view = h('div', { class: 'view' });
  main.replaceChildren(view);
  const ctx = { args, stores: storeList, cleanup: null };
  current = ctx;
  try {
    await r.page.render(view, ctx);
  } catch (e) {
    if (api.loggedIn()) {
      view.append(h('p', { class: 'msg error', role: 'alert' }, e.message || String(e)));
    }
  }
}

window.addEventListener('hashchange', route);
// once: a module runs after the document is parsed, when DOMContentLoaded may still be to come
if (document.readyState === 'loading') window.addEventListener('DOMContentLoaded', route);
else route();
