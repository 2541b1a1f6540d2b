//! What stands on a point and what moves: [`Kind`], [`Piece`], the board's byte for each
//! (what the move generator and the Zobrist keys index by), and [`Move`].

use duel_core::Side;

use super::point::{square_name, Square};

/// What a piece is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The general (king).
    King,
    /// An advisor (guard).
    Advisor,
    /// An elephant (minister).
    Elephant,
    /// A horse.
    Horse,
    /// A chariot.
    Chariot,
    /// A cannon.
    Cannon,
    /// A soldier (pawn).
    Pawn,
}

impl Kind {
    /// Every kind, in the order of the piece codes.
    pub const ALL: [Kind; 7] = [
        Kind::King,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Chariot,
        Kind::Cannon,
        Kind::Pawn,
    ];

    /// The FEN letter in upper case (Pikafish's and Fairy-Stockfish's: `K A B N R C P`).
    pub const fn letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'B',
            Kind::Horse => 'N',
            Kind::Chariot => 'R',
            Kind::Cannon => 'C',
            Kind::Pawn => 'P',
        }
    }

    /// The most a side can have: the pieces of the start position, as none is ever added.
    pub const fn most(self) -> u32 {
        match self {
            Kind::King => 1,
            Kind::Pawn => 5,
            _ => 2,
        }
    }
}

/// A piece: its side and kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Red (`First`) or Black (`Second`).
    pub side: Side,
    /// What it is.
    pub kind: Kind,
}

impl Piece {
    /// The piece's byte on the board: 1 + kind, plus 8 for Black; 0 is an empty point.
    pub(super) const fn code(self) -> u8 {
        1 + self.kind as u8 + 8 * self.side as u8
    }

    /// The piece a board byte holds, if any.
    pub(super) fn from_code(code: u8) -> Option<Piece> {
        let kind = *Kind::ALL.get(usize::from((code & 7).checked_sub(1)?))?;
        let side = if code & 8 == 0 {
            Side::First
        } else {
            Side::Second
        };
        Some(Piece { side, kind })
    }
}

/// Board bytes by side and kind, for the move generator.
pub(super) const fn code(side: usize, kind: Kind) -> u8 {
    1 + kind as u8 + 8 * side as u8
}

pub(super) const KING: u8 = Kind::King as u8 + 1;
pub(super) const ADVISOR: u8 = Kind::Advisor as u8 + 1;
pub(super) const ELEPHANT_CODE: u8 = Kind::Elephant as u8 + 1;
pub(super) const HORSE: u8 = Kind::Horse as u8 + 1;
pub(super) const CHARIOT: u8 = Kind::Chariot as u8 + 1;
pub(super) const CANNON: u8 = Kind::Cannon as u8 + 1;
pub(super) const PAWN: u8 = Kind::Pawn as u8 + 1;

/// The side index (0 Red, 1 Black) of a non-empty board byte.
pub(super) const fn side_of(code: u8) -> usize {
    (code >> 3) as usize
}

/// The kind part of a board byte (the `KING`..`PAWN` constants), the side stripped.
pub(super) const fn kind_of(code: u8) -> u8 {
    code & 7
}

/// A move: from one point to another. Printed in ICCS coordinates (`h2e2`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub(super) from: Square,
    pub(super) to: Square,
}

impl Move {
    /// The move from `from` to `to` (both below `POINTS`).
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// Where the piece starts.
    pub const fn from(self) -> Square {
        self.from
    }

    /// Where it lands.
    pub const fn to(self) -> Square {
        self.to
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", square_name(self.from), square_name(self.to))
    }
}
