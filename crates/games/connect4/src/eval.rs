//! A heuristic evaluation for depth-limited play: lines still open, threats (cells that would
//! complete four) weighted by the row they are on, and the centre.

use duel_core::{Evaluator, Score};

use crate::bitboard::{
    cell, column_mask, winning_cells, Board, BOTTOM, CELLS, COLUMN_BITS, HEIGHT, WIDTH,
};
use crate::solver::{pons_to_score, solve_small};
use crate::{Column, Connect4};

/// Every four-cell line on the board (69 of them), as bit masks.
const LINES: [u64; 69] = {
    let mut out = [0u64; 69];
    let mut n = 0;
    // Right, up, up-right, down-right: each line once, from its first cell.
    let dirs: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    let mut d = 0;
    while d < dirs.len() {
        let (dc, dr) = dirs[d];
        let mut col = 0;
        while col < WIDTH as i32 {
            let mut row = 0;
            while row < HEIGHT as i32 {
                let (ec, er) = (col + 3 * dc, row + 3 * dr);
                if ec < WIDTH as i32 && er >= 0 && er < HEIGHT as i32 {
                    let mut mask = 0;
                    let mut k = 0;
                    while k < 4 {
                        mask |= cell((col + k * dc) as u32, (row + k * dr) as u32);
                        k += 1;
                    }
                    out[n] = mask;
                    n += 1;
                }
                row += 1;
            }
            col += 1;
        }
        d += 1;
    }
    assert!(n == 69);
    out
};

/// The four line directions as bit shifts: up, right, up-right, down-right.
const DIRECTIONS: [u32; 4] = [1, COLUMN_BITS, COLUMN_BITS + 1, COLUMN_BITS - 1];

/// Per direction, the first cell (lowest bit) of every line of [`LINES`] in that direction: a
/// line is then `start << 0, << d, << 2d, << 3d`, so whole directions can be scored with shifts.
const LINE_STARTS: [u64; 4] = {
    let mut starts = [0u64; 4];
    let mut i = 0;
    while i < LINES.len() {
        let line = LINES[i];
        let first = line & line.wrapping_neg();
        let mut d = 0;
        while d < DIRECTIONS.len() {
            let s = DIRECTIONS[d];
            if first | first << s | first << (2 * s) | first << (3 * s) == line {
                starts[d] |= first;
            }
            d += 1;
        }
        i += 1;
    }
    starts
};

/// Rows 1, 3 and 5 counted from 1 at the bottom (bits 0, 2, 4). In a filled-up endgame the
/// first player gets these cells and the second player the others (the zugzwang rule of
/// Allis), so a threat on a row of one's own parity is worth more.
const ODD_ROWS: u64 = BOTTOM * 0b01_0101;
const EVEN_ROWS: u64 = BOTTOM * 0b10_1010;

/// A value past any positional sum, for positions decided by the next ply or two; well inside
/// `Score::MAX_HEURISTIC`.
const DECIDED: i32 = 1_000;

// Weights, in the evaluator's units. A threat counts once however many lines it completes.
const ONE_IN_LINE: i32 = 1;
const TWO_IN_LINE: i32 = 4;
const THREE_IN_LINE: i32 = 9;
const THREAT: i32 = 20;
const THREAT_ON_OWN_PARITY: i32 = 12;
const STACKED_THREATS: i32 = 30;
const CENTRE_STONE: i32 = 3;

/// Move hints: forced matters first, then threats made, then centrality.
const HINT_WIN: i32 = 10_000;
const HINT_BLOCK: i32 = 5_000;
const HINT_GIFT: i32 = -5_000;
const HINT_PER_THREAT: i32 = 16;
const HINT_CENTRE: i32 = 4;

/// The threats evaluator: for each side, lines it could still complete (weighted by the stones
/// already in them), its threats (bonus on its good row parity, more for two threats one above
/// the other) and its centre stones; the side to move's total minus the opponent's. Positions
/// with an immediate win or an unstoppable double threat score ±1000.
///
/// With `exact_empties > 0`, [`Evaluator::exact`] solves positions with at most that many
/// empty cells by a small search without a table (default 10: on the test sets' positions with
/// 10 empty cells or fewer, 13 nodes on average and 420 at most).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Threats {
    /// The largest number of empty cells for which `exact` solves the position; 0 turns it off.
    pub exact_empties: u32,
}

impl Default for Threats {
    fn default() -> Self {
        Threats { exact_empties: 10 }
    }
}

impl Threats {
    /// The evaluator with `exact` turned off: a pure heuristic.
    pub const fn heuristic_only() -> Self {
        Threats { exact_empties: 0 }
    }

    /// The positional value of one side's stones, `own_first` telling whether it is the
    /// first player (which decides its good row parity).
    pub fn side_value(own: u64, opp: u64, mask: u64, own_first: bool) -> i32 {
        let mut v = 0;
        // All lines of a direction at once: bit s of each plane stands for the line starting
        // at s. The four cells' stones are added bit-sliced into a count (b2 b1 b0); this is
        // the line-by-line loop of `side_value_by_lines`, about four times cheaper.
        for (&d, &starts) in DIRECTIONS.iter().zip(LINE_STARTS.iter()) {
            let open = starts & !(opp | opp >> d | opp >> (2 * d) | opp >> (3 * d));
            let (x0, x1, x2, x3) = (own, own >> d, own >> (2 * d), own >> (3 * d));
            let (s1, c1, s2, c2) = (x0 ^ x1, x0 & x1, x2 ^ x3, x2 & x3);
            let b0 = s1 ^ s2;
            let carry = s1 & s2;
            let b1 = c1 ^ c2 ^ carry;
            let b2 = (c1 & c2) | ((c1 ^ c2) & carry);
            let open = open & !b2;
            v += ONE_IN_LINE * (open & b0 & !b1).count_ones() as i32;
            v += TWO_IN_LINE * (open & !b0 & b1).count_ones() as i32;
            v += THREE_IN_LINE * (open & b0 & b1).count_ones() as i32;
        }
        let threats = winning_cells(own, mask);
        let parity = if own_first { ODD_ROWS } else { EVEN_ROWS };
        v += THREAT * threats.count_ones() as i32;
        v += THREAT_ON_OWN_PARITY * (threats & parity).count_ones() as i32;
        v += STACKED_THREATS * (threats & (threats >> 1)).count_ones() as i32;
        v += CENTRE_STONE * (own & column_mask(WIDTH / 2)).count_ones() as i32;
        v
    }

    /// The value of a board from the side to move.
    pub fn board_value(b: &Board) -> i32 {
        if b.can_win_next() {
            return DECIDED;
        }
        let their_threats = b.opponent_winning_cells();
        let forced = their_threats & b.possible();
        // Two cells to block at once, or one with another opponent threat right above it.
        if forced & forced.wrapping_sub(1) != 0 || their_threats & (forced << 1) != 0 {
            return -DECIDED;
        }
        let me_first = b.moves() & 1 == 0;
        Self::side_value(b.current(), b.opponent(), b.mask(), me_first)
            - Self::side_value(b.opponent(), b.current(), b.mask(), !me_first)
    }
}

/// The hint of a move in `col`, given the cells that would complete four for the side to move
/// (`ours`) and for the opponent (`theirs`).
fn column_hint(b: &Board, ours: u64, theirs: u64, col: Column) -> i32 {
    let c = col as u32;
    if !b.can_play(c) {
        return 0;
    }
    let landing = b.landing_cell(c);
    let mut hint = if ours & landing != 0 {
        HINT_WIN
    } else if theirs & landing != 0 {
        HINT_BLOCK
    } else if theirs & (landing << 1) != 0 {
        HINT_GIFT
    } else {
        0
    };
    hint += HINT_PER_THREAT * b.move_score(landing) as i32;
    hint += HINT_CENTRE * (WIDTH as i32 / 2 - (c as i32 - WIDTH as i32 / 2).abs());
    hint
}

impl Evaluator<Connect4> for Threats {
    fn unit(&self) -> &'static str {
        "threat points (a threat is 20)"
    }

    fn name(&self) -> &'static str {
        "threats"
    }

    fn evaluate(&self, pos: &Connect4) -> i32 {
        Self::board_value(pos.board())
    }

    fn move_hint(&self, pos: &Connect4, col: Column) -> i32 {
        let b = pos.board();
        column_hint(b, b.winning_cells(), b.opponent_winning_cells(), col)
    }

    /// Both sides' threat maps once for the whole list.
    fn move_hints(&self, pos: &Connect4, moves: &[Column], hints: &mut Vec<i32>) {
        let b = pos.board();
        let (ours, theirs) = (b.winning_cells(), b.opponent_winning_cells());
        hints.clear();
        hints.extend(moves.iter().map(|&c| column_hint(b, ours, theirs, c)));
    }

    fn exact(&self, pos: &Connect4) -> Option<Score> {
        if CELLS - pos.board().moves() > self.exact_empties {
            return None;
        }
        Some(pons_to_score(pos, solve_small(pos.board()).0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use duel_core::{Game, SplitMix64};

    /// The open-line part of [`Threats::side_value`] written line by line: the oracle.
    fn side_value_by_lines(own: u64, opp: u64) -> i32 {
        LINES
            .iter()
            .filter(|&&line| line & opp == 0)
            .map(|&line| match (line & own).count_ones() {
                1 => ONE_IN_LINE,
                2 => TWO_IN_LINE,
                3 => THREE_IN_LINE,
                _ => 0,
            })
            .sum()
    }

    #[test]
    fn line_starts_cover_every_line_once() {
        let total: u32 = LINE_STARTS.iter().map(|s| s.count_ones()).sum();
        assert_eq!(total, 69);
        // Horizontal: 4 starts per row; vertical: 3 per column; diagonals: 12 each.
        let counts: Vec<u32> = LINE_STARTS.iter().map(|s| s.count_ones()).collect();
        assert_eq!(counts, [21, 24, 12, 12]);
    }

    /// The shifted count equals the line-by-line count on positions from random games, for
    /// both sides (the threat and centre terms are the same code in both).
    #[test]
    fn shifted_line_count_equals_the_loop() {
        let mut rng = SplitMix64::new(42);
        let mut moves = Vec::new();
        for _ in 0..300 {
            let mut pos = Connect4::start();
            while pos.outcome().is_none() {
                let b = pos.board();
                let (me, them, mask) = (b.current(), b.opponent(), b.mask());
                let rest = |own, opp| Threats::side_value(own, opp, mask, true);
                let extra = |own: u64| {
                    let t = winning_cells(own, mask);
                    THREAT * t.count_ones() as i32
                        + THREAT_ON_OWN_PARITY * (t & ODD_ROWS).count_ones() as i32
                        + STACKED_THREATS * (t & (t >> 1)).count_ones() as i32
                        + CENTRE_STONE * (own & column_mask(WIDTH / 2)).count_ones() as i32
                };
                assert_eq!(rest(me, them), side_value_by_lines(me, them) + extra(me));
                assert_eq!(rest(them, me), side_value_by_lines(them, me) + extra(them));
                pos.generate_moves(&mut moves);
                let mv = moves[rng.below(moves.len())];
                pos.play(mv);
            }
        }
    }

    #[test]
    fn lines_are_the_69_fours() {
        for (i, &l) in LINES.iter().enumerate() {
            assert_eq!(l.count_ones(), 4);
            assert!(crate::bitboard::has_four(l));
            assert!(!LINES[..i].contains(&l));
        }
        // Every line seen in the mirror is a line.
        for &l in LINES.iter() {
            assert!(LINES.contains(&crate::bitboard::mirror(l)));
        }
        assert_eq!(ODD_ROWS & EVEN_ROWS, 0);
        assert_eq!((ODD_ROWS | EVEN_ROWS).count_ones(), CELLS);
    }
}
