//! Chess: self-play positions labelled by the games' results, the Texel fit of
//! [`duel_chess::Strong`]'s weights on them, and the Strong-against-Pst match.
//!
//! There is no database of human or engine games here, so the labels come from duel's own
//! games: each quiet position of a game gets that game's final result. One game's positions
//! share a label, so the file keeps a game's positions together and validation holds out the
//! file's tail (whole games, bar the one cut at the boundary).

use std::fmt::Write as _;
use std::io::{self, Write};
use std::time::Instant;

use duel_arena::player::{Answer, DuelPlayer, Thought, Turn, Value};
use duel_arena::{
    random_openings, run_match, Adjudication, ArenaError, Opening, Player, Schedule, Shard,
    TimeControl, WinRule,
};
use duel_chess::strong::{
    feature_name, features, phase, pst_feature, Weights, N_FEATURES, PHASE_MAX,
};
use duel_chess::{is_noisy, Chess, Pst, Strong};
use duel_core::{Evaluator, Game, Side, SplitMix64};
use duel_search::engine::{Limits, SearchConfig, Searcher};
use duel_train::texel::{adam, best_k, floats_to_pairs, pairs_to_floats, sigmoid, Adam, LN10_400};

/// Plies of random legal moves that open every game: variety, since the searches themselves are
/// deterministic at a fixed node count.
pub const OPENING_PLIES: u32 = 8;
/// A game still going after this many plies is scored a draw.
const MAX_PLIES: u32 = 300;
/// Both searches must see at least this much (centipawns, same side ahead) for
/// [`ADJUDICATE_PLIES`] plies in a row before a game is scored as won: the rest would only be
/// the conversion, and positions in a lost-won conversion teach little.
const ADJUDICATE_SCORE: i32 = 1000;
const ADJUDICATE_PLIES: u32 = 4;
/// Recorded search values are clamped to this (centipawns): beyond it a game is as good as
/// decided, and mate scores would otherwise dwarf the rest.
pub const SCORE_CLAMP: i32 = 2000;
/// Positions this close after the opening are still shaped by its random moves: not recorded.
const SKIP_AFTER_OPENING: u32 = 4;

/// The engine options duel plays chess with (the engine's own, so that self-play data comes
/// from the search that is shipped), on one thread so that a node limit gives the same game
/// every time.
pub fn search_config() -> SearchConfig {
    SearchConfig {
        threads: 1,
        ..SearchConfig::with_profile(&<Chess as duel_core::GameInfo>::SEARCH_PROFILE)
    }
}

/// `n` distinct unfinished openings of [`OPENING_PLIES`] random plies, from `seed`, by the
/// arena's opening maker.
pub fn openings(n: usize, seed: u64) -> Vec<Chess> {
    random_openings(
        n,
        OPENING_PLIES as usize,
        seed,
        |_| Chess::start(),
        |_, _| {},
        |_| true,
    )
    .iter()
    .filter_map(|o| o.position().ok())
    .collect()
}

/// A game's result in half points for White: 2 win, 1 draw, 0 loss.
pub type HalfPoints = u8;

/// A player that writes down, for each quiet position it moves in, the FEN and its search's
/// value for White.
struct Recorder<'a> {
    inner: &'a mut dyn Player<Chess>,
    out: &'a std::sync::Mutex<Vec<(String, i32)>>,
}

impl Player<Chess> for Recorder<'_> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn new_game(&mut self, start: &Chess, tc: TimeControl) -> Result<(), ArenaError> {
        self.inner.new_game(start, tc)
    }

    fn think(&mut self, turn: &Turn<'_, Chess>) -> Result<Answer, ArenaError> {
        let answer = self.inner.think(turn)?;
        let pos = turn.pos;
        if let Answer::Move(text, Thought { value: Some(v), .. }) = &answer {
            let own = match *v {
                Value::Cp(cp) => cp,
                Value::Mate(m) => m.signum() * SCORE_CLAMP,
            };
            let white_view = own * pos.side_to_move().sign();
            // Quiet: the static evaluation of a position whose best move captures, or of a
            // side in check, says little about its value; the fit only sees static values.
            let quiet = pos
                .parse_move(text)
                .is_ok_and(|mv| !pos.in_check() && !is_noisy(pos.board(), mv));
            if turn.moves.len() >= SKIP_AFTER_OPENING as usize && quiet {
                if let Ok(mut out) = self.out.lock() {
                    out.push((pos.to_text(), white_view.clamp(-SCORE_CLAMP, SCORE_CLAMP)));
                }
            }
        }
        Ok(answer)
    }
}

/// A player of `eval` at `nodes` per move, for self-play.
pub fn self_player<E: Evaluator<Chess>>(eval: E, nodes: u64) -> DuelPlayer<Chess, E> {
    DuelPlayer::new(
        "duel",
        Searcher::new(eval, search_config()),
        Some(nodes),
        None,
    )
}

/// How self-play games end early: drawn after [`MAX_PLIES`], won once both searches see
/// [`ADJUDICATE_SCORE`] for the same side [`ADJUDICATE_PLIES`] plies in a row.
const SELF_PLAY: Adjudication = Adjudication {
    max_plies: MAX_PLIES as usize,
    win: Some(WinRule {
        score: ADJUDICATE_SCORE,
        plies: ADJUDICATE_PLIES,
    }),
};

/// Plays one game from `start` between `white` and `black` (each at its own node count), by
/// the arena; returns White's result and, when `record` is given, appends the quiet positions
/// of the game to it: the FEN and the search's value of the position for White, in
/// centipawns (clamped to ±[`SCORE_CLAMP`]).
pub fn play_game(
    start: &Chess,
    white: &mut dyn Player<Chess>,
    black: &mut dyn Player<Chess>,
    record: Option<&mut Vec<(String, i32)>>,
) -> Result<HalfPoints, ArenaError> {
    let out = std::sync::Mutex::new(Vec::new());
    let mut white = Recorder {
        inner: white,
        out: &out,
    };
    let mut black = Recorder {
        inner: black,
        out: &out,
    };
    let played = duel_arena::play_game(
        [&mut white, &mut black],
        &Opening::at(start.clone()),
        [TimeControl::per_move(None, None); 2],
        &SELF_PLAY,
        1,
        "?",
    )?;
    if let (Some(record), Ok(positions)) = (record, out.into_inner()) {
        record.extend(positions);
    }
    Ok(played.result.half_points(0))
}

/// What `chess-gen` is asked for.
#[derive(Debug, Clone)]
pub struct GenConfig {
    pub games: u32,
    pub nodes: u64,
    pub seed: u64,
    pub threads: usize,
}

/// Self-play games with `eval` at a fixed node count, each from its own random opening; writes
/// `FEN;result;value` lines (result 1, 0.5 or 0 for White; the search's value for White in
/// centipawns), a game's lines together. `report` sees
/// (games done, positions written). Returns the number of positions.
pub fn generate<E: Evaluator<Chess>>(
    eval: E,
    cfg: &GenConfig,
    out: &mut impl Write,
    mut report: impl FnMut(u32, u64),
) -> io::Result<u64> {
    let starts = openings(cfg.games as usize, cfg.seed);
    let threads = cfg.threads.max(1);
    let (tx, rx) = std::sync::mpsc::channel::<(HalfPoints, Vec<(String, i32)>)>();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut written = 0u64;
    let mut done = 0u32;
    std::thread::scope(|s| -> io::Result<()> {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, starts) = (&next, &starts);
            let eval = eval.clone();
            s.spawn(move || {
                let mut white = self_player(eval.clone(), cfg.nodes);
                let mut black = self_player(eval, cfg.nodes);
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(start) = starts.get(i) else { break };
                    let mut fens = Vec::new();
                    let Ok(r) = play_game(start, &mut white, &mut black, Some(&mut fens)) else {
                        break;
                    };
                    if tx.send((r, fens)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (r, fens) in rx {
            let label = ["0", "0.5", "1"][usize::from(r)];
            for (f, v) in &fens {
                writeln!(out, "{f};{label};{v}")?;
            }
            written += fens.len() as u64;
            done += 1;
            report(done, written);
        }
        Ok(())
    })?;
    Ok(written)
}

/// What `chess-label` is asked for.
#[derive(Debug, Clone)]
pub struct LabelConfig {
    /// Positions made from each input position.
    pub variations: u32,
    /// Each variation plays 0 to this many random legal moves first.
    pub max_random_plies: u32,
    pub nodes: u64,
    pub seed: u64,
    pub threads: usize,
}

/// Positions near `roots` (each a few random legal moves away), labelled by a search of
/// `cfg.nodes` nodes with `eval`: `FEN;?;value` lines (no game result; the value for White in
/// centipawns, clamped to ±[`SCORE_CLAMP`]). Many cheap labels: the network learns from them
/// what the search with `eval` sees, where self-play gives far fewer positions per hour. Kept
/// as self-play keeps them: not in check, the search's best move not a capture or promotion.
/// Each position is searched from an empty table, so the labels do not depend on the order
/// or the threads. `report` sees (inputs done, positions written).
pub fn label<E: Evaluator<Chess>>(
    eval: E,
    roots: &[Chess],
    cfg: &LabelConfig,
    out: &mut impl Write,
    mut report: impl FnMut(usize, u64),
) -> io::Result<u64> {
    let threads = cfg.threads.max(1);
    let (tx, rx) = std::sync::mpsc::channel::<Vec<String>>();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (mut written, mut done) = (0u64, 0usize);
    let search = SearchConfig {
        // Cleared before every position: a small table keeps that cheap.
        tt_mb: 1,
        ..search_config()
    };
    std::thread::scope(|s| -> io::Result<()> {
        for _ in 0..threads {
            let (tx, next, eval, search) = (tx.clone(), &next, eval.clone(), search.clone());
            s.spawn(move || {
                let mut searcher = Searcher::new(eval, search);
                let limits = Limits::nodes(cfg.nodes);
                let mut moves = Vec::new();
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(root) = roots.get(i) else { break };
                    let mut rng = SplitMix64::new(cfg.seed ^ (i as u64).wrapping_mul(0x9E37_79B9));
                    let mut lines = Vec::new();
                    for _ in 0..cfg.variations {
                        let mut pos = Chess::from_board(root.board().clone());
                        for _ in 0..rng.below(cfg.max_random_plies as usize + 1) {
                            if pos.outcome().is_some() {
                                break;
                            }
                            pos.generate_moves(&mut moves);
                            pos.play(moves[rng.below(moves.len())]);
                        }
                        if pos.outcome().is_some() || pos.in_check() {
                            continue;
                        }
                        let pos = Chess::from_board(pos.board().clone());
                        searcher.new_game();
                        let r = searcher.search(&pos, &limits, |_| {});
                        let Some(mv) = r.best else { continue };
                        if is_noisy(pos.board(), mv) {
                            continue;
                        }
                        let v = if pos.side_to_move() == Side::First {
                            r.value.0
                        } else {
                            -r.value.0
                        };
                        let v = v.clamp(-SCORE_CLAMP, SCORE_CLAMP);
                        lines.push(format!("{};?;{v}", pos.to_text()));
                    }
                    if tx.send(lines).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for lines in rx {
            for l in &lines {
                writeln!(out, "{l}")?;
            }
            written += lines.len() as u64;
            done += 1;
            report(done, written);
        }
        Ok(())
    })?;
    Ok(written)
}

/// One line of a `chess-gen` or `chess-label` file.
#[derive(Debug)]
pub struct Record {
    pub pos: Chess,
    /// The game's result for White (1, 0.5 or 0); None for `?`, a position with no game
    /// behind it (`chess-label`).
    pub result: Option<f32>,
    /// The search's value for White in centipawns, within ±[`SCORE_CLAMP`].
    pub value: Option<i16>,
    /// The line number, for errors found later.
    pub line: usize,
}

/// A record line that cannot be read: its number, the line and what is wrong with it.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {problem}: {text}")]
pub struct RecordError {
    /// The line number, from 1.
    pub line: usize,
    /// The line.
    pub text: String,
    /// What is wrong with it.
    pub problem: RecordProblem,
}

/// What is wrong with a record line.
#[derive(Debug, thiserror::Error)]
pub enum RecordProblem {
    #[error("expected FEN;result")]
    NoResult,
    #[error("expected at most three fields, FEN;result;value")]
    TooManyFields,
    #[error("the value must be centipawns within ±{SCORE_CLAMP}")]
    Value,
    #[error("a result of ? needs a value")]
    NoValue,
    #[error("the result must be 1, 0.5, 0 or ?")]
    Result,
    #[error("{0}")]
    Position(duel_core::PositionError),
}

/// The records of `text`'s non-blank lines, `FEN;result` or `FEN;result;value`; an error
/// names the line and what is wrong with it.
pub fn records(text: &str) -> impl Iterator<Item = Result<Record, RecordError>> + '_ {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(n, line)| {
            let line = line.trim();
            let err = |problem| RecordError {
                line: n + 1,
                text: line.to_string(),
                problem,
            };
            let mut fields = line.split(';');
            let (Some(fen), Some(result)) = (fields.next(), fields.next()) else {
                return Err(err(RecordProblem::NoResult));
            };
            let value = match fields.next() {
                None => None,
                Some(v) => Some(
                    v.trim()
                        .parse::<i16>()
                        .ok()
                        .filter(|v| i32::from(v.abs()) <= SCORE_CLAMP)
                        .ok_or_else(|| err(RecordProblem::Value))?,
                ),
            };
            if fields.next().is_some() {
                return Err(err(RecordProblem::TooManyFields));
            }
            let result = match result.trim() {
                "1" => Some(1.0),
                "0.5" => Some(0.5),
                "0" => Some(0.0),
                "?" if value.is_some() => None,
                "?" => return Err(err(RecordProblem::NoValue)),
                _ => return Err(err(RecordProblem::Result)),
            };
            let pos = Chess::from_text(fen.trim()).map_err(|e| err(RecordProblem::Position(e)))?;
            Ok(Record {
                pos,
                result,
                value,
                line: n + 1,
            })
        })
}

/// Why a data set for the Strong fit was refused.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    /// A line that is no record.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// A record without a game result.
    #[error("line {0}: the Strong fit needs a game result, not ?")]
    NoResult(usize),
}

/// Labelled positions with their features computed once: the fit only ever needs these.
#[derive(Debug, Default)]
pub struct Dataset {
    /// Every position's non-zero features, one after the other.
    feats: Vec<(u16, i8)>,
    samples: Vec<Sample>,
}

#[derive(Debug, Clone, Copy)]
struct Sample {
    /// Where its features start in `feats`, and how many.
    start: u32,
    len: u16,
    phase: u8,
    /// The endgame scales (64ths) when White, then Black, is ahead ([`duel_chess::endgame::scales`]).
    scales: [u8; 2],
    /// 1, 0.5 or 0 for White (or a probability: in the tests, or once blended with `value`).
    result: f32,
    /// The search's value for White when the game was played, in centipawns, if recorded.
    value: Option<i16>,
}

impl Dataset {
    /// Adds a position with its result for White.
    pub fn push(&mut self, pos: &Chess, result: f32, scratch: &mut Vec<(u16, i8)>) {
        features(pos, scratch);
        self.samples.push(Sample {
            start: self.feats.len() as u32,
            len: scratch.len() as u16,
            phase: phase(pos) as u8,
            scales: duel_chess::endgame::scales(pos.board()).map(|x| x as u8),
            result,
            value: None,
        });
        self.feats.extend_from_slice(scratch);
    }

    /// Reads `FEN;result` or `FEN;result;value` lines ([`records`]); every line needs a game
    /// result.
    pub fn parse(text: &str) -> Result<Dataset, DatasetError> {
        let mut d = Dataset::default();
        let mut scratch = Vec::new();
        for record in records(text) {
            let Record {
                pos,
                result,
                value,
                line,
            } = record?;
            let Some(result) = result else {
                return Err(DatasetError::NoResult(line));
            };
            d.push(&pos, result, &mut scratch);
            if let Some(s) = d.samples.last_mut() {
                s.value = value;
            }
        }
        Ok(d)
    }

    /// Replaces each label that has a recorded search value by
    /// `(1 − weight)·result + weight·σ(K·value)`: the game's result says who won, the search's
    /// value how good this position was, with far less noise than one result shared by a whole
    /// game. Positions without a value keep their result.
    fn blend(&mut self, k: f64, weight: f64) {
        for s in &mut self.samples {
            if let Some(v) = s.value {
                let expected = sigmoid(k * f64::from(v));
                s.result = ((1.0 - weight) * f64::from(s.result) + weight * expected) as f32;
            }
        }
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// The first `n` positions and the rest.
    fn split(&self, n: usize) -> (&[Sample], &[Sample]) {
        self.samples.split_at(n.min(self.samples.len()))
    }

    fn feats(&self, s: &Sample) -> &[(u16, i8)] {
        &self.feats[s.start as usize..s.start as usize + usize::from(s.len)]
    }

    /// White's tapered value of `s` under float weights `w` (mg, eg interleaved).
    fn value(&self, s: &Sample, w: &[f64]) -> f64 {
        let (v, _) = self.value_and_eg_share(s, w);
        v
    }

    /// [`Dataset::value`], and how much one centipawn of endgame weight counts in it (the
    /// phase's share times the endgame scale): the gradient needs both.
    fn value_and_eg_share(&self, s: &Sample, w: &[f64]) -> (f64, f64) {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(i, c) in self.feats(s) {
            mg += w[2 * usize::from(i)] * f64::from(c);
            eg += w[2 * usize::from(i) + 1] * f64::from(c);
        }
        let ph = f64::from(s.phase) / f64::from(PHASE_MAX);
        let eg_share = s.eg_scale(eg) * (1.0 - ph);
        (mg * ph + eg * eg_share, eg_share)
    }

    /// Mean squared error of the predicted scores against the results.
    fn loss(&self, samples: &[Sample], w: &[f64], k: f64) -> f64 {
        if samples.is_empty() {
            return 0.0;
        }
        let sum: f64 = samples
            .iter()
            .map(|s| (f64::from(s.result) - sigmoid(k * self.value(s, w))).powi(2))
            .sum();
        sum / samples.len() as f64
    }

    /// The loss's gradient in `w` over `samples`, into `grad`.
    fn gradient(&self, samples: &[Sample], w: &[f64], k: f64, grad: &mut [f64]) {
        grad.iter_mut().for_each(|g| *g = 0.0);
        let scale = 2.0 / samples.len().max(1) as f64;
        for s in samples {
            let (v, eg_share) = self.value_and_eg_share(s, w);
            let p = sigmoid(k * v);
            // d/dq of (R − σ(Kq/400))², with σ in base 10.
            let d = -scale * (f64::from(s.result) - p) * p * (1.0 - p) * k * LN10_400;
            let ph = f64::from(s.phase) / f64::from(PHASE_MAX);
            // The scale is piecewise constant in the weights: its own derivative is zero.
            let (dm, de) = (d * ph, d * eg_share);
            for &(i, c) in self.feats(s) {
                grad[2 * usize::from(i)] += dm * f64::from(c);
                grad[2 * usize::from(i) + 1] += de * f64::from(c);
            }
        }
    }
}

impl Sample {
    /// The share of an endgame value `eg` (White's) the evaluation keeps.
    fn eg_scale(&self, eg: f64) -> f64 {
        f64::from(self.scales[usize::from(eg <= 0.0)]) / 64.0
    }
}

fn to_floats(w: &Weights) -> Vec<f64> {
    pairs_to_floats(N_FEATURES, |i| w.get(i))
}

fn to_weights(w: &[f64]) -> Weights {
    let mut out = Weights::zero();
    floats_to_pairs(w, |i, p| out.set(i, p));
    out
}

/// The K minimising the loss of weights `w`.
fn fit_k(data: &Dataset, samples: &[Sample], w: &[f64]) -> f64 {
    best_k(0.05, 5.0, |k| data.loss(samples, w, k))
}

/// What `chess-fit` is asked for.
#[derive(Debug, Clone)]
pub struct FitConfig {
    pub valid_percent: u32,
    pub epochs: u32,
    pub learning_rate: f64,
    /// L2 penalty `λ·Σ(w − w_init)²` (w in centipawns) added to the mean squared error: one
    /// game's positions share its result, so a few thousand games are far fewer independent
    /// labels than positions, and the rare features (a queen with 25 squares) overfit without it.
    pub lambda: f64,
    /// How much of each label is the recorded search value rather than the game's result
    /// (0: Texel's pure results; [`Dataset::blend`]).
    pub value_weight: f64,
}

/// The fit's result: the weights (rounded, recentred) and what it printed.
pub struct FitResult {
    pub weights: Weights,
    pub k: f64,
    pub summary: String,
}

/// Texel's method: K fitted for the starting weights `init`, then the weights by full-batch
/// Adam on the mean squared error, with the last `valid_percent` of the positions held out.
pub fn fit(
    data: &mut Dataset,
    init: &Weights,
    cfg: &FitConfig,
    mut log: impl FnMut(&str),
) -> FitResult {
    let n_valid = data.len() * cfg.valid_percent.min(90) as usize / 100;
    let mut w = to_floats(init);
    // K maps the starting weights' values to results; the recorded search values are on the
    // same scale (the games' evaluator), so the same K turns them into expected scores.
    let k = fit_k(data, data.split(data.len() - n_valid).0, &w);
    if cfg.value_weight > 0.0 {
        data.blend(k, cfg.value_weight);
    }
    let data = &*data;
    let (train, valid) = data.split(data.len() - n_valid);
    let mut summary = String::new();
    let _ = writeln!(
        summary,
        "{} positions: {} train, {} validation; K = {k:.4}; value weight {}; lambda {:e}, {} epochs, learning rate {}",
        data.len(),
        train.len(),
        valid.len(),
        cfg.value_weight,
        cfg.lambda,
        cfg.epochs,
        cfg.learning_rate
    );
    let _ = writeln!(
        summary,
        "start: train loss {:.6}, validation loss {:.6}",
        data.loss(train, &w, k),
        data.loss(valid, &w, k)
    );
    log(summary.trim_end());
    let adam_cfg = Adam {
        epochs: cfg.epochs,
        learning_rate: cfg.learning_rate,
        lambda: cfg.lambda,
        log_every: 50,
    };
    adam(
        &mut w,
        &adam_cfg,
        |w, grad| data.gradient(train, w, k, grad),
        |w| (data.loss(train, w, k), data.loss(valid, w, k)),
        &mut log,
    );
    recentre(data, train, &mut w);
    let weights = to_weights(&w);
    let wr = to_floats(&weights);
    let _ = writeln!(
        summary,
        "end ({} epochs, rounded weights): train loss {:.6}, validation loss {:.6}",
        cfg.epochs,
        data.loss(train, &wr, k),
        data.loss(valid, &wr, k)
    );
    FitResult {
        weights,
        k,
        summary,
    }
}

/// Moves each piece's average table value into its material weight, which changes no
/// evaluation (a piece always stands on one square and has one mobility count, so every
/// table's features add up to the material count) but makes `material.*` read as piece values.
/// Squares are averaged uniformly, mobility counts by how often the training positions have
/// them; the king's table is centred on zero.
fn recentre(data: &Dataset, train: &[Sample], w: &mut [f64]) {
    let mut freq = vec![0u64; N_FEATURES];
    for s in train {
        for &(i, c) in data.feats(s) {
            freq[usize::from(i)] += u64::from(c.unsigned_abs());
        }
    }
    let index = |name: &str| (0..N_FEATURES).find(|&i| feature_name(i) == name);
    let names = ["pawn", "knight", "bishop", "rook", "queen", "king"];
    for (p, piece) in names.iter().enumerate() {
        let mut groups: Vec<(Vec<usize>, bool)> = Vec::new();
        let squares: Vec<usize> = (0..64)
            .filter(|&sq| p != 0 || (8..56).contains(&sq))
            .map(|sq| pst_feature(p, sq))
            .collect();
        groups.push((squares, false));
        let mobility: Vec<usize> = (0..N_FEATURES)
            .filter(|&i| feature_name(i).starts_with(&format!("mobility.{piece}.")))
            .collect();
        if !mobility.is_empty() {
            groups.push((mobility, true));
        }
        let material = index(&format!("material.{piece}"));
        for (members, weighted) in groups {
            for phase in 0..2 {
                let (mut sum, mut total) = (0.0, 0.0);
                for &i in &members {
                    let f = if weighted { freq[i] as f64 } else { 1.0 };
                    sum += f * w[2 * i + phase];
                    total += f;
                }
                if total == 0.0 {
                    continue;
                }
                let mean = sum / total;
                for &i in &members {
                    w[2 * i + phase] -= mean;
                }
                if let Some(mat) = material {
                    w[2 * mat + phase] += mean;
                }
            }
        }
    }
}

/// An in-process player of `eval` at `nodes` per move.
fn player<E: Evaluator<Chess>>(
    name: &str,
    eval: E,
    nodes: u64,
) -> Result<Box<dyn Player<Chess>>, ArenaError> {
    let searcher = Searcher::new(eval, search_config());
    Ok(Box::new(DuelPlayer::new(name, searcher, Some(nodes), None)))
}

/// Strong (with `weights`) against Pst at `nodes` per move, each of `n_openings` random
/// openings played with both colours, by the arena, games ended early as self-play's are. Returns the summary; `log` sees a line per
/// opening.
pub fn play_match(
    weights: Weights,
    nodes: u64,
    n_openings: usize,
    seed: u64,
    mut log: impl FnMut(&str),
) -> Result<String, ArenaError> {
    let starts: Vec<Opening<Chess>> = openings(n_openings, seed)
        .into_iter()
        .map(Opening::at)
        .collect();
    let start = Instant::now();
    let schedule = Schedule {
        games: 2 * starts.len(),
        openings: &starts,
        controls: [TimeControl::per_move_nodes(nodes); 2],
        concurrency: 1,
        shard: Shard::WHOLE,
        adjudication: SELF_PLAY,
    };
    let strong = || player("strong", Strong::new(weights.clone()), nodes);
    let pst = || player("pst", Pst, nodes);
    let mut pair = [0u8; 2];
    let standings = run_match(&strong, &pst, &schedule, |g, played, s| {
        // Half points for Strong: as White, then as Black.
        pair[g % 2] = played.result.half_points(g);
        if g % 2 == 1 {
            let t = s.tally;
            log(&format!(
                "opening {:>3} {}: strong {} as White, {} as Black; W/D/L {}/{}/{}",
                g / 2 + 1,
                starts[g / 2].start.to_text(),
                ["loses", "draws", "wins"][usize::from(pair[0])],
                ["loses", "draws", "wins"][usize::from(pair[1])],
                t.wins,
                t.draws,
                t.losses
            ));
        }
        true
    })?;
    let (score, elo) = duel_train::matches::score_lines("strong", &standings);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "strong vs pst, {nodes} nodes per move, {} openings of {OPENING_PLIES} random plies (seed {seed}), {} games",
        starts.len(),
        standings.tally.games()
    );
    let _ = writeln!(out, "{score}");
    let _ = writeln!(out, "{elo}");
    let _ = writeln!(out, "time {:.1} s", start.elapsed().as_secs_f64());
    Ok(out)
}

/// Positions along seeded random games: varied material, phases and pawn structures.
#[cfg(test)]
pub(crate) fn random_positions(n: usize, seed: u64) -> Vec<Chess> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < n {
        let mut pos = Chess::start();
        for _ in 0..rng.below(120) {
            if pos.outcome().is_some() {
                break;
            }
            pos.generate_moves(&mut moves);
            pos.play(moves[rng.below(moves.len())]);
        }
        if pos.outcome().is_none() {
            out.push(Chess::from_text(&pos.to_text()).unwrap());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Labels that are the exact expected scores of a known linear model: the fit must find
    /// its K and predict its values, from a different starting point.
    #[test]
    fn fit_recovers_a_known_model() {
        let mut truth = Weights::hand();
        let mut rng = SplitMix64::new(7);
        for i in 0..N_FEATURES {
            if !feature_name(i).starts_with("pst.") {
                let [mg, eg] = truth.get(i);
                let r = |rng: &mut SplitMix64| rng.below(41) as i32 - 20;
                truth.set(i, [mg + r(&mut rng), eg + r(&mut rng)]);
            }
        }
        let k_true = 1.3;
        let positions = random_positions(3000, 11);
        let mut data = Dataset::default();
        let mut scratch = Vec::new();
        let tw = to_floats(&truth);
        for pos in &positions {
            data.push(pos, 0.0, &mut scratch);
            let s = *data.samples.last().unwrap();
            data.samples.last_mut().unwrap().result = sigmoid(k_true * data.value(&s, &tw)) as f32;
        }
        let k = fit_k(&data, &data.samples, &tw);
        assert!((k - k_true).abs() < 0.01, "K {k}");

        // Start from the hand values (material right, the rest off by up to 20 cp), K fixed at
        // the fitted value for them: the weights must move to predict the model.
        let cfg = FitConfig {
            valid_percent: 10,
            epochs: 400,
            learning_rate: 2.0,
            lambda: 0.0,
            value_weight: 0.0,
        };
        let r = fit(&mut data, &Weights::hand(), &cfg, |_| {});
        let fitted = to_floats(&r.weights);
        let hand = to_floats(&Weights::hand());
        // Compared as expected scores: the loss, like a game, hardly tells +900 from +1200.
        let err = |w: &[f64]| {
            data.samples
                .iter()
                .map(|s| (sigmoid(k * data.value(s, w)) - sigmoid(k * data.value(s, &tw))).abs())
                .sum::<f64>()
                / data.len() as f64
        };
        let (before, after) = (err(&hand), err(&fitted));
        assert!(
            after < before / 3.0 && after < 0.01,
            "mean |score error| {before:.4} -> {after:.4}"
        );
        let n_valid = data.len() / 10;
        let valid = &data.samples[data.len() - n_valid..];
        assert!(data.loss(valid, &fitted, r.k) < data.loss(valid, &hand, r.k) / 3.0);
    }

    #[test]
    fn recentring_changes_no_value() {
        let positions = random_positions(300, 5);
        let mut data = Dataset::default();
        let mut scratch = Vec::new();
        for pos in &positions {
            data.push(pos, 0.5, &mut scratch);
        }
        let mut w = to_floats(&Weights::hand());
        let mut rng = SplitMix64::new(3);
        w.iter_mut().for_each(|x| *x += rng.below(21) as f64 - 10.0);
        let before: Vec<f64> = data.samples.iter().map(|s| data.value(s, &w)).collect();
        recentre(&data, &data.samples, &mut w);
        for (s, b) in data.samples.iter().zip(before) {
            assert!((data.value(s, &w) - b).abs() < 1e-6);
        }
    }

    #[test]
    fn bad_data_lines_are_errors() {
        assert!(Dataset::parse("8/8/8/8/8/8/8/8 w - - 0 1;1").is_err());
        assert!(Dataset::parse(&format!("{};2", duel_chess::START_FEN)).is_err());
        assert!(Dataset::parse(duel_chess::START_FEN).is_err());
        let d = Dataset::parse(&format!(
            "{};0.5\n\n{};1\n",
            duel_chess::START_FEN,
            duel_chess::START_FEN
        ))
        .unwrap();
        assert_eq!(d.len(), 2);
        let fen = duel_chess::START_FEN;
        assert!(
            Dataset::parse(&format!("{fen};1;2001")).is_err(),
            "value too large"
        );
        assert!(Dataset::parse(&format!("{fen};1;x")).is_err());
        assert!(
            Dataset::parse(&format!("{fen};1;20;3")).is_err(),
            "four fields"
        );
        let e = Dataset::parse(&format!("{fen};?;20"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("needs a game result"), "{e}");
    }

    /// A recorded value moves the label towards its expected score by the weight given;
    /// a position without one keeps its result.
    #[test]
    fn labels_blend_result_and_search_value() {
        let fen = duel_chess::START_FEN;
        let mut d = Dataset::parse(&format!("{fen};1;0\n{fen};0;400\n{fen};0.5\n")).unwrap();
        let k = 1.0;
        d.blend(k, 0.25);
        let r: Vec<f64> = d.samples.iter().map(|s| f64::from(s.result)).collect();
        // σ(0) = 0.5, σ(400 cp) = 10/11.
        assert!((r[0] - (0.75 + 0.25 * 0.5)).abs() < 1e-6, "{r:?}");
        assert!((r[1] - 0.25 * 10.0 / 11.0).abs() < 1e-6, "{r:?}");
        assert_eq!(r[2], 0.5);
    }

    #[test]
    fn games_end_and_openings_differ() {
        let o = openings(4, 9);
        assert_eq!(o.len(), 4);
        let mut a = self_player(Pst, 300);
        let mut b = self_player(Strong::new(Weights::hand()), 300);
        let mut fens = Vec::new();
        let r = play_game(&o[0], &mut a, &mut b, Some(&mut fens)).unwrap();
        assert!(r <= 2);
        assert!(!fens.is_empty());
        assert!(fens.iter().all(|(f, _)| Chess::from_text(f).is_ok()));
        assert!(fens.iter().all(|&(_, v)| v.abs() <= SCORE_CLAMP));
    }
}
