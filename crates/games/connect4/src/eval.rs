//! A heuristic evaluation for depth-limited play: lines still open, threats (cells that would
//! complete four) weighted by the row they are on, and the centre.

use duel_core::{Evaluator, Score};

use crate::bitboard::{cell, column_mask, winning_cells, Board, BOTTOM, CELLS, HEIGHT, WIDTH};
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
        for &line in LINES.iter() {
            if line & opp == 0 {
                v += match (line & own).count_ones() {
                    1 => ONE_IN_LINE,
                    2 => TWO_IN_LINE,
                    3 => THREE_IN_LINE,
                    _ => 0,
                };
            }
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

impl Evaluator<Connect4> for Threats {
    fn name(&self) -> &'static str {
        "threats"
    }

    fn evaluate(&self, pos: &Connect4) -> i32 {
        Self::board_value(pos.board())
    }

    fn move_hint(&self, pos: &Connect4, col: Column) -> i32 {
        let b = pos.board();
        let c = col as u32;
        if !b.can_play(c) {
            return 0;
        }
        let landing = b.landing_cell(c);
        let their_threats = b.opponent_winning_cells();
        let mut hint = if b.winning_cells() & landing != 0 {
            HINT_WIN
        } else if their_threats & landing != 0 {
            HINT_BLOCK
        } else if their_threats & (landing << 1) != 0 {
            HINT_GIFT
        } else {
            0
        };
        hint += HINT_PER_THREAT * b.move_score(landing) as i32;
        hint += HINT_CENTRE * (WIDTH as i32 / 2 - (c as i32 - WIDTH as i32 / 2).abs());
        hint
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
