//! The weights of [`crate::Patterns`]' ordinary evaluation, read from `weights/patterns.txt`
//! (or a file given to the evaluator), and the features they weigh.
//!
//! **Features.** Over the cells [`crate::Patterns`] reads (the empty cells within two of a
//! stone), per side: how many of the cells' directions have each [`Kind`](crate::Kind) (`kind.*`,
//! nine), and how many cells have each [`Threat`](crate::Threat) (`threat.*`, six). The side to move's counts and the
//! side waiting's are weighed separately: a side's three is worth more when it is its move.
//!
//! **Weights.** One `name to_move waiting` line per feature, integers in eighths of the
//! evaluation's unit: the ordinary evaluation is `(Σ to_move·count_mine + Σ waiting·count_theirs)
//! / 8`, truncated towards zero. Eighths, so that the hand weights (cell scores weighed 10/8
//! for the side to move, 8/8 for the side waiting) are integers and evaluate exactly as before.

use std::sync::OnceLock;

/// Features per side: the nine kinds above None, then the six threats above None.
pub const N_FEATURES: usize = 15;

/// The feature names, in index order.
pub const FEATURE_NAMES: [&str; N_FEATURES] = [
    "kind.block1",
    "kind.flex1",
    "kind.block2",
    "kind.flex2",
    "kind.block3",
    "kind.flex3",
    "kind.block4",
    "kind.flex4",
    "kind.five",
    "threat.three",
    "threat.double_three",
    "threat.four",
    "threat.four_three",
    "threat.open_four",
    "threat.five",
];

/// A position's feature counts: index 0 the side to move's, 1 the side waiting's.
pub type Features = [[i32; N_FEATURES]; 2];

/// The largest weight [`PatternWeights::parse`] takes, either way: far above any sensible one,
/// low enough that no sum of a board's counts overflows.
pub const MAX_WEIGHT: i32 = 100_000;

/// The divisor of the weighted sum: the weights are in eighths.
pub const SCALE: i32 = 8;

pub use duel_core::weights::WeightsError;

/// A (to move, waiting) weight per feature, in eighths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternWeights {
    w: [[i32; 2]; N_FEATURES],
}

/// The committed weights (`weights/README.md` says how they were made).
const COMMITTED: &str = include_str!("../weights/patterns.txt");

impl PatternWeights {
    /// All zero.
    pub fn zero() -> PatternWeights {
        PatternWeights {
            w: [[0; 2]; N_FEATURES],
        }
    }

    /// The (to move, waiting) weight of feature `index`.
    pub fn get(&self, index: usize) -> [i32; 2] {
        self.w[index]
    }

    /// Sets the (to move, waiting) weight of feature `index`, each clamped to ±[`MAX_WEIGHT`]
    /// so that the weights stay ones [`PatternWeights::parse`] reads back.
    pub fn set(&mut self, index: usize, w: [i32; 2]) {
        self.w[index] = w.map(|v| v.clamp(-MAX_WEIGHT, MAX_WEIGHT));
    }

    /// The committed weights, parsed once.
    pub fn committed() -> &'static PatternWeights {
        static W: OnceLock<PatternWeights> = OnceLock::new();
        W.get_or_init(|| {
            PatternWeights::parse(COMMITTED).unwrap_or_else(|e| panic!("weights/patterns.txt: {e}"))
        })
    }

    /// The weighted sum of `f` in whole units, truncated towards zero (before the clamp).
    pub fn value(&self, f: &Features) -> i32 {
        self.value_of(&f[0], &f[1])
    }

    /// [`PatternWeights::value`] of the side to move's counts `mine` and the side waiting's
    /// `theirs`, given apart.
    #[inline]
    pub fn value_of(&self, mine: &[i32; N_FEATURES], theirs: &[i32; N_FEATURES]) -> i32 {
        let mut sum = 0i64;
        for (i, w) in self.w.iter().enumerate() {
            sum += i64::from(w[0]) * i64::from(mine[i]) + i64::from(w[1]) * i64::from(theirs[i]);
        }
        // Within i32 by far: a board has at most a few hundred cells read, 4 kinds each.
        (sum / i64::from(SCALE)) as i32
    }

    /// Reads `name to_move waiting` lines (blank lines and `#` comments skipped). Every
    /// feature must be given exactly once.
    pub fn parse(text: &str) -> Result<PatternWeights, WeightsError> {
        let table =
            duel_core::weights::parse_table(text, &names(), "name to_move waiting", MAX_WEIGHT)?;
        let mut w = PatternWeights::zero();
        w.w.copy_from_slice(&table);
        Ok(w)
    }

    /// The weights as [`PatternWeights::parse`] reads them, after `header` (each of its lines
    /// written as a `#` comment).
    pub fn to_text(&self, header: &str) -> String {
        duel_core::weights::table_text(header, &names(), &self.w)
    }
}

/// The feature names as the weights table wants them.
fn names() -> Vec<String> {
    FEATURE_NAMES.iter().map(|n| n.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn committed_weights_round_trip() {
        let w = PatternWeights::committed();
        assert_eq!(&PatternWeights::parse(&w.to_text("x\ny")).unwrap(), w);
    }

    #[test]
    fn bad_files_are_refused_by_line() {
        let good = PatternWeights::committed().to_text("");
        let missing: String = good.lines().skip(1).map(|l| format!("{l}\n")).collect();
        assert_eq!(
            PatternWeights::parse(&missing),
            Err(WeightsError::Missing("kind.block1".into()))
        );
        let twice = format!("{good}kind.flex3 1 2\n");
        assert_eq!(
            PatternWeights::parse(&twice),
            Err(WeightsError::Twice {
                line: N_FEATURES + 1,
                name: "kind.flex3".into()
            })
        );
        let unknown = format!("# c\nkind.six 1 2\n{good}");
        assert_eq!(
            PatternWeights::parse(&unknown),
            Err(WeightsError::Unknown {
                line: 2,
                name: "kind.six".into()
            })
        );
        assert!(matches!(
            PatternWeights::parse("kind.block1 1\n"),
            Err(WeightsError::Form { line: 1, .. })
        ));
        assert!(matches!(
            PatternWeights::parse("kind.block1 1 x\n"),
            Err(WeightsError::Weight { line: 1, .. })
        ));
        assert!(matches!(
            PatternWeights::parse("kind.block1 1 200000\n"),
            Err(WeightsError::Weight { line: 1, .. })
        ));
    }
}
