// One task: its status and its log, followed live (polled every second) while it runs; stop.
import * as api from '../api.js';
import { h, fmtTime, action, showInfo, taskStatusBadge } from '../ui.js';

export async function render(main, ctx) {
  const upid = ctx.args[0];
  const base = '/nodes/localhost/tasks/' + encodeURIComponent(upid);
  const statusBox = h('div', { id: 'task-status' });
  const log = h('pre', { id: 'task-log', class: 'log', tabindex: 0, 'aria-label': 'task log', 'aria-live': 'polite' });
  const follow = h('input', { type: 'checkbox', id: 'follow', checked: true });
  const stop = action('Stop', async () => {
    await api.del(base);
    showInfo('Stop requested for task ', h('span', { class: 'upid' }, upid), '.');
  }, { id: 'task-stop', class: 'danger' });
  stop.hidden = true; // until the status says it runs
  const download = h('a', { href: api.url(base + '/log', { download: 1 }), download: 'task.log', id: 'task-download' }, 'Download log');
  main.append(h('h1', {}, 'Task'), h('p', { class: 'mono upid' }, upid), statusBox,
    h('p', {}, h('label', {}, follow, ' follow the log'), ' ', download, ' ', stop),
    log);
  let next = 1;
  let timer = null;
  let stopped = false;
  const tick = async () => {
    try {
      const [st, page] = await Promise.all([api.get(base + '/status'), api.call('GET', base + '/log', { start: next, limit: 1000, 'test-status': 1 })]);
      for (const line of page.data) {
        log.append(line.t + '\n');
        next = line.n + 1;
      }
      const running = st.status === 'running';
      statusBox.replaceChildren(h('p', {}, `${st.type} ${st.id || ''} by ${st.user}, started ${fmtTime(st.starttime)}: `,
        running ? taskStatusBadge({}) : taskStatusBadge({ status: st.exitstatus, endtime: 1 })));
      stop.hidden = !running;
      if (follow.checked) log.scrollTop = log.scrollHeight;
      if (!running && page.data.length < 1000) return false;
      return true;
    } catch (e) {
      statusBox.replaceChildren(h('p', { class: 'msg error', role: 'alert' }, e.message));
      download.hidden = true; // refused (another user's task) or gone: no link that fails too
      stop.hidden = true;
      return false;
    }
  };
  const loop = async () => {
    if (stopped) return;
    const more = await tick();
    if (more && !stopped) timer = setTimeout(loop, 1000);
  };
  ctx.cleanup = () => { stopped = true; clearTimeout(timer); };
  await loop();
}
