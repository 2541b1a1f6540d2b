//! Connect Four (7 columns, 6 rows) for duel: the rules on bitboards, a heuristic evaluator for
//! depth-limited play and an exact solver.
//!
//! A move is a column, printed 1 to 7 from the left; a position is the string of columns played
//! from the empty board (`"4453"`), the format of Pascal Pons' test sets in `data/connect4/`.
//! The game stops as soon as a side has four in a row, and is drawn when the board is full.
//!
//! - [`Connect4`] implements [`duel_core::Game`];
//! - [`Threats`] implements [`duel_core::Evaluator`] (open lines, threats and their rows);
//! - [`Solver`] computes exact scores in Pons' convention, [`pons_to_score`] turns them into a
//!   [`duel_core::Score`]; [`solver`] also has the limits and progress reports of a long solve;
//! - [`bitboard`] has the layout, the bit tricks and [`Board`], the bare position the solver
//!   works on.

pub mod bitboard;
mod eval;
mod info;
pub mod solver;

use std::fmt;

use duel_core::{Game, MoveError, Outcome, PositionError, Side, SplitMix64};

use bitboard::{cell, COLUMN_BITS};
pub use bitboard::{Board, CELLS, HEIGHT, WIDTH};
pub use eval::Threats;
pub use info::SOLVE_MIN_STONES;
pub use solver::{pons_to_score, solve_small, Solver, DEFAULT_TABLE_BITS, MAX_SCORE, MIN_SCORE};

/// A column, 0 (left) to 6 (right). Printed 1-based.
pub type Column = u8;

/// Zobrist keys: one per side and bit of the layout (the spare bits' keys go unused), then one
/// for "second player to move".
const KEYS: [u64; 2 * BITS + 1] = SplitMix64::keys(0xC044_EC74_F00D_0042);
const BITS: usize = (WIDTH * COLUMN_BITS) as usize;
const SIDE_KEY: usize = 2 * BITS;

#[inline]
fn key(side: Side, col: u32, row: u32) -> u64 {
    KEYS[side as usize * BITS + (col * COLUMN_BITS + row) as usize]
}

/// A Connect Four position with the moves that led to it (for undo and the text form).
///
/// Two values are equal when the same moves were played in the same order; compare
/// [`Connect4::board`] to ignore the move order.
#[derive(Clone, Copy)]
pub struct Connect4 {
    board: Board,
    hash: u64,
    /// Columns played; entries at and beyond `board.moves()` are zero.
    history: [Column; CELLS as usize],
}

impl Connect4 {
    /// The bare bitboards, as the solver uses them.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The columns played from the empty board, in order (0-based).
    pub fn moves_played(&self) -> &[Column] {
        &self.history[..self.board.moves() as usize]
    }

    /// True if column `col` (0-based) has room. Says nothing about whether the game is over.
    #[inline]
    pub fn can_play(&self, col: Column) -> bool {
        col < WIDTH as u8 && self.board.can_play(col as u32)
    }

    /// True if the side to move connects four by dropping a stone in `col` (0-based), which
    /// must be playable.
    #[inline]
    pub fn is_winning_move(&self, col: Column) -> bool {
        self.board.is_winning_move(col as u32)
    }

    /// The stones of `side` as a bitboard (bit `7 * col + row`).
    #[inline]
    pub fn stones(&self, side: Side) -> u64 {
        if side == self.side_to_move() {
            self.board.current()
        } else {
            self.board.opponent()
        }
    }

    /// Every occupied cell as a bitboard.
    #[inline]
    pub fn mask(&self) -> u64 {
        self.board.mask()
    }

    /// Stones in column `col` (0-based).
    pub fn height(&self, col: Column) -> u32 {
        self.board.height(col as u32)
    }

    /// Empty cells left.
    pub fn empties(&self) -> u32 {
        CELLS - self.board.moves()
    }

    /// Who has a stone at `col`, `row` (0-based, row 0 at the bottom), if anyone.
    pub fn at(&self, col: Column, row: u32) -> Option<Side> {
        let bit = cell(col as u32, row);
        if self.stones(Side::First) & bit != 0 {
            Some(Side::First)
        } else if self.stones(Side::Second) & bit != 0 {
            Some(Side::Second)
        } else {
            None
        }
    }

    /// The same game played in the mirror (column `c` becomes `6 - c`): the same value for
    /// both sides, which tests of evaluators rely on.
    pub fn mirrored(&self) -> Connect4 {
        let mut pos = Connect4::start();
        for &col in self.moves_played() {
            pos.play(WIDTH as u8 - 1 - col);
        }
        pos
    }

    /// The board as text: rows from top to bottom, `X` for the first player, `O` for the
    /// second, `.` for empty, the last disc dropped in brackets ([`duel_core::diagram`], as
    /// every game marks its last move), and the column numbers underneath. No legend: the
    /// sides are named `X` and `O` everywhere.
    pub fn diagram(&self) -> String {
        let last = self
            .moves_played()
            .last()
            .map(|&col| (col, self.height(col) - 1));
        let mut out = String::with_capacity(((2 * WIDTH + 1) * (HEIGHT + 1)) as usize);
        for row in (0..HEIGHT).rev() {
            let cells = (0..WIDTH as u8).map(|col| {
                let letter = match self.at(col, row) {
                    Some(Side::First) => 'X',
                    Some(Side::Second) => 'O',
                    None => '.',
                };
                (letter, last == Some((col, row)))
            });
            out.push_str(duel_core::diagram::row(cells).trim_end());
            out.push('\n');
        }
        let numbers = (0..WIDTH as u8).map(|col| (char::from(b'1' + col), false));
        out.push_str(duel_core::diagram::row(numbers).trim_end());
        out.push('\n');
        out
    }
}

impl fmt::Debug for Connect4 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Connect4(\"{}\")", self.to_text())
    }
}

impl PartialEq for Connect4 {
    fn eq(&self, other: &Self) -> bool {
        self.moves_played() == other.moves_played()
    }
}

impl Eq for Connect4 {}

impl Game for Connect4 {
    type Move = Column;
    const NAME: &'static str = "connect4";
    const MOVE_INDICES: usize = WIDTH as usize;

    fn move_index(mv: Column) -> usize {
        mv as usize
    }

    fn start() -> Self {
        Connect4 {
            board: Board::EMPTY,
            hash: 0,
            history: [0; CELLS as usize],
        }
    }

    #[inline]
    fn side_to_move(&self) -> Side {
        if self.board.moves() & 1 == 0 {
            Side::First
        } else {
            Side::Second
        }
    }

    #[inline]
    fn ply(&self) -> u32 {
        self.board.moves()
    }

    fn generate_moves(&self, moves: &mut Vec<Column>) {
        moves.clear();
        if self.outcome().is_some() {
            return;
        }
        moves.extend((0..WIDTH as u8).filter(|&c| self.board.can_play(c as u32)));
    }

    #[inline]
    fn play(&mut self, col: Column) {
        debug_assert!(
            self.can_play(col) && self.outcome().is_none(),
            "illegal move {col}"
        );
        let c = col as u32;
        self.hash ^= key(self.side_to_move(), c, self.board.height(c)) ^ KEYS[SIDE_KEY];
        self.history[self.board.moves() as usize] = col;
        self.board.play_col(c);
    }

    #[inline]
    fn undo(&mut self, col: Column) {
        let last = self.board.moves() as usize - 1;
        debug_assert_eq!(
            self.history[last], col,
            "undo of a move that was not the last"
        );
        self.history[last] = 0;
        let c = col as u32;
        self.board.undo_col(c);
        self.hash ^= key(self.side_to_move(), c, self.board.height(c)) ^ KEYS[SIDE_KEY];
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        // Play stops at the first four, so only the side that just moved can have one.
        if self.board.last_mover_won() {
            Some(Outcome::Loss)
        } else if self.board.moves() == CELLS {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for col in 0..WIDTH {
            for row in 0..HEIGHT {
                if let Some(side) = self.at(col as u8, row) {
                    h ^= key(side, col, row);
                }
            }
        }
        if self.side_to_move() == Side::Second {
            h ^= KEYS[SIDE_KEY];
        }
        h
    }

    fn format_move(&self, col: Column) -> String {
        char::from(b'1' + col).to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Column, MoveError> {
        let col = match text.trim().as_bytes() {
            [d @ b'1'..=b'7'] => d - b'1',
            _ => {
                return Err(MoveError::syntax(
                    Self::NAME,
                    text,
                    "expected a column number 1-7",
                ))
            }
        };
        if let Some(o) = self.outcome() {
            let why = match (o, self.side_to_move()) {
                (Outcome::Draw, _) => "the board is full",
                (_, Side::First) => "O has connected four",
                (_, Side::Second) => "X has connected four",
            };
            return Err(MoveError::illegal(
                text,
                format!("the game is over ({why})"),
            ));
        }
        if !self.can_play(col) {
            return Err(MoveError::illegal(
                text,
                format!("column {} is full", col + 1),
            ));
        }
        Ok(col)
    }

    fn to_text(&self) -> String {
        self.moves_played()
            .iter()
            .map(|&c| char::from(b'1' + c))
            .collect()
    }

    fn from_text(text: &str) -> Result<Self, PositionError> {
        let mut pos = Self::start();
        for (i, ch) in text.trim().chars().enumerate() {
            let mv = pos.parse_move(ch.encode_utf8(&mut [0; 4])).map_err(|e| {
                PositionError::new(Self::NAME, text, format!("move {}: {e}", i + 1))
            })?;
            pos.play(mv);
        }
        Ok(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagram_shows_stones_from_the_top_and_the_last_in_brackets() {
        let pos = Connect4::from_text("4453").unwrap();
        // Each line begins with a separator: the room for a bracket in the first column.
        let expected = [
            " . . . . . . .",
            " . . . . . . .",
            " . . . . . . .",
            " . . . . . . .",
            " . . . O . . .",
            " . .[O]X X . .",
            " 1 2 3 4 5 6 7\n",
        ]
        .join("\n");
        assert_eq!(pos.diagram(), expected);
        // The last disc on top of a full column, and at either edge.
        let full = Connect4::from_text("444444").unwrap().diagram();
        assert!(
            full.starts_with(" . . .[O]. . .\n . . . X . . .\n"),
            "{full}"
        );
        let right = Connect4::from_text("7").unwrap().diagram();
        assert!(
            right.ends_with(" . . . . . .[X]\n 1 2 3 4 5 6 7\n"),
            "{right}"
        );
        let left = Connect4::from_text("1").unwrap().diagram();
        assert!(
            left.ends_with("\n[X]. . . . . .\n 1 2 3 4 5 6 7\n"),
            "{left}"
        );
        assert!(!Connect4::start().diagram().contains('['));
        assert_eq!(format!("{pos:?}"), "Connect4(\"4453\")");
    }
}
