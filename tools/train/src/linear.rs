//! What the self-play data and the Texel fit of a linear, tapered evaluator need whatever the
//! game: chess's and xiangqi's Strong. A game says what its features are ([`Linear`]); the
//! rest is here: self-play at fixed nodes from random openings, recording the quiet positions
//! with the game's result and the search's value, the data set, the fit and the match.
//!
//! There is no database of human or engine games here, so the labels come from duel's own
//! games: each quiet position of a game gets that game's final result. One game's positions
//! share a label, so the file keeps a game's positions together and validation holds out the
//! file's tail (whole games, bar the one cut at the boundary). "White" below is the side that
//! moves first (Red in xiangqi); results and values are given for it.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::time::Instant;

use duel_arena::player::{Answer, DuelPlayer, Thought, Turn, Value};
use duel_arena::{
    random_openings, run_match, Adjudication, ArenaError, Opening, Player, Schedule, Shard,
    TimeControl, WinRule,
};
use duel_core::{Evaluator, Game, GameInfo};
use duel_search::searcher::SearchConfig;
use duel_search::searcher::Searcher;
use duel_train::texel::{adam, best_k, floats_to_pairs, pairs_to_floats, sigmoid, Adam, LN10_400};

/// A game whose evaluator is linear in its weights, tapered between a middlegame and an
/// endgame value by a phase: what the generic pipeline asks of it.
pub trait Linear: GameInfo + Clone + Send + Sync + 'static {
    /// The phase with every phase piece on the board.
    const PHASE_MAX: i32;
    /// The names after `material.`, `pst.` and `mobility.` of the pieces whose tables are
    /// recentred into their material weight.
    const PIECES: &'static [&'static str];
    /// Whether the position is worth recording when its search plays `mv`: not in check, and
    /// `mv` no capture or promotion (a static value says little about such positions).
    fn quiet(&self, mv: Self::Move) -> bool;
    /// The non-zero features, first side minus second, into `out` (cleared first).
    fn features(&self, out: &mut Vec<(u16, i8)>);
    /// The phase, 0 to [`Linear::PHASE_MAX`].
    fn phase(&self) -> i32;
    /// The endgame scales (64ths) when the first side, then the second, is ahead.
    fn scales(&self) -> [u8; 2] {
        [64, 64]
    }
    /// The name of feature `i` as the weights file spells it.
    fn feature_name(i: usize) -> String;
    /// The piece-square features of piece `PIECES[p]` that its pieces can stand on.
    fn pst_features(p: usize) -> Vec<usize>;
}

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

/// The engine options duel plays the game with (the engine's own, so that self-play data comes
/// from the search that is shipped), on one thread so that a node limit gives the same game
/// every time.
pub fn search_config<G: GameInfo>() -> SearchConfig {
    SearchConfig {
        threads: 1,
        ..SearchConfig::with_profile(&G::SEARCH_PROFILE)
    }
}

/// `n` distinct unfinished openings of [`OPENING_PLIES`] random plies, from `seed`, by the
/// arena's opening maker.
pub fn openings<G: Game>(n: usize, seed: u64) -> Vec<G> {
    random_openings(
        n,
        OPENING_PLIES as usize,
        seed,
        |_| G::start(),
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
struct Recorder<'a, G: Linear> {
    inner: &'a mut dyn Player<G>,
    out: &'a std::sync::Mutex<Vec<(String, i32)>>,
}

impl<G: Linear> Player<G> for Recorder<'_, G> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn new_game(&mut self, start: &G, tc: TimeControl) -> Result<(), ArenaError> {
        self.inner.new_game(start, tc)
    }

    fn think(&mut self, turn: &Turn<'_, G>) -> Result<Answer, ArenaError> {
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
            let quiet = pos.parse_move(text).is_ok_and(|mv| pos.quiet(mv));
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
pub fn self_player<G: Linear, E: Evaluator<G>>(eval: E, nodes: u64) -> DuelPlayer<G, E> {
    DuelPlayer::new(
        "duel",
        Searcher::new(eval, search_config::<G>()),
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
pub fn play_game<G: Linear>(
    start: &G,
    white: &mut dyn Player<G>,
    black: &mut dyn Player<G>,
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

/// What a `-gen` command is asked for.
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
pub fn generate<G: Linear, E: Evaluator<G>>(
    eval: E,
    cfg: &GenConfig,
    out: &mut impl Write,
    mut report: impl FnMut(u32, u64),
) -> io::Result<u64> {
    let starts = openings::<G>(cfg.games as usize, cfg.seed);
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

/// One line of a `-gen` file (or `chess-label`'s).
#[derive(Debug)]
pub struct Record<G> {
    pub pos: G,
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
pub fn records<G: Game>(text: &str) -> impl Iterator<Item = Result<Record<G>, RecordError>> + '_ {
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
            let pos = G::from_text(fen.trim()).map_err(|e| err(RecordProblem::Position(e)))?;
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
#[derive(Debug)]
pub struct Dataset<G> {
    /// Every position's non-zero features, one after the other.
    feats: Vec<(u16, i8)>,
    pub(crate) samples: Vec<Sample>,
    game: std::marker::PhantomData<G>,
}

impl<G> Default for Dataset<G> {
    fn default() -> Self {
        Dataset {
            feats: Vec::new(),
            samples: Vec::new(),
            game: std::marker::PhantomData,
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Sample {
    /// Where its features start in `feats`, and how many.
    start: u32,
    len: u16,
    phase: u8,
    /// The endgame scales (64ths) when the first side, then the second, is ahead
    /// ([`Linear::scales`]).
    scales: [u8; 2],
    /// 1, 0.5 or 0 for the first side (or a probability: in the tests, or once blended
    /// with `value`).
    pub(crate) result: f32,
    /// The search's value for White when the game was played, in centipawns, if recorded.
    value: Option<i16>,
}

impl<G: Linear> Dataset<G> {
    /// Adds a position with its result for White.
    pub fn push(&mut self, pos: &G, result: f32, scratch: &mut Vec<(u16, i8)>) {
        pos.features(scratch);
        self.samples.push(Sample {
            start: self.feats.len() as u32,
            len: scratch.len() as u16,
            phase: pos.phase() as u8,
            scales: pos.scales(),
            result,
            value: None,
        });
        self.feats.extend_from_slice(scratch);
    }

    /// Reads `FEN;result` or `FEN;result;value` lines ([`records`]); every line needs a game
    /// result.
    pub fn parse(text: &str) -> Result<Dataset<G>, DatasetError> {
        let mut d = Dataset::default();
        let mut scratch = Vec::new();
        for record in records::<G>(text) {
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
    pub(crate) fn blend(&mut self, k: f64, weight: f64) {
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

    pub(crate) fn feats(&self, s: &Sample) -> &[(u16, i8)] {
        &self.feats[s.start as usize..s.start as usize + usize::from(s.len)]
    }

    /// White's tapered value of `s` under float weights `w` (mg, eg interleaved).
    pub(crate) fn value(&self, s: &Sample, w: &[f64]) -> f64 {
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
        let ph = f64::from(s.phase) / f64::from(G::PHASE_MAX);
        let eg_share = s.eg_scale(eg) * (1.0 - ph);
        (mg * ph + eg * eg_share, eg_share)
    }

    /// Mean squared error of the predicted scores against the results.
    pub(crate) fn loss(&self, samples: &[Sample], w: &[f64], k: f64) -> f64 {
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
            let ph = f64::from(s.phase) / f64::from(G::PHASE_MAX);
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

/// Weights as the fit holds them: (mg, eg) interleaved, as floats.
pub(crate) fn to_floats(w: &[[i32; 2]]) -> Vec<f64> {
    pairs_to_floats(w.len(), |i| w[i])
}

/// Floats rounded back to (mg, eg) pairs.
pub(crate) fn to_pairs(w: &[f64]) -> Vec<[i32; 2]> {
    let mut out = vec![[0; 2]; w.len() / 2];
    floats_to_pairs(w, |i, p| out[i] = p);
    out
}

/// The K minimising the loss of weights `w`.
pub(crate) fn fit_k<G: Linear>(data: &Dataset<G>, samples: &[Sample], w: &[f64]) -> f64 {
    best_k(0.05, 5.0, |k| data.loss(samples, w, k))
}

/// What a `-fit` command is asked for.
#[derive(Debug, Clone)]
pub struct FitConfig {
    pub valid_percent: u32,
    pub epochs: u32,
    pub learning_rate: f64,
    /// L2 penalty `λ·Σ(w − w_init)²` (w in centipawns) added to the mean squared error: one
    /// game's positions share its result, so a few thousand games are far fewer independent
    /// labels than positions, and the rare features (a chess queen with 25 squares) overfit
    /// without it.
    pub lambda: f64,
    /// How much of each label is the recorded search value rather than the game's result
    /// (0: Texel's pure results; [`Dataset::blend`]).
    pub value_weight: f64,
}

/// The fit's result: the weights (rounded, recentred) and what it printed.
pub struct FitResult {
    /// (mg, eg) per feature.
    pub weights: Vec<[i32; 2]>,
    pub k: f64,
    pub summary: String,
}

/// Texel's method: K fitted for the starting weights `init`, then the weights by full-batch
/// Adam on the mean squared error, with the last `valid_percent` of the positions held out.
pub fn fit<G: Linear>(
    data: &mut Dataset<G>,
    init: &[[i32; 2]],
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
    let weights = to_pairs(&w);
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
pub(crate) fn recentre<G: Linear>(data: &Dataset<G>, train: &[Sample], w: &mut [f64]) {
    let n = w.len() / 2;
    let mut freq = vec![0u64; n];
    for s in train {
        for &(i, c) in data.feats(s) {
            freq[usize::from(i)] += u64::from(c.unsigned_abs());
        }
    }
    let names: Vec<String> = (0..n).map(G::feature_name).collect();
    let index = |name: &str| names.iter().position(|n| n == name);
    for (p, piece) in G::PIECES.iter().enumerate() {
        let mut groups: Vec<(Vec<usize>, bool)> = vec![(G::pst_features(p), false)];
        let mobility: Vec<usize> = (0..n)
            .filter(|&i| names[i].starts_with(&format!("mobility.{piece}.")))
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
fn player<G: Linear, E: Evaluator<G>>(
    name: &str,
    eval: E,
    nodes: u64,
) -> Result<Box<dyn Player<G>>, ArenaError> {
    let searcher = Searcher::new(eval, search_config::<G>());
    Ok(Box::new(DuelPlayer::new(name, searcher, Some(nodes), None)))
}

/// `first` against `second` (each a name and an evaluator) at `nodes` per move, each of
/// `n_openings` random openings played with both colours, by the arena, games ended early as
/// self-play's are. Returns the summary; `log` sees a line per opening.
pub fn play_match<G: Linear, A: Evaluator<G>, B: Evaluator<G>>(
    first: (&str, A),
    second: (&str, B),
    nodes: u64,
    n_openings: usize,
    seed: u64,
    mut log: impl FnMut(&str),
) -> Result<String, ArenaError> {
    let starts: Vec<Opening<G>> = openings::<G>(n_openings, seed)
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
    let (a, b) = (first.0, second.0);
    let one = || player(a, first.1.clone(), nodes);
    let two = || player(b, second.1.clone(), nodes);
    let mut pair = [0u8; 2];
    let standings = run_match(&one, &two, &schedule, |g, played, s| {
        // Half points for the first player: with the first side, then the second.
        pair[g % 2] = played.result.half_points(g);
        if g % 2 == 1 {
            let t = s.tally;
            log(&format!(
                "opening {:>3} {}: {a} {} as {}, {} as {}; W/D/L {}/{}/{}",
                g / 2 + 1,
                starts[g / 2].start.to_text(),
                ["loses", "draws", "wins"][usize::from(pair[0])],
                G::SIDE_NAMES[0],
                ["loses", "draws", "wins"][usize::from(pair[1])],
                G::SIDE_NAMES[1],
                t.wins,
                t.draws,
                t.losses
            ));
        }
        true
    })?;
    let (score, elo) = duel_train::matches::score_lines(a, &standings);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{a} vs {b}, {nodes} nodes per move, {} openings of {OPENING_PLIES} random plies (seed {seed}), {} games",
        starts.len(),
        standings.tally.games()
    );
    let _ = writeln!(out, "{score}");
    let _ = writeln!(out, "{elo}");
    let _ = writeln!(out, "time {:.1} s", start.elapsed().as_secs_f64());
    Ok(out)
}
