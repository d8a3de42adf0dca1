// Charts of a datastore's usage and throughput over time, from the server's RRD metrics
// (admin/datastore/{store}/rrd), drawn with uPlot (from its WebJar).
import uPlot from '../vendor/uPlot.esm.js';
import * as api from '../api.js';
import { h, fmtBytes } from '../ui.js';

const FRAMES = ['hour', 'day', 'week', 'month', 'year'];

export async function render(main, ctx) {
  const store = ctx.args[0];
  const frame = h('select', { id: 'chart-timeframe', 'aria-label': 'time frame' }, FRAMES.map(f => h('option', { value: f, selected: f === 'day' }, f)));
  const cf = h('select', { id: 'chart-cf', 'aria-label': 'consolidation' }, h('option', { value: 'AVERAGE' }, 'average'), h('option', { value: 'MAX' }, 'maximum'));
  const box = h('div', { id: 'charts' });
  main.append(h('h1', {}, 'Charts ', h('span', { class: 'mono' }, store)),
    h('p', { class: 'filters' }, h('label', {}, 'Time frame ', frame), h('label', {}, 'Values ', cf),
      h('a', { href: '#/datastore/' + encodeURIComponent(store) }, 'Content')), box);
  const plots = [];
  const draw = async () => {
    plots.splice(0).forEach(p => p.destroy());
    let data;
    try {
      data = await api.get(api.ds(store, 'rrd'), { timeframe: frame.value, cf: cf.value });
    } catch (e) {
      box.replaceChildren(h('p', { class: 'msg error', role: 'alert' }, e.message));
      return;
    }
    const time = data.map(p => p.time);
    const col = name => data.map(p => (p[name] === undefined ? null : p[name]));
    const known = data.filter(p => p.used !== undefined).length;
    box.replaceChildren(
      h('p', { class: 'muted', id: 'chart-points' }, `${known} of ${data.length} points sampled (one a minute while the server runs).`));
    const width = Math.max(260, Math.min(box.clientWidth || 800, 1100));
    const css = getComputedStyle(document.documentElement);
    const color = v => css.getPropertyValue(v).trim();
    const axes = [{ stroke: color('--muted'), grid: { stroke: color('--border') } },
      { stroke: color('--muted'), grid: { stroke: color('--border') }, size: 80, values: (u, vals) => vals.map(v => fmtBytes(v)) }];
    const chart = (title, id, series, cols) => {
      const holder = h('figure', { class: 'chart card', id }, h('figcaption', {}, title));
      box.append(holder);
      plots.push(new uPlot({
        width: width - 34, height: 220, axes,
        series: [{}, ...series.map(([label, c]) => ({ label, stroke: color(c), width: 2, spanGaps: false, points: { show: true, size: 4 }, value: (u, v) => (v === null ? '–' : fmtBytes(v)) }))],
      }, [time, ...cols], holder));
    };
    chart('Usage', 'chart-usage', [['total', '--muted'], ['used', '--accent']], [col('total'), col('used')]);
    chart('Throughput per second', 'chart-io', [['read', '--ok'], ['write', '--warn']], [col('read_bytes'), col('write_bytes')]);
  };
  frame.addEventListener('change', draw);
  cf.addEventListener('change', draw);
  await draw();
  ctx.cleanup = () => plots.forEach(p => p.destroy());
}
