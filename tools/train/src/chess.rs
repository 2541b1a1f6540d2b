//! Chess: the [`Linear`] description of [`duel_chess::Strong`] for the self-play data, Texel
//! fit and match of [`crate::linear`], and `chess-label`'s positions labelled by a search.

use std::io::{self, Write};

use duel_chess::strong::{
    feature_name, features, phase, pst_feature, Weights, N_FEATURES, PHASE_MAX,
};
use duel_chess::{is_noisy, Chess};
use duel_core::{Evaluator, Game, Side, SplitMix64};
use duel_search::searcher::{Limits, SearchConfig, Searcher};

pub use crate::linear::SCORE_CLAMP;
use crate::linear::{search_config, Linear};

impl Linear for Chess {
    const PHASE_MAX: i32 = PHASE_MAX;
    const PIECES: &'static [&'static str] = &["pawn", "knight", "bishop", "rook", "queen", "king"];

    fn quiet(&self, mv: Self::Move) -> bool {
        !self.in_check() && !is_noisy(self.board(), mv)
    }

    fn features(&self, out: &mut Vec<(u16, i8)>) {
        features(self, out);
    }

    fn phase(&self) -> i32 {
        phase(self)
    }

    fn scales(&self) -> [u8; 2] {
        duel_chess::endgame::scales(self.board()).map(|x| x as u8)
    }

    fn feature_name(i: usize) -> String {
        feature_name(i)
    }

    /// Pawns never stand on the first or last rank.
    fn pst_features(p: usize) -> Vec<usize> {
        (0..64)
            .filter(|&sq| p != 0 || (8..56).contains(&sq))
            .map(|sq| pst_feature(p, sq))
            .collect()
    }
}

/// One line of a `chess-gen` or `chess-label` file.
pub type Record = crate::linear::Record<Chess>;
pub use crate::linear::RecordError;

/// The records of a `chess-gen` or `chess-label` file ([`crate::linear::records`]).
pub fn records(text: &str) -> impl Iterator<Item = Result<Record, RecordError>> + '_ {
    crate::linear::records(text)
}

/// The weights as the fit holds them.
pub fn to_pairs(w: &Weights) -> Vec<[i32; 2]> {
    (0..N_FEATURES).map(|i| w.get(i)).collect()
}

/// The fit's pairs as weights.
pub fn from_pairs(pairs: &[[i32; 2]]) -> Weights {
    let mut w = Weights::zero();
    pairs.iter().enumerate().for_each(|(i, &p)| w.set(i, p));
    w
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
        ..search_config::<Chess>()
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
    use crate::linear::{
        fit, fit_k, openings, play_game, recentre, self_player, to_floats, FitConfig,
    };
    use duel_chess::{Pst, Strong};
    use duel_train::texel::sigmoid;

    type Dataset = crate::linear::Dataset<Chess>;

    /// The fit's floats of chess weights.
    fn floats(w: &Weights) -> Vec<f64> {
        to_floats(&to_pairs(w))
    }

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
        let tw = floats(&truth);
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
        let r = fit(&mut data, &to_pairs(&Weights::hand()), &cfg, |_| {});
        let fitted = to_floats(&r.weights);
        let hand = floats(&Weights::hand());
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
        let mut w = floats(&Weights::hand());
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
        let o = openings::<Chess>(4, 9);
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
