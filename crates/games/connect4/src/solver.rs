//! The exact solver, after Pascal Pons' "Solving Connect 4": negamax with alpha-beta on
//! bitboards, a window narrowed by repeated null-window searches, a transposition table of
//! bounds, centre-first move ordering refined by the threats a move creates, and the pruning of
//! every move that hands the opponent an immediate win.
//!
//! Scores follow Pons (and the test sets in `data/connect4/`): from the side to move, 0 for a
//! draw, otherwise ±(22 − the number of stones the winner will have played), so a quicker win
//! scores more and a later loss less badly.
//!
//! A solve can be given [`SolveBudget`] (nodes, a deadline, a stop flag) and a progress callback:
//! [`Solver::solve_limited`] looks at the limits every [`CHECK_EVERY`] nodes and, when one is
//! reached, unwinds without storing anything from the unfinished subtrees, so the table stays
//! sound and the bounds proven so far come back in [`Stopped`].

use std::time::{Duration, Instant};

use duel_core::{Game, Score};

use crate::bitboard::{column_mask, Board, CELLS, CENTRE_FIRST, WIDTH};
use crate::{Column, Connect4};

/// The lowest score of a game still going: the opponent wins with its fourth stone.
pub const MIN_SCORE: i32 = -(CELLS as i32) / 2 + 3;
/// The highest score: a win with one's fourth stone.
pub const MAX_SCORE: i32 = (CELLS as i32 + 1) / 2 - 3;

/// The score of a win with the next stone, `moves` stones being on the board.
#[inline]
const fn win_now(moves: u32) -> i32 {
    (CELLS as i32 + 1 - moves as i32) / 2
}

/// The score of a loss to the opponent's next stone.
#[inline]
const fn loss_next(moves: u32) -> i32 {
    -(CELLS as i32 - moves as i32) / 2
}

/// The score of a finished game that the side to move has lost: the winner's last stone was
/// its `(moves + 1) / 2`-th.
#[inline]
const fn lost_already(moves: u32) -> i32 {
    (moves as i32 + 1) / 2 - 22
}

/// Where negamax keeps bounds between visits. The value 0 means "nothing stored"; upper bounds
/// are stored as `1..=UPPER_RANGE` and lower bounds above that, so one byte holds either.
trait Table {
    fn get(&self, key: u64, moves: u32) -> u8;
    fn put(&mut self, key: u64, moves: u32, value: u8);
}

/// Stored values `1..=UPPER_RANGE` are upper bounds.
const UPPER_RANGE: i32 = MAX_SCORE - MIN_SCORE + 1;

#[inline]
const fn encode_upper(score: i32) -> u8 {
    debug_assert!(MIN_SCORE <= score && score <= MAX_SCORE);
    (score - MIN_SCORE + 1) as u8
}

#[inline]
const fn encode_lower(score: i32) -> u8 {
    debug_assert!(MIN_SCORE <= score && score <= MAX_SCORE);
    (score - MIN_SCORE + 1 + UPPER_RANGE) as u8
}

/// No table: for the small searches behind [`Threats`](crate::Threats)' exact values, which
/// must not hold state.
struct NoTable;

impl Table for NoTable {
    #[inline]
    fn get(&self, _key: u64, _moves: u32) -> u8 {
        0
    }

    #[inline]
    fn put(&mut self, _key: u64, _moves: u32, _value: u8) {}
}

/// The default size of the main table: 2^22 slots of 8 bytes (32 MiB). On the test sets a
/// larger table saves under 1% of the nodes and loses more than that to cache and TLB misses;
/// [`Solver::with_table_bits`] gives a larger one for very deep solves.
pub const DEFAULT_TABLE_BITS: u32 = 22;

/// Positions with at most this many empty cells go to a small table of their own.
const NEAR_END_EMPTIES: u32 = 14;
/// The near-end table: 2^17 slots (1 MiB), small enough to stay in the caches.
const NEAR_END_BITS: u32 = 17;

/// One slot per index, `key << 8 | value` in one word so a probe costs one cache miss. The full
/// 49-bit key is kept, so a hit is never a different position, and the index can be any hash of
/// the key: a multiplicative one, which mixes the structured keys of related positions.
struct Slots {
    slots: Box<[u64]>,
    shift: u32,
}

impl Slots {
    fn new(bits: u32) -> Self {
        let slots = vec![0u64; 1 << bits].into_boxed_slice();
        let mut table = Slots {
            slots,
            shift: 64 - bits,
        };
        // The zeroed pages are only mapped on first touch; touch them all now, or the first
        // searches pay tens of milliseconds of page faults.
        table.clear();
        table
    }

    fn clear(&mut self) {
        self.slots.fill(0);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    #[inline]
    fn get(&self, key: u64) -> u8 {
        let slot = self.slots[self.index(key)];
        if slot >> 8 == key {
            slot as u8
        } else {
            0
        }
    }

    #[inline]
    fn put(&mut self, key: u64, value: u8) {
        let i = self.index(key);
        self.slots[i] = key << 8 | value as u64;
    }
}

/// The transposition table, in two parts. Nearly every node is close to the end of the game
/// and has a tiny subtree, and in a table of tens of MiB each probe is a cache miss that costs
/// about as much as searching such a node; the profile showed half the time stalled on that
/// load. Near-end positions therefore get a small table that stays in the caches and the rest
/// the large one: about twice as fast on the medium test sets for 1-4% more nodes.
struct TransTable {
    main: Slots,
    near_end: Slots,
}

impl TransTable {
    fn new(bits: u32) -> Self {
        TransTable {
            main: Slots::new(bits),
            near_end: Slots::new(NEAR_END_BITS),
        }
    }

    fn clear(&mut self) {
        self.main.clear();
        self.near_end.clear();
    }

    #[inline]
    fn part(&self, moves: u32) -> &Slots {
        if moves + NEAR_END_EMPTIES < CELLS {
            &self.main
        } else {
            &self.near_end
        }
    }
}

impl Table for TransTable {
    #[inline]
    fn get(&self, key: u64, moves: u32) -> u8 {
        self.part(moves).get(key)
    }

    #[inline]
    fn put(&mut self, key: u64, moves: u32, value: u8) {
        if moves + NEAR_END_EMPTIES < CELLS {
            self.main.put(key, value)
        } else {
            self.near_end.put(key, value)
        }
    }
}

/// The moves of one node, best last: an insertion sort over at most seven entries. Entries are
/// added from the edge columns in, and an entry goes below earlier ones of equal score, so among
/// equals the more central column comes out first.
struct MoveSorter {
    cells: [u64; WIDTH as usize],
    scores: [u32; WIDTH as usize],
    len: usize,
}

impl MoveSorter {
    #[inline]
    fn new() -> Self {
        MoveSorter {
            cells: [0; WIDTH as usize],
            scores: [0; WIDTH as usize],
            len: 0,
        }
    }

    #[inline]
    fn add(&mut self, cell: u64, score: u32) {
        let mut i = self.len;
        self.len += 1;
        while i > 0 && self.scores[i - 1] > score {
            self.cells[i] = self.cells[i - 1];
            self.scores[i] = self.scores[i - 1];
            i -= 1;
        }
        self.cells[i] = cell;
        self.scores[i] = score;
    }

    #[inline]
    fn pop(&mut self) -> Option<u64> {
        if self.len == 0 {
            None
        } else {
            self.len -= 1;
            Some(self.cells[self.len])
        }
    }
}

/// Nodes between two looks at the limits and the clock: a few milliseconds of search, so a
/// stop or a deadline is honoured at once while the looks cost nothing measurable.
pub const CHECK_EVERY: u64 = 1 << 16;

/// How often a long probe reports that it is still running.
const REPORT_EVERY: Duration = Duration::from_secs(2);

/// What may end a solve before it has proven the score (every game's solver takes the same).
pub use duel_core::SolveBudget;

/// Where a running solve stands, in Pons' scale from the side to move (signs only in a weak
/// solve).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// The lower bound the probes have proven, if any yet.
    pub lower: Option<i32>,
    /// The upper bound the probes have proven, if any yet.
    pub upper: Option<i32>,
    /// The null-window probe still running ("is the score above this?"); None when a probe
    /// has just ended and set the bounds.
    pub probe: Option<i32>,
    /// Nodes this call has searched.
    pub nodes: u64,
}

/// A solve ended by its [`SolveBudget`] before it proved the score (bounds in Pons' scale).
pub use duel_core::SolverStopped as Stopped;

/// How negamax counts its nodes: a bare counter for the table-free small searches, which never
/// stop and must cost nothing more, or a [`Budget`].
trait Counter {
    /// Counts a node; true when the search must stop.
    fn count(&mut self) -> bool;
    /// Whether the search has been stopped: every node then returns without storing.
    fn stopped(&self) -> bool;
}

impl Counter for u64 {
    #[inline]
    fn count(&mut self) -> bool {
        *self += 1;
        false
    }

    #[inline]
    fn stopped(&self) -> bool {
        false
    }
}

/// The nodes of one limited solve and what it reports: the limits are read only every
/// [`CHECK_EVERY`] nodes, when the count reaches `check_at`.
struct Budget<'a, 'l> {
    /// The solver's running count.
    nodes: u64,
    /// The count when this call began.
    start: u64,
    /// The count at which to look at the limits next.
    check_at: u64,
    /// The count at which the node limit ends the solve (`u64::MAX`: none).
    last: u64,
    limits: &'a SolveBudget<'l>,
    progress: &'a mut dyn FnMut(&Progress),
    /// The probe running, for the reports of a long one.
    now: Progress,
    reported: Instant,
    stopped: bool,
}

impl<'a, 'l> Budget<'a, 'l> {
    fn new(
        nodes: u64,
        limits: &'a SolveBudget<'l>,
        progress: &'a mut dyn FnMut(&Progress),
    ) -> Self {
        let last = limits.nodes.map_or(u64::MAX, |n| nodes.saturating_add(n));
        Budget {
            nodes,
            start: nodes,
            check_at: last.min(nodes.saturating_add(CHECK_EVERY)),
            last,
            limits,
            progress,
            now: Progress {
                lower: None,
                upper: None,
                probe: None,
                nodes: 0,
            },
            reported: Instant::now(),
            stopped: false,
        }
    }

    fn searched(&self) -> u64 {
        self.nodes - self.start
    }

    /// Looks at the limits; reports a probe that has run for a while.
    #[cold]
    #[inline(never)]
    fn poll(&mut self) -> bool {
        let now = Instant::now();
        if self.nodes >= self.last || self.limits.interrupted(now) {
            self.stopped = true;
            return true;
        }
        if now.duration_since(self.reported) >= REPORT_EVERY {
            self.reported = now;
            let report = Progress {
                nodes: self.searched(),
                ..self.now
            };
            (self.progress)(&report);
        }
        self.check_at = self.last.min(self.nodes.saturating_add(CHECK_EVERY));
        false
    }
}

impl Counter for Budget<'_, '_> {
    #[inline]
    fn count(&mut self) -> bool {
        self.nodes += 1;
        self.nodes >= self.check_at && self.poll()
    }

    #[inline]
    fn stopped(&self) -> bool {
        self.stopped
    }
}

/// Negamax with alpha-beta (fail-soft) for a position where the side to move cannot win at once.
/// Returns the exact score if it lies strictly inside `(alpha, beta)`, otherwise a bound on the
/// same side of the window; after a stop (see [`Counter`]) a meaningless value, and nothing
/// stored.
fn negamax<T: Table, C: Counter>(
    table: &mut T,
    nodes: &mut C,
    b: &Board,
    mut alpha: i32,
    mut beta: i32,
) -> i32 {
    debug_assert!(alpha < beta);
    debug_assert!(!b.can_win_next());
    if nodes.count() {
        return 0;
    }

    let possible = b.possible_non_losing_moves();
    if possible == 0 {
        return loss_next(b.moves());
    }
    // With two cells left and no immediate threat either way, nobody can connect any more.
    if b.moves() >= CELLS - 2 {
        return 0;
    }

    // The opponent cannot win with its next stone, and we cannot win with ours.
    let min = -(CELLS as i32 - 2 - b.moves() as i32) / 2;
    if alpha < min {
        alpha = min;
        if alpha >= beta {
            return alpha;
        }
    }
    let max = (CELLS as i32 - 1 - b.moves() as i32) / 2;
    if beta > max {
        beta = max;
        if alpha >= beta {
            return beta;
        }
    }

    let key = b.key();
    let stored = table.get(key, b.moves()) as i32;
    if stored > UPPER_RANGE {
        let lower = stored - UPPER_RANGE + MIN_SCORE - 1;
        if alpha < lower {
            alpha = lower;
            if alpha >= beta {
                return alpha;
            }
        }
    } else if stored > 0 {
        let upper = stored + MIN_SCORE - 1;
        if beta > upper {
            beta = upper;
            if alpha >= beta {
                return beta;
            }
        }
    }

    let mut sorter = MoveSorter::new();
    for &col in CENTRE_FIRST.iter().rev() {
        let cell = possible & column_mask(col as u32);
        if cell != 0 {
            sorter.add(cell, b.move_score(cell));
        }
    }

    while let Some(cell) = sorter.pop() {
        let mut child = *b;
        child.play_cell(cell);
        let score = -negamax(table, nodes, &child, -beta, -alpha);
        // A stopped subtree's value proves nothing: leave before it reaches the table.
        if nodes.stopped() {
            return 0;
        }
        if score >= beta {
            table.put(key, b.moves(), encode_lower(score));
            return score;
        }
        if score > alpha {
            alpha = score;
        }
    }
    table.put(key, b.moves(), encode_upper(alpha));
    alpha
}

/// The solve driver: the cases negamax does not take, then the window narrowed by null-window
/// searches. Each probe answers "is the score above `med`?" and cuts far more than a wide
/// window would. The probe point is pulled halfway towards 0, as in Pons' solver: whether a
/// position is won at all is much cheaper to prove than how quickly, and most scores are small.
/// Each probe's end is reported; a stop returns the bounds proven by the probes before it.
fn solve_with<T: Table>(
    table: &mut T,
    budget: &mut Budget<'_, '_>,
    b: &Board,
    weak: bool,
) -> Result<i32, Stopped> {
    if b.last_mover_won() {
        let s = lost_already(b.moves());
        return Ok(if weak { s.signum() } else { s });
    }
    if b.can_win_next() {
        let s = win_now(b.moves());
        return Ok(if weak { s.signum() } else { s });
    }
    let (mut min, mut max) = if weak {
        (-1, 1)
    } else {
        (loss_next(b.moves()), win_now(b.moves()))
    };
    // What the probes have proven, apart from the bounds the stone count gives.
    let (mut lower, mut upper) = (None, None);
    while min < max {
        let mut med = min + (max - min) / 2;
        if med <= 0 && min / 2 < med {
            med = min / 2;
        } else if med >= 0 && max / 2 > med {
            med = max / 2;
        }
        budget.now = Progress {
            lower,
            upper,
            probe: Some(med),
            nodes: budget.searched(),
        };
        let r = negamax(table, budget, b, med, med + 1);
        if budget.stopped {
            return Err(Stopped {
                lower,
                upper,
                nodes: budget.searched(),
            });
        }
        if r <= med {
            max = r;
            upper = Some(r);
        } else {
            min = r;
            lower = Some(r);
        }
        let step = Progress {
            lower,
            upper,
            probe: None,
            nodes: budget.searched(),
        };
        (budget.progress)(&step);
    }
    Ok(if weak { min.signum() } else { min })
}

/// The exact score of `board` by a search without a table: cheap only for nearly full boards
/// (a dozen empty cells or so). Returns the score and the nodes searched.
pub fn solve_small(board: &Board) -> (i32, u64) {
    let mut nodes = 0;
    if board.last_mover_won() {
        return (lost_already(board.moves()), 0);
    }
    if board.can_win_next() {
        return (win_now(board.moves()), 0);
    }
    // One wide window just outside the possible scores: the result is exact, and without a
    // table the repeated probes of the null-window driver would each start from nothing.
    let alpha = loss_next(board.moves()) - 1;
    let beta = win_now(board.moves()) + 1;
    let s = negamax(&mut NoTable, &mut nodes, board, alpha, beta);
    (s, nodes)
}

/// An exact Connect Four solver with its transposition table (33 MiB by default, allocated
/// once).
///
/// The table holds bounds that are true of a position whatever search stored them, so it can
/// be kept from one position to the next; [`Solver::reset`] empties it.
pub struct Solver {
    table: TransTable,
    nodes: u64,
}

impl Default for Solver {
    fn default() -> Self {
        Self::new()
    }
}

impl Solver {
    /// A solver with an empty table.
    pub fn new() -> Self {
        Self::with_table_bits(DEFAULT_TABLE_BITS)
    }

    /// A solver whose main table has `2^bits` slots of 8 bytes (`bits` from 10 to 32).
    pub fn with_table_bits(bits: u32) -> Self {
        assert!(
            (10..=32).contains(&bits),
            "table bits {bits} out of 10..=32"
        );
        Solver {
            table: TransTable::new(bits),
            nodes: 0,
        }
    }

    /// Empties the table and zeroes the node count.
    pub fn reset(&mut self) {
        self.table.clear();
        self.nodes = 0;
    }

    /// Positions searched since the solver was made or reset.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The score of `pos` from the side to move, in Pons' convention: 0 draw, positive a win
    /// (22 − the winner's stone count at the end), negative a loss. With `weak`, only the sign
    /// (−1, 0 or 1), which is much faster. A finished game scores its result.
    pub fn solve(&mut self, pos: &Connect4, weak: bool) -> i32 {
        self.solve_board(pos.board(), weak)
    }

    /// [`Solver::solve`] on bare bitboards.
    pub fn solve_board(&mut self, board: &Board, weak: bool) -> i32 {
        match self.solve_board_limited(board, weak, &SolveBudget::default(), &mut |_| {}) {
            Ok(score) => score,
            Err(_) => unreachable!("a solve without limits runs to its end"),
        }
    }

    /// [`Solver::solve`] within `limits`, calling `progress` at the end of every null-window
    /// probe and every two seconds or so of a long one. Stopped by a limit, it returns the
    /// bounds proven so far; the table keeps only what finished subtrees proved, so the solver
    /// stays usable.
    pub fn solve_limited(
        &mut self,
        pos: &Connect4,
        weak: bool,
        limits: &SolveBudget<'_>,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<i32, Stopped> {
        self.solve_board_limited(pos.board(), weak, limits, progress)
    }

    /// [`Solver::solve_limited`] on bare bitboards.
    pub fn solve_board_limited(
        &mut self,
        board: &Board,
        weak: bool,
        limits: &SolveBudget<'_>,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<i32, Stopped> {
        let mut budget = Budget::new(self.nodes, limits, progress);
        let result = solve_with(&mut self.table, &mut budget, board, weak);
        self.nodes = budget.nodes;
        result
    }

    /// Every playable column (0-based, left to right) with the exact score of the position from
    /// the side to move if it plays there. Empty for a finished game.
    pub fn best_moves(&mut self, pos: &Connect4) -> Vec<(Column, i32)> {
        let mut out = Vec::with_capacity(WIDTH as usize);
        if pos.outcome().is_some() {
            return out;
        }
        let b = pos.board();
        for col in 0..WIDTH {
            if !b.can_play(col) {
                continue;
            }
            let score = if b.is_winning_move(col) {
                win_now(b.moves())
            } else {
                let mut child = *b;
                child.play_col(col);
                -self.solve_board(&child, false)
            };
            out.push((col as Column, score));
        }
        out
    }

    /// A best column and the position's score, preferring central columns among equals; `None`
    /// for a finished game.
    pub fn best_move(&mut self, pos: &Connect4) -> Option<(Column, i32)> {
        let moves = self.best_moves(pos);
        CENTRE_FIRST
            .iter()
            .filter_map(|&c| moves.iter().find(|m| m.0 == c).copied())
            .reduce(|best, m| if m.1 > best.1 { m } else { best })
    }
}

/// A Pons score of `pos` in the core convention: a win or loss in the exact number of plies
/// from `pos` when both sides play on to the end, or a draw.
///
/// The side to move has played `moves / 2` stones and the opponent `(moves + 1) / 2`. A win
/// scoring `s` comes with the mover's `(22 − s)`-th stone, a loss scoring `s` with the
/// opponent's `(22 + s)`-th.
pub fn pons_to_score(pos: &Connect4, pons: i32) -> Score {
    let moves = pos.ply() as i32;
    if pons > 0 {
        Score::win_in(2 * ((22 - pons) - moves / 2) - 1)
    } else if pons < 0 {
        Score::loss_in(2 * ((22 + pons) - (moves + 1) / 2))
    } else {
        Score::DRAW
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_bounds() {
        assert_eq!((MIN_SCORE, MAX_SCORE), (-18, 18));
        assert_eq!(win_now(6), MAX_SCORE);
        assert_eq!(lost_already(7), MIN_SCORE);
        // Both encodings fit a byte and never collide with "empty".
        assert_eq!(encode_upper(MIN_SCORE), 1);
        assert_eq!(encode_lower(MIN_SCORE) as i32, UPPER_RANGE + 1);
        assert!(encode_lower(MAX_SCORE) < u8::MAX);
    }

    #[test]
    fn sorter_pops_best_then_most_central() {
        let mut s = MoveSorter::new();
        for (cell, score) in [(6, 1), (0, 1), (5, 2), (1, 0), (4, 1), (2, 2), (3, 1)] {
            s.add(cell, score);
        }
        let order: Vec<u64> = std::iter::from_fn(|| s.pop()).collect();
        assert_eq!(order, [2, 5, 3, 4, 0, 6, 1]);
    }
}
