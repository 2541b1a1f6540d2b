//! How a thread reads and updates what the search learns ([`Learnt`]): butterfly and
//! continuation history from its own cut-offs (move ordering, LMR), correction history from its
//! values (the static value).
//!
//! [`Learnt`]: super::learnt::Learnt

use duel_core::{Evaluator, Game};

use super::learnt::{correction_step, gravity};
use super::tune;
use super::worker::Worker;

impl<G: Game, E: Evaluator<G>> Worker<'_, G, E> {
    /// The correction-history slot of the current position, when correction is on and the
    /// game has a structure key.
    pub(super) fn correction_slot(&self) -> Option<usize> {
        if !self.config.profile.correction {
            return None;
        }
        let key = self.pos.structure_key()?;
        let bits = tune::CORRECTION_SLOTS.trailing_zeros();
        // A multiplicative hash's high bits, so a game's key need not be well mixed.
        let index = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize;
        Some(self.pos.side_to_move() as usize * tune::CORRECTION_SLOTS + index)
    }

    /// The static value `raw` with the correction learnt at `slot`.
    pub(super) fn corrected(&self, slot: Option<usize>, raw: i32) -> i32 {
        slot.map_or(raw, |s| {
            raw + self.learnt.correction[s] / tune::CORRECTION_GRAIN
        })
    }

    /// Moves the correction at `slot` towards the error `value - raw` ([`correction_step`]).
    pub(super) fn learn_correction(&mut self, slot: usize, raw: i32, value: i32, depth: u32) {
        let c = &mut self.learnt.correction[slot];
        *c = correction_step(*c, value - raw, depth);
    }

    /// The butterfly history of `mv` for `side`.
    #[inline]
    pub(super) fn history(&self, side: usize, mv: G::Move) -> i32 {
        i32::from(self.learnt.history[side * G::MOVE_INDICES + G::move_index(mv)])
    }

    /// The piece-move index of `mv` in the current position, when continuation history is on.
    #[inline]
    pub(super) fn piece_move(&self, mv: G::Move) -> Option<usize> {
        self.config
            .profile
            .continuation
            .then(|| self.pos.piece_move_index(mv))
    }

    /// The slots of the two continuation tables for the node at `ply`: the piece-move index
    /// of the move one ply and two plies before, each times P (the row), offset into its table.
    pub(super) fn moves_before(&self, ply: usize) -> [Option<usize>; 2] {
        if !self.config.profile.continuation {
            return [None, None];
        }
        let p = G::PIECE_MOVE_INDICES;
        let at = |back: usize| ply.checked_sub(back).and_then(|q| self.stack[q].piece_move);
        [at(1).map(|i| i * p), at(2).map(|i| p * p + i * p)]
    }

    /// The continuation history of `mv` after the moves `before` ([`Worker::moves_before`]).
    pub(super) fn continuation_score(&self, before: [Option<usize>; 2], mv: G::Move) -> i32 {
        let Some(m) = self.piece_move(mv) else {
            return 0;
        };
        before
            .iter()
            .flatten()
            .map(|row| i32::from(self.learnt.continuation[row + m]))
            .sum()
    }

    /// Step 3o: the move that cut becomes a killer at this ply and gains history; the quiet
    /// moves tried before it lose some.
    pub(super) fn learn(
        &mut self,
        mv: G::Move,
        side: usize,
        ply: usize,
        depth: u32,
        moves: &[G::Move],
        tried: &[(i64, u16)],
    ) {
        let killers = &mut self.stack[ply].killers;
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        if let Some(prev) = ply.checked_sub(1).and_then(|p| self.stack[p].played) {
            self.counters[G::move_index(prev)] = Some(mv);
        }
        let bonus = (16 * depth * depth).min(tune::HISTORY_BONUS_MAX as u32) as i32;
        let base = side * G::MOVE_INDICES;
        gravity(&mut self.learnt.history[base + G::move_index(mv)], bonus);
        for &(_, k) in tried {
            gravity(
                &mut self.learnt.history[base + G::move_index(moves[k as usize])],
                -bonus,
            );
        }
        if self.config.profile.continuation {
            let before = self.moves_before(ply);
            for row in before.into_iter().flatten() {
                let m = self.pos.piece_move_index(mv);
                gravity(&mut self.learnt.continuation[row + m], bonus);
                for &(_, k) in tried {
                    let m = self.pos.piece_move_index(moves[k as usize]);
                    gravity(&mut self.learnt.continuation[row + m], -bonus);
                }
            }
        }
    }
}
