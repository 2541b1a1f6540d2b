//! The founding texts' Gomoku evaluation: line patterns counted per side in the four
//! directions and combined by weights, the side to move weighed apart from the side waiting.
//!
//! **Patterns.** Every row, column and diagonal is read as a string of cells; a *run* is a
//! maximal row of one side's stones, its *ends* the cells just past it (open if empty). Two
//! runs with one empty cell between them read as one broken pattern (`XX.X`, `X.XXX`); each
//! run belongs to one pattern, read left to right. A pattern of
//! - four stones or more with the gap filled (`X.XXX`, `XX.XX`): a **four** (one move makes
//!   five), whatever its ends;
//! - four in a row: an **open four** with both ends open (two cells make five, it cannot be
//!   stopped), a **four** with one;
//! - three: an **open three** with both ends open, a **three** (blocked) with one;
//! - two: an **open two** or a **two**.
//!
//! A pattern with both ends closed counts nothing, nor a run of five or more (on a board that
//! is not finished it is an overline that does not win, or a blocked caro five). The count is
//! the textbook's: it does not look at the room beyond the ends or at renju's forbidden
//! points. A stronger, incremental evaluator is another module's business.
//!
//! **Side to move.** The same stones are worth more to the side who plays next: a four of the
//! side to move is a five next move ([`WIN_NEXT`]); an open four of the side waiting, or two
//! fours, cannot both be stopped ([`LOSS_NEXT`]); an open three of the side to move, when the
//! side waiting has no four to answer with, becomes an open four ([`WIN_SOON`]). Past those,
//! the counts are weighted, with [`TO_MOVE`] for the side to move and [`WAITING`] for the
//! other. Hence the founding text's example: Black's four blocked at one end is a win for
//! Black to move, and for White to move one cell to block.

use duel_core::{Evaluator, Game, Score, Side};

use crate::{colour, Cell, Gomoku, BLACK, CELLS, DIRECTIONS, EMPTY, WHITE};

/// The patterns of one side, counted over the board.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Shapes {
    /// Four in a row, both ends open.
    pub open_fours: i32,
    /// One move from five: four in a row with one end open, or broken (`X.XXX`, `XX.XX`).
    pub fours: i32,
    /// Three (in a row or `XX.X`), both ends open.
    pub open_threes: i32,
    /// Three with one end open.
    pub threes: i32,
    /// Two (in a row or `X.X`), both ends open.
    pub open_twos: i32,
    /// Two with one end open.
    pub twos: i32,
}

/// Weights of [`Shapes`] fields past the open four and four: open three, three, open two, two.
type Weights = [i32; 4];

/// The side to move's patterns: an open three here is a threat to make an open four.
pub const TO_MOVE: Weights = [1_500, 150, 120, 15];
/// The waiting side's patterns: one move behind, each worth less; a four of the waiting side
/// is a cell to block, worth [`FOUR_WAITING`].
pub const WAITING: Weights = [700, 100, 80, 10];
/// A single four of the side waiting: the side to move must block it, and then it is dead.
pub const FOUR_WAITING: i32 = 300;
/// The side to move has a four: it makes five next move.
pub const WIN_NEXT: i32 = 20_000;
/// The side waiting has an open four or two fours, the side to move none: one block is not
/// enough.
pub const LOSS_NEXT: i32 = 15_000;
/// The side to move has an open three and the side waiting no four: an open four next.
pub const WIN_SOON: i32 = 8_000;

/// The line-pattern evaluator: see the module doc.
#[derive(Debug, Clone, Copy, Default)]
pub struct Textbook;

impl Textbook {
    /// Both sides' patterns, Black's first.
    pub fn shapes(pos: &Gomoku) -> [Shapes; 2] {
        let mut out = [Shapes::default(); 2];
        let mut line = [0u8; 2 * crate::MAX_SIZE as usize + 2];
        for &d in &DIRECTIONS {
            for start in line_starts(pos, d) {
                // The line, with the wall that ends it at both ends.
                let mut n = 0;
                let mut p = start - d;
                loop {
                    line[n] = pos.board[p];
                    n += 1;
                    if n > 1 && pos.board[p] == crate::WALL {
                        break;
                    }
                    p += d;
                }
                for (side, shapes) in out.iter_mut().enumerate() {
                    count_line(&line[..n], side as u8 + 1, shapes);
                }
            }
        }
        out
    }

    /// The value for the side to move of `me`'s and `them`'s patterns.
    pub fn combine(me: &Shapes, them: &Shapes) -> i32 {
        if me.fours + me.open_fours > 0 {
            return WIN_NEXT;
        }
        if them.open_fours > 0 || them.fours >= 2 {
            return -LOSS_NEXT;
        }
        let weigh = |s: &Shapes, w: &Weights| {
            s.open_threes * w[0] + s.threes * w[1] + s.open_twos * w[2] + s.twos * w[3]
        };
        let mut v = weigh(me, &TO_MOVE) - weigh(them, &WAITING) - them.fours * FOUR_WAITING;
        if them.fours == 0 && me.open_threes > 0 {
            v += WIN_SOON;
        }
        v.clamp(-Score::MAX_HEURISTIC, Score::MAX_HEURISTIC)
    }
}

/// The first cell of every line along `d` on the board: the cells whose neighbour against
/// `d` is off the board.
fn line_starts(pos: &Gomoku, d: usize) -> impl Iterator<Item = usize> + '_ {
    (0..pos.height()).flat_map(move |y| {
        (0..pos.width()).filter_map(move |x| {
            let p = Cell::new(x, y).padded();
            (pos.board[p - d] == crate::WALL).then_some(p)
        })
    })
}

/// Adds the patterns of colour `c` in `line` (a wall at each end) to `shapes`.
fn count_line(line: &[u8], c: u8, shapes: &mut Shapes) {
    let mut i = 1;
    while i < line.len() - 1 {
        if line[i] != c {
            i += 1;
            continue;
        }
        let start = i;
        let mut end = run_end(line, c, i);
        let mut stones = end - start + 1;
        let mut broken = false;
        // One empty cell, then more of the same: a broken pattern.
        if line[end + 1] == EMPTY && end + 2 < line.len() && line[end + 2] == c {
            let next_end = run_end(line, c, end + 2);
            let more = next_end - end - 1;
            if stones + more <= 5 {
                stones += more;
                end = next_end;
                broken = true;
            }
        }
        let open = (line[start - 1] == EMPTY) as u8 + (line[end + 1] == EMPTY) as u8;
        match (stones, broken, open) {
            (5.., false, _) => {}
            (4.., true, _) => shapes.fours += 1,
            (4, false, 2) => shapes.open_fours += 1,
            (4, false, 1) => shapes.fours += 1,
            (3, _, 2) => shapes.open_threes += 1,
            (3, _, 1) => shapes.threes += 1,
            (2, _, 2) => shapes.open_twos += 1,
            (2, _, 1) => shapes.twos += 1,
            _ => {}
        }
        i = end + 1;
    }
}

/// The last index of the run of `c` that holds index `i`.
#[inline]
fn run_end(line: &[u8], c: u8, mut i: usize) -> usize {
    while line[i + 1] == c {
        i += 1;
    }
    i
}

/// Hint of a cell, per direction, by the most stones of one side in a five-cell window
/// through it free of the other side and the edge, the cell counted: `[1..=5]` for the side
/// to move (making), then for the other side (blocking).
const MAKE: [i32; 6] = [0, 1, 10, 100, 10_000, 1_000_000];
const BLOCK: [i32; 6] = [0, 0, 5, 50, 5_000, 500_000];

impl Gomoku {
    /// Per colour (index 0 Black), the most stones of that colour in a five-cell window
    /// through `p` along `d` holding nothing of the other colour nor the edge, `p` counted as
    /// that colour's stone.
    fn best_windows(&self, p: usize, d: usize) -> [usize; 2] {
        let mut cells = [0u8; 9];
        let mut stones = false;
        for (k, v) in cells.iter_mut().enumerate() {
            *v = self.board[p + k * d - 4 * d];
            stones |= *v == BLACK || *v == WHITE;
        }
        let mut best = [0usize; 2];
        for (c, b) in best.iter_mut().enumerate() {
            let own = c as u8 + 1;
            // Sliding counts over the five windows: own stones, and cells that spoil a window.
            let (mut mine, mut spoilt) = (0, 0);
            for (k, &v) in cells.iter().enumerate() {
                mine += (v == own) as usize;
                spoilt += (v != own && v != EMPTY) as usize;
                if k >= 5 {
                    let gone = cells[k - 5];
                    mine -= (gone == own) as usize;
                    spoilt -= (gone != own && gone != EMPTY) as usize;
                }
                if k >= 4 && spoilt == 0 {
                    *b = (*b).max(mine + 1);
                }
            }
            if !stones && *b > 0 {
                // An empty neighbourhood: both sides alike.
                return [*b; 2];
            }
        }
        best
    }

    /// The ordering hint of the empty `cell` for the side to move.
    fn hint(&self, cell: Cell) -> i32 {
        let p = cell.padded();
        let me = colour(self.side_to_move()) as usize - 1;
        DIRECTIONS
            .iter()
            .map(|&d| {
                let best = self.best_windows(p, d);
                MAKE[best[me]] + BLOCK[best[1 - me]]
            })
            .sum()
    }

    /// True if a stone of the side to move on the empty `cell` leaves four of its stones in a
    /// five-cell window free of the other side: a five threat.
    fn makes_four(&self, cell: Cell) -> bool {
        let me = colour(self.side_to_move()) as usize - 1;
        DIRECTIONS
            .iter()
            .any(|&d| self.best_windows(cell.padded(), d)[me] >= 4)
    }

    /// The empty cells within four of a stone of `side` along the lines, as a set of cell
    /// indices.
    fn near_stones(&self, side: Side) -> [u64; CELLS.div_ceil(64)] {
        let mut set = [0u64; CELLS.div_ceil(64)];
        let first = if side == Side::First { 0 } else { 1 };
        for &stone in self.moves_played().iter().skip(first).step_by(2) {
            let p = stone.padded();
            for d in DIRECTIONS {
                for k in 1..=4 {
                    for q in [p + k * d, p - k * d] {
                        if self.board[q] == EMPTY {
                            let i = crate::cell_of_padded(q).index();
                            set[i / 64] |= 1 << (i % 64);
                        }
                    }
                }
            }
        }
        set
    }

    /// Pushes onto `moves`, in index order, the cells of `set` that the side to move may
    /// play and `keep` keeps.
    fn push_cells(
        &self,
        set: &[u64; CELLS.div_ceil(64)],
        moves: &mut Vec<Cell>,
        keep: impl Fn(Cell) -> bool,
    ) {
        for (w, &word) in set.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let c = Cell::from_index(w * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
                if keep(c) && !self.forbidden_to_mover(c.padded()) {
                    moves.push(c);
                }
            }
        }
    }
}

impl Evaluator<Gomoku> for Textbook {
    fn unit(&self) -> &'static str {
        "line-pattern points (a five next move is 20,000)"
    }

    fn name(&self) -> &'static str {
        "textbook"
    }

    fn evaluate(&self, pos: &Gomoku) -> i32 {
        let shapes = Textbook::shapes(pos);
        let me = match pos.side_to_move() {
            Side::First => 0,
            Side::Second => 1,
        };
        Textbook::combine(&shapes[me], &shapes[1 - me])
    }

    /// A five for the side to move if there is one; else the cells that stop the other
    /// side's five; else the side to move's fours. Quiescence then follows threat sequences
    /// (a four, its forced block) to their end. Only cells within four of a stone of the side
    /// concerned are looked at, in index order.
    fn noisy_moves(&self, pos: &Gomoku, moves: &mut Vec<Cell>) {
        moves.clear();
        if pos.outcome().is_some() {
            return;
        }
        let me = pos.side_to_move();
        let mine = pos.near_stones(me);
        pos.push_cells(&mine, moves, |c| pos.makes_five(c, me));
        if moves.is_empty() {
            let theirs = pos.near_stones(me.other());
            pos.push_cells(&theirs, moves, |c| pos.makes_five(c, me.other()));
        }
        if moves.is_empty() {
            pos.push_cells(&mine, moves, |c| pos.makes_four(c));
        }
    }

    fn move_hint(&self, pos: &Gomoku, mv: Cell) -> i32 {
        pos.hint(mv)
    }
}
