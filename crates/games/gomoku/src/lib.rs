//! Gomoku for duel: five in a row on boards from 5x5 to 22x22, square or not, under the four
//! rules Gomocup managers send with `INFO rule`.
//!
//! # Rules
//!
//! Black ([`Side::First`]) moves first; a move puts a stone on an empty cell. The game ends when
//! the move just played makes a winning line (the side to move has then lost), or when the
//! board is full (a draw, under every rule). What wins is the position's [`Rule`]:
//!
//! - **freestyle** (Gomocup rule 0): five or more in a row;
//! - **standard** (rule 1): exactly five; an overline (six or more) does not win and play goes on;
//! - **renju** (rule 4): White wins with five or more, Black only with exactly five; Black may
//!   not play a double three, a double four or an overline, unless the move makes a five (five
//!   takes precedence). Those cells are not Black's moves at all: [`Game::generate_moves`]
//!   leaves them out and [`Game::parse_move`] refuses them with the reason. A Black to move
//!   with only forbidden cells left has lost. Terms as the Renju International Federation
//!   (RIF) rules define them: a *four* is a line of four stones that one move turns into a
//!   five (exactly five for Black), a *straight four* one that two moves do; a *three* is a line
//!   of three that one move, itself not forbidden, turns into a straight four (the recursive
//!   test: see [`renju`]). Two fours in one line (`X.XXX.X` with the middle stone played)
//!   are a double four;
//! - **caro** (rule 8): as Piskvork, the Gomocup manager, judges it (its `game.cpp`, where
//!   `ruleFive` 8 is "Caro with overlines"): five or more in a row wins, except a line of
//!   exactly five with an opponent's stone at both ends. The board's edge is not a stone: a
//!   five against the edge wins. An overline wins even when blocked at both ends. Piskvork's
//!   rule 9 (caro with exactly five) is not played here.
//!
//! Where the winning line is looked for: only through the last move, which is all that can
//! have made one (a position is built by moves from the empty board).
//!
//! # Notation
//!
//! A cell is a column letter from `a` and a row number from 1 at the bottom (`h8`, the centre of
//! 15x15). [`Game::parse_move`] also reads Gomocup's `x,y`, counted from 0 with `y` from the
//! top, as Piskvork does: on 15x15 `7,7` is `h8` and `0,0` is `a15`. A position is the moves
//! from the empty board, separated by spaces, preceded by the variant spec when the variant
//! is not freestyle on 15x15: `renju:20 k10 k11`. See [`Variant::parse`] for specs.
//!
//! # Limits
//!
//! The renju test of a three's completion point recurses (a three is real only if the point
//! that makes it a straight four is not forbidden, which may depend on other threes); the
//! recursion stops at [`renju::MAX_DEPTH`] stones placed in thought, deeper than any position
//! of the published puzzles needs, and below that depth a point counts as allowed.
//!
//! - [`Gomoku`] implements [`Game`] and [`duel_core::GameInfo`];
//! - [`Textbook`] is the founding texts' line-pattern evaluation, side-to-move aware;
//! - [`Patterns`] is the strong evaluator (the default): per-cell line patterns from a table,
//!   threats, and candidate moves; its ordinary evaluation weighs features by
//!   `weights/patterns.txt` ([`weights`]), fitted by `duel-train gomoku-fit`.
//! - [`vcf`] proves wins by threat-space search (VCF, then VCT): `duel solve gomoku`, and the
//!   VCF probe `analyze` and `play` make before a search.

mod eval;
mod horizon;
mod info;
mod openings;
mod patterns;
pub mod renju;
mod variant;
pub mod vcf;
pub mod weights;

use std::fmt;

use duel_core::{Game, GameInfo, MoveError, Outcome, PositionError, Side, SplitMix64};

pub use eval::{Shapes, Textbook};
pub use patterns::{line_kind, Kind, Patterns, Threat, ORDINARY_MAX};
pub use renju::Forbidden;
pub use variant::{Rule, Variant, VariantError, DEFAULT_SIZE, MAX_SIZE, MIN_SIZE};
pub use vcf::{solve_threats, ThreatKind, ThreatLimits, ThreatResult, ThreatStop, ThreatWin};
pub use weights::{Features, PatternWeights, WeightsError};

/// Cells of the largest board: the range of move indices.
pub const CELLS: usize = MAX_SIZE as usize * MAX_SIZE as usize;

/// Wall cells around the board in the padded layout, so that any line can be read five cells
/// past a stone without bounds checks.
pub(crate) const PAD: usize = 5;
/// One row of the padded layout: the widest board plus the pad that separates rows.
pub(crate) const STRIDE: usize = MAX_SIZE as usize + PAD;
/// The padded layout: every board's cells, the rest walls.
pub(crate) const PADDED: usize = STRIDE * (MAX_SIZE as usize + 2 * PAD);

/// What a cell of the padded layout holds.
pub(crate) const EMPTY: u8 = 0;
pub(crate) const BLACK: u8 = 1;
pub(crate) const WHITE: u8 = 2;
pub(crate) const WALL: u8 = 3;

/// The four line directions in the padded layout: right, down, down-right, down-left.
pub(crate) const DIRECTIONS: [usize; 4] = [1, STRIDE, STRIDE + 1, STRIDE - 1];

/// Zobrist keys: one per colour and cell index, then one for "White to move".
const KEYS: [u64; 2 * CELLS + 1] = SplitMix64::keys(0x6E0C_0F17_E5A1_2B33);
const SIDE_KEY: u64 = KEYS[2 * CELLS];
/// Mixed with the variant, so that no two variants share a position's hash.
const VARIANT_SEED: u64 = 0x9A3B_5C7D_1E2F_4061;

/// A cell of the board, the move type: Gomocup's `x` (column from the left) and `y` (row from
/// the top), both from 0. Its index `y * 22 + x` does not depend on the board's size.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Cell(u16);

impl Cell {
    /// The cell at Gomocup's `x,y`; both must be below [`MAX_SIZE`].
    pub const fn new(x: u8, y: u8) -> Cell {
        assert!(x < MAX_SIZE && y < MAX_SIZE);
        Cell(y as u16 * MAX_SIZE as u16 + x as u16)
    }

    /// The cell of index `i` (`0..CELLS`).
    pub const fn from_index(i: usize) -> Cell {
        assert!(i < CELLS);
        Cell(i as u16)
    }

    /// The column, from 0 at the left.
    pub const fn x(self) -> u8 {
        (self.0 % MAX_SIZE as u16) as u8
    }

    /// The row, from 0 at the top (Gomocup's `y`).
    pub const fn y(self) -> u8 {
        (self.0 / MAX_SIZE as u16) as u8
    }

    /// `y * 22 + x`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Where the cell is in the padded layout.
    #[inline]
    pub(crate) const fn padded(self) -> usize {
        (self.y() as usize + PAD) * STRIDE + self.x() as usize + PAD
    }
}

/// The cell at padded index `p`, which must be on the board.
#[inline]
pub(crate) const fn cell_of_padded(p: usize) -> Cell {
    Cell::new((p % STRIDE - PAD) as u8, (p / STRIDE - PAD) as u8)
}

/// `Cell(x,y)`, Gomocup's coordinates.
impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cell({},{})", self.x(), self.y())
    }
}

/// A Gomoku position: its variant, the stones, and the moves that led to it from the empty
/// board (the position text is that list).
#[derive(Clone)]
pub struct Gomoku {
    variant: Variant,
    /// `EMPTY`, `BLACK`, `WHITE` or `WALL` per padded cell.
    board: [u8; PADDED],
    /// Renju only: per padded cell, the Black stones within four cells on its four lines. A
    /// forbidden point needs at least [`renju::NEAR_NEEDED`], so the full test runs only
    /// where that many are near.
    near: [u8; PADDED],
    /// Bit `i` set when the on-board cell of index `i` is empty.
    empty: [u64; CELLS.div_ceil(64)],
    /// Per padded cell and direction, the line pattern's index for each colour: the eight
    /// cells around it on that line (see [`line_codes`]), kept as stones come and go so that
    /// reading a cell's patterns is four lookups, not thirty-two board reads.
    lines: [[[u16; 2]; 4]; PADDED],
    /// Per padded cell, kept for every empty cell of the board: what each colour's line
    /// patterns make there by the tables, before the rules' corrections (see [`patterns`]).
    reads: [patterns::Read; PADDED],
    /// Per padded cell, the stones within two (square): an empty cell with one is a cell the
    /// evaluation reads.
    near2: [u8; PADDED],
    /// The cells the evaluation reads (empty, a stone within two), and per colour those of
    /// them whose threat is a double three or more, where the rules may correct it.
    read_set: CellSet,
    strong: [CellSet; 2],
    /// Per colour (index 0 Black), the feature counts of the cells read, and how many of them
    /// make each threat, before the rules' corrections: the evaluation adds the corrections
    /// of the few strong cells to these instead of reading the board.
    sums: [[i32; weights::N_FEATURES]; 2],
    threat_counts: [[u16; patterns::N_THREATS]; 2],
    history: [Cell; CELLS],
    len: u16,
    hash: u64,
    /// The last move made a winning line.
    won: bool,
}

/// A set of cells by index.
pub(crate) type CellSet = [u64; CELLS.div_ceil(64)];

/// The cells of `set`, in index order.
pub(crate) fn members(set: &CellSet) -> impl Iterator<Item = Cell> + '_ {
    set.iter().enumerate().flat_map(|(w, &word)| {
        let mut bits = word;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Cell::from_index(w * 64 + i)
            })
        })
    })
}

impl fmt::Debug for Gomoku {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Gomoku({:?})", self.to_text())
    }
}

impl Gomoku {
    /// The empty board of `width` x `height` under `rule`: what a Gomocup `START` or
    /// `RECTSTART` and `INFO rule` set up.
    pub fn new(width: u32, height: u32, rule: Rule) -> Result<Gomoku, VariantError> {
        Ok(Gomoku::empty(Variant::new(width, height, rule)?))
    }

    /// The empty board of `variant`.
    pub fn empty(variant: Variant) -> Gomoku {
        let mut board = [WALL; PADDED];
        let mut empty = [0u64; CELLS.div_ceil(64)];
        for y in 0..variant.height {
            for x in 0..variant.width {
                let c = Cell::new(x, y);
                board[c.padded()] = EMPTY;
                empty[c.index() / 64] |= 1 << (c.index() % 64);
            }
        }
        let mut lines = [[[0; 2]; 4]; PADDED];
        for y in 0..variant.height {
            for x in 0..variant.width {
                let p = Cell::new(x, y).padded();
                lines[p] = line_codes(&board, p);
            }
        }
        let mut pos = Gomoku {
            variant,
            board,
            near: [0; PADDED],
            empty,
            lines,
            reads: [patterns::Read::default(); PADDED],
            near2: [0; PADDED],
            read_set: [0; CELLS.div_ceil(64)],
            strong: [[0; CELLS.div_ceil(64)]; 2],
            sums: [[0; weights::N_FEATURES]; 2],
            threat_counts: [[0; patterns::N_THREATS]; 2],
            history: [Cell::default(); CELLS],
            len: 0,
            hash: variant_key(variant),
            won: false,
        };
        for y in 0..variant.height {
            for x in 0..variant.width {
                pos.reread(Cell::new(x, y).padded());
            }
        }
        pos
    }

    /// The rule and the board size.
    pub fn board_variant(&self) -> Variant {
        self.variant
    }

    /// What wins.
    pub fn rule(&self) -> Rule {
        self.variant.rule
    }

    /// Columns.
    pub fn width(&self) -> u8 {
        self.variant.width
    }

    /// Rows.
    pub fn height(&self) -> u8 {
        self.variant.height
    }

    /// The moves played from the empty board, in order.
    pub fn moves_played(&self) -> &[Cell] {
        &self.history[..self.len as usize]
    }

    /// The last move, if any.
    pub fn last_move(&self) -> Option<Cell> {
        self.moves_played().last().copied()
    }

    /// The cell at Gomocup's `x,y`, if it is on this board.
    pub fn cell(&self, x: u32, y: u32) -> Option<Cell> {
        (x < self.width() as u32 && y < self.height() as u32).then(|| Cell::new(x as u8, y as u8))
    }

    /// Whose stone is on `cell`, if any; `None` for an empty cell or one off the board.
    pub fn stone(&self, cell: Cell) -> Option<Side> {
        match self.board[cell.padded()] {
            BLACK => Some(Side::First),
            WHITE => Some(Side::Second),
            _ => None,
        }
    }

    /// True if `cell` is on the board and empty.
    pub fn is_empty(&self, cell: Cell) -> bool {
        self.board[cell.padded()] == EMPTY
    }

    /// The number of empty cells.
    pub fn empties(&self) -> usize {
        self.variant.area() - self.len as usize
    }

    /// Why Black may not play `cell` here, under renju; `None` under the other rules, for an
    /// occupied cell, and for an allowed one. Asked whoever is to move: the Gomocup loop can
    /// mark forbidden points for either side's view.
    pub fn forbidden(&self, cell: Cell) -> Option<Forbidden> {
        let p = cell.padded();
        if self.rule() != Rule::Renju || self.board[p] != EMPTY {
            return None;
        }
        self.forbidden_at(p)
    }

    /// [`Gomoku::forbidden`] for an empty cell of a renju board, given at padded index `p`:
    /// the cheap count first.
    #[inline]
    fn forbidden_at(&self, p: usize) -> Option<Forbidden> {
        if self.near[p] < renju::NEAR_NEEDED {
            return None;
        }
        renju::forbidden(&self.board, p)
    }

    /// True if `cell` is a legal move here: the game goes on, the cell is empty, and it is
    /// not forbidden to the side to move.
    pub fn is_legal(&self, cell: Cell) -> bool {
        self.outcome().is_none() && self.is_empty(cell) && !self.forbidden_to_mover(cell.padded())
    }

    /// True under renju with Black to move: forbidden points apply.
    #[inline]
    fn renju_black_to_move(&self) -> bool {
        self.rule() == Rule::Renju && self.len.is_multiple_of(2)
    }

    /// True if the side to move is Black under renju and `p` (empty) is forbidden to it.
    #[inline]
    fn forbidden_to_mover(&self, p: usize) -> bool {
        self.renju_black_to_move() && self.forbidden_at(p).is_some()
    }

    /// True if `side` putting a stone on the empty `cell` makes a winning line under the
    /// position's rule (whoever is to move).
    pub fn makes_five(&self, cell: Cell, side: Side) -> bool {
        self.wins_at(cell.padded(), colour(side))
    }

    /// True if a stone of `colour` on padded cell `p` (empty or holding that stone) is in a
    /// winning line: the runs through `p` in each direction, judged by the rule.
    fn wins_at(&self, p: usize, colour: u8) -> bool {
        let rule = self.rule();
        DIRECTIONS.iter().any(|&d| {
            let back = self.run(p, colour, d, false);
            let ahead = self.run(p, colour, d, true);
            let n = 1 + back + ahead;
            match rule {
                Rule::Freestyle => n >= 5,
                Rule::Standard => n == 5,
                Rule::Renju if colour == BLACK => n == 5,
                Rule::Renju => n >= 5,
                Rule::Caro => {
                    let opponent = BLACK + WHITE - colour;
                    let before = self.board[p - (back + 1) * d];
                    let after = self.board[p + (ahead + 1) * d];
                    n > 5 || (n == 5 && !(before == opponent && after == opponent))
                }
            }
        })
    }

    /// How many stones of `colour` follow `p` in direction `d` (forward or back), up to the
    /// first other cell.
    #[inline]
    fn run(&self, p: usize, colour: u8, d: usize, forward: bool) -> usize {
        let mut n = 0;
        let mut q = p;
        loop {
            q = if forward { q + d } else { q - d };
            if self.board[q] != colour {
                return n;
            }
            n += 1;
        }
    }

    /// True if Black, to move under renju, has at least one cell that is not forbidden.
    fn black_has_move(&self) -> bool {
        self.empty_cells()
            .any(|c| self.forbidden_at(c.padded()).is_none())
    }

    /// The empty cells in index order.
    fn empty_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        members(&self.empty)
    }

    /// Puts (`add`) or takes away a stone of `colour` on `cell`, keeping the hash, the empty
    /// set and the renju counts.
    #[inline]
    fn toggle(&mut self, cell: Cell, colour: u8, add: bool) {
        self.place(cell, colour, add);
        self.reread_near(cell.padded(), add);
    }

    /// Plays `mv`, keeping the cells' readings if `read` (else they stay those of the position
    /// before: see [`Gomoku::play_unread`]).
    #[inline]
    fn play_as(&mut self, mv: Cell, read: bool) {
        let colour = colour(self.side_to_move());
        if read {
            self.toggle(mv, colour, true);
        } else {
            self.toggle_unread(mv, colour, true);
        }
        self.history[self.len as usize] = mv;
        self.len += 1;
        self.won = self.wins_at(mv.padded(), colour);
    }

    /// Takes back `mv`, as [`Gomoku::play_as`] played it.
    #[inline]
    fn undo_as(&mut self, mv: Cell, read: bool) {
        self.len -= 1;
        let colour = colour(self.side_to_move());
        if read {
            self.toggle(mv, colour, false);
        } else {
            self.toggle_unread(mv, colour, false);
        }
        // Play stops at the first win, so the position before any move was not won.
        self.won = false;
    }

    /// Plays `mv` and leaves the cells' readings as they were: for the threat-space solver,
    /// which asks only the rules and the line patterns and takes every move back, so that the
    /// readings are right again when it is done. Nothing may evaluate the position between.
    pub(crate) fn play_unread(&mut self, mv: Cell) {
        self.play_as(mv, false);
    }

    /// Takes back a move of [`Gomoku::play_unread`].
    pub(crate) fn undo_unread(&mut self, mv: Cell) {
        self.undo_as(mv, false);
    }

    /// [`Gomoku::toggle`] without the cells' reads: for a stone put down and taken back at
    /// once, where only the board, the line patterns and the rules are asked in between.
    fn toggle_unread(&mut self, cell: Cell, colour: u8, add: bool) {
        self.place(cell, colour, add);
    }

    /// Puts down or takes away a stone: the board, the line patterns, the hash and the counts
    /// of stones near each cell.
    fn place(&mut self, cell: Cell, colour: u8, add: bool) {
        let p = cell.padded();
        let i = cell.index();
        self.board[p] = if add { colour } else { EMPTY };
        self.empty[i / 64] ^= 1 << (i % 64);
        let digits = line_digits(colour);
        for (dir, d) in DIRECTIONS.into_iter().enumerate() {
            for k in 1..=4 {
                // The stone is k ahead of the cell behind it, k behind the cell ahead.
                for (q, place) in [(p - k * d, 3 + k), (p + k * d, 4 - k)] {
                    let code = &mut self.lines[q][dir];
                    for c in 0..2 {
                        let v = digits[c] * POW3[place];
                        code[c] = if add { code[c] + v } else { code[c] - v };
                    }
                }
            }
        }
        self.hash ^= KEYS[(colour - 1) as usize * CELLS + i] ^ SIDE_KEY;
        for q in patterns::square2(p) {
            if add {
                self.near2[q] += 1;
            } else {
                self.near2[q] -= 1;
            }
        }
        if colour == BLACK && self.rule() == Rule::Renju {
            for d in DIRECTIONS {
                for k in 1..=renju::NEAR_REACH {
                    let (a, b) = (p + k * d, p - k * d);
                    if add {
                        self.near[a] += 1;
                        self.near[b] += 1;
                    } else {
                        self.near[a] -= 1;
                        self.near[b] -= 1;
                    }
                }
            }
        }
    }

    /// The cell in the notation people read: column letter, row from 1 at the bottom.
    pub fn cell_name(&self, cell: Cell) -> String {
        let mut out = String::with_capacity(3);
        self.push_cell_name(cell, &mut out);
        out
    }

    fn push_cell_name(&self, cell: Cell, out: &mut String) {
        let row = self.height() - cell.y();
        out.push(char::from(b'a' + cell.x()));
        if row >= 10 {
            out.push(char::from(b'0' + row / 10));
        }
        out.push(char::from(b'0' + row % 10));
    }

    /// Reads a cell in either notation (syntax only, and whether it is on this board).
    pub fn parse_cell(&self, text: &str) -> Result<Cell, MoveError> {
        let t = text.trim();
        let syntax = |why: &str| Err(MoveError::syntax(Self::NAME, text, why));
        let number = |s: &str| -> Option<u32> {
            let s = s.trim();
            (!s.is_empty() && s.len() <= 3 && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse().ok())
                .flatten()
        };
        let max = MAX_SIZE as u32;
        let (x, y) = if let Some((xs, ys)) = t.split_once(',') {
            match (number(xs), number(ys)) {
                (Some(x), Some(y)) if x < max && y < max => {
                    if x >= self.width() as u32 || y >= self.height() as u32 {
                        return Err(self.off_board(text));
                    }
                    (x, y)
                }
                _ => return syntax("expected x,y with numbers from 0 to 21"),
            }
        } else {
            let mut chars = t.chars();
            let col = match chars.next() {
                Some(c @ ('a'..='v' | 'A'..='V')) => c.to_ascii_lowercase() as u32 - 'a' as u32,
                _ => return syntax("expected a column letter a-v and a row number, or x,y"),
            };
            let row = match number(chars.as_str()) {
                Some(r) if (1..=max).contains(&r) => r,
                _ => return syntax("expected a row number from 1 to 22 after the column"),
            };
            if col >= self.width() as u32 || row > self.height() as u32 {
                return Err(self.off_board(text));
            }
            (col, self.height() as u32 - row)
        };
        Ok(Cell::new(x as u8, y as u8))
    }

    fn off_board(&self, text: &str) -> MoveError {
        MoveError::illegal(
            text,
            format!("off the {}x{} board", self.width(), self.height()),
        )
    }

    /// Why the game is over, in a few words (`None` while it goes on).
    pub fn ended_by(&self) -> Option<&'static str> {
        if self.won {
            Some("five in a row")
        } else if self.empties() == 0 {
            Some("full board")
        } else if self.outcome().is_some() {
            Some("only forbidden moves left for Black")
        } else {
            None
        }
    }

    /// Reads a position text in `start`'s variant unless the text begins with a spec.
    pub fn read(start: Variant, text: &str) -> Result<Gomoku, PositionError> {
        let err = |why: String| PositionError::new(Self::NAME, text, why);
        let mut words = text.split_whitespace().peekable();
        let mut variant = start;
        if let Some(first) = words.peek() {
            if is_spec(first) {
                variant = Variant::parse(first).map_err(|e| err(e.to_string()))?;
                words.next();
            }
        }
        let mut pos = Gomoku::empty(variant);
        for (i, word) in words.enumerate() {
            if pos.outcome().is_some() {
                return Err(err(format!("the game ended at move {i}")));
            }
            let mv = pos
                .parse_move(word)
                .map_err(|e| err(format!("move {}: {e}", i + 1)))?;
            pos.play(mv);
        }
        Ok(pos)
    }

    /// The board: rows from the top with their numbers, the column letters below, `X` Black,
    /// `O` White, the last move in brackets ([`duel_core::diagram`]); then a legend naming
    /// the letters as the sides are named everywhere else, the variant and whose turn it is.
    pub fn diagram(&self) -> String {
        let (w, h) = (self.width(), self.height());
        let last = self.last_move();
        let mut out = String::new();
        for y in 0..h {
            let cells = (0..w).map(|x| {
                let c = Cell::new(x, y);
                let letter = match self.stone(c) {
                    Some(Side::First) => 'X',
                    Some(Side::Second) => 'O',
                    None => '.',
                };
                (letter, Some(c) == last)
            });
            let row = duel_core::diagram::row(cells);
            out.push_str(&format!("{:>2}{}\n", h - y, row.trim_end()));
        }
        out.push_str("  ");
        for x in 0..w {
            out.push(' ');
            out.push(char::from(b'a' + x));
        }
        out.push('\n');
        let name = <Self as GameInfo>::side_name;
        out.push_str(&format!(
            "X {}, O {}\n",
            name(Side::First),
            name(Side::Second)
        ));
        let turn = match self.ended_by() {
            Some(why) => format!("game over: {why}"),
            None => format!("{} to move", name(self.side_to_move())),
        };
        out.push_str(&format!(
            "{} {}x{}; {turn}\n",
            self.rule(),
            self.width(),
            self.height()
        ));
        out
    }
}

/// True if the first word of a position text is a variant spec rather than a move: it has a
/// `:`, or is all digits (a size), or starts with a digit and has an `x` (`15x20`), or has a
/// letter that no move has after its first character (`renju`, `rule4`).
fn is_spec(word: &str) -> bool {
    if word.contains(',') {
        return false;
    }
    let mut chars = word.chars();
    match chars.next() {
        Some(c) if c.is_ascii_digit() => true,
        Some(_) => word.contains(':') || !chars.all(|c| c.is_ascii_digit()),
        None => false,
    }
}

/// The stone value of a side.
#[inline]
pub(crate) const fn colour(side: Side) -> u8 {
    match side {
        Side::First => BLACK,
        Side::Second => WHITE,
    }
}

/// Powers of three: the place values of the eight cells of a line pattern.
pub(crate) const POW3: [u16; 8] = [1, 3, 9, 27, 81, 243, 729, 2187];

/// A cell's digit in a line pattern, as (Black, White) read it: 0 empty, 1 own stone, 2 the
/// other's stone or a wall (both end a line the same way).
#[inline]
pub(crate) fn line_digits(v: u8) -> [u16; 2] {
    match v {
        EMPTY => [0, 0],
        BLACK => [1, 2],
        WHITE => [2, 1],
        _ => [2, 2],
    }
}

/// The line patterns of padded cell `p` read from `board`, per direction and colour: the
/// cells at +4, +3, +2, +1, -1, -2, -3, -4 along the direction as base-3 digits, the first
/// most significant.
pub(crate) fn line_codes(board: &[u8; PADDED], p: usize) -> [[u16; 2]; 4] {
    let mut out = [[0; 2]; 4];
    for (dir, d) in DIRECTIONS.into_iter().enumerate() {
        for q in [
            p + 4 * d,
            p + 3 * d,
            p + 2 * d,
            p + d,
            p - d,
            p - 2 * d,
            p - 3 * d,
            p - 4 * d,
        ] {
            let digits = line_digits(board[q]);
            for c in 0..2 {
                out[dir][c] = out[dir][c] * 3 + digits[c];
            }
        }
    }
    out
}

/// The hash of the variant's empty board.
fn variant_key(v: Variant) -> u64 {
    let mix = (v.rule.gomocup() as u64) << 16 | (v.width as u64) << 8 | v.height as u64;
    SplitMix64::new(VARIANT_SEED ^ mix).next()
}

impl Game for Gomoku {
    type Move = Cell;
    const NAME: &'static str = "gomoku";
    const MOVE_INDICES: usize = CELLS;

    fn move_index(mv: Cell) -> usize {
        mv.index()
    }

    fn start() -> Self {
        Gomoku::empty(Variant::default())
    }

    fn side_to_move(&self) -> Side {
        if self.len.is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        }
    }

    fn ply(&self) -> u32 {
        self.len as u32
    }

    fn generate_moves(&self, moves: &mut Vec<Cell>) {
        moves.clear();
        if self.won {
            return;
        }
        let renju_black = self.renju_black_to_move();
        for (w, &word) in self.empty.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let c = Cell::from_index(w * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
                if !(renju_black && self.forbidden_at(c.padded()).is_some()) {
                    moves.push(c);
                }
            }
        }
    }

    fn play(&mut self, mv: Cell) {
        self.play_as(mv, true);
    }

    fn undo(&mut self, mv: Cell) {
        self.undo_as(mv, true);
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.won {
            Some(Outcome::Loss)
        } else if self.empties() == 0 {
            Some(Outcome::Draw)
        } else if self.renju_black_to_move() && !self.black_has_move() {
            Some(Outcome::Loss)
        } else {
            None
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = variant_key(self.variant);
        for y in 0..self.height() {
            for x in 0..self.width() {
                let c = Cell::new(x, y);
                if let Some(side) = self.stone(c) {
                    h ^= KEYS[(colour(side) - 1) as usize * CELLS + c.index()];
                }
            }
        }
        if self.side_to_move() == Side::Second {
            h ^= SIDE_KEY;
        }
        h
    }

    fn format_move(&self, mv: Cell) -> String {
        self.cell_name(mv)
    }

    fn parse_move(&self, text: &str) -> Result<Cell, MoveError> {
        let cell = self.parse_cell(text)?;
        if let Some(why) = self.ended_by() {
            return Err(MoveError::illegal(
                text,
                format!("the game is over ({why})"),
            ));
        }
        if let Some(side) = self.stone(cell) {
            let whose = if side == Side::First {
                "Black"
            } else {
                "White"
            };
            return Err(MoveError::illegal(
                text,
                format!("{} is taken by {whose}", self.cell_name(cell)),
            ));
        }
        if self.rule() == Rule::Renju && self.side_to_move() == Side::First {
            if let Some(why) = self.forbidden(cell) {
                return Err(MoveError::illegal(
                    text,
                    format!("forbidden for Black in renju: {why}"),
                ));
            }
        }
        Ok(cell)
    }

    fn to_text(&self) -> String {
        let mut out = String::with_capacity(4 * self.len as usize + 16);
        if !self.variant.is_default() {
            out.push_str(&self.variant.to_string());
        }
        for &c in self.moves_played() {
            if !out.is_empty() {
                out.push(' ');
            }
            self.push_cell_name(c, &mut out);
        }
        out
    }

    fn from_text(text: &str) -> Result<Self, PositionError> {
        Gomoku::read(Variant::default(), text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use duel_core::SplitMix64;

    /// The kept line patterns are the board's, read from scratch, after any moves and takebacks
    /// on any size.
    #[test]
    fn line_patterns_are_kept_as_stones_come_and_go() {
        let mut rng = SplitMix64::new(7);
        for (w, h) in [(15, 15), (20, 20), (22, 22), (5, 5), (9, 13)] {
            let mut pos = Gomoku::new(w, h, Rule::Freestyle).unwrap();
            let mut moves = Vec::new();
            for step in 0..300 {
                pos.generate_moves(&mut moves);
                let back = step % 7 == 6 || moves.is_empty();
                if back {
                    if let Some(m) = pos.last_move() {
                        pos.undo(m);
                    }
                } else {
                    pos.play(moves[rng.next() as usize % moves.len()]);
                }
                for y in 0..h as u8 {
                    for x in 0..w as u8 {
                        let p = Cell::new(x, y).padded();
                        assert_eq!(
                            pos.lines[p],
                            line_codes(&pos.board, p),
                            "{pos:?} at {x},{y}"
                        );
                    }
                }
            }
        }
    }
}
