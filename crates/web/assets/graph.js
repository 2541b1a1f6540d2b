// The evaluation graph: one point per position of the game, the value from the first
// player's side squashed into (-1, 1) so that a won position and +300 both fit.

const NS = 'http://www.w3.org/2000/svg';
const WIN = 29000;

export function squash(v) {
  if (Math.abs(v) >= WIN) return Math.sign(v);
  return v / (Math.abs(v) + 300);
}

// values: [{ply, value_first}]; current: the ply shown now; onPly(ply) hears clicks.
export function drawGraph(host, values, current, onPly) {
  const w = 360;
  const h = 120;
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  svg.setAttribute('width', w);
  svg.setAttribute('height', h);
  svg.setAttribute('class', 'graph');
  const n = Math.max(values.length - 1, 1);
  const x = (ply) => 4 + (ply / n) * (w - 8);
  const y = (v) => h / 2 - squash(v) * (h / 2 - 6);
  const add = (name, attrs) => {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    svg.appendChild(e);
    return e;
  };
  add('line', { x1: 0, y1: h / 2, x2: w, y2: h / 2, class: 'axis' });
  if (values.length) {
    const pts = values.map((p) => `${x(p.ply)},${y(p.value_first)}`).join(' ');
    add('polygon', { points: `${x(0)},${h / 2} ${pts} ${x(values[values.length - 1].ply)},${h / 2}`, class: 'area' });
    add('polyline', { points: pts, class: 'curve' });
    for (const p of values) {
      const c = add('circle', { cx: x(p.ply), cy: y(p.value_first), r: p.ply === current ? 4 : 2.5, class: 'point' + (p.ply === current ? ' current' : '') });
      const t = document.createElementNS(NS, 'title');
      t.textContent = `ply ${p.ply}: ${p.value_first}`;
      c.appendChild(t);
      if (onPly) c.addEventListener('click', () => onPly(p.ply));
    }
  }
  host.replaceChildren(svg);
}
