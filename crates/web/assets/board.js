// The board as SVG, drawn for any game from the API's grid of cells and its style. Each cell
// is a <rect id="cell-N" data-cell="N">; the caller hears clicks and drags by cell number.

const NS = 'http://www.w3.org/2000/svg';
const GLYPHS = { K: '\u265A', Q: '\u265B', R: '\u265C', B: '\u265D', N: '\u265E', P: '\u265F' };

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function cellSize(board) {
  const n = Math.max(board.cols, board.rows);
  return n <= 3 ? 96 : n <= 8 ? 60 : n <= 15 ? 34 : 28;
}

// A colour from red (bad for the side to move) through grey to green (good), for a value
// squashed into (-1, 1).
export function heatColour(t) {
  const x = Math.max(-1, Math.min(1, t));
  const r = x < 0 ? 220 : Math.round(220 - 180 * x);
  const g = x > 0 ? 190 : Math.round(190 + 30 * x);
  return `rgb(${r},${g},${x < 0 ? Math.round(120 + 60 * x) : 110})`;
}

// Draws `board` into `host`. opts: selected (a cell), targets (cells), last ({from, to}),
// heat (Map cell -> {text, t}), preview (bool), onCell(cell), onDrag(from, to).
export function drawBoard(host, board, opts = {}) {
  const size = cellSize(board);
  const margin = 22;
  const w = board.cols * size + margin * 2;
  const h = board.rows * size + margin * 2;
  const svg = el('svg', { viewBox: `0 0 ${w} ${h}`, width: w, height: h, class: `board style-${board.style}` + (opts.preview ? ' preview' : ''), role: 'img' });
  const at = (i) => [margin + (i % board.cols) * size, margin + Math.floor(i / board.cols) * size];

  el('rect', { x: 0, y: 0, width: w, height: h, class: 'frame' }, svg);
  board.cells.forEach((piece, i) => {
    const [x, y] = at(i);
    const r = Math.floor(i / board.cols);
    const c = i % board.cols;
    let cls = 'cell';
    if (board.style === 'checkered') cls += (r + c) % 2 === 0 ? ' light' : ' dark';
    if (opts.last && (opts.last.from === i || opts.last.to === i)) cls += ' last';
    if (opts.selected === i) cls += ' selected';
    const rect = el('rect', { x, y, width: size, height: size, class: cls, id: `cell-${i}`, 'data-cell': i }, svg);
    rect.addEventListener('pointerdown', (e) => {
      e.preventDefault();
      svg.dataset.down = i;
    });
    rect.addEventListener('pointerup', (e) => {
      e.preventDefault();
      const from = Number(svg.dataset.down);
      delete svg.dataset.down;
      if (!Number.isNaN(from) && from !== i && opts.onDrag) opts.onDrag(from, i);
      else if (opts.onCell) opts.onCell(i);
    });
  });
  // Pointer-up outside the cell pressed, as a drag ends, lands on the cell under the pointer.
  svg.addEventListener('pointerleave', () => delete svg.dataset.down);

  const layer = el('g', { class: 'pieces', 'pointer-events': 'none' }, svg);
  if (board.style === 'stones' || board.style === 'xiangqi') {
    // Stones and xiangqi pieces sit on the points: the lines go through the cells' centres.
    const px = (c) => margin + c * size + size / 2;
    const py = (r) => margin + r * size + size / 2;
    const river = board.style === 'xiangqi' ? board.rows / 2 - 1 : -1;
    for (let c = 0; c < board.cols; c++) {
      const edge = c === 0 || c === board.cols - 1;
      if (river < 0 || edge) {
        el('line', { x1: px(c), y1: py(0), x2: px(c), y2: py(board.rows - 1), class: 'grid' }, layer);
      } else {
        // The river cuts the files but the two outer ones.
        el('line', { x1: px(c), y1: py(0), x2: px(c), y2: py(river), class: 'grid' }, layer);
        el('line', { x1: px(c), y1: py(river + 1), x2: px(c), y2: py(board.rows - 1), class: 'grid' }, layer);
      }
    }
    for (let r = 0; r < board.rows; r++) {
      el('line', { x1: px(0), y1: py(r), x2: px(board.cols - 1), y2: py(r), class: 'grid' }, layer);
    }
    if (river >= 0) {
      // The palaces' diagonals, three files wide in the middle, three ranks deep at each end.
      const mid = (board.cols - 1) / 2;
      for (const [r0, r1] of [[0, 2], [board.rows - 3, board.rows - 1]]) {
        el('line', { x1: px(mid - 1), y1: py(r0), x2: px(mid + 1), y2: py(r1), class: 'grid' }, layer);
        el('line', { x1: px(mid + 1), y1: py(r0), x2: px(mid - 1), y2: py(r1), class: 'grid' }, layer);
      }
    }
  }
  board.cells.forEach((piece, i) => {
    const [x, y] = at(i);
    const cx = x + size / 2;
    const cy = y + size / 2;
    if (board.style === 'drop' && !piece) el('circle', { cx, cy, r: size * 0.4, class: 'hole' }, layer);
    if (!piece) return;
    const side = piece.side;
    if (board.style === 'checkered') {
      const t = el('text', { x: cx, y: cy, class: `piece chess ${side}`, 'font-size': size * 0.8, 'data-piece': piece.kind }, layer);
      t.textContent = GLYPHS[piece.kind.toUpperCase()] || piece.kind;
    } else if (board.style === 'xiangqi') {
      el('circle', { cx, cy, r: size * 0.42, class: `piece xq ${side}` }, layer);
      const t = el('text', { x: cx, y: cy, class: `piece xq-letter ${side}`, 'font-size': size * 0.45 }, layer);
      t.textContent = piece.kind;
    } else if (board.style === 'marks') {
      const t = el('text', { x: cx, y: cy, class: `piece mark ${side}`, 'font-size': size * 0.7 }, layer);
      t.textContent = piece.kind;
    } else {
      el('circle', { cx, cy, r: size * (board.style === 'stones' ? 0.45 : 0.4), class: `piece disc ${board.style} ${side}` }, layer);
    }
  });
  // Stones and discs show the last move with a dot on the piece, the cell being hidden.
  if (opts.last && opts.last.to !== null && (board.style === 'stones' || board.style === 'drop')) {
    const [x, y] = at(opts.last.to);
    el('circle', { cx: x + size / 2, cy: y + size / 2, r: size * 0.1, class: 'last-mark' }, layer);
  }
  for (const i of opts.targets || []) {
    const [x, y] = at(i);
    el('circle', { cx: x + size / 2, cy: y + size / 2, r: size * 0.14, class: 'target', id: `target-${i}` }, layer);
  }
  if (opts.heat) {
    for (const [i, h] of opts.heat) {
      const [x, y] = at(i);
      el('rect', { x: x + 2, y: y + 2, width: size - 4, height: size - 4, class: 'heat', fill: heatColour(h.t) }, layer);
      const t = el('text', { x: x + size / 2, y: y + size / 2, class: 'heat-text', 'font-size': Math.max(10, size * 0.28) }, layer);
      t.textContent = h.text;
    }
  }
  const labels = el('g', { class: 'labels', 'pointer-events': 'none' }, svg);
  board.col_labels.forEach((l, c) => {
    const t = el('text', { x: margin + c * size + size / 2, y: h - margin / 2 + 1, class: 'label' }, labels);
    t.textContent = l;
  });
  board.row_labels.forEach((l, r) => {
    const t = el('text', { x: margin / 2, y: margin + r * size + size / 2, class: 'label' }, labels);
    t.textContent = l;
  });
  host.replaceChildren(svg);
  return svg;
}

// A cell in the game's notation, for a click the game's moves do not cover: the server then
// says why it is not a move.
export function cellName(board, i) {
  return board.cell_names[i];
}
