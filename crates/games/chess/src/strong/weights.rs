//! Strong's weights: a (middlegame, endgame) pair per feature, read from and written to the
//! text table `weights/strong.txt`, and the hand-set values the fit starts from.

use std::sync::OnceLock;

use super::layout::{names, pst_feature, MATERIAL, N_FEATURES};
use crate::values::PIECE_VALUES;

/// The largest weight [`Weights::parse`] takes, either way.
pub const MAX_WEIGHT: i32 = 10_000;

pub use duel_core::weights::WeightsError;

/// The weights: a (middlegame, endgame) pair per feature, in centipawns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weights {
    pub(super) w: Vec<[i32; 2]>,
}

/// The committed, fitted weights (`weights/strong.txt`; `weights/README.md` says how they were
/// made).
const COMMITTED: &str = include_str!("../../weights/strong.txt");

impl Weights {
    /// All zero.
    pub fn zero() -> Weights {
        Weights {
            w: vec![[0, 0]; N_FEATURES],
        }
    }

    /// The (middlegame, endgame) weight of feature `index`.
    pub fn get(&self, index: usize) -> [i32; 2] {
        self.w[index]
    }

    /// Sets the (middlegame, endgame) weight of feature `index`.
    pub fn set(&mut self, index: usize, w: [i32; 2]) {
        self.w[index] = w;
    }

    /// The committed fitted weights, parsed once.
    pub fn committed() -> &'static Weights {
        static W: OnceLock<Weights> = OnceLock::new();
        W.get_or_init(|| {
            Weights::parse(COMMITTED).unwrap_or_else(|e| panic!("weights/strong.txt: {e}"))
        })
    }

    /// [`crate::Pst`]'s hand-set values in this form (mobility and the other terms zero): where
    /// the fit starts. `Strong` with these weights evaluates exactly as `Pst` does.
    pub fn hand() -> Weights {
        let mut w = Weights::zero();
        for (p, &v) in PIECE_VALUES[..5].iter().enumerate() {
            w.w[MATERIAL + p] = [v; 2];
        }
        for p in 0..6 {
            for sq in 0..64 {
                w.w[pst_feature(p, sq)] = hand_table(p, sq);
            }
        }
        w
    }

    /// Reads `name mg eg` lines (blank lines and `#` comments skipped). Every feature must be
    /// given exactly once.
    pub fn parse(text: &str) -> Result<Weights, WeightsError> {
        let w = duel_core::weights::parse_table(text, &names(), "name mg eg", MAX_WEIGHT)?;
        Ok(Weights { w })
    }

    /// The weights as [`Weights::parse`] reads them, one feature a line, after `header` (each
    /// of its lines written as a `#` comment).
    pub fn to_text(&self, header: &str) -> String {
        duel_core::weights::table_text(header, &names(), &self.w)
    }
}

/// `Pst`'s rules for its tables, (middlegame, endgame) for piece `p` on square `sq` seen from
/// its own side: only the fit's starting point (a test checks it against `Pst` itself).
fn hand_table(p: usize, sq: usize) -> [i32; 2] {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    let c = (if f < 4 { f } else { 7 - f }).min(if r < 4 { r } else { 7 - r });
    let centre_file = f == 3 || f == 4;
    match p {
        0 if (1..=6).contains(&r) => [
            5 * (r - 1)
                + if centre_file && (r == 3 || r == 4) {
                    15
                } else {
                    0
                },
            12 * (r - 1),
        ],
        0 => [0, 0],
        1 => [12 * c - 25, 8 * c - 15],
        2 => [6 * c - 8, 5 * c - 8],
        3 => [
            if r == 6 { 15 } else { 0 } + if centre_file { 5 } else { 0 },
            if r == 6 { 10 } else { 0 },
        ],
        4 => [3 * c - 5, 5 * c - 8],
        _ => [
            if r == 0 {
                match f {
                    1 | 2 | 6 => 20,
                    0 | 7 => 10,
                    _ => 0,
                }
            } else {
                -15 * r.min(4)
            },
            12 * c - 20,
        ],
    }
}
