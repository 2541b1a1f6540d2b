//! The repetition rulings: who, if anyone, a repeated position is lost for.
//!
//! A cycle is the moves from an earlier occurrence of the position (same pieces, same side to
//! move) to now; no capture and no soldier's step forward can lie inside one, as neither can
//! be undone. The cycle is played again on a copy of the board, and each move is marked:
//!
//! - a **check**: after it the opponent's general is attacked;
//! - a **chase**: the pieces it newly *chases*. A chariot, horse or cannon chases an enemy
//!   piece it attacks (could take next, by its own movement) when that piece is not the
//!   general, not a soldier still on its own side of the river, cannot take the attacker
//!   back itself, and either is unprotected (no piece of its side attacks its point) or is a
//!   chariot attacked by a horse or cannon. "Newly": chased after the move and not before.
//!
//! Then, in this order:
//! 1. one side checked with every move of the cycle and the other did not: the checking side
//!    loses (perpetual check);
//! 2. one side chased one and the same piece with every move of the cycle (the piece followed
//!    as it moves) and the other did not: the chasing side loses (perpetual chase);
//! 3. anything else is a draw: both sides checking, both chasing, idle moves.
//!
//! This is the simplest form of the Asian rules, and it knows their common cases only. Not
//! modelled: alternating check and chase (one check, one chase: forbidden under the Asian
//! rules, a draw here); chases by the general, advisors, elephants and soldiers; a chase whose
//! capture would be illegal (the attacker pinned) or whose recapture would be (the defender
//! pinned), and protection that the capture itself opens or closes (a defending cannon's
//! screen); "one piece chasing two"; the Chinese rules' differences (which allow some chases
//! the Asian rules forbid).

use duel_core::Side;

use crate::board::{points, Board, Kind, Move, Square};

/// What a repetition means for the players.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ruling {
    /// `loser` checked with every move of the cycle; the other side did not.
    PerpetualCheck {
        /// The side that checked.
        loser: Side,
    },
    /// `loser` chased one piece with every move of the cycle; the other side did not.
    PerpetualChase {
        /// The side that chased.
        loser: Side,
    },
    /// Neither, or both: a draw.
    Draw,
}

impl Ruling {
    /// Why the game ended, in a few words.
    pub fn reason(self) -> &'static str {
        match self {
            Ruling::PerpetualCheck { .. } => "perpetual check",
            Ruling::PerpetualChase { .. } => "perpetual chase",
            Ruling::Draw => "repetition",
        }
    }
}

/// One move of a cycle as the rulings see it.
struct Marked {
    mover: Side,
    mv: Move,
    check: bool,
    /// The enemy pieces' points it newly chases.
    chases: u128,
}

/// The ruling on the cycle of `moves`, played from `start` (the position that is now
/// repeated).
pub(crate) fn judge(start: &Board, moves: &[Move]) -> Ruling {
    let mut board = start.clone();
    let mut marked = Vec::with_capacity(moves.len());
    for &mv in moves {
        let mover = board.side_to_move();
        let before = chased(&board, mover);
        board.make(mv);
        let after = chased(&board, mover);
        marked.push(Marked {
            mover,
            mv,
            check: board.in_check(),
            chases: after & !before,
        });
    }
    let checks = |side: Side| marked.iter().filter(|m| m.mover == side).all(|m| m.check);
    let (red, black) = (checks(Side::First), checks(Side::Second));
    if red != black {
        let loser = if red { Side::First } else { Side::Second };
        return Ruling::PerpetualCheck { loser };
    }
    if red {
        return Ruling::Draw;
    }
    let (red, black) = (
        chases_throughout(&marked, Side::First),
        chases_throughout(&marked, Side::Second),
    );
    if red != black {
        let loser = if red { Side::First } else { Side::Second };
        return Ruling::PerpetualChase { loser };
    }
    Ruling::Draw
}

/// Whether `side` newly chased one same piece with each of its moves of the cycle: the
/// pieces chased by its first move, followed along the other side's moves and kept only
/// while each later move chases them again.
fn chases_throughout(marked: &[Marked], side: Side) -> bool {
    let mut followed: Option<u128> = None;
    for m in marked {
        if m.mover == side {
            followed = Some(followed.map_or(m.chases, |f| f & m.chases));
        } else if let Some(f) = followed.as_mut() {
            let (from, to) = (m.mv.from(), m.mv.to());
            if *f >> from & 1 != 0 {
                *f = *f & !(1 << from) | 1 << to;
            }
        }
    }
    followed.is_some_and(|f| f != 0)
}

/// The points of the pieces `side`'s chariots, horses and cannons chase (see the module doc).
pub(crate) fn chased(board: &Board, side: Side) -> u128 {
    let mut out = 0;
    let victims: Vec<(Square, Kind)> = board
        .pieces(side.other())
        .filter(|&(sq, p)| match p.kind {
            Kind::King => false,
            Kind::Pawn => crossed(sq, p.side),
            _ => true,
        })
        .map(|(sq, p)| (sq, p.kind))
        .collect();
    for (from, attacker) in board.pieces(side) {
        if !matches!(attacker.kind, Kind::Chariot | Kind::Horse | Kind::Cannon) {
            continue;
        }
        for &(to, kind) in &victims {
            if out >> to & 1 != 0 || !board.reaches(from, to) || board.reaches(to, from) {
                continue;
            }
            let outranked = kind == Kind::Chariot && attacker.kind != Kind::Chariot;
            if outranked || !protected(board, to) {
                out |= 1 << to;
            }
        }
    }
    out
}

/// Whether some other piece of the side of the piece on `sq` attacks `sq`.
fn protected(board: &Board, sq: Square) -> bool {
    let Some(p) = board.piece_at(sq) else {
        return false;
    };
    points(board.occupied(p.side)).any(|d| d != sq && board.reaches(d, sq))
}

/// Whether a soldier of `side` on `sq` has crossed the river.
fn crossed(sq: Square, side: Side) -> bool {
    let rank = crate::board::rank_of(sq);
    match side {
        Side::First => rank >= 5,
        Side::Second => rank <= 4,
    }
}
