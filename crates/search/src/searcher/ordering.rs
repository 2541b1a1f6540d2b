//! Move ordering: the ordering classes, killers and counter moves, and the pick of the next
//! move.

use duel_core::{Evaluator, Game};

use super::worker::Worker;

/// Ordering classes, highest first.
pub(super) const ORDER_TT: i64 = i64::MAX;
pub(super) const ORDER_GOOD_HINT: i64 = 1 << 50;
pub(super) const ORDER_KILLER: i64 = 1 << 40;
/// Below the killers, above every history score (which stays under 2^24 per hint unit).
pub(super) const ORDER_COUNTER: i64 = ORDER_KILLER - 1;
/// A negative hint (times 2^24) puts a move below this, every hint-less move above it.
pub(super) const ORDER_BAD_HINT: i64 = -(1 << 23);

/// The largest policy score, either way: a quiet move with a policy stays above every move
/// with a negative hint and below the killers.
pub(super) const POLICY_MAX: i32 = 1 << 22;

/// Whether a move ordered with `key` (not the table's move, whose key says nothing) is noisy:
/// the evaluator gave it a hint, good or bad.
pub(super) fn noisy_key(key: i64) -> bool {
    !(ORDER_BAD_HINT..ORDER_GOOD_HINT).contains(&key)
}

impl<G: Game, E: Evaluator<G>> Worker<'_, G, E> {
    /// Step 3m: appends one ordering key per move, highest searched first; `skip` (the table's
    /// move, already keyed) gets none.
    pub(super) fn order(
        &mut self,
        moves: &[G::Move],
        keys: &mut Vec<(i64, u16)>,
        ply: usize,
        skip: u16,
    ) {
        let side = self.pos.side_to_move() as usize;
        let counter = self.counter_move(ply);
        let before = self.moves_before(ply);
        let killers = self.stack[ply].killers;
        let mut hints = std::mem::take(&mut self.hints);
        let mut policy = std::mem::take(&mut self.policy);
        self.eval
            .move_policy(&self.pos, moves, &mut hints, &mut policy);
        for (i, (&mv, &hint)) in moves.iter().zip(hints.iter()).enumerate() {
            if i as u16 == skip {
                continue;
            }
            let hint = hint as i64;
            let key = if hint > 0 {
                ORDER_GOOD_HINT + hint
            } else if killers[0] == Some(mv) {
                ORDER_KILLER + 1
            } else if killers[1] == Some(mv) {
                ORDER_KILLER
            } else if counter == Some(mv) {
                ORDER_COUNTER
            } else {
                let h = self.history(side, mv);
                let p = policy
                    .get(i)
                    .map_or(0, |&p| i64::from(p.clamp(-POLICY_MAX, POLICY_MAX)));
                (hint << 24) + p + i64::from(h + self.continuation_score(before, mv))
            };
            keys.push((key, i as u16));
        }
        self.hints = hints;
        self.policy = policy;
    }

    /// The reply that last refuted the move that led to `ply`.
    pub(super) fn counter_move(&self, ply: usize) -> Option<G::Move> {
        let prev = self.stack[ply.checked_sub(1)?].played?;
        self.counters[G::move_index(prev)]
    }
}

/// Moves a node picks one at a time by [`pick_next`] before it sorts the rest.
pub(super) const PICK_BY_SCAN: usize = 3;

/// Puts the move to try `i`-th at `keys[i]`, given `keys[..i]` already tried: highest key
/// first, ties in the game's order. Most nodes cut on one of their first moves, which are
/// picked by a scan; a node that gets past them is likely to try many, and one sort of the
/// rest is then cheaper than a scan per move (which cost a tenth of chess's search time).
pub(super) fn bring_next(keys: &mut [(i64, u16)], i: usize) {
    if i < PICK_BY_SCAN {
        let k = pick_next(&keys[i..]) + i;
        keys.swap(i, k);
    } else if i == PICK_BY_SCAN {
        keys[i..].sort_unstable_by_key(|&(key, index)| (std::cmp::Reverse(key), index));
    }
}

/// The index of the highest key; of equal keys, the one of the lowest move index, so ties
/// keep the game's order however earlier picks have shuffled the list.
#[inline]
pub(super) fn pick_next(keys: &[(i64, u16)]) -> usize {
    let mut best = 0;
    for (i, &(k, index)) in keys.iter().enumerate().skip(1) {
        let (best_key, best_index) = keys[best];
        if k > best_key || (k == best_key && index < best_index) {
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Picking by scan, then sorting, tries the moves in the order of one stable sort by key:
    /// highest first, equal keys in the game's order, whatever order the list starts in.
    #[test]
    fn moves_come_in_key_order_with_ties_in_the_games_order() {
        let mut rng = duel_core::SplitMix64::new(3);
        for n in 0..40usize {
            for _ in 0..50 {
                // Few distinct keys, so ties are common, as among quiet moves without history.
                let mut keys: Vec<(i64, u16)> = (0..n as u16)
                    .map(|i| ((rng.next() % 5) as i64 - 2, i))
                    .collect();
                for i in (1..n).rev() {
                    keys.swap(i, rng.below(i + 1));
                }
                let mut want = keys.clone();
                want.sort_by_key(|&(k, i)| (std::cmp::Reverse(k), i));
                for i in 0..n {
                    bring_next(&mut keys, i);
                }
                assert_eq!(keys, want);
            }
        }
    }
}
