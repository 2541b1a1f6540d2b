// The page: one game at a time, its position kept here as the start and the moves played
// (the server keeps nothing between requests), three views over it: Play, Analyse, Learn.

import * as api from './api.js';
import { drawBoard, cellName } from './board.js';
import { drawGraph } from './graph.js';
import { drawCompare, TreeView } from './learn.js';

const $ = (id) => document.getElementById(id);

const state = {
  games: [],
  info: null, // the /api/games entry of the game played
  start: '', // the start position's text ('' is the game's start)
  moves: [],
  pos: null, // the last /api/position answer
  selected: null,
  heat: null,
  engine: null, // the engine's running search in Play, if any
  analysis: null, // the running analysis, if any
  tree: null,
  graph: [],
  preview: null, // a position shown instead of the current one (tree hover)
  view: 'play',
  analysing: false, // Analyse is on: every new position is analysed in turn
  clickedAt: null, // when the person's last move was clicked, for the first line's delay
};

function gameName() {
  const v = $('variant').value.trim();
  return v ? `${state.info.name}:${v}` : state.info.name;
}

function at() {
  return { game: gameName(), eval: $('eval').value || undefined, position: state.start, moves: state.moves };
}

function say(text, isError = false) {
  const m = $('message');
  m.textContent = text || '';
  m.className = isError ? 'error' : '';
}

function players() {
  return { first: $('player-first').value, second: $('player-second').value };
}

function limits() {
  const kind = $('limit-kind').value;
  const value = Number($('limit-value').value);
  if (!(value >= 1)) throw new Error('the engine strength must be a number of at least 1');
  return { [kind]: value };
}

// ---- Drawing -------------------------------------------------------------------------

function targetsOf(cell) {
  return state.pos.legal.filter((m) => m.from === cell && m.to !== null).map((m) => m.to);
}

// The cells to mark as moves: a selected piece's targets; in Othello every legal square, as
// its GUIs show them (in Gomoku nearly every point is legal: marking them says nothing).
function targets(pos) {
  if (state.selected !== null) return targetsOf(state.selected);
  if (pos.board.style === 'discs' && !isEngineTurn()) return pos.legal.filter((m) => m.to !== null).map((m) => m.to);
  return [];
}

function render() {
  const pos = state.preview || state.pos;
  if (!pos) return;
  const board = { ...pos.board, style: pos.board.style };
  drawBoard($('board'), board, {
    selected: state.preview ? null : state.selected,
    targets: state.preview ? [] : targets(pos),
    last: pos.last,
    heat: state.preview ? null : state.heat,
    preview: !!state.preview,
    onCell: (i) => clickCell(i),
    onDrag: (from, to) => dragMove(from, to),
  });
  const p = state.pos;
  $('first-name').textContent = p.side_names[0];
  $('second-name').textContent = p.side_names[1];
  let status;
  if (state.preview) status = `Preview: ${state.preview.display.slice(state.pos.moves.length).join(' ') || 'the position'}`;
  else if (p.outcome) status = `Game over: ${p.outcome.result} (${p.outcome.reason})`;
  else status = `${p.side_names[p.to_move === 'first' ? 0 : 1]} to move`;
  if (state.engine && !state.preview) status += ' \u2014 the engine is thinking\u2026';
  $('status').textContent = status;
  $('pass').hidden = !!p.outcome || !p.legal.some((m) => m.from === null && m.to === null) || isEngineTurn();
  const list = $('movelist');
  list.replaceChildren(...p.display.map((d, i) => {
    const li = document.createElement('li');
    li.textContent = d;
    li.dataset.ply = i + 1;
    return li;
  }));
  drawGraph($('graph'), state.graph, p.moves.length, null);
}

// ---- Moves ---------------------------------------------------------------------------

async function setPosition(start, moves) {
  const pos = await api.position({ ...at(), position: start, moves });
  state.start = start;
  state.moves = pos.moves;
  state.pos = pos;
  state.selected = null;
  state.heat = null;
  state.graph = state.graph.filter((g) => g.ply <= pos.moves.length);
  render();
  positionChanged();
}

async function playMove(move) {
  stopEngine();
  try {
    const pos = await api.play(at(), move);
    state.moves = pos.moves;
    state.pos = pos;
    state.selected = null;
    state.heat = null;
    say('');
    render();
    positionChanged();
    afterMove();
  } catch (e) {
    state.selected = null;
    render();
    say(`Refused: ${e.message}`, true);
  }
}

// The engine plays its sides in Play only; in Analyse and Learn the person moves both sides.
function isEngineTurn() {
  const p = state.pos;
  return state.view === 'play' && p && !p.outcome && players()[p.to_move] === 'engine';
}

// A new position while Analyse is on: analyse it instead.
function positionChanged() {
  if (state.analysing) analyse();
}

function afterMove() {
  if (!isEngineTurn()) return;
  const who = players();
  if (who.first === 'engine' && who.second === 'engine') {
    // Engine against engine: a pause between moves so that people can follow.
    const ply = state.moves.length;
    setTimeout(() => { if (!state.engine && state.moves.length === ply && isEngineTurn()) engineMove(); }, 300);
  } else {
    engineMove();
  }
}

function clickCell(i) {
  const p = state.pos;
  if (!p || state.preview) return;
  state.clickedAt = performance.now();
  if (p.outcome) { say('The game is over: start a new one or take a move back.', true); return; }
  if (isEngineTurn()) { say('It is the engine\u2019s turn.', true); return; }
  const legal = p.legal;
  if (p.board.style === 'drop') {
    const col = i % p.board.cols;
    const m = legal.find((x) => x.to !== null && x.to % p.board.cols === col);
    playMove(m ? m.move : p.board.col_labels[col] || String(col + 1));
    return;
  }
  if (state.selected !== null && state.selected !== i) {
    tryFromTo(state.selected, i);
    return;
  }
  const place = legal.filter((x) => x.from === null && x.to === i);
  if (place.length) { playMove(place[0].move); return; }
  if (legal.some((x) => x.from === i)) {
    state.selected = state.selected === i ? null : i;
    say('');
    render();
    return;
  }
  // Not a move: ask the server, which says why in the game's own words.
  const own = p.board.cells[i];
  if (p.board.style === 'checkered') {
    say(own ? 'That piece has no legal move.' : 'Choose a piece of the side to move first.', true);
    return;
  }
  playMove(cellName(p.board, i));
}

function dragMove(from, to) {
  if (!state.pos || state.preview || isEngineTurn()) return;
  state.clickedAt = performance.now();
  tryFromTo(from, to);
}

function tryFromTo(from, to) {
  const p = state.pos;
  const ms = p.legal.filter((x) => x.from === from && x.to === to);
  if (ms.length === 1) { playMove(ms[0].move); return; }
  if (ms.length > 1) { choose(ms); return; }
  if (p.legal.some((x) => x.from === to)) {
    state.selected = to;
    render();
    return;
  }
  // Let the game say why: the move written from the two cells' names.
  playMove(cellName(p.board, from) + cellName(p.board, to));
}

// Several moves between the same cells (a promotion): the player picks one.
function choose(moves) {
  const box = $('promotion');
  box.replaceChildren(...moves.map((m) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = m.display;
    b.dataset.move = m.move;
    b.addEventListener('click', () => { box.hidden = true; playMove(m.move); });
    return b;
  }));
  box.hidden = false;
}

// ---- The engine in Play -------------------------------------------------------------------

function stopEngine() {
  if (state.engine) {
    state.engine.close();
    state.engine = null;
  }
}

function engineMove(hintOnly = false) {
  let lim;
  try { lim = limits(); } catch (e) { say(e.message, true); return; }
  stopEngine();
  const search = api.search(at(), lim, {
    info: (r) => {
      if (state.engine !== search) return;
      $('status').textContent = `Thinking: depth ${r.depth}, ${r.score}, ${r.pv_display.slice(0, 6).join(' ')}`;
    },
    done: (r) => {
      if (state.engine !== search) return;
      state.engine = null;
      addGraphPoint(r);
      if (!r.best) { say('The engine found no move.', true); render(); return; }
      if (hintOnly) {
        say(`Hint: ${r.pv_display[0] || r.best} (${r.score}, depth ${r.depth})`);
        const m = state.pos.legal.find((x) => x.move === r.best);
        if (m) { state.selected = m.from; state.heat = new Map([[m.to ?? m.from, { text: '\u2605', t: 1 }]]); }
        render();
        return;
      }
      say(`Engine: ${r.pv_display[0] || r.best} (${r.score}, depth ${r.depth}, ${r.nodes.toLocaleString('en-US')} nodes)`);
      playMove(r.best);
    },
    error: (m) => {
      if (state.engine !== search) return;
      state.engine = null;
      say(`Engine: ${m}`, true);
      render();
    },
  });
  state.engine = search;
  render();
}

function addGraphPoint(r) {
  const ply = state.moves.length;
  state.graph = state.graph.filter((g) => g.ply !== ply);
  state.graph.push({ ply, value_first: r.value_first });
  state.graph.sort((a, b) => a.ply - b.ply);
}

// ---- Analyse -------------------------------------------------------------------------------

function analyse() {
  // A new position replaces the search of the old one: its stream is dropped, so the server
  // stops it, and nothing it still says is shown.
  if (state.analysis) state.analysis.close();
  state.analysis = null;
  const lim = {};
  const d = Number($('analyse-depth').value);
  if (d >= 1) lim.depth = d;
  const k = Number($('multipv').value);
  if (k > 1) lim.multipv = k;
  const body = document.querySelector('#analysis tbody');
  body.replaceChildren();
  $('analysis-state').textContent = 'Searching\u2026';
  delete $('analysis-state').dataset.firstLineMs;
  // After a move, the delay counts from the click that made it.
  const started = state.clickedAt ?? performance.now();
  state.clickedAt = null;
  state.analysing = true;
  if (state.pos && state.pos.outcome) {
    $('analysis-state').textContent = `Game over: ${state.pos.outcome.result}.`;
    return;
  }
  let first = true;
  const search = api.search(at(), lim, {
    info: (r) => {
      if (state.analysis !== search) return;
      if (first) {
        first = false;
        $('analysis-state').dataset.firstLineMs = (performance.now() - started).toFixed(1);
      }
      const lines = r.lines.length ? r.lines : [{ score: r.score, pv_display: r.pv_display }];
      lines.forEach((l, i) => {
        const tr = document.createElement('tr');
        tr.className = 'line';
        for (const t of [r.depth, i + 1, l.score, r.nodes.toLocaleString('en-US'), r.nps.toLocaleString('en-US'), l.pv_display.join(' ')]) {
          const td = document.createElement('td');
          td.textContent = t;
          tr.appendChild(td);
        }
        body.prepend(tr);
      });
      addGraphPoint(r);
      drawGraph($('graph'), state.graph, state.moves.length, null);
    },
    done: (r) => {
      if (state.analysis !== search) return;
      state.analysis = null;
      $('analysis-state').textContent = `Done: best ${r.pv_display[0] || r.best || 'none'}, ${r.score} at depth ${r.depth}, ${r.nodes.toLocaleString('en-US')} nodes in ${(r.time_ms / 1000).toFixed(2)} s.`;
    },
    error: (m) => {
      if (state.analysis !== search) return;
      state.analysis = null;
      $('analysis-state').textContent = `Refused: ${m}`;
    },
  });
  state.analysis = search;
}

function stopAnalysis() {
  state.analysing = false;
  if (state.analysis) {
    state.analysis.stop();
    $('analysis-state').textContent = 'Stopping\u2026';
  }
}

// ---- Learn ---------------------------------------------------------------------------------

async function runCompare() {
  const depth = Number($('learn-depth').value);
  $('compare').textContent = 'Running every algorithm\u2026';
  try {
    drawCompare($('compare'), await api.compare(at(), depth));
  } catch (e) {
    $('compare').replaceChildren();
    say(`Compare: ${e.message}`, true);
  }
}

async function runTree() {
  const depth = Number($('learn-depth').value);
  const algo = $('tree-algo').value;
  $('tree-summary').textContent = 'Searching\u2026';
  try {
    const data = await api.tree(at(), depth, algo);
    const cut = countCut(data.tree);
    $('tree-summary').textContent = `${algo} to depth ${depth}: value ${data.report.score} for the side to move, ${data.nodes} nodes visited, ${cut} moves cut off. Values are for MAX (${state.pos.side_names[0]}); \u2265 and \u2264 mark bounds.`;
    state.tree = new TreeView($('tree'), $('tree-diagram'), $('step-info'), data, {
      hover: (path) => preview(path),
      unhover: () => { state.preview = null; render(); },
    });
    state.tree.expandAll(2);
    return data;
  } catch (e) {
    $('tree-summary').textContent = '';
    say(`Tree: ${e.message}`, true);
    return null;
  }
}

function countCut(n) {
  return (n.pruned ? 1 : 0) + n.children.reduce((s, c) => s + countCut(c), 0);
}

let previewSeq = 0;
async function preview(path) {
  const seq = ++previewSeq;
  if (!path.length) { state.preview = null; render(); return; }
  try {
    const pos = await api.position({ ...at(), moves: state.moves.concat(path) });
    if (seq === previewSeq) { state.preview = pos; render(); }
  } catch (e) { /* a hover needs no message */ }
}

// Each root move's value on the board, from the side to move: green good, red bad.
async function heatmap() {
  const data = state.tree ? state.tree.data : await runTree();
  if (!data) return;
  const sign = state.pos.to_move === 'first' ? 1 : -1;
  const heat = new Map();
  for (const c of data.tree.children) {
    const m = state.pos.legal.find((x) => x.move === c.move);
    if (!m || c.pruned) continue;
    const cell = m.to ?? m.from;
    if (cell === null || cell === undefined) continue;
    const v = c.value * sign;
    const t = Math.abs(v) >= 29000 ? Math.sign(v) : v / (Math.abs(v) + 10);
    const prev = heat.get(cell);
    if (!prev || prev.v < v) heat.set(cell, { v, t, text: c.value_text });
  }
  state.heat = heat;
  // The heat map is drawn on the position itself, not on a node the stepper shows.
  previewSeq++;
  state.preview = null;
  render();
}

// ---- Records -------------------------------------------------------------------------------

async function save() {
  try {
    const r = await api.record(at());
    const blob = new Blob([r.text], { type: 'text/plain' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `duel-${state.info.name}.${r.extension}`;
    a.click();
    URL.revokeObjectURL(a.href);
  } catch (e) { say(e.message, true); }
}

async function showRecord() {
  try { $('record-text').value = (await api.record(at())).text; } catch (e) { say(e.message, true); }
}

async function load(text) {
  try {
    const pos = await api.load(gameName(), $('eval').value || undefined, text);
    stopEngine();
    state.start = pos.start;
    state.moves = pos.moves;
    state.pos = pos;
    state.graph = [];
    state.heat = null;
    say(`Loaded ${pos.moves.length} moves.`);
    render();
  } catch (e) { say(`Load: ${e.message}`, true); }
}

// ---- Set-up --------------------------------------------------------------------------------

function chooseGame(name) {
  state.info = state.games.find((g) => g.name === name);
  const ev = $('eval');
  ev.replaceChildren(...state.info.evaluators.map((e) => {
    const o = document.createElement('option');
    o.value = e;
    o.textContent = e;
    return o;
  }));
  $('notation').textContent = state.info.notation;
  $('variant').placeholder = state.info.variants ? 'none' : 'no variants';
  $('variant').disabled = !state.info.variants;
  $('variant').value = '';
  $('limit-value').value = Math.min(state.info.default_depth, 6);
  $('limit-kind').value = 'depth';
  newGame('');
}

async function newGame(start) {
  stopEngine();
  stopAnalysis();
  state.graph = [];
  state.tree = null;
  $('tree').replaceChildren();
  $('compare').replaceChildren();
  try {
    await setPosition(start, []);
    say('');
    afterMove();
  } catch (e) { say(e.message, true); }
}

function showView(view) {
  state.view = view;
  // Back in Play, the engine takes its turn if it has one.
  if (view === 'play') afterMove();
  for (const b of document.querySelectorAll('.tab')) b.classList.toggle('active', b.dataset.view === view);
  for (const v of ['play', 'analyse', 'learn']) $(`view-${v}`).hidden = v !== view;
}

async function init() {
  try {
    state.games = (await api.games()).games;
  } catch (e) { say(e.message, true); return; }
  const sel = $('game');
  sel.replaceChildren(...state.games.map((g) => {
    const o = document.createElement('option');
    o.value = g.name;
    o.textContent = g.title;
    return o;
  }));
  const wanted = new URLSearchParams(location.search).get('game');
  const first = state.games.find((g) => g.name === wanted) || state.games[0];
  sel.value = first.name;
  sel.addEventListener('change', () => chooseGame(sel.value));
  $('variant').addEventListener('change', () => newGame(''));
  $('eval').addEventListener('change', () => { state.tree = null; });
  for (const b of document.querySelectorAll('.tab')) b.addEventListener('click', () => showView(b.dataset.view));
  $('new').addEventListener('click', () => newGame(''));
  $('undo').addEventListener('click', async () => {
    stopEngine();
    // Back to the last position a person is to move in, past the engine's replies.
    let n = state.moves.length;
    if (n === 0) { say('No move to take back.', true); return; }
    const who = players();
    const single = (who.first === 'engine') !== (who.second === 'engine');
    n -= 1;
    try {
      await setPosition(state.start, state.moves.slice(0, n));
      if (single && isEngineTurn() && n > 0) await setPosition(state.start, state.moves.slice(0, n - 1));
      say('');
    } catch (e) { say(e.message, true); }
  });
  $('hint').addEventListener('click', () => { if (!state.pos.outcome) engineMove(true); });
  $('go').addEventListener('click', () => { if (!state.pos.outcome) engineMove(); });
  $('stop-engine').addEventListener('click', () => { if (state.engine) state.engine.stop(); });
  $('pass').addEventListener('click', () => {
    const m = state.pos.legal.find((x) => x.from === null && x.to === null);
    if (m) playMove(m.move);
  });
  $('player-first').addEventListener('change', afterMove);
  $('player-second').addEventListener('change', afterMove);
  $('set-position').addEventListener('click', () => newGame($('position-text').value.trim()));
  $('save').addEventListener('click', save);
  $('show-record').addEventListener('click', showRecord);
  $('load').addEventListener('click', () => load($('record-text').value));
  $('load-file').addEventListener('change', async (e) => {
    const f = e.target.files[0];
    if (f) load(await f.text());
  });
  $('analyse-start').addEventListener('click', analyse);
  $('analyse-stop').addEventListener('click', stopAnalysis);
  $('compare-run').addEventListener('click', runCompare);
  $('tree-run').addEventListener('click', runTree);
  $('heatmap').addEventListener('click', heatmap);
  $('step-first').addEventListener('click', () => state.tree && state.tree.step(-Infinity));
  $('step-prev').addEventListener('click', () => state.tree && state.tree.step(-1));
  $('step-next').addEventListener('click', () => state.tree && state.tree.step(1));
  $('step-last').addEventListener('click', () => state.tree && state.tree.step(Infinity));
  $('expand').addEventListener('click', () => state.tree && state.tree.expandAll());
  $('collapse').addEventListener('click', () => state.tree && state.tree.collapseAll());
  $('graph-refresh').addEventListener('click', () => {
    // One graph at a time: a newer request replaces the one still running.
    if (state.graphSearch) state.graphSearch.close();
    state.graph = [];
    state.graphSearch = api.evals(at(), 20000, {
      value: (v) => { state.graph.push(v); drawGraph($('graph'), state.graph, state.moves.length, null); },
      done: () => { state.graphSearch = null; render(); },
      error: (msg) => { state.graphSearch = null; say(`Graph: ${msg}`, true); },
    });
  });
  // Closing the page drops its streams; the server stops their searches.
  window.addEventListener('pagehide', () => {
    stopEngine();
    if (state.analysis) state.analysis.close();
    if (state.graphSearch) state.graphSearch.close();
  });
  chooseGame(first.name);
  // The page's state, for the browser tests and for the curious in the console.
  window.duelState = state;
  document.body.dataset.ready = 'true';
}

init();
