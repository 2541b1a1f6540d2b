//! The 7x6 board as two 64-bit words and the bit tricks on it, in the classic layout: bit `7 * col + row` is the cell in
//! column `col` (0 = left) and row `row` (0 = bottom). Each column has one spare bit above its
//! six cells; it is never set, so a shift that walks off the top of a column lands on an empty
//! bit instead of the bottom of the next column, and line tests need no edge masks.

/// Columns on the board.
pub const WIDTH: u32 = 7;
/// Rows on the board.
pub const HEIGHT: u32 = 6;
/// Cells on the board: a game lasts at most this many plies.
pub const CELLS: u32 = WIDTH * HEIGHT;
/// Bits per column: the six cells and the spare bit above them.
pub const COLUMN_BITS: u32 = HEIGHT + 1;

/// The bottom cell of every column.
pub const BOTTOM: u64 = {
    let mut b = 0;
    let mut col = 0;
    while col < WIDTH {
        b |= 1 << (col * COLUMN_BITS);
        col += 1;
    }
    b
};

/// Every playable cell (the spare bits excluded).
pub const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);

/// Columns in centre-first order: the centre takes part in the most lines, so trying it first
/// finds cut-offs soonest.
pub const CENTRE_FIRST: [u8; WIDTH as usize] = [3, 2, 4, 1, 5, 0, 6];

/// The six cells of column `col`.
#[inline]
pub const fn column_mask(col: u32) -> u64 {
    ((1 << HEIGHT) - 1) << (col * COLUMN_BITS)
}

/// The bottom cell of column `col`.
#[inline]
pub const fn bottom_cell(col: u32) -> u64 {
    1 << (col * COLUMN_BITS)
}

/// The top cell of column `col`.
#[inline]
pub const fn top_cell(col: u32) -> u64 {
    1 << (col * COLUMN_BITS + HEIGHT - 1)
}

/// The bit of the cell at `col`, `row` (row 0 at the bottom).
#[inline]
pub const fn cell(col: u32, row: u32) -> u64 {
    1 << (col * COLUMN_BITS + row)
}

/// True if `stones` hold four in a row in any direction.
#[inline]
pub const fn has_four(stones: u64) -> bool {
    // Shift 1 is vertical, COLUMN_BITS horizontal, COLUMN_BITS -/+ 1 the two diagonals. `m`
    // marks the first stone of each aligned pair; two pairs `2 * d` apart make a four.
    let dirs = [1, COLUMN_BITS, COLUMN_BITS - 1, COLUMN_BITS + 1];
    let mut i = 0;
    while i < dirs.len() {
        let d = dirs[i];
        let m = stones & (stones >> d);
        if m & (m >> (2 * d)) != 0 {
            return true;
        }
        i += 1;
    }
    false
}

/// The empty cells (not in `mask`) that would give `stones` four in a row if filled, whether
/// or not they can be played yet.
#[inline]
pub const fn winning_cells(stones: u64, mask: u64) -> u64 {
    // Vertical: only three stones directly below can complete a column line.
    let mut r = (stones << 1) & (stones << 2) & (stones << 3);
    let dirs = [COLUMN_BITS, COLUMN_BITS - 1, COLUMN_BITS + 1];
    let mut i = 0;
    while i < dirs.len() {
        let d = dirs[i];
        // The empty cell can be at either end of the four or at either inner place.
        let below = (stones << d) & (stones << (2 * d));
        r |= below & (stones << (3 * d));
        r |= below & (stones >> d);
        let above = (stones >> d) & (stones >> (2 * d));
        r |= above & (stones << d);
        r |= above & (stones >> (3 * d));
        i += 1;
    }
    r & (BOARD ^ mask)
}

/// `stones` seen in a mirror: column `c` becomes column `6 - c`.
#[inline]
pub const fn mirror(stones: u64) -> u64 {
    let mut out = 0;
    let mut col = 0;
    while col < WIDTH {
        let bits = (stones >> (col * COLUMN_BITS)) & ((1 << COLUMN_BITS) - 1);
        out |= bits << ((WIDTH - 1 - col) * COLUMN_BITS);
        col += 1;
    }
    out
}

/// A bare position, what the solver works on: the stones of the side to move, the occupied
/// cells and the number of stones. Holding the mover's stones rather than one side's makes
/// every test "for the side to move" and a move a two-instruction update.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    current: u64,
    mask: u64,
    moves: u32,
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board {
        current: 0,
        mask: 0,
        moves: 0,
    };

    /// The stones of the side to move.
    #[inline]
    pub const fn current(&self) -> u64 {
        self.current
    }

    /// The stones of the side that just moved.
    #[inline]
    pub const fn opponent(&self) -> u64 {
        self.current ^ self.mask
    }

    /// Every occupied cell.
    #[inline]
    pub const fn mask(&self) -> u64 {
        self.mask
    }

    /// Stones on the board.
    #[inline]
    pub const fn moves(&self) -> u32 {
        self.moves
    }

    /// Stones in column `col`.
    #[inline]
    pub const fn height(&self, col: u32) -> u32 {
        (self.mask & column_mask(col)).count_ones()
    }

    /// True if column `col` has room (whether or not the game is over).
    #[inline]
    pub const fn can_play(&self, col: u32) -> bool {
        self.mask & top_cell(col) == 0
    }

    /// The cell a stone dropped in `col` lands on (`col` must have room).
    #[inline]
    pub const fn landing_cell(&self, col: u32) -> u64 {
        (self.mask + bottom_cell(col)) & column_mask(col)
    }

    /// Drops a stone of the side to move in `col`, which must have room.
    #[inline]
    pub fn play_col(&mut self, col: u32) {
        self.play_cell(self.landing_cell(col));
    }

    /// Puts a stone of the side to move on `cell`, a single playable cell (from
    /// [`Board::possible`]).
    #[inline]
    pub fn play_cell(&mut self, cell: u64) {
        self.current ^= self.mask;
        self.mask |= cell;
        self.moves += 1;
    }

    /// Takes back the top stone of `col`, which must be the last stone played.
    #[inline]
    pub fn undo_col(&mut self, col: u32) {
        let stones = self.mask & column_mask(col);
        debug_assert!(stones != 0, "undo in an empty column");
        let top = 1 << (63 - stones.leading_zeros());
        self.mask ^= top;
        self.current ^= self.mask;
        self.moves -= 1;
    }

    /// The cells where a stone can be dropped now, one per column with room.
    #[inline]
    pub const fn possible(&self) -> u64 {
        (self.mask + BOTTOM) & BOARD
    }

    /// The empty cells that would complete four for the side to move.
    #[inline]
    pub const fn winning_cells(&self) -> u64 {
        winning_cells(self.current, self.mask)
    }

    /// The empty cells that would complete four for the side that just moved.
    #[inline]
    pub const fn opponent_winning_cells(&self) -> u64 {
        winning_cells(self.opponent(), self.mask)
    }

    /// True if the side to move can connect four with its next stone.
    #[inline]
    pub const fn can_win_next(&self) -> bool {
        self.winning_cells() & self.possible() != 0
    }

    /// True if dropping a stone in `col` connects four (`col` must have room).
    #[inline]
    pub const fn is_winning_move(&self, col: u32) -> bool {
        self.winning_cells() & self.possible() & column_mask(col) != 0
    }

    /// True if the side that just moved has four in a row.
    #[inline]
    pub const fn last_mover_won(&self) -> bool {
        has_four(self.opponent())
    }

    /// The playable cells that do not hand the opponent an immediate win, assuming the side to
    /// move cannot win at once. A cell is excluded if it leaves an opponent threat unblocked or
    /// lies directly below an opponent winning cell. Empty when every move loses next turn
    /// (two playable opponent threats, say).
    #[inline]
    pub const fn possible_non_losing_moves(&self) -> u64 {
        let mut possible = self.possible();
        let threats = self.opponent_winning_cells();
        let forced = possible & threats;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            possible = forced;
        }
        possible & !(threats >> 1)
    }

    /// An ordering score for playing `cell`: the winning cells the side to move would then
    /// have. More threats tend to force the opponent and end the search sooner.
    #[inline]
    pub const fn move_score(&self, cell: u64) -> u32 {
        winning_cells(self.current | cell, self.mask).count_ones()
    }

    /// A key unique to the position (fits in 49 bits): `current + mask` sets, in each column,
    /// the bit above the top stone plus the mover's stones, which tells both sides apart.
    #[inline]
    pub const fn key(&self) -> u64 {
        self.current + self.mask
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_constants() {
        assert_eq!(BOARD.count_ones(), CELLS);
        assert_eq!(BOTTOM.count_ones(), WIDTH);
        for col in 0..WIDTH {
            assert_eq!(column_mask(col) & BOARD, column_mask(col));
            assert_eq!(bottom_cell(col), cell(col, 0));
            assert_eq!(top_cell(col), cell(col, HEIGHT - 1));
        }
        assert_eq!(mirror(mirror(0xABCD_EF01_2345)), 0xABCD_EF01_2345);
        assert_eq!(mirror(column_mask(0)), column_mask(WIDTH - 1));
    }

    #[test]
    fn lines_do_not_wrap_between_columns() {
        // Top two cells of column 0 and bottom two of column 1 are consecutive bits apart from
        // the spare bit between them.
        let s = cell(0, 4) | cell(0, 5) | cell(1, 0) | cell(1, 1);
        assert!(!has_four(s));
        let top3 = cell(0, 3) | cell(0, 4) | cell(0, 5);
        assert_eq!(winning_cells(top3, top3), 0);
        assert_eq!(
            winning_cells(cell(0, 4) | cell(0, 5) | cell(1, 0), 0) & cell(1, 1),
            0
        );
    }
}
