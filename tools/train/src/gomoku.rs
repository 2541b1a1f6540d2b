//! Gomoku: self-play positions labelled by the games' results, and the Texel fit of
//! [`duel_gomoku::Patterns`]' weights on them.
//!
//! As for chess, the labels come from duel's own games only: each position of a game whose
//! evaluation is ordinary (no five to make or block, no four-three or better for the side to
//! move: [`Patterns::features`] gives its features) gets the game's final result. A game's
//! positions stay together in the file, and validation holds out the file's tail.

use std::fmt::Write as _;
use std::io::{self, Write};

use duel_arena::random_openings;
use duel_core::{Evaluator, Game, GameInfo, Outcome, Side, SplitMix64};
use duel_gomoku::weights::{PatternWeights, FEATURE_NAMES, N_FEATURES, SCALE};
use duel_gomoku::{Gomoku, Patterns, ORDINARY_MAX};
use duel_search::searcher::{Limits, SearchConfig, Searcher};
use duel_train::texel::{adam, best_k, floats_to_pairs, pairs_to_floats, sigmoid, Adam, LN10_400};

/// Positions this close after the opening are still shaped by its random moves: not recorded.
const SKIP_AFTER_OPENING: usize = 2;

/// What `gomoku-gen` is asked for.
#[derive(Debug, Clone)]
pub struct GenConfig {
    pub games: u32,
    pub nodes: u64,
    pub seed: u64,
    /// What the games are like.
    pub like: GameConfig,
}

/// What the self-play games are like.
#[derive(Debug, Clone, clap::Args)]
pub struct GameConfig {
    /// The variant, as after `gomoku:` in a game name (`renju`, `standard:15`); empty:
    /// freestyle 15x15.
    #[arg(long, default_value = "")]
    pub variant: String,
    /// Random plies of each opening: the centre, then cells within two of a stone.
    #[arg(long, default_value_t = 6)]
    pub opening_plies: u32,
    /// Percent of the later moves played at random among the candidates, for variety: the
    /// searches are deterministic at a fixed node count.
    #[arg(long, default_value_t = 3)]
    pub random_percent: u32,
    /// A game still going after this many plies is a draw.
    #[arg(long, default_value_t = 225)]
    pub max_plies: u32,
}

/// Why a generation could not run.
#[derive(Debug, thiserror::Error)]
pub enum GenError {
    #[error("gomoku variant: {0}")]
    Variant(#[from] duel_core::PositionError),
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// `n` distinct openings of `plies` random candidate moves in the variant of `start`, none
/// decisive already, by the arena's opening maker.
pub fn openings(start: &Gomoku, n: usize, plies: u32, seed: u64) -> Vec<Gomoku> {
    let patterns = Patterns::default();
    random_openings(
        n,
        plies as usize,
        seed,
        |_| start.clone(),
        |pos, moves| patterns.prune_moves(pos, moves),
        |pos| Patterns::features(pos).is_some(),
    )
    .iter()
    .filter_map(|o| o.position().ok())
    .collect()
}

/// One game of self-play from `start` by `searcher` (both sides) at `cfg.nodes` per move;
/// returns Black's result (1, 0.5, 0) and the texts of the positions to record.
fn play_game<E: Evaluator<Gomoku>>(
    searcher: &mut Searcher<Gomoku, E>,
    start: &Gomoku,
    cfg: &GenConfig,
    rng: &mut SplitMix64,
) -> (f32, Vec<String>) {
    let mut pos = start.clone();
    let mut texts = Vec::new();
    let mut moves = Vec::new();
    let limits = Limits::nodes(cfg.nodes);
    let opening = pos.moves_played().len();
    searcher.new_game();
    while pos.outcome().is_none() && pos.moves_played().len() < cfg.like.max_plies as usize {
        if rng.below(100) < cfg.like.random_percent as usize {
            pos.generate_moves(&mut moves);
            Patterns::default().prune_moves(&pos, &mut moves);
            pos.play(moves[rng.below(moves.len())]);
            continue;
        }
        let report = searcher.search(&pos, &limits, |_| {});
        let Some(best) = report.best else { break };
        // A proven result ends the game: the rest is the conversion, which the search has
        // already seen through.
        if report.value.is_decisive() {
            let to_move_wins = report.value.is_win();
            let black_wins = to_move_wins == (pos.side_to_move() == Side::First);
            return (if black_wins { 1.0 } else { 0.0 }, texts);
        }
        if pos.moves_played().len() >= opening + SKIP_AFTER_OPENING
            && Patterns::features(&pos).is_some()
        {
            texts.push(pos.to_text());
        }
        pos.play(best);
    }
    let result = match pos.outcome() {
        None | Some(Outcome::Draw) => 0.5,
        // The side to move has won or lost; Black's view.
        Some(o) => {
            let to_move_wins = o == Outcome::Win;
            if to_move_wins == (pos.side_to_move() == Side::First) {
                1.0
            } else {
                0.0
            }
        }
    };
    (result, texts)
}

/// Self-play games with `eval` at a fixed node count on one thread, each from its own random
/// opening; writes `position;result` lines (the position as Gomoku's text, result 1, 0.5 or 0
/// for Black), a game's lines together. `report` sees (games done, positions written). Returns
/// the number of positions.
pub fn generate<E: Evaluator<Gomoku>>(
    eval: E,
    cfg: &GenConfig,
    out: &mut impl Write,
    mut report: impl FnMut(u32, u64),
) -> Result<u64, GenError> {
    let start = <Gomoku as GameInfo>::variant(&cfg.like.variant)?;
    let starts = openings(&start, cfg.games as usize, cfg.like.opening_plies, cfg.seed);
    let config = SearchConfig {
        threads: 1,
        ..SearchConfig::with_profile(&<Gomoku as GameInfo>::SEARCH_PROFILE)
    };
    let mut searcher = Searcher::new(eval, config);
    let mut rng = SplitMix64::new(cfg.seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut written = 0u64;
    for (i, s) in starts.iter().enumerate() {
        let (result, texts) = play_game(&mut searcher, s, cfg, &mut rng);
        for t in &texts {
            writeln!(out, "{t};{result}")?;
        }
        written += texts.len() as u64;
        report(i as u32 + 1, written);
    }
    Ok(written)
}

/// A bad line of a `gomoku-gen` file.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct DataError {
    pub line: usize,
    pub reason: String,
}

/// One position: its features (side to move first) and its label, the side to move's result.
#[derive(Debug, Clone)]
struct Sample {
    f: [[f64; N_FEATURES]; 2],
    result: f64,
}

/// Positions to fit on, in file order.
#[derive(Debug, Default)]
pub struct Dataset {
    samples: Vec<Sample>,
}

impl Dataset {
    /// Reads `position;result` lines (blank lines skipped). A position whose evaluation is
    /// decisive (none that `gomoku-gen` writes) is skipped: it has no ordinary features.
    pub fn parse(text: &str) -> Result<Dataset, DataError> {
        let mut samples = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let bad = |reason: String| DataError {
                line: n + 1,
                reason,
            };
            let (position, result) = line
                .split_once(';')
                .ok_or_else(|| bad("expected `position;result`".into()))?;
            let black: f64 = match result.trim() {
                "1" => 1.0,
                "0.5" => 0.5,
                "0" => 0.0,
                other => return Err(bad(format!("result {other}: not 1, 0.5 or 0"))),
            };
            let pos = Gomoku::from_text(position).map_err(|e| bad(e.to_string()))?;
            let Some(f) = Patterns::features(&pos) else {
                continue;
            };
            let result = if pos.side_to_move() == Side::First {
                black
            } else {
                1.0 - black
            };
            samples.push(Sample {
                f: f.map(|side| side.map(f64::from)),
                result,
            });
        }
        Ok(Dataset { samples })
    }

    pub fn len(&self) -> usize {
        self.samples.len()
    }

    fn split(&self, n: usize) -> (&[Sample], &[Sample]) {
        self.samples.split_at(n)
    }
}

/// The value of a sample under weights `w` (to move, then waiting, per feature, in eighths),
/// in evaluation units, and whether the evaluator's clamp holds it.
fn value(s: &Sample, w: &[f64]) -> (f64, bool) {
    let mut v = 0.0;
    for i in 0..N_FEATURES {
        v += w[2 * i] * s.f[0][i] + w[2 * i + 1] * s.f[1][i];
    }
    let v = v / f64::from(SCALE);
    let max = f64::from(ORDINARY_MAX);
    (v.clamp(-max, max), v.abs() >= max)
}

/// Mean squared error between the expected scores and the results.
fn loss(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (sigmoid(k * value(s, w).0) - s.result).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// The gradient of [`loss`] in `w`; a clamped value has none.
fn gradient(samples: &[Sample], w: &[f64], k: f64, grad: &mut [f64]) {
    grad.iter_mut().for_each(|g| *g = 0.0);
    let c = k * LN10_400 / f64::from(SCALE);
    for s in samples {
        let (v, clamped) = value(s, w);
        if clamped {
            continue;
        }
        let p = sigmoid(k * v);
        let d = 2.0 * (p - s.result) * p * (1.0 - p) * c;
        for i in 0..N_FEATURES {
            grad[2 * i] += d * s.f[0][i];
            grad[2 * i + 1] += d * s.f[1][i];
        }
    }
    let n = samples.len().max(1) as f64;
    grad.iter_mut().for_each(|g| *g /= n);
}

/// The K minimising the loss of weights `w`.
fn fit_k(samples: &[Sample], w: &[f64]) -> f64 {
    best_k(0.001, 10.0, |k| loss(samples, w, k))
}

/// What `gomoku-fit` is asked for.
#[derive(Debug, Clone)]
pub struct FitConfig {
    pub valid_percent: u32,
    /// The descent (step sizes and penalty in eighths).
    pub adam: Adam,
}

/// The fit's result: the weights (rounded) and what it printed.
pub struct FitResult {
    pub weights: PatternWeights,
    pub k: f64,
    pub summary: String,
}

/// Texel's method: K fitted for the starting weights `init`, then the weights by full-batch
/// Adam on the mean squared error, with the last `valid_percent` of the positions held out.
/// Features no training position has (fives: decisive) keep their starting weights.
pub fn fit(
    data: &Dataset,
    init: &PatternWeights,
    cfg: &FitConfig,
    mut log: impl FnMut(&str),
) -> FitResult {
    let n_valid = data.len() * cfg.valid_percent.min(90) as usize / 100;
    let (train, valid) = data.split(data.len() - n_valid);
    let mut w = pairs_to_floats(N_FEATURES, |i| init.get(i));
    let k = fit_k(train, &w);
    let mut summary = String::new();
    let _ = writeln!(
        summary,
        "{} positions: {} train, {} validation; K = {k:.4}; lambda {:e}, {} epochs, learning rate {}",
        data.len(),
        train.len(),
        valid.len(),
        cfg.adam.lambda,
        cfg.adam.epochs,
        cfg.adam.learning_rate
    );
    let _ = writeln!(
        summary,
        "start: train loss {:.6}, validation loss {:.6}",
        loss(train, &w, k),
        loss(valid, &w, k)
    );
    log(summary.trim_end());
    adam(
        &mut w,
        &cfg.adam,
        |w, grad| gradient(train, w, k, grad),
        |w| (loss(train, w, k), loss(valid, w, k)),
        &mut log,
    );
    let mut weights = PatternWeights::zero();
    floats_to_pairs(&w, |i, p| weights.set(i, p));
    let wr = pairs_to_floats(N_FEATURES, |i| weights.get(i));
    let _ = writeln!(
        summary,
        "end ({} epochs, rounded weights): train loss {:.6}, validation loss {:.6}",
        cfg.adam.epochs,
        loss(train, &wr, k),
        loss(valid, &wr, k)
    );
    for (i, name) in FEATURE_NAMES.iter().enumerate() {
        let [a, b] = weights.get(i);
        let [a0, b0] = init.get(i);
        let _ = writeln!(
            summary,
            "{name:<20} to move {a0:>6} -> {a:>6}, waiting {b0:>6} -> {b:>6}"
        );
    }
    FitResult {
        weights,
        k,
        summary,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tiny_generation_and_fit_run() {
        let cfg = GenConfig {
            games: 4,
            nodes: 200,
            seed: 3,
            like: GameConfig {
                variant: "caro:9".into(),
                opening_plies: 4,
                random_percent: 10,
                max_plies: 81,
            },
        };
        let mut out = Vec::new();
        let n = generate(Patterns::default(), &cfg, &mut out, |_, _| {}).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count() as u64, n);
        let mut again = Vec::new();
        generate(Patterns::default(), &cfg, &mut again, |_, _| {}).unwrap();
        assert_eq!(String::from_utf8(again).unwrap(), text, "deterministic");
        let data = Dataset::parse(&text).unwrap();
        assert_eq!(data.len() as u64, n);
        assert!(n > 20, "{n}");
        let fit_cfg = FitConfig {
            valid_percent: 20,
            adam: Adam {
                epochs: 20,
                learning_rate: 2.0,
                lambda: 0.0,
                log_every: 10,
            },
        };
        let r = fit(&data, &PatternWeights::hand(), &fit_cfg, |_| {});
        let back = PatternWeights::parse(&r.weights.to_text("fitted")).unwrap();
        assert_eq!(back, r.weights);
    }

    #[test]
    fn bad_data_lines_are_errors() {
        assert_eq!(Dataset::parse("h8 i9;2").unwrap_err().line, 1);
        assert_eq!(Dataset::parse("\nh8 i9").unwrap_err().line, 2);
        assert!(Dataset::parse("h8 h8;1").is_err());
        assert_eq!(Dataset::parse("h8 i9;1\n").unwrap().len(), 1);
    }
}
