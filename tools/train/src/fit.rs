//! Least-squares fitting of the pattern weights, one phase at a time.
//!
//! For each phase we minimise `Σ_i (Σ_j w[f_ij] − y_i)² + λ Σ_k w_k²`, where `f_ij` are the
//! table slots position i reads ([`duel_othello::pattern::features`]) and y_i its label in
//! discs. The design matrix has 0/1 entries and about ninety ones per row, so it is never stored: CGLS
//! (conjugate gradient on the normal equations) only needs products with it and its transpose,
//! one pass over the positions each. The penalty keeps configurations seen a few times near
//! zero instead of fitting their noise, and makes the system well posed (the tables overlap:
//! a constant can move between them).
//!
//! Phases are fitted independently, but each also sees the positions within `margin` empties
//! of its bucket, so neighbouring phases do not jump at the boundary.
//!
//! Bootstrapped labels (`bootstrap` above 0): the phases are fitted from the end of the game
//! back, and a position's label becomes a blend of its game's result and the fitted
//! evaluation of the first later position of the same game in a phase already fitted (at
//! least one bucket later, seen from the position's own side), as temporal-difference
//! learning does: the result of a game decided forty plies later is mostly noise from the
//! moves between, the evaluation a few plies on much less so. Records of a game must come in
//! the order played, one ply each (as `othello-gen` writes them); a game that does not is left alone.

use std::fmt::Write;

use duel_othello::pattern::{self, features, FEATURES, PHASES, PHASE_LEN, WEIGHT_SCALE};
use duel_othello::{Estimate, Pattern};

use crate::data::Record;

/// Fitting settings.
#[derive(Debug, Clone)]
pub struct FitConfig {
    /// Percent of games held out for validation (chosen by a hash of the game id).
    pub valid_percent: u32,
    /// CGLS iterations per phase.
    pub iters: u32,
    /// The L2 penalty λ.
    pub lambda: f64,
    /// Positions this many empties outside a phase's bucket also train it.
    pub margin: u32,
    /// The share of a label taken from the evaluation of a later position (0: the game's
    /// result alone).
    pub bootstrap: f64,
}

/// The label of record `i` blended with `share` of `pat`'s evaluation of the first later
/// record of its game with fewer than `first` empties, from record `i`'s side to move (the
/// side alternates from record to record: one ply each). Exact labels, and a record with no
/// such later one, keep their own.
fn bootstrapped(records: &[Record], i: usize, first: u32, pat: &Pattern, share: f64) -> f64 {
    let r = &records[i];
    let label = f64::from(r.label);
    if r.exact {
        return label;
    }
    let later = records[i + 1..]
        .iter()
        .take_while(|l| l.game == r.game)
        .position(|l| (!(l.p | l.o)).count_ones() < first);
    match later {
        Some(k) => {
            let l = &records[i + 1 + k];
            let v = f64::from(pat.estimate(l.p, l.o)) / 16.0;
            // Record i + 1 + k is k + 1 plies on: our side to move again when k + 1 is even.
            let v = if k % 2 == 1 { v } else { -v };
            (1.0 - share) * label + share * v
        }
        None => label,
    }
}

/// For each record, whether its game's records come one ply after another (the empties fall
/// by one a move, or stay for a pass), so that a later record's side to move is known.
fn sequential_games(records: &[Record]) -> Vec<bool> {
    let mut ok = vec![true; records.len()];
    let mut start = 0;
    while start < records.len() {
        let game = records[start].game;
        let end = start
            + records[start..]
                .iter()
                .take_while(|r| r.game == game)
                .count();
        let empties = |r: &Record| (!(r.p | r.o)).count_ones();
        let seq = records[start..end].windows(2).all(|w| {
            let (a, b) = (empties(&w[0]), empties(&w[1]));
            b <= a && a - b <= 1
        });
        ok[start..end].iter_mut().for_each(|v| *v = seq);
        start = end;
    }
    ok
}

/// Whether game `g` is held out: a fixed mix of its id, so every fit splits the same way.
pub fn is_validation(game: u32, valid_percent: u32) -> bool {
    let h = u64::from(game).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
    (h % 100) < u64::from(valid_percent)
}

/// The empties range (inclusive) of phase `ph`.
fn bucket(ph: usize) -> (u32, u32) {
    let lo = (0..=60).find(|&e| pattern::phase(e) == ph).unwrap_or(0);
    let hi = (0..=60)
        .rev()
        .find(|&e| pattern::phase(e) == ph)
        .unwrap_or(60);
    (lo, hi)
}

/// One phase's training rows.
struct Rows {
    feats: Vec<[u32; FEATURES]>,
    labels: Vec<f64>,
}

impl Rows {
    /// q = A·x
    fn mul(&self, x: &[f64], q: &mut [f64]) {
        for (qi, f) in q.iter_mut().zip(&self.feats) {
            *qi = f.iter().map(|&j| x[j as usize]).sum();
        }
    }

    /// s = Aᵀ·r
    fn mul_t(&self, r: &[f64], s: &mut [f64]) {
        s.iter_mut().for_each(|v| *v = 0.0);
        for (ri, f) in r.iter().zip(&self.feats) {
            for &j in f {
                s[j as usize] += ri;
            }
        }
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// CGLS for min ‖A·w − y‖² + λ‖w‖², from w = 0. Returns the weights in discs.
fn cgls(rows: &Rows, lambda: f64, iters: u32) -> Vec<f64> {
    let n = PHASE_LEN;
    let mut w = vec![0.0; n];
    let mut r = rows.labels.clone();
    let mut s = vec![0.0; n];
    rows.mul_t(&r, &mut s);
    let mut p = s.clone();
    let mut gamma = dot(&s, &s);
    let mut q = vec![0.0; r.len()];
    for _ in 0..iters {
        if gamma <= 1e-12 {
            break;
        }
        rows.mul(&p, &mut q);
        let delta = dot(&q, &q) + lambda * dot(&p, &p);
        let alpha = gamma / delta;
        w.iter_mut().zip(&p).for_each(|(wi, pi)| *wi += alpha * pi);
        r.iter_mut().zip(&q).for_each(|(ri, qi)| *ri -= alpha * qi);
        rows.mul_t(&r, &mut s);
        s.iter_mut().zip(&w).for_each(|(si, wi)| *si -= lambda * wi);
        let g = dot(&s, &s);
        let beta = g / gamma;
        gamma = g;
        p.iter_mut()
            .zip(&s)
            .for_each(|(pi, si)| *pi = si + beta * *pi);
    }
    w
}

/// Root mean square and mean absolute error, in discs, of `pat` on `recs`.
fn errors<'a>(pat: &Pattern, recs: impl Iterator<Item = &'a Record>) -> (f64, f64, usize) {
    let (mut sq, mut abs, mut n) = (0.0, 0.0, 0usize);
    for r in recs {
        let e = f64::from(pat.estimate(r.p, r.o)) / 16.0 - f64::from(r.label);
        sq += e * e;
        abs += e.abs();
        n += 1;
    }
    if n == 0 {
        return (0.0, 0.0, 0);
    }
    ((sq / n as f64).sqrt(), abs / n as f64, n)
}

/// Fits every phase on the training games and reports train and validation errors (of the
/// rounded weights the file will hold).
pub fn fit(records: &[Record], cfg: &FitConfig) -> (Pattern, String) {
    let mut report = String::new();
    let (train, valid): (Vec<&Record>, Vec<&Record>) = records
        .iter()
        .filter(|r| (!(r.p | r.o)).count_ones() > 0)
        .partition(|r| !is_validation(r.game, cfg.valid_percent));
    let _ = writeln!(
        report,
        "{} positions: {} train, {} validation; lambda {}, {} iterations, margin {}, \
         bootstrap {}",
        train.len() + valid.len(),
        train.len(),
        valid.len(),
        cfg.lambda,
        cfg.iters,
        cfg.margin,
        cfg.bootstrap
    );
    let mut weights = vec![0i16; PHASES * PHASE_LEN];
    let sequential = sequential_games(records);
    let empties = |r: &Record| (!(r.p | r.o)).count_ones();
    for ph in 0..PHASES {
        let (first, hi) = bucket(ph);
        let (lo, hi) = (first.saturating_sub(cfg.margin), hi + cfg.margin);
        let mut rows = Rows {
            feats: Vec::new(),
            labels: Vec::new(),
        };
        // The phases fitted so far rate the later positions.
        let fitted = (cfg.bootstrap > 0.0 && ph > 0)
            .then(|| Pattern::from_weights(weights.clone()).expect("the right length"));
        for (i, r) in records.iter().enumerate() {
            let e = empties(r);
            if !(lo..=hi).contains(&e) || is_validation(r.game, cfg.valid_percent) || e == 0 {
                continue;
            }
            let label = match &fitted {
                Some(pat) if sequential[i] => bootstrapped(records, i, first, pat, cfg.bootstrap),
                _ => f64::from(r.label),
            };
            rows.feats.push(features(r.p, r.o));
            rows.labels.push(label);
        }
        let w = cgls(&rows, cfg.lambda, cfg.iters);
        for (dst, v) in weights[ph * PHASE_LEN..].iter_mut().zip(&w) {
            *dst = (v * WEIGHT_SCALE)
                .round()
                .clamp(f64::from(i16::MIN + 1), f64::from(i16::MAX)) as i16;
        }
        eprintln!("phase {ph}: {} rows fitted", rows.labels.len());
    }
    let pat = Pattern::from_weights(weights).expect("the fit fills every phase");
    let _ = writeln!(
        report,
        "phase  empties   train rmse  mae   (n)         valid rmse  mae   (n)      valid rmse of 0"
    );
    // The error of answering 0 everywhere: what the labels' spread alone gives.
    let zero = Pattern::from_weights(vec![0; PHASES * PHASE_LEN]).expect("right length");
    for ph in (0..PHASES).rev() {
        let (lo, hi) = bucket(ph);
        let in_phase = |r: &&&Record| pattern::phase((!(r.p | r.o)).count_ones()) == ph;
        let (tr, ta, tn) = errors(&pat, train.iter().filter(in_phase).copied());
        let (vr, va, vn) = errors(&pat, valid.iter().filter(in_phase).copied());
        let (zr, _, _) = errors(&zero, valid.iter().filter(in_phase).copied());
        let _ = writeln!(
            report,
            "{ph:>5}  {lo:>2}-{hi:<2}    {tr:>9.2} {ta:>5.2} ({tn:>8})   {vr:>9.2} {va:>5.2} ({vn:>7})   {zr:>6.2}"
        );
    }
    let (tr, ta, tn) = errors(&pat, train.iter().copied());
    let (vr, va, vn) = errors(&pat, valid.iter().copied());
    let _ = writeln!(
        report,
        "all             {tr:>9.2} {ta:>5.2} ({tn:>8})   {vr:>9.2} {va:>5.2} ({vn:>7})"
    );
    (pat, report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cgls_solves_a_small_system() {
        // Two positions reading disjoint slots: each slot's weight is label / 90 times the
        // count, shrunk a little by λ.
        let mut a = [0u32; FEATURES];
        let mut b = [1u32; FEATURES];
        a[0] = 5;
        b[0] = 6;
        let rows = Rows {
            feats: vec![a, b],
            labels: vec![10.0, -4.0],
        };
        let w = cgls(&rows, 1e-9, 50);
        let mut q = vec![0.0; 2];
        rows.mul(&w, &mut q);
        assert!(
            (q[0] - 10.0).abs() < 1e-3 && (q[1] + 4.0).abs() < 1e-3,
            "{q:?}"
        );
    }

    /// A generated game is one ply a record; the bootstrapped label of a record takes the
    /// later record's value from its own side, the sign alternating with the plies between;
    /// a game whose records are out of order is left alone.
    #[test]
    fn bootstrapped_labels_follow_the_side_to_move() {
        use crate::data::{generate, GenConfig, RECORD_BYTES};
        let cfg = GenConfig {
            games: 2,
            seed: 3,
            first_game: 0,
            random_plies: (6, 6),
            random_percent: 0,
            endgame_random_percent: 0,
            depth: 1,
            solve_empties: 10,
            probcut: 0,
        };
        let mut out = Vec::new();
        generate(&cfg, duel_othello::Textbook::default(), &mut out, |_, _| {}).unwrap();
        let mut recs: Vec<Record> = out
            .chunks_exact(RECORD_BYTES)
            .map(|c| Record::read(c.try_into().unwrap()))
            .collect();
        assert!(sequential_games(&recs).iter().all(|&s| s));
        // Every position rated one disc for its side to move: only the parity table, both
        // entries, in every phase.
        let mut w = vec![0i16; PHASES * PHASE_LEN];
        let parity = pattern::OFFSETS[pattern::CLASSES.len() + pattern::EXTRAS - 1];
        for ph in 0..PHASES {
            w[ph * PHASE_LEN + parity] = WEIGHT_SCALE as i16;
            w[ph * PHASE_LEN + parity + 1] = WEIGHT_SCALE as i16;
        }
        let one = Pattern::from_weights(w).unwrap();
        let first = 30;
        let mut checked = 0;
        for (i, r) in recs.iter().enumerate() {
            let e = (!(r.p | r.o)).count_ones();
            let got = bootstrapped(&recs, i, first, &one, 1.0);
            let j = (i + 1..recs.len())
                .take_while(|&j| recs[j].game == r.game)
                .find(|&j| (!(recs[j].p | recs[j].o)).count_ones() < first);
            match j {
                Some(j) if !r.exact && e >= first => {
                    let want = if (j - i) % 2 == 0 { 1.0 } else { -1.0 };
                    assert_eq!(got, want, "record {i}, later {j}");
                    checked += 1;
                }
                _ if r.exact || j.is_none() => assert_eq!(got, f64::from(r.label)),
                _ => {}
            }
        }
        assert!(checked > 40, "{checked}");
        recs.swap(3, 9);
        assert!(!sequential_games(&recs)[0]);
    }

    #[test]
    fn validation_split_is_about_right() {
        let held = (0..10_000).filter(|&g| is_validation(g, 10)).count();
        assert!((800..1200).contains(&held), "{held}");
    }
}
