//! What one piece reaches by its own movement, for evaluators: its quiet points, the pieces
//! it hits, its blocked steps.

use super::lines::{FILE_SPREAD, RANK_MASK, SLIDES};
use super::piece::Kind;
use super::point::{bit, file_of, rank_of, Square, FILES};
use super::steps::{ADVISOR_STEPS, ELEPHANT_STEPS, HORSE_MOVES, KING_STEPS, PAWN_STEPS};
use super::Board;

/// What one piece reaches by its own movement, for evaluators (its general's safety aside).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reach {
    /// The empty points it could move to.
    pub quiet: u128,
    /// The occupied points it attacks, or protects where its own pieces stand: a chariot's
    /// first piece along each line, a cannon's second (over its screen).
    pub hits: u128,
    /// Its steps stopped at a horse's leg or an elephant's eye.
    pub blocked: u32,
}

impl Board {
    /// What the piece on `sq` reaches; nothing for an empty point.
    pub fn reach(&self, sq: Square) -> Reach {
        let mut out = Reach::default();
        let Some(piece) = self.piece_at(sq) else {
            return out;
        };
        let all = self.occupied[0] | self.occupied[1];
        let mut steps = |targets: &[Square], vias: &[Square], guarded: bool| {
            for (&to, &via) in targets.iter().zip(vias) {
                if guarded && all & bit(via) != 0 {
                    out.blocked += 1;
                } else if all & bit(to) != 0 {
                    out.hits |= bit(to);
                } else {
                    out.quiet |= bit(to);
                }
            }
        };
        match piece.kind {
            Kind::King => KING_STEPS.with(sq, |t, v| steps(t, v, false)),
            Kind::Advisor => ADVISOR_STEPS.with(sq, |t, v| steps(t, v, false)),
            Kind::Elephant => ELEPHANT_STEPS.with(sq, |t, v| steps(t, v, true)),
            Kind::Horse => HORSE_MOVES.with(sq, |t, v| steps(t, v, true)),
            Kind::Pawn => PAWN_STEPS[piece.side as usize].with(sq, |t, v| steps(t, v, false)),
            Kind::Chariot | Kind::Cannon => {
                let (r, f) = (rank_of(sq), file_of(sq));
                let on_rank = SLIDES[usize::from(f)][usize::from(self.ranks[usize::from(r)])];
                let on_file = SLIDES[usize::from(r)][usize::from(self.files[usize::from(f)])];
                let rank = |line: u16| u128::from(line & RANK_MASK) << (r * FILES);
                let file = |line: u16| FILE_SPREAD[usize::from(line)] << f;
                out.quiet = rank(on_rank.quiet) | file(on_file.quiet);
                out.hits = if piece.kind == Kind::Cannon {
                    rank(on_rank.cannon) | file(on_file.cannon)
                } else {
                    rank(on_rank.chariot) | file(on_file.chariot)
                };
            }
        }
        out
    }
}
