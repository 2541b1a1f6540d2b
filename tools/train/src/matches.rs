//! The evaluator match (textbook against pattern at equal fixed depth) and the speed test.

#[cfg(test)]
use std::collections::HashSet;
use std::fmt::Write;
use std::hint::black_box;
use std::time::Instant;

use duel_arena::player::DuelPlayer;
use duel_arena::{
    random_openings, run_match, Adjudication, ArenaError, Opening, Player, Schedule, Shard,
    Standings, TimeControl,
};
use duel_core::{Evaluator, Game, Side};
use duel_othello::{Estimate, Othello, Pattern, Textbook};
use duel_search::searcher::{SearchConfig, Searcher};

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
/// with seed `seed` by the arena's opening maker. Positions reached by different move orders
/// count once.
pub fn openings(n: usize, plies: u32, seed: u64) -> Vec<Opening<Othello>> {
    random_openings(
        n,
        plies as usize,
        seed,
        |_| Othello::start(),
        |_, _| {},
        |_| true,
    )
}

/// The score lines of an evaluator match, for the first player, `name`: W/D/L and score, then
/// the Elo difference with its interval from the pairs, and the per-game (trinomial) one for
/// comparison, which treats the games as independent.
pub fn score_lines(name: &str, s: &Standings) -> (String, String) {
    let t = s.tally;
    let (e, lo, hi) = s.pairs.elo().unwrap_or_default();
    let (_, tlo, thi) = t.elo().unwrap_or_default();
    (
        format!(
            "W/D/L ({name}) {}/{}/{}, score {:.1}%",
            t.wins,
            t.draws,
            t.losses,
            100.0 * t.score()
        ),
        format!(
            "Elo {e:+.0}, 95% interval [{lo:+.0}, {hi:+.0}] (per-pair variance); per-game trinomial [{tlo:+.0}, {thi:+.0}]"
        ),
    )
}

/// An in-process player of `eval` searching to `depth` with `config`.
fn player<E: Evaluator<Othello>>(
    name: &str,
    eval: E,
    config: &SearchConfig,
    depth: u32,
) -> Result<Box<dyn Player<Othello>>, ArenaError> {
    let searcher = Searcher::new(eval, config.clone());
    Ok(Box::new(DuelPlayer::new(name, searcher, None, Some(depth))))
}

/// Textbook against `pattern`, both searching to `depth` with one thread, each opening played
/// twice with the colours swapped, by the arena. Returns the printed summary; `log` sees one
/// line per pair.
pub fn play_match(
    pattern: Pattern,
    depth: u32,
    n_openings: usize,
    plies: u32,
    seed: u64,
    mut log: impl FnMut(&str),
) -> Result<String, ArenaError> {
    let config = SearchConfig {
        threads: 1,
        ..SearchConfig::default()
    };
    let starts = openings(n_openings, plies, seed);
    let start = Instant::now();
    let schedule = Schedule {
        games: 2 * starts.len(),
        openings: &starts,
        controls: [TimeControl::per_move(None, Some(depth)); 2],
        concurrency: 1,
        shard: Shard::WHOLE,
        adjudication: Adjudication::default(),
    };
    let pat = || player("pattern", pattern.clone(), &config, depth);
    let tb = || player("textbook", Textbook::default(), &config, depth);
    // Disc differences from the pattern side, which has Black (the first side) in even games.
    let mut diffs = Vec::new();
    let standings = run_match(&pat, &tb, &schedule, |g, played, s| {
        let end = Othello::from_text(&played.end).ok();
        let black = end.map_or(0, |p| p.final_score() * p.side_to_move().sign());
        diffs.push(if g % 2 == 0 { black } else { -black });
        if g % 2 == 1 {
            let t = s.tally;
            log(&format!(
                "opening {:>3} {}: pattern {:+} as black, {:+} as white; W/D/L {}/{}/{}",
                g / 2 + 1,
                starts[g / 2]
                    .position()
                    .map(|p| p.to_text())
                    .unwrap_or_default(),
                diffs[g - 1],
                diffs[g],
                t.wins,
                t.draws,
                t.losses
            ));
        }
        true
    })?;
    let t = standings.tally;
    let games = f64::from(t.games().max(1));
    let mean_diff = diffs.iter().map(|&v| f64::from(v)).sum::<f64>() / games;
    let (score, elo) = score_lines("pattern", &standings);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "pattern vs textbook, depth {depth}, {} openings of {plies} random plies (seed {seed}), {} games",
        starts.len(),
        t.games()
    );
    let _ = writeln!(out, "{score}");
    let _ = writeln!(out, "mean disc difference {mean_diff:+.2} (pattern side)");
    let _ = writeln!(out, "{elo}");
    let _ = writeln!(out, "time {:.1} s", start.elapsed().as_secs_f64());
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_distinct_and_alive() {
        let o = openings(50, 8, 3);
        assert_eq!(o.len(), 50);
        let texts: HashSet<String> = o.iter().map(|o| o.position().unwrap().to_text()).collect();
        assert_eq!(texts.len(), 50);
        assert!(o.iter().all(|o| o.position().unwrap().outcome().is_none()));
    }

    #[test]
    fn a_short_match_is_scored() {
        let out = play_match(Pattern::default(), 1, 2, 8, 3, |_| {}).unwrap();
        assert!(out.contains("4 games"), "{out}");
    }
}
