//! The VCF at the horizon: where the main search ends, the side to move's fours are followed
//! (each four's forced block, the block's own counter-four answered) until a five or none is
//! left, within [`HORIZON_VCF_NODES`], and a win found is a proven score for the search.
//! The answers are kept in a table of each thread's own, keyed by the position's hash: the
//! answer depends on the position alone (a fixed budget), so a search stays deterministic.
//!
//! It is narrower than the threat-space solver's VCF ([`crate::vcf`]) so that it is cheap at
//! every leaf: its fours are the kept four cells of the starting position and, after each
//! four, the cells on the new stone's lines that make fours now (a block can only spoil
//! fours, the attacker's stone only make them); a four the defender can answer in more than
//! one way is not followed. What it proves is proven (the tests check its wins with the
//! AND-OR checker); what it misses, quiescence and the search still see.

use std::cell::RefCell;

use crate::patterns::Threat;
use crate::vcf::{five_defences, fives_through, legal, line_cells};
use crate::{cell_of_padded, members, Gomoku, BLACK, EMPTY, WHITE};

/// Positions (attacker's and defender's) one horizon VCF may visit.
pub const HORIZON_VCF_NODES: u32 = 16;
/// The most fours a horizon VCF plays.
const HORIZON_VCF_DEPTH: u32 = 12;
/// Slots of each thread's table (a power of two).
const SLOTS: usize = 1 << 16;

/// A slot: the position's hash and the answer, 0 for none, else the attacker's moves to five.
type Slot = (u64, u8);

thread_local! {
    static TABLE: RefCell<Vec<Slot>> = RefCell::new(vec![(0, u8::MAX); SLOTS]);
}

impl Gomoku {
    /// A VCF of the side to move found within [`HORIZON_VCF_NODES`], as the number of its
    /// moves to the five (the five included). None where the other side has a five to make
    /// (the search must block it) or the side to move no four.
    pub(crate) fn horizon_vcf(&mut self) -> Option<u32> {
        let me = usize::from(self.len % 2);
        let op = 1 - me;
        let fours = |n: &[u16; 7]| {
            n[Threat::Four as usize]
                + n[Threat::FourThree as usize]
                + n[Threat::OpenFour as usize]
                + n[Threat::Five as usize]
        };
        // One four alone is what quiescence follows anyway: a VCF needs a second one to come.
        if self.threat_counts[op][Threat::Five as usize] > 0 || fours(&self.threat_counts[me]) < 2 {
            return None;
        }
        let key = self.hash;
        let slot = (key as usize) & (SLOTS - 1);
        if let Some(v) = TABLE.with(|t| {
            let (k, v) = t.borrow()[slot];
            (k == key && v != u8::MAX).then_some(v)
        }) {
            return (v > 0).then_some(u32::from(v));
        }
        let cells: Vec<usize> = members(&self.strong[me])
            .map(|c| c.padded())
            .filter(|&p| self.reads[p].threat[me] >= Threat::Four)
            .collect();
        let colour = if me == 0 { BLACK } else { WHITE };
        let mut budget = HORIZON_VCF_NODES;
        let found = self.fours_win(colour, &cells, None, HORIZON_VCF_DEPTH, &mut budget);
        let v = found.map_or(0, |n| n as u8);
        TABLE.with(|t| t.borrow_mut()[slot] = (key, v));
        found
    }

    /// Whether `colour` (to move, no five to make) wins by fours within `depth` of them:
    /// the number of its moves to five. Its fours are among `cells` (each checked again),
    /// or only `forced`, the defender's five-cell it must fill.
    fn fours_win(
        &mut self,
        colour: u8,
        cells: &[usize],
        forced: Option<usize>,
        depth: u32,
        budget: &mut u32,
    ) -> Option<u32> {
        if depth == 0 || *budget == 0 {
            return None;
        }
        *budget -= 1;
        let them = BLACK + WHITE - colour;
        let single = forced.map(|f| [f]);
        let list: &[usize] = match &single {
            Some(f) => f,
            None => cells,
        };
        for &m in list {
            if *budget == 0 {
                return None;
            }
            if self.board[m] != EMPTY || !self.four_at(m, colour) || !legal(self, m) {
                continue;
            }
            self.play_unread(cell_of_padded(m));
            let fives = fives_through(self, m, colour);
            let won = if self.won {
                Some(1)
            } else if fives.len == 0 {
                None
            } else {
                match five_defences(self, &fives, colour)[..] {
                    // The four cannot be stopped: five next move.
                    [] => Some(2),
                    [b] => {
                        *budget = budget.saturating_sub(1);
                        self.play_unread(cell_of_padded(b));
                        let counter = fives_through(self, b, them);
                        let mut more: Vec<usize> = cells
                            .iter()
                            .copied()
                            .filter(|&q| q != m && q != b)
                            .collect();
                        for q in self.line_fours(m, colour) {
                            if !more.contains(&q) {
                                more.push(q);
                            }
                        }
                        let next = match counter.len {
                            0 => self.fours_win(colour, &more, None, depth - 1, budget),
                            1 => {
                                let f = counter.cells[0] as usize;
                                self.fours_win(colour, &more, Some(f), depth - 1, budget)
                            }
                            _ => None,
                        };
                        self.undo_unread(cell_of_padded(b));
                        next.map(|n| n + 1)
                    }
                    _ => None,
                }
            };
            self.undo_unread(cell_of_padded(m));
            if won.is_some() {
                return won;
            }
        }
        None
    }

    /// The empty cells on `p`'s lines (within four) where `colour` makes a four.
    fn line_fours(&self, p: usize, colour: u8) -> Vec<usize> {
        let mut cells = line_cells(self, p);
        cells.retain(|&q| self.four_at(q, colour));
        cells
    }
}
