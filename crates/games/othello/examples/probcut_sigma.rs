//! Measures how far a shallow search with the pattern evaluator lands from the exact score, by
//! number of empties and search depth: the spread that sets the solver's ProbCut margins.
//!
//! ```text
//! cargo run --release -p duel-othello --example probcut_sigma -- [POSITIONS-PER-COUNT] [SEED]
//! ```
//!
//! Positions come from games in which each side plays the move the evaluator likes best after
//! one ply, or a random move one time in four (seeded, so the run repeats). Each position
//! reached with 12, 14, ..., 24 empties is solved exactly; the table gives the mean and the
//! standard deviation, in discs, of (shallow value − exact score) for depths 0 to 4.

use duel_core::SplitMix64;
use duel_othello::bitboard::{flips, moves};
use duel_othello::{final_score, Estimate, Pattern, Solver};

const DEPTHS: usize = 5;
const COUNTS: [u32; 7] = [12, 14, 16, 18, 20, 22, 24];

/// Plain alpha-beta to `depth` plies over the pattern evaluator, in 1/16 disc.
fn shallow(e: &Pattern, p: u64, o: u64, mut alpha: i32, beta: i32, depth: u32) -> i32 {
    if depth == 0 {
        return e.estimate(p, o);
    }
    let mut m = moves(p, o);
    if m == 0 {
        if moves(o, p) == 0 {
            return final_score(p, o) * 16;
        }
        return -shallow(e, o, p, -beta, -alpha, depth);
    }
    let mut best = i32::MIN + 1;
    while m != 0 {
        let sq = m.trailing_zeros();
        m &= m - 1;
        let f = flips(p, o, sq);
        let v = -shallow(e, o & !f, p | f | (1 << sq), -beta, -alpha, depth - 1);
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let per_count: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(40);
    let mut rng = SplitMix64::new(args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1));
    let eval = Pattern::default();
    let mut solver = Solver::default();
    // errors[count][depth]: (sum, sum of squares, n)
    let mut errors = vec![[(0f64, 0f64, 0usize); DEPTHS]; COUNTS.len()];
    while errors.iter().any(|row| row[0].2 < per_count) {
        let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
        loop {
            let empties = (!(p | o)).count_ones();
            if let Some(k) = COUNTS.iter().position(|&c| c == empties) {
                if errors[k][0].2 < per_count {
                    let pos = duel_othello::Othello::from_bitboards(p, o, duel_core::Side::First)
                        .expect("a position reached by legal moves");
                    let exact = solver.solve(&pos).score;
                    for (d, slot) in errors[k].iter_mut().enumerate() {
                        let v = shallow(&eval, p, o, -(1 << 20), 1 << 20, d as u32);
                        let err = f64::from(v) / 16.0 - f64::from(exact);
                        slot.0 += err;
                        slot.1 += err * err;
                        slot.2 += 1;
                    }
                }
            }
            if empties <= COUNTS[0] {
                break;
            }
            let m = moves(p, o);
            if m == 0 {
                if moves(o, p) == 0 {
                    break;
                }
                (p, o) = (o, p);
                continue;
            }
            let sq = if rng.next().is_multiple_of(4) {
                let k = (rng.next() % u64::from(m.count_ones())) as usize;
                let mut b = m;
                for _ in 0..k {
                    b &= b - 1;
                }
                b.trailing_zeros()
            } else {
                let mut best = (i32::MIN, 0);
                let mut b = m;
                while b != 0 {
                    let sq = b.trailing_zeros();
                    b &= b - 1;
                    let f = flips(p, o, sq);
                    let v = -eval.estimate(o & !f, p | f | (1 << sq));
                    best = best.max((v, sq));
                }
                best.1
            };
            let f = flips(p, o, sq);
            (p, o) = (o & !f, p | f | (1 << sq));
        }
    }
    println!("empties  depth:  mean / sd (discs)");
    for (k, row) in errors.iter().enumerate() {
        print!("{:>7} ", COUNTS[k]);
        for &(s, s2, n) in row {
            let n = n as f64;
            let mean = s / n;
            print!("  {:+6.2} / {:5.2}", mean, (s2 / n - mean * mean).sqrt());
        }
        println!();
    }
}
