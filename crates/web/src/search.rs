//! The searches: the engine's, streamed as it deepens, the graph's searches of every position,
//! and the textbook algorithms' comparison and tree. Each runs on a blocking thread under one
//! of the server's search permits. The engine search and the graph's stream their results;
//! they stop when their page goes away (the event stream is dropped), when `POST /api/stop`
//! names them, or at the server's time cap. The comparison and the tree are refused before
//! they start when they would pass the depth, node or tree caps.

use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::Json;
use duel_engine::tree::{annotate, bounded, role, to_move, Annotated, Kind};
use duel_engine::{parse_reference, Algorithm, EngineError, Score, SearchReport, Session, Side};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::{mpsc, OwnedSemaphorePermit};
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::{Stream, StreamExt};

use crate::api::{game_request, off_thread, open, GameRef};
use crate::error::{ApiError, Body, Query};
use crate::AppState;

/// A search permit, or 429 when every slot is taken.
fn permit(st: &AppState) -> Result<OwnedSemaphorePermit, ApiError> {
    st.searches
        .clone()
        .try_acquire_owned()
        .map_err(|_| ApiError {
            status: axum::http::StatusCode::TOO_MANY_REQUESTS,
            message: match st.caps.max_searches {
                1 => "a search is running already (the server's limit is one); stop it or try \
                      again"
                    .to_string(),
                n => format!(
                    "{n} searches are running already (the server's limit); stop one or try again"
                ),
            },
        })
}

/// Runs `work` on a blocking thread holding `permit`.
async fn blocking<T: Send + 'static>(
    permit: OwnedSemaphorePermit,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        work()
    })
    .await
    .map_err(|e| ApiError {
        status: axum::http::StatusCode::INTERNAL_SERVER_ERROR,
        message: format!("the search thread failed: {e}"),
    })
}

/// A reference algorithm's depth within the server's cap, checked before anything is
/// allocated for it.
fn reference_depth(depth: u32, st: &AppState) -> Result<u32, ApiError> {
    if depth == 0 {
        return Err(ApiError::bad("depth must be at least 1"));
    }
    if depth > st.caps.max_depth {
        return Err(ApiError::bad(format!(
            "depth {depth} is above the server's cap of {}",
            st.caps.max_depth
        )));
    }
    Ok(depth)
}

/// The transposition table a search needs, in MiB: no more than one entry (16 bytes) a node
/// when it is held to a node count, else the engine's default.
fn table_mb(limits: &duel_engine::Limits, default: usize) -> usize {
    match limits.nodes {
        Some(n) => (n.saturating_mul(16) >> 20).clamp(1, default as u64) as usize,
        None => default,
    }
}

/// A value as people read it: `+35`, `win in 5`, `exact +6` when a solver gave the margin,
/// `>=+35` for a search stopped inside an iteration that had found a better move.
fn score_text(value: Score, margin: Option<i32>, partial: bool) -> String {
    match margin {
        Some(0) => "exact 0".into(),
        Some(m) => format!("exact {m:+}"),
        None if partial => format!(">={value}"),
        None => value.to_string(),
    }
}

/// A report as the page shows it; `mover` is the side to move at its root, for the value from
/// the first player's side that the graph draws.
fn report_json(s: &dyn Session, r: &SearchReport, mover: Side) -> Value {
    let lines: Vec<Value> = r
        .lines
        .iter()
        .map(|(v, pv)| {
            json!({
                "value": v.0,
                "score": v.to_string(),
                "pv": pv,
                "pv_display": s.display_line(pv),
            })
        })
        .collect();
    json!({
        "algorithm": r.algorithm,
        "depth": r.depth,
        "seldepth": r.stats.seldepth,
        "value": r.value.0,
        "value_first": r.value.0 * mover.sign(),
        "score": score_text(r.value, r.margin, r.partial),
        "decisive": r.value.is_decisive(),
        "best": r.best,
        "pv": r.pv,
        "pv_display": s.display_line(&r.pv),
        "lines": lines,
        "nodes": r.stats.nodes,
        "evals": r.stats.evals,
        "cutoffs": r.stats.cutoffs,
        "tt_hits": r.stats.tt_hits,
        "ebf": r.ebf(),
        "nps": r.nps(),
        "time_ms": r.time.as_secs_f64() * 1000.0,
        "hashfull": r.hashfull,
    })
}

/// `GET /api/search`'s query: the position, then the limits (none: until stopped, or the
/// server's time cap).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchQuery {
    game: String,
    #[serde(default)]
    eval: Option<String>,
    #[serde(default)]
    position: String,
    /// The moves played, separated by spaces.
    #[serde(default)]
    moves: String,
    depth: Option<u32>,
    nodes: Option<u64>,
    /// Milliseconds.
    time: Option<u64>,
    multipv: Option<usize>,
    threads: Option<usize>,
}

/// The search's limits within the server's caps, or a 400 naming the cap exceeded.
fn limits(q: &SearchQuery, st: &AppState) -> Result<duel_engine::Limits, ApiError> {
    let caps = &st.caps;
    if q.depth == Some(0) {
        return Err(ApiError::bad("depth must be at least 1"));
    }
    if let Some(d) = q.depth.filter(|&d| d > caps.max_depth) {
        return Err(ApiError::bad(format!(
            "depth {d} is above the server's cap of {}",
            caps.max_depth
        )));
    }
    if let Some(n) = q.nodes.filter(|&n| n > caps.max_nodes) {
        return Err(ApiError::bad(format!(
            "nodes {n} is above the server's cap of {}",
            caps.max_nodes
        )));
    }
    if q.nodes == Some(0) || q.time == Some(0) {
        return Err(ApiError::bad("nodes and time must be at least 1"));
    }
    let cap = caps.max_time;
    let time = match q.time.map(Duration::from_millis) {
        Some(t) if t > cap => {
            return Err(ApiError::bad(format!(
                "time {} ms is above the server's cap of {} ms",
                t.as_millis(),
                cap.as_millis()
            )))
        }
        Some(t) => t,
        None => cap,
    };
    Ok(duel_engine::Limits {
        depth: q.depth,
        nodes: q.nodes,
        time: Some(time),
    })
}

/// How a streamed search is stopped: `cancel`, which the work looks at between searches and
/// after each iteration (a search clears its own flag when it starts, so a stop that came
/// just before would be lost), and the running search's own flag, which ends it at once.
#[derive(Clone)]
pub(crate) struct Stop {
    cancel: Arc<AtomicBool>,
    search: Arc<AtomicBool>,
}

impl Stop {
    fn new(search: Arc<AtomicBool>) -> Self {
        Stop {
            cancel: Arc::new(AtomicBool::new(false)),
            search,
        }
    }

    pub(crate) fn stop(&self) {
        self.cancel.store(true, Ordering::Relaxed);
        self.search.store(true, Ordering::Relaxed);
    }

    fn stopped(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// Called after each iteration: passes a stop that came before the search began on to it.
    fn relay(&self) {
        if self.stopped() {
            self.search.store(true, Ordering::Relaxed);
        }
    }
}

/// Stops its search when dropped: the stream holds it, so a page that goes away (axum drops
/// the response) stops its search, and it leaves the table of running searches.
struct StopOnDrop {
    id: u64,
    stop: Stop,
    state: Arc<AppState>,
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.stop.stop();
        if let Ok(mut running) = self.state.running.lock() {
            running.remove(&self.id);
        }
    }
}

/// Registers a streamed search for `POST /api/stop` and runs `work` on a blocking thread under
/// `permit`, sending its events on a stream that begins with `start` (the id). The work hears
/// the channel and the stop; dropping the stream stops it.
fn stream(
    st: &Arc<AppState>,
    permit: OwnedSemaphorePermit,
    stop: Stop,
    work: impl FnOnce(&mpsc::Sender<Event>, &Stop) + Send + 'static,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let id = st.next_id.fetch_add(1, Ordering::Relaxed);
    st.running
        .lock()
        .map_err(|_| ApiError::bad("the server's table of searches is unusable"))?
        .insert(id, stop.clone());
    let guard = StopOnDrop {
        id,
        stop: stop.clone(),
        state: st.clone(),
    };
    let (tx, rx) = mpsc::channel::<Event>(256);
    let _ = tx.try_send(event("start", &json!({ "id": id })));
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        work(&tx, &stop);
    });
    let stream = ReceiverStream::new(rx).map(move |e| {
        let _ = &guard;
        Ok(e)
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_millis(500))))
}

fn event(name: &str, data: &Value) -> Event {
    Event::default().event(name).data(data.to_string())
}

/// `GET /api/search`: server-sent events `start` (the id for `/api/stop`), one `info` per
/// completed iteration, then `done` with the final report (or `error`).
pub async fn search(
    State(st): State<Arc<AppState>>,
    Query(q): Query<SearchQuery>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let limits = limits(&q, &st)?;
    let at = GameRef {
        game: q.game.clone(),
        eval: q.eval.clone(),
        position: q.position.clone(),
        moves: q.moves.split_whitespace().map(str::to_string).collect(),
    };
    // The search holds its session; the reports are written with a second one at the same
    // position (their lines in the terminal's notation need a position to play them from).
    let (mut s, view) = off_thread(move || Ok((open(&at)?, open(&at)?))).await?;
    if let Some(o) = s.outcome() {
        return Err(duel_engine::EngineError::GameOver(o).into());
    }
    let mut config = s.config().clone();
    if let Some(k) = q.multipv {
        if k == 0 || k > 16 {
            return Err(ApiError::bad("multipv must be between 1 and 16"));
        }
        config.multipv = k;
    }
    if let Some(t) = q.threads {
        if t == 0 || t > st.caps.max_threads {
            return Err(ApiError::bad(format!(
                "threads must be between 1 and the server's cap of {}",
                st.caps.max_threads
            )));
        }
        config.threads = t;
    }
    config.tt_mb = table_mb(&limits, config.tt_mb);
    let permit = permit(&st)?;
    let stop = Stop::new(s.stop_flag());
    stream(&st, permit, stop, move |tx, stop| {
        let mover = s.side_to_move();
        // The table is made here, off the server's own threads, and only now.
        if let Err(e) = s.set_config(config) {
            let _ = tx.blocking_send(event("error", &json!({ "error": e.to_string() })));
            return;
        }
        let mut on_iteration = |r: &SearchReport| {
            stop.relay();
            let _ = tx.blocking_send(event("info", &report_json(view.as_ref(), r, mover)));
        };
        let last = match s.search(&limits, &mut on_iteration) {
            Ok(r) => event("done", &report_json(view.as_ref(), &r, mover)),
            Err(e) => event("error", &json!({ "error": e.to_string() })),
        };
        let _ = tx.blocking_send(last);
    })
}

/// `POST /api/stop`'s body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StopReq {
    id: u64,
}

/// `POST /api/stop`: stops the search `id`; its `done` event, with the best move found so
/// far, follows on its stream. 404 when no such search runs (it may have just ended).
pub async fn stop(
    State(st): State<Arc<AppState>>,
    Body(r): Body<StopReq>,
) -> Result<Json<Value>, ApiError> {
    let running = st
        .running
        .lock()
        .map_err(|_| ApiError::bad("the server's table of searches is unusable"))?;
    match running.get(&r.id) {
        Some(stop) => {
            stop.stop();
            Ok(Json(json!({ "stopped": r.id })))
        }
        None => Err(ApiError {
            status: axum::http::StatusCode::NOT_FOUND,
            message: format!("no search {} is running", r.id),
        }),
    }
}

game_request!(
    /// `POST /api/evals`: the game's positions, for the evaluation graph.
    EvalsReq {
        /// Nodes per position (default 20,000).
        nodes: Option<u64>,
    }
);

/// The most positions one graph request may search.
const MAX_EVAL_POSITIONS: usize = 1000;
/// The most nodes per position of one graph request.
const MAX_EVAL_NODES: u64 = 1_000_000;

/// `POST /api/evals`: a node-limited search of the start and of the position after each move,
/// its value from the first player's side (the graph's convention: up is good for the first
/// player), as server-sent events: `start` (the id for `/api/stop`), one `value` a position,
/// then `done` with them all. Held to the server's node and time caps over the whole graph,
/// and stopped as `/api/search` is.
pub async fn evals(
    State(st): State<Arc<AppState>>,
    Body(r): Body<EvalsReq>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let nodes = r.nodes.unwrap_or(20_000);
    if nodes == 0 || nodes > MAX_EVAL_NODES {
        return Err(ApiError::bad(format!(
            "nodes must be between 1 and {MAX_EVAL_NODES}"
        )));
    }
    let positions = r.moves.len() + 1;
    if positions > MAX_EVAL_POSITIONS {
        return Err(ApiError::bad(format!(
            "a graph covers at most {MAX_EVAL_POSITIONS} positions"
        )));
    }
    let total = nodes.saturating_mul(positions as u64);
    if total > st.caps.max_nodes {
        return Err(ApiError::bad(format!(
            "nodes {nodes} for each of {positions} positions is {total} in all, above the \
             server's cap of {}",
            st.caps.max_nodes
        )));
    }
    // Every move is checked before the work starts, so a bad one is a 422 at once.
    let at = r.at();
    let mut s = off_thread(move || {
        open(&at)?;
        open(&GameRef {
            moves: Vec::new(),
            ..at
        })
    })
    .await?;
    let mut config = s.config().clone();
    let per_position = duel_engine::Limits::nodes(nodes);
    config.tt_mb = table_mb(&per_position, config.tt_mb);
    let permit = permit(&st)?;
    let stop = Stop::new(s.stop_flag());
    let max_time = st.caps.max_time;
    let moves = r.moves;
    stream(&st, permit, stop, move |tx, stop| {
        let start = std::time::Instant::now();
        let run = || -> Result<(Vec<Value>, bool), EngineError> {
            s.set_config(config)?;
            let mut values = Vec::with_capacity(moves.len() + 1);
            for ply in 0..=moves.len() {
                let left = max_time.saturating_sub(start.elapsed());
                if stop.stopped() || left.is_zero() {
                    return Ok((values, true));
                }
                if ply > 0 {
                    s.play(&moves[ply - 1])?;
                }
                let mover = s.side_to_move();
                let v = match s.outcome() {
                    Some(_) => match s.winner() {
                        Some(w) => Score::WIN.0 * w.sign(),
                        None => 0,
                    },
                    None => {
                        let limits = duel_engine::Limits {
                            time: Some(left),
                            ..per_position
                        };
                        let r = s.search(&limits, &mut |_| stop.relay())?;
                        // A search cut short by a stop or the time cap gives no value to draw.
                        if stop.stopped() || start.elapsed() >= max_time {
                            return Ok((values, true));
                        }
                        r.value.0 * mover.sign()
                    }
                };
                let value = json!({ "ply": ply, "value_first": v });
                let _ = tx.blocking_send(event("value", &value));
                values.push(value);
            }
            Ok((values, false))
        };
        let last = match run() {
            Ok((values, stopped)) => event(
                "done",
                &json!({ "nodes": nodes, "values": values, "stopped": stopped }),
            ),
            Err(e) => event("error", &json!({ "error": e.to_string() })),
        };
        let _ = tx.blocking_send(last);
    })
}

game_request!(
    /// `POST /api/compare`'s body.
    CompareReq {
        depth: u32,
        /// Algorithm names (`duel compare`'s); all when absent.
        #[serde(default)]
        algorithms: Option<Vec<String>>,
    }
);

/// `POST /api/compare`: every algorithm to the same depth on the position, side by side.
/// Refused before it runs when Minimax would visit more than the server's cap.
pub async fn compare(
    State(st): State<Arc<AppState>>,
    Body(r): Body<CompareReq>,
) -> Result<Json<Value>, ApiError> {
    let algorithms = match &r.algorithms {
        None => Algorithm::ALL.to_vec(),
        Some(names) => names
            .iter()
            .map(|n| Algorithm::parse(n))
            .collect::<Result<Vec<_>, _>>()?,
    };
    let depth = reference_depth(r.depth, &st)?;
    let at = r.at();
    let s = off_thread(move || open(&at)).await?;
    let cap = st.caps.max_compare_nodes;
    let permit = permit(&st)?;
    let rows = blocking(permit, move || -> Result<Value, ApiError> {
        if s.minimax_nodes(depth, cap).is_none() {
            return Err(ApiError::bad(format!(
                "Minimax to depth {depth} visits more than the server's cap of {cap} nodes \
                 here (--max-compare-nodes: the two-phase row holds them all): choose a \
                 smaller depth"
            )));
        }
        let mover = s.side_to_move();
        let rows = s.compare(depth, &algorithms)?;
        Ok(Value::Array(
            rows.iter()
                .map(|row| {
                    let mut v = report_json(s.as_ref(), &row.report, mover);
                    v["algorithm"] = json!(row.algorithm.name());
                    v["exact"] = json!(row.algorithm.is_exact());
                    v["budget"] = json!(row.budget);
                    v
                })
                .collect(),
        ))
    })
    .await??;
    Ok(Json(json!({ "depth": depth, "rows": rows })))
}

game_request!(
    /// `POST /api/tree`'s body.
    TreeReq {
        depth: u32,
        /// A reference algorithm (`minimax`, `negamax`, `alphabeta-hard`, `alphabeta`,
        /// `two-phase`).
        algorithm: String,
    }
);

/// A window edge for MAX as text: `-inf`, `+inf` or the value.
fn edge(v: Score) -> String {
    duel_engine::tree::max_value(v)
}

/// One node and its subtree as the page draws it (docs/API.md's fields). Typed rather than a
/// `serde_json::Value`: a tree at the 20,000-node cap took 118 MB as values, a map of boxed
/// values per node, against a few MB so.
#[derive(serde::Serialize)]
pub struct NodeOut {
    id: u64,
    #[serde(rename = "move")]
    mv: String,
    path: Vec<String>,
    to_move: &'static str,
    value: Option<i32>,
    value_text: Option<String>,
    bound: Option<&'static str>,
    pruned: bool,
    alpha: Option<i32>,
    beta: Option<i32>,
    alpha_text: Option<String>,
    beta_text: Option<String>,
    children: Vec<NodeOut>,
}

/// Values and windows are from MAX's side (the first player), as the texts' figures give
/// them: at a MIN node the negamax window (alpha, beta) of the side to move is (-beta, -alpha)
/// for MAX.
fn node_out(a: &Annotated<'_>, next: &mut u64, path: &mut Vec<String>) -> NodeOut {
    let id = *next;
    *next += 1;
    let n = a.node;
    let pruned = n.is_pruned();
    let here = to_move(n);
    let window = n.window.map(|(alpha, beta)| match here {
        Side::First => (alpha, beta),
        Side::Second => (-beta, -alpha),
    });
    let children = a
        .children
        .iter()
        .map(|c| {
            path.push(c.node.mv.clone());
            let v = node_out(c, next, path);
            path.pop();
            v
        })
        .collect();
    NodeOut {
        id,
        mv: n.mv.clone(),
        path: path.clone(),
        to_move: role(here),
        value: a.value.map(|v| v.0),
        value_text: (!pruned).then(|| bounded(a)),
        bound: (!pruned).then_some(match a.kind {
            Kind::Exact => "exact",
            Kind::Lower => "lower",
            Kind::Upper => "upper",
        }),
        pruned,
        alpha: window.map(|w| w.0 .0),
        beta: window.map(|w| w.1 .0),
        alpha_text: window.map(|w| edge(w.0)),
        beta_text: window.map(|w| edge(w.1)),
        children,
    }
}

/// `POST /api/tree`'s answer.
#[derive(serde::Serialize)]
pub struct TreeOut {
    report: Value,
    nodes: usize,
    tree: NodeOut,
}

/// `POST /api/tree`: the tree a reference algorithm explored, node by node in search order,
/// with the cut moves marked; refused when it has more nodes than the server's cap.
pub async fn tree(
    State(st): State<Arc<AppState>>,
    Body(r): Body<TreeReq>,
) -> Result<Json<TreeOut>, ApiError> {
    let algorithm = parse_reference(&r.algorithm)?;
    let depth = reference_depth(r.depth, &st)?;
    let at = r.at();
    let s = off_thread(move || open(&at)).await?;
    let cap = st.caps.max_tree_nodes;
    let permit = permit(&st)?;
    let out = blocking(permit, move || -> Result<TreeOut, ApiError> {
        let mover = s.side_to_move();
        let (report, root) = s.tree(algorithm, depth, cap)?;
        let mut next = 0;
        Ok(TreeOut {
            report: report_json(s.as_ref(), &report, mover),
            nodes: root.visited(),
            tree: node_out(&annotate(&root), &mut next, &mut Vec::new()),
        })
    })
    .await??;
    Ok(Json(out))
}
