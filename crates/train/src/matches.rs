//! The evaluator match (textbook against pattern at equal fixed depth) and the speed test.

use std::collections::HashSet;
use std::fmt::Write;
use std::hint::black_box;
use std::time::Instant;

use duel_core::{Evaluator, Game, Side, SplitMix64};
use duel_othello::{Estimate, Othello, Pattern, Textbook};
use duel_search::engine::{Limits, SearchConfig, Searcher};

use crate::data::Record;

/// Evaluations per second of both evaluators over the recorded positions (at most a million).
pub fn speed(records: &[Record], pattern: &Pattern) -> String {
    let recs = &records[..records.len().min(1_000_000)];
    let positions: Vec<Othello> = recs
        .iter()
        .filter_map(|r| Othello::from_bitboards(r.p, r.o, Side::First))
        .collect();
    let mut out = String::new();
    if positions.is_empty() {
        out.push_str("no positions\n");
        return out;
    }
    let rounds = 5;
    let mut time = |name: &str, f: &dyn Fn(&Othello) -> i32| {
        let start = Instant::now();
        let mut sum = 0i64;
        for _ in 0..rounds {
            for pos in &positions {
                sum += i64::from(f(black_box(pos)));
            }
        }
        black_box(sum);
        let n = (rounds * positions.len()) as f64;
        let secs = start.elapsed().as_secs_f64();
        let _ = writeln!(
            out,
            "{name:<18} {:>6.1} M evals/s ({:.0} ns each, {} evaluations)",
            n / secs / 1e6,
            secs / n * 1e9,
            n
        );
    };
    let tb = Textbook::default();
    time("textbook", &|p| tb.evaluate(p));
    time("pattern", &|p| pattern.evaluate(p));
    time("pattern estimate", &|p| {
        pattern.estimate(p.player(), p.opponent())
    });
    time("features only", &|p| {
        duel_othello::pattern::features(p.player(), p.opponent())
            .iter()
            .sum::<u32>() as i32
    });
    out
}

/// `n` distinct openings of `plies` random legal moves from the start (none finished), drawn
/// with seed `seed`. Positions reached by different move orders count once.
pub fn openings(n: usize, plies: u32, seed: u64) -> Vec<Othello> {
    let mut rng = SplitMix64::new(seed);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut moves = Vec::new();
    // Far more tries than can be needed for any sensible request; stops an impossible one.
    for _ in 0..n.saturating_mul(1000) {
        if out.len() == n {
            break;
        }
        let mut pos = Othello::start();
        for _ in 0..plies {
            if pos.outcome().is_some() {
                break;
            }
            pos.generate_moves(&mut moves);
            pos.play(moves[rng.below(moves.len())]);
        }
        if pos.outcome().is_none() && seen.insert(pos.to_text()) {
            out.push(pos);
        }
    }
    out
}

/// One game from `start`; returns the final disc difference for black.
fn play<A: Evaluator<Othello>, B: Evaluator<Othello>>(
    start: &Othello,
    black: &mut Searcher<Othello, A>,
    white: &mut Searcher<Othello, B>,
    depth: u32,
) -> i32 {
    black.new_game();
    white.new_game();
    let mut pos = start.clone();
    let limits = Limits::depth(depth);
    while pos.outcome().is_none() {
        let best = match pos.side_to_move() {
            Side::First => black.search(&pos, &limits, |_| {}).best,
            Side::Second => white.search(&pos, &limits, |_| {}).best,
        };
        let Some(mv) = best else { break };
        pos.play(mv);
    }
    pos.final_score() * pos.side_to_move().sign()
}

/// The Elo difference of a score fraction `s` (0 < s < 1).
pub fn elo(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The Elo difference and its 95% interval from per-pair scores (each in 0..=1): the two games
/// of an opening are one sample, so the opening's own bias does not count as luck.
pub fn elo_interval(pair_scores: &[f64]) -> (f64, f64, f64) {
    let n = pair_scores.len() as f64;
    let mean = pair_scores.iter().sum::<f64>() / n;
    let var = pair_scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let se = (var / n).sqrt();
    let clamp = |s: f64| s.clamp(1e-6, 1.0 - 1e-6);
    (
        elo(clamp(mean)),
        elo(clamp(mean - 1.96 * se)),
        elo(clamp(mean + 1.96 * se)),
    )
}

/// Textbook against `pattern`, both searching to `depth` with one thread, each opening played
/// twice with the colours swapped. Returns the printed summary; `log` sees one line per pair.
pub fn play_match(
    pattern: Pattern,
    depth: u32,
    n_openings: usize,
    plies: u32,
    seed: u64,
    mut log: impl FnMut(&str),
) -> String {
    let config = SearchConfig {
        threads: 1,
        ..SearchConfig::default()
    };
    let mut pat = Searcher::new(pattern, config.clone());
    let mut tb = Searcher::new(Textbook::default(), config);
    let starts = openings(n_openings, plies, seed);
    let start = Instant::now();
    let (mut w, mut d, mut l) = (0u32, 0u32, 0u32);
    let mut diffs = Vec::new();
    let mut pairs = Vec::new();
    for (i, s) in starts.iter().enumerate() {
        // Disc differences from the pattern side.
        let a = play(s, &mut pat, &mut tb, depth);
        let b = -play(s, &mut tb, &mut pat, depth);
        let mut pair = 0.0;
        for v in [a, b] {
            match v.signum() {
                1 => w += 1,
                0 => d += 1,
                _ => l += 1,
            }
            pair += f64::from(v.signum() + 1) / 4.0;
            diffs.push(v);
        }
        pairs.push(pair);
        log(&format!(
            "opening {:>3} {}: pattern {a:+} as black, {b:+} as white; W/D/L {w}/{d}/{l}",
            i + 1,
            s.to_text()
        ));
    }
    let games = f64::from(w + d + l);
    let score = (f64::from(w) + 0.5 * f64::from(d)) / games;
    let mean_diff = diffs.iter().map(|&v| f64::from(v)).sum::<f64>() / games;
    let (e, lo, hi) = elo_interval(&pairs);
    // The trinomial (per-game) interval, for comparison: it treats the games as independent.
    let per_game: Vec<f64> = diffs
        .iter()
        .map(|v| f64::from(v.signum() + 1) / 2.0)
        .collect();
    let (_, tlo, thi) = elo_interval(&per_game);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "pattern vs textbook, depth {depth}, {} openings of {plies} random plies (seed {seed}), {} games",
        starts.len(),
        w + d + l
    );
    let _ = writeln!(
        out,
        "W/D/L (pattern) {w}/{d}/{l}, score {:.1}%",
        100.0 * score
    );
    let _ = writeln!(out, "mean disc difference {mean_diff:+.2} (pattern side)");
    let _ = writeln!(
        out,
        "Elo {e:+.0}, 95% interval [{lo:+.0}, {hi:+.0}] (per-pair variance); per-game trinomial [{tlo:+.0}, {thi:+.0}]"
    );
    let _ = writeln!(out, "time {:.1} s", start.elapsed().as_secs_f64());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_even_and_lopsided_scores() {
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.75) - 190.85).abs() < 0.1);
        let (e, lo, hi) = elo_interval(&[1.0, 0.5, 0.75, 0.5]);
        assert!(lo < e && e < hi);
    }

    #[test]
    fn openings_are_distinct_and_alive() {
        let o = openings(50, 8, 3);
        assert_eq!(o.len(), 50);
        let texts: HashSet<String> = o.iter().map(Othello::to_text).collect();
        assert_eq!(texts.len(), 50);
        assert!(o.iter().all(|p| p.outcome().is_none()));
    }
}
