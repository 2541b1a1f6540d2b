// The Learn view: the comparison table, and the explored tree drawn as nested lists that
// open and close, with the cut moves apart and a stepper that replays the search node by node
// with alpha and beta.

function h(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}

const fmt = (n) => Number(n).toLocaleString('en-US');

export function drawCompare(host, data) {
  const head = ['algorithm', 'value', 'best', 'nodes', 'leaf evals', 'cut-offs', 'EBF', 'time ms'];
  const table = h('table', { class: 'compare', id: 'compare-table' },
    h('thead', {}, h('tr', {}, ...head.map((t) => h('th', {}, t)))));
  const body = h('tbody');
  for (const r of data.rows) {
    body.append(h('tr', { 'data-algorithm': r.algorithm, class: r.exact ? '' : 'inexact' },
      h('td', {}, r.algorithm + (r.budget ? ` (budget ${fmt(r.budget)})` : '')),
      h('td', {}, r.score),
      h('td', {}, (r.pv_display && r.pv_display[0]) || r.best || ''),
      h('td', { class: 'num' }, fmt(r.nodes)),
      h('td', { class: 'num' }, fmt(r.evals)),
      h('td', { class: 'num' }, fmt(r.cutoffs)),
      h('td', { class: 'num' }, r.ebf.toFixed(2)),
      h('td', { class: 'num' }, r.time_ms.toFixed(3))));
  }
  table.append(body);
  host.replaceChildren(
    h('p', { class: 'note' }, `Depth ${data.depth}. Values are for the side to move; every exact algorithm must give the same value. EBF: the effective branching factor, nodes^(1/depth).`),
    table);
}

// The order the search met the nodes: enter each node, its searched children in turn, then
// leave it (its value backed up); the cut moves show when their parent is left.
function steps(root) {
  const out = [];
  const go = (n, parent) => {
    out.push({ kind: 'enter', node: n, parent });
    for (const c of n.children) if (!c.pruned) go(c, n);
    out.push({ kind: 'leave', node: n, parent });
  };
  go(root, null);
  return out;
}

export class TreeView {
  // data: the /api/tree answer; hooks: hover(path) and unhover() show a node's position.
  constructor(host, diagram, info, data, hooks) {
    this.host = host;
    this.diagram = diagram;
    this.info = info;
    this.data = data;
    this.hooks = hooks;
    this.byId = new Map();
    this.parents = new Map();
    const index = (n, p) => {
      this.byId.set(n.id, n);
      this.parents.set(n.id, p);
      n.children.forEach((c) => index(c, n));
    };
    index(data.tree, null);
    this.steps = steps(data.tree);
    this.at = -1;
    this.open = new Set([data.tree.id]);
    this.render();
  }

  label(n) {
    const parts = [h('span', { class: 'mv' }, n.move || 'root')];
    if (n.pruned) {
      parts.push(h('span', { class: 'val' }, 'cut'));
    } else {
      parts.push(h('span', { class: 'val' }, n.value_text));
      parts.push(h('span', { class: 'role' }, n.to_move));
      if (n.alpha_text !== null) parts.push(h('span', { class: 'window' }, `[\u03b1 ${n.alpha_text}, \u03b2 ${n.beta_text}]`));
    }
    return parts;
  }

  nodeEl(n) {
    const kids = n.children;
    const li = h('li', { class: `tree-node ${n.pruned ? 'cut' : n.to_move.toLowerCase()}`, id: `node-${n.id}`, 'data-id': n.id });
    const toggle = h('button', { class: 'toggle', type: 'button', title: 'open or close' }, kids.length ? (this.open.has(n.id) ? '\u2212' : '+') : '\u00b7');
    if (kids.length) toggle.addEventListener('click', () => { this.flip(n.id); });
    const row = h('div', { class: 'row' }, toggle, ...this.label(n));
    row.addEventListener('mouseenter', () => this.hooks.hover(n.path));
    row.addEventListener('mouseleave', () => this.hooks.unhover());
    li.append(row);
    if (kids.length && this.open.has(n.id)) {
      li.append(h('ul', {}, ...kids.map((c) => this.nodeEl(c))));
    }
    return li;
  }

  flip(id) {
    if (this.open.has(id)) this.open.delete(id);
    else this.open.add(id);
    this.render();
  }

  expandAll(depth = Infinity) {
    const go = (n, d) => {
      if (d < depth && n.children.length) this.open.add(n.id);
      n.children.forEach((c) => go(c, d + 1));
    };
    go(this.data.tree, 0);
    this.render();
  }

  collapseAll() {
    this.open = new Set([this.data.tree.id]);
    this.render();
  }

  // Moves the stepper by `delta` steps (or to the first/last with -Infinity/Infinity).
  step(delta) {
    const last = this.steps.length - 1;
    this.at = delta === -Infinity ? 0 : delta === Infinity ? last : Math.max(0, Math.min(last, this.at + delta));
    const s = this.steps[this.at];
    // Open the way down to the node so that it can be seen.
    for (let p = this.parents.get(s.node.id); p; p = this.parents.get(p.id)) this.open.add(p.id);
    this.render();
    this.hooks.hover(s.node.path);
  }

  // What the step shows: the node, its window as it entered, and on leaving its value and the
  // window its parent has now.
  stepText() {
    if (this.at < 0) return 'Press Next to follow the search node by node.';
    const s = this.steps[this.at];
    const n = s.node;
    const where = n.path.length ? n.path.join(' ') : 'the root';
    const win = n.alpha_text !== null ? ` with \u03b1 = ${n.alpha_text}, \u03b2 = ${n.beta_text} (for MAX)` : '';
    if (s.kind === 'enter') {
      return `Step ${this.at + 1}/${this.steps.length}: enter ${where}, ${n.to_move} to move${win}.`;
    }
    const cut = n.children.filter((c) => c.pruned).map((c) => c.move);
    let text = `Step ${this.at + 1}/${this.steps.length}: leave ${where} with value ${n.value_text}`;
    if (cut.length) text += `; cut-off: ${cut.join(', ')} never searched`;
    return text + '.';
  }

  render() {
    const ul = h('ul', { class: 'tree', id: 'tree-root' }, this.nodeEl(this.data.tree));
    const cur = this.at >= 0 ? this.steps[this.at].node.id : null;
    this.host.replaceChildren(ul);
    if (cur !== null) {
      const e = this.host.querySelector(`#node-${cur} > .row`);
      if (e) { e.classList.add('current'); e.scrollIntoView({ block: 'nearest' }); }
    }
    this.info.textContent = this.stepText();
    this.drawDiagram(cur);
  }

  // The open part of the tree as the texts draw it: MAX nodes as squares, MIN nodes as
  // circles, the backed-up value inside, the move on each edge, cut moves dashed. Leaves are
  // spaced evenly and each parent sits above the middle of its children. Too many nodes to
  // read: a note instead.
  drawDiagram(current) {
    const NS = 'http://www.w3.org/2000/svg';
    const shown = [];
    const place = (n, depth) => {
      const kids = this.open.has(n.id) ? n.children : [];
      const item = { n, depth, kids: kids.map((c) => place(c, depth + 1)) };
      shown.push(item);
      return item;
    };
    const root = place(this.data.tree, 0);
    if (shown.length > 160) {
      const p = document.createElement('p');
      p.className = 'note';
      p.textContent = `${shown.length} nodes open: close some to see the diagram.`;
      this.diagram.replaceChildren(p);
      return;
    }
    let leaf = 0;
    const gap = 46;
    const layer = 74;
    const setX = (it) => {
      if (!it.kids.length) { it.x = leaf++ * gap; return; }
      it.kids.forEach(setX);
      it.x = (it.kids[0].x + it.kids[it.kids.length - 1].x) / 2;
    };
    setX(root);
    const depth = Math.max(...shown.map((it) => it.depth));
    const w = Math.max(leaf, 1) * gap + 40;
    const h = (depth + 1) * layer + 20;
    const svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('viewBox', `-20 -24 ${w} ${h}`);
    svg.setAttribute('width', w);
    svg.setAttribute('height', h);
    svg.setAttribute('class', 'tree-diagram');
    const add = (parent, name, attrs, text) => {
      const e = document.createElementNS(NS, name);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text !== undefined) e.textContent = text;
      parent.appendChild(e);
      return e;
    };
    const y = (it) => it.depth * layer;
    for (const it of shown) {
      for (const k of it.kids) {
        const cls = k.n.pruned ? 'edge cut' : 'edge';
        add(svg, 'line', { x1: it.x, y1: y(it) + 14, x2: k.x, y2: y(k) - 14, class: cls });
        add(svg, 'text', { x: (it.x + k.x) / 2 + 4, y: (y(it) + y(k)) / 2, class: 'edge-label' }, k.n.move);
      }
    }
    for (const it of shown) {
      const n = it.n;
      const g = add(svg, 'g', { class: `node ${n.pruned ? 'cut' : n.to_move.toLowerCase()}${n.id === current ? ' current' : ''}`, 'data-id': n.id });
      if (n.pruned) {
        add(g, 'text', { x: it.x, y: y(it), class: 'node-text' }, 'cut');
      } else {
        if (n.to_move === 'MAX') add(g, 'rect', { x: it.x - 16, y: y(it) - 14, width: 32, height: 28 });
        else add(g, 'circle', { cx: it.x, cy: y(it), r: 15 });
        add(g, 'text', { x: it.x, y: y(it), class: 'node-text' }, n.value_text);
      }
      add(g, 'title', {}, `${n.path.join(' ') || 'root'}: ${n.pruned ? 'cut' : n.value_text}` +
        (n.alpha_text !== null ? ` [\u03b1 ${n.alpha_text}, \u03b2 ${n.beta_text}]` : ''));
      g.addEventListener('mouseenter', () => this.hooks.hover(n.path));
      g.addEventListener('mouseleave', () => this.hooks.unhover());
      if (n.children.length) g.addEventListener('click', () => this.flip(n.id));
    }
    this.diagram.replaceChildren(svg);
    // Keep the node the stepper is at, or else the root, in sight.
    const focus = shown.find((it) => it.n.id === current) || root;
    this.diagram.scrollLeft = focus.x + 20 - this.diagram.clientWidth / 2;
  }
}
