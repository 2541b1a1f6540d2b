//! Multi-ProbCut's error model for Othello: how far a shallow search's value lands from a
//! deeper one's, by number of empties and the two depths, measured on positions from duel's
//! own games and fitted by least squares to `sigma ≈ c0 + c1·empties + c2·deep + c3·shallow`
//! (the form of Buro's and Edax's models; the coefficients are duel's own).
//!
//! The positions come from games in which each side plays its one-ply best move by the
//! pattern evaluator, or a random move one time in five (seeded); one position in `every` with
//! `min_empties..=max_empties` empties is searched to `depth` by the engine search (ProbCut
//! off, one thread, a fresh table each), and every completed iteration's value is kept.

use std::fmt::Write;

use duel_core::{Evaluator, Game, SplitMix64};
use duel_othello::{Move, Othello, Pattern};
use duel_search::searcher::{Limits, SearchConfig, Searcher};

/// One measured position: its empties and its value at depth 0 (the static value), 1, ...;
/// None where the value was a proven win or loss (no error to measure).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    /// Empty squares of the position.
    pub empties: u32,
    /// Values by depth, from the side to move, in 1/16 disc.
    pub values: Vec<Option<i32>>,
}

/// What to measure (the command line's options of `duel-train othello-probcut`).
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct Plan {
    /// Positions to measure.
    #[arg(long, default_value_t = 1000)]
    pub positions: usize,
    /// The deepest search.
    #[arg(long, default_value_t = 10)]
    pub depth: u32,
    /// The fewest empties of a measured position.
    #[arg(long, default_value_t = 12)]
    pub min_empties: u32,
    /// The most empties of a measured position.
    #[arg(long, default_value_t = 56)]
    pub max_empties: u32,
    /// One position in this many (of those in range) is kept: fewer from each game, more games.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..))]
    pub every: u64,
    /// The games' seed.
    #[arg(long, default_value_t = 45)]
    pub seed: u64,
}

/// Plays the games and searches the positions; `log` sees progress lines.
pub fn measure(eval: &Pattern, plan: &Plan, mut log: impl FnMut(&str)) -> Vec<Sample> {
    let mut rng = SplitMix64::new(plan.seed);
    // ProbCut is what these searches measure, so they must not use it themselves.
    let profile = duel_core::SearchProfile {
        probcut: 0,
        ..<Othello as duel_core::GameInfo>::SEARCH_PROFILE
    };
    let config = SearchConfig {
        threads: 1,
        ..SearchConfig::with_profile(&profile)
    };
    let mut searcher = Searcher::new(eval.clone(), config);
    let mut samples = Vec::new();
    let mut moves: Vec<Move> = Vec::new();
    while samples.len() < plan.positions {
        let mut pos = Othello::start();
        while pos.outcome().is_none() && samples.len() < plan.positions {
            let empties = pos.empties().count_ones();
            if (plan.min_empties..=plan.max_empties).contains(&empties)
                && rng.below(plan.every as usize) == 0
            {
                samples.push(sample(&mut searcher, eval, &pos, plan.depth));
                if samples.len() % 100 == 0 {
                    log(&format!("{} positions", samples.len()));
                }
            }
            pos.generate_moves(&mut moves);
            let mv = if rng.below(5) == 0 {
                moves[rng.below(moves.len())]
            } else {
                best_by_one_ply(eval, &pos, &moves)
            };
            pos.play(mv);
        }
    }
    samples
}

fn best_by_one_ply(eval: &Pattern, pos: &Othello, moves: &[Move]) -> Move {
    let mut best = (i32::MIN, moves[0]);
    for &mv in moves {
        let mut child = pos.clone();
        child.play(mv);
        let v = if child.outcome().is_some() {
            0
        } else {
            -eval.evaluate(&child)
        };
        if v > best.0 {
            best = (v, mv);
        }
    }
    best.1
}

fn sample(
    searcher: &mut Searcher<Othello, Pattern>,
    eval: &Pattern,
    pos: &Othello,
    depth: u32,
) -> Sample {
    searcher.new_game();
    let mut values = vec![None; depth as usize + 1];
    values[0] = Some(eval.evaluate(pos));
    searcher.search(pos, &Limits::depth(depth), |r| {
        if let Some(slot) = values.get_mut(r.depth as usize) {
            *slot = (!r.value.is_decisive()).then_some(r.value.0);
        }
    });
    Sample {
        empties: pos.empties().count_ones(),
        values,
    }
}

/// The fitted model, in the evaluator's units (1/16 disc).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Model {
    /// c0 (constant), c1 (per empty), c2 (per deep ply), c3 (per shallow ply).
    pub c: [f64; 4],
}

impl Model {
    /// The modelled sigma of (deep − shallow) at `empties`.
    pub fn sigma(&self, empties: u32, deep: u32, shallow: u32) -> f64 {
        self.c[0]
            + self.c[1] * f64::from(empties)
            + self.c[2] * f64::from(deep)
            + self.c[3] * f64::from(shallow)
    }
}

/// Empties per bucket of the table.
const BUCKET: u32 = 4;

/// Per (empties bucket, deep, shallow) with `shallow` of the same parity as `deep` and at
/// least 1: (n, mean, sigma) of deep − shallow. The static value (depth 0) is left out: with
/// a mean error of up to 6 discs at odd depths, it predicts too poorly to be a test.
fn cells(samples: &[Sample]) -> Vec<(u32, u32, u32, usize, f64, f64)> {
    let depth = samples.iter().map(|s| s.values.len()).max().unwrap_or(0) as u32;
    let mut out = Vec::new();
    let max_e = samples.iter().map(|s| s.empties).max().unwrap_or(0);
    for b in (0..=max_e / BUCKET).map(|b| b * BUCKET) {
        for deep in 2..depth {
            for shallow in 1..deep {
                if (deep - shallow) % 2 != 0 {
                    continue;
                }
                let errs: Vec<f64> = samples
                    .iter()
                    .filter(|s| s.empties / BUCKET * BUCKET == b)
                    .filter_map(|s| {
                        let d = s.values.get(deep as usize).copied().flatten()?;
                        let h = s.values.get(shallow as usize).copied().flatten()?;
                        Some(f64::from(d - h))
                    })
                    .collect();
                if errs.len() < 20 {
                    continue;
                }
                let n = errs.len() as f64;
                let mean = errs.iter().sum::<f64>() / n;
                let var = errs.iter().map(|e| (e - mean) * (e - mean)).sum::<f64>() / (n - 1.0);
                out.push((b + BUCKET / 2, deep, shallow, errs.len(), mean, var.sqrt()));
            }
        }
    }
    out
}

/// Fits the model by least squares over the cells (weighted by their sizes) and returns it with
/// a report: every cell's measured and fitted sigma, in discs.
pub fn fit(samples: &[Sample]) -> (Model, String) {
    let cells = cells(samples);
    // Normal equations for 4 unknowns.
    let mut a = [[0f64; 5]; 4];
    for &(e, d, s, n, _, sigma) in &cells {
        let x = [1.0, f64::from(e), f64::from(d), f64::from(s)];
        let w = n as f64;
        for i in 0..4 {
            for j in 0..4 {
                a[i][j] += w * x[i] * x[j];
            }
            a[i][4] += w * x[i] * sigma;
        }
    }
    let c = solve4(a);
    let model = Model { c };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "model (1/16 disc): sigma = {:.3} + {:.4}*empties + {:.4}*deep + {:.4}*shallow",
        c[0], c[1], c[2], c[3]
    );
    let _ = writeln!(
        out,
        "empties deep shallow     n   mean  sigma  fitted (discs)"
    );
    let mut sq = 0.0;
    let mut wsum = 0.0;
    for &(e, d, s, n, mean, sigma) in &cells {
        let f = model.sigma(e, d, s);
        sq += n as f64 * (f - sigma).powi(2);
        wsum += n as f64;
        let _ = writeln!(
            out,
            "{e:7} {d:4} {s:7} {n:5} {:6.2} {:6.2} {:6.2}",
            mean / 16.0,
            sigma / 16.0,
            f / 16.0
        );
    }
    let _ = writeln!(
        out,
        "weighted RMS of fitted - measured sigma: {:.3} discs over {} cells",
        (sq / wsum.max(1.0)).sqrt() / 16.0,
        cells.len()
    );
    (model, out)
}

/// Gaussian elimination with partial pivoting on an augmented 4×5 system.
fn solve4(mut a: [[f64; 5]; 4]) -> [f64; 4] {
    for col in 0..4 {
        let pivot = (col..4)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        let p = a[col][col];
        if p.abs() < 1e-12 {
            continue;
        }
        let pivot_row = a[col];
        for (row, r) in a.iter_mut().enumerate() {
            if row != col {
                let f = r[col] / p;
                for (x, y) in r.iter_mut().zip(pivot_row).skip(col) {
                    *x -= f * y;
                }
            }
        }
    }
    std::array::from_fn(|i| {
        if a[i][i].abs() < 1e-12 {
            0.0
        } else {
            a[i][4] / a[i][i]
        }
    })
}

/// Samples as text, one position a line: empties, then the values (`-` for a proven one).
pub fn write_samples(samples: &[Sample]) -> String {
    let mut out = String::new();
    for s in samples {
        let _ = write!(out, "{}", s.empties);
        for v in &s.values {
            match v {
                Some(v) => {
                    let _ = write!(out, " {v}");
                }
                None => out.push_str(" -"),
            }
        }
        out.push('\n');
    }
    out
}

/// Reads [`write_samples`]'s text; None names the first bad line.
pub fn read_samples(text: &str) -> Result<Vec<Sample>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, line)| {
            let bad = || format!("line {}: '{line}' is not empties then values", i + 1);
            let mut words = line.split_whitespace();
            let empties = words.next().and_then(|w| w.parse().ok()).ok_or_else(bad)?;
            let values = words
                .map(|w| match w {
                    "-" => Ok(None),
                    _ => w.parse().map(Some).map_err(|_| bad()),
                })
                .collect::<Result<_, _>>()?;
            Ok(Sample { empties, values })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_recovers_a_known_linear_model() {
        // Errors drawn so that each cell's spread is exactly the model's: ±sigma alternately.
        let truth = Model {
            c: [40.0, 1.5, 2.0, -3.0],
        };
        let mut samples = Vec::new();
        for e in 12..=56u32 {
            for k in 0..40 {
                let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
                let mut values = vec![None; 9];
                for (d, v) in values.iter_mut().enumerate().skip(1) {
                    // value(d) = value(0) + d-dependent noise with the right differences is
                    // hard to build for every pair; keep depth 0 and one deep pair exact.
                    *v = match d {
                        8 => Some((sign * truth.sigma(e / 4 * 4 + 2, 8, 2)).round() as i32),
                        2 => Some(0),
                        _ => None,
                    };
                }
                samples.push(Sample { empties: e, values });
            }
        }
        // Only the (8, 2) pairs exist: the model is then fitted on them alone, and with one
        // deep and one shallow depth the last two coefficients fold into the constant.
        let (m, _) = fit(&samples);
        for e in [14, 30, 50] {
            let want = truth.sigma(e, 8, 2);
            let got = m.sigma(e, 8, 2);
            assert!(
                (want - got).abs() < 0.02 * want,
                "{e}: {got} against {want}"
            );
        }
    }

    #[test]
    fn samples_round_trip_and_bad_lines_are_named() {
        let s = vec![
            Sample {
                empties: 30,
                values: vec![Some(3), None, Some(-17)],
            },
            Sample {
                empties: 12,
                values: vec![Some(0)],
            },
        ];
        assert_eq!(read_samples(&write_samples(&s)).unwrap(), s);
        let e = read_samples("30 1 2\n12 x\n").unwrap_err();
        assert!(e.contains("line 2"), "{e}");
    }
}
