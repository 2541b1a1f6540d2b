//! Tic-tac-toe for duel: the founding texts' first example.
//!
//! Cells are numbered 1 to 9 in reading order (1 top-left, 9 bottom-right); a move is its cell
//! number and a position is the string of cells played from the empty board (`"519"`: X in the
//! centre, O top-left, X bottom-right), like Connect Four's column strings. The game stops as
//! soon as a side has three in a row.
//!
//! ```
//! use duel_core::{Evaluator, Game, Outcome};
//! use duel_tictactoe::{OpenLines, TicTacToe};
//!
//! let mut pos = TicTacToe::start();
//! assert_eq!(OpenLines.evaluate(&pos), 0); // nobody ahead on the empty board
//! for cell in ["1", "4", "2", "5"] {
//!     pos.play(pos.parse_move(cell).unwrap());
//! }
//! assert!(pos.parse_move("5").is_err()); // taken
//! pos.play(pos.parse_move("3").unwrap()); // 1-2-3: the top row
//! assert_eq!(pos.outcome(), Some(Outcome::Loss)); // for O, to move
//! assert_eq!(pos.to_text(), "14253");
//! ```

mod info;

use duel_core::{Evaluator, Game, MoveError, Outcome, PositionError, Side, SplitMix64};

/// The eight lines as bit masks over cells 0..8.
pub const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

const FULL: u16 = 0b111_111_111;

/// Bit `s` is set if the stone set `s` (a 9-bit mask) contains a line: one lookup instead of
/// eight mask tests, since every node of a search asks whether the game is over.
const WINNING: [u64; 8] = {
    let mut table = [0u64; 8];
    let mut s = 0;
    while s < 512 {
        let mut l = 0;
        while l < 8 {
            if s & LINES[l] as usize == LINES[l] as usize {
                table[s >> 6] |= 1 << (s & 63);
            }
            l += 1;
        }
        s += 1;
    }
    table
};

/// True if the cell set `s` contains a whole line.
#[inline]
fn contains_line(s: u16) -> bool {
    let s = s as usize;
    WINNING[s >> 6] >> (s & 63) & 1 != 0
}

/// keys[side][cell], then one key for "O to move".
const KEYS: [u64; 19] = SplitMix64::keys(0x71C7_AC70_E000_0001);

/// A cell index, 0..8 in reading order.
pub type Cell = u8;

/// A tic-tac-toe position with its move history (needed for undo and for the text form).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicTacToe {
    stones: [u16; 2],
    history: Vec<Cell>,
    hash: u64,
}

impl TicTacToe {
    /// The stones of a side as a bit mask over cells 0..8.
    pub fn stones(&self, side: Side) -> u16 {
        self.stones[side as usize]
    }

    /// The cells played so far, in order.
    pub fn history(&self) -> &[Cell] {
        &self.history
    }

    /// True if `side` has three in a row.
    pub fn has_line(&self, side: Side) -> bool {
        contains_line(self.stones(side))
    }

    /// The board as three rows of `X`, `O` and the empty cells' numbers (what a move is
    /// typed as), the last move in brackets ([`duel_core::diagram`], as every game marks it).
    pub fn diagram(&self) -> String {
        let last = self.history.last().copied();
        let mut out = String::new();
        for row in 0..3 {
            let cells = (row * 3..row * 3 + 3).map(|cell: Cell| {
                let bit = 1 << cell;
                let mark = if self.stones[0] & bit != 0 {
                    'X'
                } else if self.stones[1] & bit != 0 {
                    'O'
                } else {
                    char::from(b'1' + cell)
                };
                (mark, Some(cell) == last)
            });
            out.push_str(duel_core::diagram::row(cells).trim_end());
            out.push('\n');
        }
        out
    }

    fn toggle(&mut self, side: Side, cell: Cell) {
        self.stones[side as usize] ^= 1 << cell;
        self.hash ^= KEYS[side as usize * 9 + cell as usize] ^ KEYS[18];
    }
}

impl Game for TicTacToe {
    type Move = Cell;
    const NAME: &'static str = "tictactoe";
    const MOVE_INDICES: usize = 9;

    fn move_index(mv: Cell) -> usize {
        mv as usize
    }

    fn start() -> Self {
        TicTacToe {
            stones: [0, 0],
            history: Vec::with_capacity(9),
            hash: 0,
        }
    }

    fn side_to_move(&self) -> Side {
        if self.history.len().is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        }
    }

    fn ply(&self) -> u32 {
        self.history.len() as u32
    }

    fn generate_moves(&self, moves: &mut Vec<Cell>) {
        moves.clear();
        if self.outcome().is_some() {
            return;
        }
        let mut empty = FULL & !(self.stones[0] | self.stones[1]);
        while empty != 0 {
            moves.push(empty.trailing_zeros() as Cell);
            empty &= empty - 1;
        }
    }

    fn play(&mut self, mv: Cell) {
        let side = self.side_to_move();
        self.toggle(side, mv);
        self.history.push(mv);
    }

    fn undo(&mut self, mv: Cell) {
        self.history.pop();
        let side = self.side_to_move();
        self.toggle(side, mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        // Play stops at the first line, so only the side that just moved can have one.
        if self.has_line(self.side_to_move().other()) {
            Some(Outcome::Loss)
        } else if self.history.len() == 9 {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for side in 0..2 {
            for cell in 0..9 {
                if self.stones[side] & (1 << cell) != 0 {
                    h ^= KEYS[side * 9 + cell];
                }
            }
        }
        if !self.history.len().is_multiple_of(2) {
            h ^= KEYS[18];
        }
        h
    }

    fn format_move(&self, mv: Cell) -> String {
        (mv + 1).to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Cell, MoveError> {
        let t = text.trim();
        let cell = match t.as_bytes() {
            [d @ b'1'..=b'9'] => d - b'1',
            _ => {
                return Err(MoveError::syntax(
                    Self::NAME,
                    text,
                    "expected a cell number 1-9",
                ))
            }
        };
        if let Some(o) = self.outcome() {
            let why = if o == Outcome::Draw {
                "the board is full"
            } else {
                "the game is won"
            };
            return Err(MoveError::illegal(
                text,
                format!("the game is over ({why})"),
            ));
        }
        if (self.stones[0] | self.stones[1]) & (1 << cell) != 0 {
            return Err(MoveError::illegal(
                text,
                format!("cell {} is taken", cell + 1),
            ));
        }
        Ok(cell)
    }

    fn to_text(&self) -> String {
        self.history.iter().map(|c| char::from(b'1' + c)).collect()
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

/// Ordering hint of a move that completes a line: it ends the game, so it cuts at once.
pub const HINT_WIN: i32 = 2;

/// Ordering hint of a move into the one cell that would complete the opponent's line: any
/// other move loses at the next ply.
pub const HINT_BLOCK: i32 = 1;

/// The founding texts' static evaluation: f(p) = lines still open for MAX − lines still open for
/// MIN (a line is open for a side while the other side has no stone in it), here from the side to
/// move. Wins are not its business: the search scores finished games itself (±INF).
#[derive(Debug, Clone, Copy, Default)]
pub struct OpenLines;

impl OpenLines {
    /// Lines in which `opponent` has no stone.
    pub fn open_for(opponent_stones: u16) -> i32 {
        LINES.iter().filter(|&&l| l & opponent_stones == 0).count() as i32
    }
}

impl Evaluator<TicTacToe> for OpenLines {
    fn unit(&self) -> &'static str {
        "open lines (lines still open to the side to move less those open to the other)"
    }

    fn name(&self) -> &'static str {
        "open-lines"
    }

    fn evaluate(&self, pos: &TicTacToe) -> i32 {
        let me = pos.stones(pos.side_to_move());
        let them = pos.stones(pos.side_to_move().other());
        Self::open_for(them) - Self::open_for(me)
    }

    fn move_hint(&self, pos: &TicTacToe, cell: Cell) -> i32 {
        let bit = 1u16 << cell;
        let me = pos.stones(pos.side_to_move());
        let them = pos.stones(pos.side_to_move().other());
        // Neither side has a line yet (play stops at the first), so any line in the stones
        // plus this cell is one the move completes.
        let completes = |s: u16| contains_line(s | bit);
        if completes(me) {
            HINT_WIN
        } else if completes(them) {
            HINT_BLOCK
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use duel_core::conformance::{check_game, check_record, check_view};
    use duel_core::{GameInfo, MoveCells, Piece};

    #[test]
    fn conformance() {
        check_game(&TicTacToe::start(), 300, 1).unwrap();
        check_game(&TicTacToe::from_text("5").unwrap(), 100, 2).unwrap();
        check_view(&TicTacToe::start(), 100, 3).unwrap();
        check_record(&TicTacToe::start(), 100, 4).unwrap();
    }

    /// Values counted by hand on the board, as the texts do.
    #[test]
    fn open_lines_by_hand() {
        let empty = TicTacToe::start();
        assert_eq!(OpenLines.evaluate(&empty), 0);
        // X in the centre: X has 8 open lines, O has 4 (those not through the centre).
        // Seen from O (to move): 4 - 8.
        let centre = TicTacToe::from_text("5").unwrap();
        assert_eq!(OpenLines.evaluate(&centre), 4 - 8);
        // X centre, O top-left: open for X = lines without O = 8 - 3 = 5; open for O = lines
        // without X = 8 - 4 = 4. X to move: 5 - 4 = 1.
        let two = TicTacToe::from_text("51").unwrap();
        assert_eq!(OpenLines.evaluate(&two), 1);
    }

    /// Hints on small positions checked by hand.
    #[test]
    fn hints_name_wins_and_blocks() {
        let hint = |p: &TicTacToe, cell: &str| OpenLines.move_hint(p, p.parse_move(cell).unwrap());
        // X 1 2, O 5 7, X to move: 3 completes X's top row.
        let x_to_move = TicTacToe::from_text("1527").unwrap();
        assert_eq!(hint(&x_to_move, "3"), HINT_WIN);
        assert_eq!(hint(&x_to_move, "9"), 0);
        // X 1 2 9, O 5 7, O to move: 3 completes O's diagonal 7-5-3 (and blocks X's row: the
        // win counts); 4 completes no line of either side.
        let o_to_move = TicTacToe::from_text("15279").unwrap();
        assert_eq!(hint(&o_to_move, "3"), HINT_WIN);
        assert_eq!(hint(&o_to_move, "4"), 0);
        // X 1 2, O 5, O to move: 3 is the one cell that stops X's row.
        let block = TicTacToe::from_text("152").unwrap();
        assert_eq!(hint(&block, "3"), HINT_BLOCK);
        assert_eq!(hint(&block, "9"), 0);
    }

    #[test]
    fn bad_input_is_named() {
        let p = TicTacToe::from_text("55");
        assert!(
            matches!(p, Err(ref e) if e.reason.contains("cell 5 is taken")),
            "{p:?}"
        );
        assert!(TicTacToe::from_text("0").is_err());
        let won = TicTacToe::from_text("14253").unwrap(); // X: 1 2 3
        assert_eq!(won.outcome(), Some(Outcome::Loss));
        assert!(matches!(
            won.parse_move("9"),
            Err(MoveError::Illegal { .. })
        ));
        assert!(matches!(won.parse_move("x"), Err(MoveError::Syntax { .. })));
    }

    /// X in the centre and O top-left, where the diagram draws them.
    #[test]
    fn board_view_follows_the_diagram() {
        let pos = TicTacToe::from_text("51").unwrap();
        assert_eq!(pos.diagram(), "[O]2 3\n 4 X 6\n 7 8 9\n");
        let later = TicTacToe::from_text("519").unwrap();
        assert_eq!(later.diagram(), " O 2 3\n 4 X 6\n 7 8[X]\n");
        let view = pos.board_view();
        assert_eq!((view.cols, view.rows), (3, 3));
        let piece = |side, kind| Some(Piece { side, kind });
        assert_eq!(view.cells[4], piece(Side::First, 'X'));
        assert_eq!(view.cells[0], piece(Side::Second, 'O'));
        assert_eq!(view.cells.iter().flatten().count(), 2);
        let nine = pos.parse_move("9").unwrap();
        assert_eq!(pos.move_cells(nine), MoveCells::placement(8));
    }

    /// The position text is the record: the empty board and the cells played; a cell taken
    /// twice is named.
    #[test]
    fn records_are_the_position_text() {
        let start = TicTacToe::start();
        assert_eq!(
            TicTacToe::read_record(&start, "5193"),
            Ok((start.clone(), vec![4, 0, 8, 2]))
        );
        let e = TicTacToe::read_record(&start, "515").unwrap_err().reason;
        assert!(e.contains("move 3") && e.contains("cell 5 is taken"), "{e}");
    }
}
