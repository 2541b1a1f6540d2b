//! What a graphical front end draws: the board as a grid of cells, and the cells each move
//! touches. The browser (`duel serve`) draws every game from these alone, so a new game needs
//! no drawing code outside its crate.

use crate::Side;

/// How a board is drawn and how a move is made on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardStyle {
    /// Marks in the cells of a plain grid (tic-tac-toe): a move is a click on a cell.
    Marks,
    /// Discs dropped into columns (Connect Four): a click anywhere in a column drops there.
    Drop,
    /// Discs on a green board (Othello): a move is a click on a cell; a pass touches none.
    Discs,
    /// Stones on the points of a grid (Gomoku): a move is a click on a point.
    Stones,
    /// A checkered board of pieces (chess): a move goes from one cell to another, by two
    /// clicks or a drag.
    Checkered,
    /// Pieces on the 9x10 points of a xiangqi board, with the river between the fifth and
    /// sixth rows and the two palaces: a move goes from one point to another, as on a
    /// checkered board.
    Xiangqi,
}

impl BoardStyle {
    /// The name the web API gives it.
    pub const fn name(self) -> &'static str {
        match self {
            BoardStyle::Marks => "marks",
            BoardStyle::Drop => "drop",
            BoardStyle::Discs => "discs",
            BoardStyle::Stones => "stones",
            BoardStyle::Checkered => "checkered",
            BoardStyle::Xiangqi => "xiangqi",
        }
    }

    /// Whether a move on this board takes a piece from one cell to another (chess, xiangqi)
    /// rather than placing one.
    pub const fn moves_pieces(self) -> bool {
        matches!(self, BoardStyle::Checkered | BoardStyle::Xiangqi)
    }
}

/// A piece on a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    /// Whose it is.
    pub side: Side,
    /// What it is, as one letter: chess `K Q R B N P`; a game with one kind of piece uses the
    /// side's letter of its notation (`X`/`O`, `B`/`W`, `R`/`Y`).
    pub kind: char,
}

impl Piece {
    /// The piece of `side` in a game with one kind of piece, whose letters for the sides
    /// are `letters`, the first player's first (`['X', 'O']`).
    pub const fn of_side(side: Side, letters: [char; 2]) -> Piece {
        let kind = match side {
            Side::First => letters[0],
            Side::Second => letters[1],
        };
        Piece { side, kind }
    }
}

/// The board as a grid. Cells are numbered row by row from the top row as the first player
/// sees the board (chess: a8 first, h1 last), `cols` to a row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardView {
    /// Cells in a row.
    pub cols: u16,
    /// Rows.
    pub rows: u16,
    /// `cols * rows` cells, each empty or holding a piece.
    pub cells: Vec<Option<Piece>>,
    /// The label of each column, left to right (`a`..`h`), empty where the game names none.
    pub col_labels: Vec<String>,
    /// The label of each row, top to bottom (`8`..`1`), empty where the game names none.
    pub row_labels: Vec<String>,
    /// Each cell as the game's notation names it (`e4`, `5`; Connect Four: its column), so
    /// that a click the legal moves do not cover can still be sent as text and refused by
    /// the game with its reason.
    pub cell_names: Vec<String>,
}

impl BoardView {
    /// A grid in the coordinates of chess, Othello and Gomoku: columns lettered from `a` on
    /// the left, rows numbered from 1 at the bottom, or at the top where `one_at_top`
    /// (Othello draws a1 top left).
    pub fn with_coordinates(
        cols: u16,
        rows: u16,
        cells: Vec<Option<Piece>>,
        one_at_top: bool,
    ) -> BoardView {
        // Past `z` (no board here is that wide) a column is left unnamed, not misnamed.
        let letter = |c: u16| {
            char::from_u32(u32::from(c) + u32::from('a'))
                .filter(char::is_ascii_lowercase)
                .map(String::from)
                .unwrap_or_default()
        };
        let number = |r: u16| {
            let n = if one_at_top { r + 1 } else { rows - r };
            n.to_string()
        };
        let col_labels: Vec<String> = (0..cols).map(letter).collect();
        let row_labels: Vec<String> = (0..rows).map(number).collect();
        let cell_names = row_labels
            .iter()
            .flat_map(|r| col_labels.iter().map(move |c| format!("{c}{r}")))
            .collect();
        BoardView {
            cols,
            rows,
            cells,
            col_labels,
            row_labels,
            cell_names,
        }
    }
}

/// The cells a move touches, as [`BoardView`] numbers them: a placement has only `to`, a
/// move from one cell to another both, a pass neither.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MoveCells {
    /// Where the piece comes from.
    pub from: Option<u16>,
    /// Where it lands.
    pub to: Option<u16>,
}

impl MoveCells {
    /// A piece put on `cell`.
    pub const fn placement(cell: u16) -> MoveCells {
        MoveCells {
            from: None,
            to: Some(cell),
        }
    }

    /// A piece moved from `from` to `to`.
    pub const fn between(from: u16, to: u16) -> MoveCells {
        MoveCells {
            from: Some(from),
            to: Some(to),
        }
    }
}
