//! [`Strong`], duel's fitted chess evaluation: linear in its weights, so that a logistic fit on
//! game results (Texel's method, `duel-train chess-fit`) finds them by plain gradient descent.
//!
//! The value is tapered like [`crate::Pst`]'s: `(mg·phase + eg·(24 − phase)) / 24`, where
//! `mg = Σ w_mg[i]·x[i]` and `eg = Σ w_eg[i]·x[i]` over integer features `x`, each counted for
//! White minus the same count for Black (squares seen from each side's own back rank). The
//! features: material, piece-square tables, mobility tables; passed pawns by rank, with a free
//! path, a blocked or a safe square in front, and the two kings' distances to it (by rank),
//! defended passers; isolated, doubled, backward, defended and side-by-side pawns, and
//! connected pawns by rank; the pawn shield, the enemy pawn storm, open files by the king, the
//! attacks on each king's zone, a king-danger table by the number of attackers, the checks
//! each piece type has ready and those of them the enemy does not cover, minor pieces by the
//! king; threats (pieces hit by pawns, rooks and queens by minors, queens by rooks, undefended
//! pieces, pieces a pawn push would hit, undefended units next to the king, weak pawns);
//! knight and bishop outposts, minor pieces behind a pawn, the pawns on a bishop's colour; the
//! bishop pair, rooks on open and semi-open files and on the seventh; space behind the pawns;
//! the king's distance to the nearest pawn; and a tempo for the side to move. Both sides'
//! attack sets are found first (`Attacks`), so each side's terms can ask what the other
//! covers.
//!
//! One rule is not a weight: in endings a material edge rarely wins (a pawnless side at most a
//! minor piece up, a side that cannot mate, bishops of opposite colours) the endgame value is
//! scaled down by [`crate::endgame::scales`]; the fit models it the same way. The rules of the
//! game, not the fit, make these endings drawish, and a linear term cannot express "whoever is
//! ahead".
//!
//! [`features`] lists a position's features sparsely for the fitter; [`Strong::evaluate`] walks
//! the same code with an accumulator in place of the list ([`duel_core::features`]), so the two
//! cannot disagree (a test checks it on every position of the chess data files).
//!
//! One file per duty: `layout` (where each feature sits, and its name), `masks` (the
//! bitboard tables), `walk` (the features counted), `weights` (the table and its text).

mod layout;
mod masks;
mod walk;
mod weights;

use std::sync::{Arc, OnceLock};

use cozy_chess::{Board, Color, Piece};
use duel_core::features::{sparse, Weighted};
use duel_core::weights::Tapered;
use duel_core::Evaluator;

pub use crate::values::PHASE_MAX;
pub use layout::{feature_name, pst_feature, N_FEATURES};
pub use weights::{Weights, WeightsError, MAX_WEIGHT};

use crate::values::PHASE_WEIGHTS;
use crate::Chess;
use walk::walk;

/// The game phase: 24 with every minor and major piece on the board, down to 0 with none
/// (promotions can take the sum above 24; it is capped).
pub fn phase(pos: &Chess) -> i32 {
    board_phase(pos.board())
}

fn board_phase(b: &Board) -> i32 {
    let sum: i32 = Piece::ALL
        .iter()
        .map(|&p| PHASE_WEIGHTS[p as usize] * b.pieces(p).len() as i32)
        .sum();
    sum.min(PHASE_MAX)
}

/// The tapered value with the endgame part scaled by whoever it favours
/// ([`crate::endgame::scales`]).
pub fn blend(mg: i32, eg: i32, phase: i32, scales: [i32; 2]) -> i32 {
    let scale = if eg > 0 { scales[0] } else { scales[1] };
    taper(mg, eg * scale / 64, phase)
}

/// The position's features that are not zero, as (index, White-minus-Black count), in index
/// order; `out` is cleared first. Counts lie far inside `i8` in any reachable position (the
/// largest, a queen's attacks on the king zone, is at most 8 per queen).
pub fn features(pos: &Chess, out: &mut Vec<(u16, i8)>) {
    sparse::<N_FEATURES>(|d| walk(pos.board(), d), out);
}

/// The tapered blend; the truncating division is odd (`taper(-a) = -taper(a)`), which keeps the
/// evaluation exactly colour-symmetric.
pub fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    Tapered { mg, eg }.blend(phase, PHASE_MAX)
}

impl Weights {
    /// White's tapered value of `board` (the side to move counts only through the tempo term).
    fn white_value(&self, b: &Board) -> i32 {
        let mut acc = Weighted::new(&self.w);
        walk(b, &mut acc);
        let sum = acc.sum;
        blend(sum.mg, sum.eg, board_phase(b), crate::endgame::scales(b))
    }
}

/// The fitted evaluation: material, piece-square tables, mobility, pawn structure, king safety,
/// bishop pair and rook files, with weights from `weights/strong.txt` by default.
#[derive(Debug, Clone)]
pub struct Strong {
    weights: Arc<Weights>,
}

impl Default for Strong {
    fn default() -> Self {
        static SHARED: OnceLock<Arc<Weights>> = OnceLock::new();
        Strong {
            weights: Arc::clone(SHARED.get_or_init(|| Arc::new(Weights::committed().clone()))),
        }
    }
}

impl Strong {
    /// Strong with other weights (the fitter's candidates).
    pub fn new(weights: Weights) -> Strong {
        Strong {
            weights: Arc::new(weights),
        }
    }

    /// The weights in use.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The value from White's side, whoever is to move.
    pub fn white_value(&self, pos: &Chess) -> i32 {
        self.weights.white_value(pos.board())
    }
}

impl Evaluator<Chess> for Strong {
    fn unit(&self) -> &'static str {
        "centipawns as the fitted weights count them (a pawn 77 to 104)"
    }

    fn name(&self) -> &'static str {
        "strong"
    }

    fn evaluate(&self, pos: &Chess) -> i32 {
        if let Some(v) = crate::endgame::mop_up(pos.board()) {
            return v;
        }
        let v = self.white_value(pos);
        match pos.board().side_to_move() {
            Color::White => v,
            Color::Black => -v,
        }
    }

    crate::eval::pst_hooks!();
}
