//! The founding text's Othello evaluation: a square-weight table (corners high, the squares
//! next to corners low), mobility, and a weighted linear combination s = p1·a1 + … + pn·an of
//! named features `a` with named weights `p`; plus its move-ordering rule, "take a corner right
//! after the opponent plays the diagonal square next to it".

use duel_core::Evaluator;

use crate::bitboard::{self, CORNERS};
use crate::{Move, Othello};

/// The value of owning each square, a1 first, h8 last. Corners can never be taken back, so they
/// are worth most; the squares next to them hand the corner to the opponent, so they are worth
/// least (the diagonal X-squares less than the edge C-squares); edges are safer than the
/// middle.
#[rustfmt::skip]
pub const SQUARE_WEIGHTS: [i32; 64] = [
    100, -20,  10,   5,   5,  10, -20, 100,
    -20, -50,  -2,  -2,  -2,  -2, -50, -20,
     10,  -2,  -1,  -1,  -1,  -1,  -2,  10,
      5,  -2,  -1,  -1,  -1,  -1,  -2,   5,
      5,  -2,  -1,  -1,  -1,  -1,  -2,   5,
     10,  -2,  -1,  -1,  -1,  -1,  -2,  10,
    -20, -50,  -2,  -2,  -2,  -2, -50, -20,
    100, -20,  10,   5,   5,  10, -20, 100,
];

/// The features `a_i` of the linear combination, each from the side to move's point of view
/// (ours minus theirs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Feature {
    /// The sum of [`SQUARE_WEIGHTS`] over our discs minus over theirs.
    SquareWeights,
    /// Our legal moves minus theirs.
    Mobility,
    /// Corners we hold minus corners they hold.
    Corners,
    /// Potential mobility: empty squares next to their discs (where we may later move) minus
    /// empty squares next to ours.
    PotentialMobility,
    /// Our discs minus theirs. Weighted low: in the middle game, fewer discs usually means more
    /// moves.
    Discs,
}

impl Feature {
    /// Every feature, in the order of [`WEIGHTS`].
    pub const ALL: [Feature; 5] = [
        Feature::SquareWeights,
        Feature::Mobility,
        Feature::Corners,
        Feature::PotentialMobility,
        Feature::Discs,
    ];

    /// The feature's name in reports.
    pub const fn name(self) -> &'static str {
        match self {
            Feature::SquareWeights => "square-weights",
            Feature::Mobility => "mobility",
            Feature::Corners => "corners",
            Feature::PotentialMobility => "potential-mobility",
            Feature::Discs => "discs",
        }
    }

    /// The feature's value `a_i` in `pos`, from the side to move.
    pub fn value(self, pos: &Othello) -> i32 {
        let (p, o) = (pos.player(), pos.opponent());
        let count = |b: u64| b.count_ones() as i32;
        match self {
            Feature::SquareWeights => square_sum(p) - square_sum(o),
            Feature::Mobility => count(bitboard::moves(p, o)) - count(bitboard::moves(o, p)),
            Feature::Corners => count(p & CORNERS) - count(o & CORNERS),
            Feature::PotentialMobility => {
                let empty = pos.empties();
                count(bitboard::neighbours(o) & empty) - count(bitboard::neighbours(p) & empty)
            }
            Feature::Discs => count(p) - count(o),
        }
    }
}

fn square_sum(mut discs: u64) -> i32 {
    let mut s = 0;
    while discs != 0 {
        s += SQUARE_WEIGHTS[discs.trailing_zeros() as usize];
        discs &= discs - 1;
    }
    s
}

/// The weights `p_i`, one per feature. Units: one point of the square table. A move is worth
/// about a tenth of a corner, potential mobility about a third of a move; a corner already
/// counts 100 in the table, the extra 50 rewards it as the stable anchor it is.
pub const WEIGHTS: [(Feature, i32); 5] = [
    (Feature::SquareWeights, 1),
    (Feature::Mobility, 10),
    (Feature::Corners, 50),
    (Feature::PotentialMobility, 3),
    (Feature::Discs, 1),
];

/// Ordering hints are the square's weight times this, so the corner rule stays above them all.
pub const HINT_SCALE: i32 = 100;

/// The ordering hint of a corner taken right after the opponent played the X-square next to
/// it: above everything else.
pub const CORNER_AFTER_X_HINT: i32 = 1_000_000;

/// The textbook evaluator: s = Σ p_i·a_i over [`Feature::ALL`] with the weights it holds
/// ([`WEIGHTS`] by default).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Textbook {
    /// The weights `p_i`, in the order of [`Feature::ALL`].
    pub weights: [(Feature, i32); 5],
}

impl Default for Textbook {
    fn default() -> Self {
        Textbook { weights: WEIGHTS }
    }
}

impl Textbook {
    /// Each term of the sum for `pos`: (feature, weight p_i, value a_i). The evaluation is the
    /// sum of the products.
    pub fn terms(&self, pos: &Othello) -> Vec<(Feature, i32, i32)> {
        self.weights
            .iter()
            .map(|&(f, w)| (f, w, f.value(pos)))
            .collect()
    }
}

/// The corner diagonally behind each X-square, as (X-square, corner).
const X_TO_CORNER: [(u8, u8); 4] = [(9, 0), (14, 7), (49, 56), (54, 63)];

impl Evaluator<Othello> for Textbook {
    fn unit(&self) -> &'static str {
        "the text's weighted-square and mobility points"
    }

    fn name(&self) -> &'static str {
        "textbook"
    }

    fn evaluate(&self, pos: &Othello) -> i32 {
        self.weights.iter().map(|&(f, w)| w * f.value(pos)).sum()
    }

    /// The text's rule first: the corner just opened by the opponent's move to the X-square
    /// next to it. Then the square table, so corners come early and X-squares late.
    fn move_hint(&self, pos: &Othello, mv: Move) -> i32 {
        let Some(sq) = mv.to_square() else {
            return 0;
        };
        if let Some(last) = pos.last_move().and_then(Move::to_square) {
            if X_TO_CORNER.contains(&(last, sq)) {
                return CORNER_AFTER_X_HINT;
            }
        }
        SQUARE_WEIGHTS[sq as usize] * HINT_SCALE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use duel_core::Game;

    #[test]
    fn table_is_symmetric() {
        for (sq, &w) in SQUARE_WEIGHTS.iter().enumerate() {
            let (f, r) = (sq % 8, sq / 8);
            assert_eq!(w, SQUARE_WEIGHTS[r * 8 + (7 - f)]);
            assert_eq!(w, SQUARE_WEIGHTS[(7 - r) * 8 + f]);
            assert_eq!(w, SQUARE_WEIGHTS[f * 8 + r]);
        }
    }

    #[test]
    fn start_position_is_balanced() {
        let s = Othello::start();
        for f in Feature::ALL {
            assert_eq!(f.value(&s), 0, "{}", f.name());
        }
        assert_eq!(Textbook::default().evaluate(&s), 0);
    }
}
