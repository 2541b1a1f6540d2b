//! What the search learns from its own cut-offs and values: butterfly and continuation
//! history (move ordering, LMR) and correction history (the static value), kept in [`Learnt`].

use duel_core::{Evaluator, Game};

use super::tune;
use super::worker::Worker;
use super::SearchConfig;

/// What the search learns about moves and, with correction history, about its static values;
/// kept from one search to the next and copied to each thread.
#[derive(Clone, Default)]
pub(super) struct Learnt {
    /// Butterfly history: by side and move index.
    pub(super) history: Vec<i16>,
    /// Continuation history when it is on (else empty): two tables of P² values, P being
    /// [`Game::PIECE_MOVE_INDICES`], by the piece-move index of the move one ply (the first
    /// table) or two plies (the second) before, then that of the move.
    pub(super) continuation: Vec<i16>,
    /// Correction history when it is on (else empty): by side and structure key, the
    /// correction of the static value in 1/`CORRECTION_GRAIN` evaluation units.
    pub(super) correction: Vec<i32>,
}

impl Learnt {
    pub(super) fn new<G: Game>(config: &SearchConfig) -> Self {
        let p = G::PIECE_MOVE_INDICES;
        Learnt {
            history: vec![0; 2 * G::MOVE_INDICES],
            continuation: vec![0; if config.continuation { 2 * p * p } else { 0 }],
            correction: vec![
                0;
                if config.correction {
                    2 * tune::CORRECTION_SLOTS
                } else {
                    0
                }
            ],
        }
    }
}

/// Adds `delta` to a history value, scaled down as the value nears ±`HISTORY_MAX` in the
/// direction of `delta`, which it therefore never passes. Values are kept in 16 bits: the
/// continuation tables then take half the cache they would (chess: 2.3 MB instead of 4.7).
#[inline]
pub(super) fn gravity(h: &mut i16, delta: i32) {
    let v = i32::from(*h);
    *h = (v + delta - v * delta.abs() / tune::HISTORY_MAX) as i16;
}

/// A correction (in 1/`CORRECTION_GRAIN` units) moved towards `error` (in evaluation units,
/// clamped to ±`CORRECTION_MAX`), (depth + 1)² / 1024 of the way and at most an eighth, so
/// that one deep search counts for more than many shallow ones and none decides alone.
pub(super) fn correction_step(c: i32, error: i32, depth: u32) -> i32 {
    let target = error.clamp(-tune::CORRECTION_MAX, tune::CORRECTION_MAX) * tune::CORRECTION_GRAIN;
    let d = depth.min(63) as i32 + 1;
    let w = (d * d).min(128);
    (c * (1024 - w) + target * w) / 1024
}

impl<G: Game, E: Evaluator<G>> Worker<'_, G, E> {
    /// The correction-history slot of the current position, when correction is on and the
    /// game has a structure key.
    pub(super) fn correction_slot(&self) -> Option<usize> {
        if !self.config.correction {
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
            .continuation
            .then(|| self.pos.piece_move_index(mv))
    }

    /// The slots of the two continuation tables for the node at `ply`: the piece-move index
    /// of the move one ply and two plies before, each times P (the row), offset into its table.
    pub(super) fn moves_before(&self, ply: usize) -> [Option<usize>; 2] {
        if !self.config.continuation {
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
        if self.config.continuation {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_stays_within_its_bound() {
        let mut rng = duel_core::SplitMix64::new(7);
        let mut h = 0i16;
        for _ in 0..100_000 {
            let delta = (rng.next() % (2 * tune::HISTORY_BONUS_MAX as u64 + 1)) as i32
                - tune::HISTORY_BONUS_MAX;
            gravity(&mut h, delta);
            assert!(i32::from(h).abs() <= tune::HISTORY_MAX, "{h}");
        }
        // Repeated rewards approach the bound from below.
        let mut h = 0i16;
        for _ in 0..1000 {
            gravity(&mut h, tune::HISTORY_BONUS_MAX);
        }
        let h = i32::from(h);
        assert!(
            h > tune::HISTORY_MAX * 9 / 10 && h <= tune::HISTORY_MAX,
            "{h}"
        );
    }

    #[test]
    fn corrections_approach_the_error_and_stay_bounded() {
        let max = tune::CORRECTION_MAX * tune::CORRECTION_GRAIN;
        // The same error again and again: the correction converges on it from below.
        let mut c = 0;
        for _ in 0..200 {
            let next = correction_step(c, 40, 6);
            assert!(next >= c && next <= 40 * tune::CORRECTION_GRAIN, "{next}");
            c = next;
        }
        assert!(c > 39 * tune::CORRECTION_GRAIN, "{c}");
        // A deeper search moves it further in one step; a huge error counts as the largest.
        assert!(correction_step(0, 50, 9) > correction_step(0, 50, 2));
        assert_eq!(
            correction_step(0, 100_000, 20),
            correction_step(0, tune::CORRECTION_MAX, 20)
        );
        let mut rng = duel_core::SplitMix64::new(11);
        let mut c = 0;
        for _ in 0..100_000 {
            let error = (rng.next() % 4001) as i32 - 2000;
            c = correction_step(c, error, (rng.next() % 40) as u32);
            assert!(c.abs() <= max, "{c}");
        }
    }
}
