// The JSON API (docs/API.md), as the page uses it. Every call resolves to the answer or
// throws an Error whose message is the server's own reason.

async function call(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  let data;
  try {
    data = await res.json();
  } catch (e) {
    throw new Error(`${path}: ${res.status} ${res.statusText}`);
  }
  if (!res.ok) {
    const err = new Error(data.error || `${res.status} ${res.statusText}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

export const games = () => call('GET', '/api/games');
export const position = (at) => call('POST', '/api/position', at);
export const play = (at, move) => call('POST', '/api/move', { ...at, move });
export const record = (at) => call('POST', '/api/record', at);
export const load = (game, eval_, text) => call('POST', '/api/load', { game, eval: eval_, text });
export const compare = (at, depth) => call('POST', '/api/compare', { ...at, depth });
export const tree = (at, depth, algorithm) => call('POST', '/api/tree', { ...at, depth, algorithm });
export const stop = (id) => call('POST', '/api/stop', { id });

// Starts an engine search; `on.info(report)` hears each iteration, `on.done(report)` the end,
// `on.error(message)` a refusal. Returns { stop() }, which asks the server to stop (the done
// event still comes, with the best move so far), and { close() }, which stops it and drops the
// stream.
export function search(at, limits, on) {
  const q = new URLSearchParams({ game: at.game, position: at.position || '', moves: (at.moves || []).join(' ') });
  if (at.eval) q.set('eval', at.eval);
  for (const [k, v] of Object.entries(limits)) {
    if (v !== undefined && v !== null && v !== '') q.set(k, v);
  }
  return stream('/api/search?' + q.toString(), {}, on);
}

// The graph's values: a node-limited search of every position of the game, streamed one
// `on.value({ply, value_first})` a position, then `on.done({values, stopped})`. Returns the
// same handle as `search`.
export function evals(at, nodes, on) {
  return stream('/api/evals', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...at, nodes }),
  }, on);
}

// Reads a stream of server-sent events from `path` (fetch's `init`): `start` gives the id for
// /api/stop, `done` and `error` end it, any other event goes to `on[name]`. Read with fetch
// rather than EventSource, so a refusal arrives with its status and JSON reason.
function stream(path, init, on) {
  const abort = new AbortController();
  let id = null;
  let finished = false;
  let stopAsked = false;
  const handle = (name, data) => {
    const d = JSON.parse(data);
    if (name === 'start') { id = d.id; if (stopAsked) stop(id).catch(() => {}); }
    else if (name === 'done') { finished = true; on.done && on.done(d); }
    else if (name === 'error') { finished = true; on.error && on.error(d.error); }
    else if (on[name]) on[name](d);
  };
  (async () => {
    const res = await fetch(path, { ...init, signal: abort.signal });
    if (!res.ok) {
      let msg = `${res.status} ${res.statusText}`;
      try { msg = (await res.json()).error || msg; } catch (e) { /* keep the status */ }
      finished = true;
      on.error && on.error(msg);
      return;
    }
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buf = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += value;
      let end;
      while ((end = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, end);
        buf = buf.slice(end + 2);
        let name = 'message';
        const data = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('event:')) name = line.slice(6).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        }
        if (data.length) handle(name, data.join('\n'));
      }
    }
    if (!finished) { finished = true; on.error && on.error('the stream ended early'); }
  })().catch((e) => {
    if (!finished && e.name !== 'AbortError') { finished = true; on.error && on.error(String(e.message || e)); }
  });
  return {
    stop: () => {
      stopAsked = true;
      if (id !== null && !finished) stop(id).catch(() => {});
    },
    close: () => {
      // Stop by id as well: the server notices a dropped stream only at its next write, and
      // until then the search holds a core and a search slot.
      if (id !== null && !finished) stop(id).catch(() => {});
      finished = true;
      abort.abort();
    },
    get running() { return !finished; },
  };
}
