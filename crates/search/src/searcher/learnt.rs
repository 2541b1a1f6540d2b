//! What the search learns and keeps from one search to the next ([`Learnt`]): the history
//! tables and the correction history, and the two rules that update their values.

use duel_core::Game;

use super::config::SearchConfig;
use super::tune;

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
            continuation: vec![
                0;
                if config.profile.continuation {
                    2 * p * p
                } else {
                    0
                }
            ],
            correction: vec![
                0;
                if config.profile.correction {
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
