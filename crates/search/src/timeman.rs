//! Time management: how long to think on a move, given the clock.
//!
//! Two figures per move. The **soft** limit is the time the move deserves: no new iteration
//! starts after it (an iteration rarely finishes in less time than all the previous ones
//! together). The **hard** limit stops the search wherever it is; it is a few times the soft
//! one, for the moves where an iteration is already under way, and never more than a safe part
//! of what is left on the clock, so the engine does not lose on time even at 1+0.01.

use std::time::Duration;

use duel_core::Score;

/// The clock of the side to move, as a GUI gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// Time left (may be negative in UCI when a GUI is late; pass zero then).
    pub left: Duration,
    /// Increment per move.
    pub increment: Duration,
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// The thinking time for one move: (soft, hard).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub soft: Duration,
    /// Stop the search at this.
    pub hard: Duration,
}

/// Moves assumed left in a sudden-death game: enough that an early long think cannot leave the
/// endgame short of time.
const MOVES_LEFT_GUESS: u32 = 35;

/// The budget for a move with `clock`, keeping `overhead` per move for the GUI and the
/// operating system (UCI "Move Overhead").
pub fn budget(clock: &Clock, overhead: Duration) -> Budget {
    // What can be spent without counting on anything but this move's increment.
    let left = clock.left.saturating_sub(overhead);
    let moves = clock
        .moves_to_go
        .unwrap_or(MOVES_LEFT_GUESS)
        .clamp(1, MOVES_LEFT_GUESS);
    // The increment comes back after the move, so most of it can be spent now; but every move
    // also costs the overhead, which the increment pays first (as Stockfish keeps back the
    // overhead of every move to come). Spending the whole increment would leave the overhead
    // to the clock each move, and at 1+0.01 the clock would sink to a few tens of
    // milliseconds, where one slow reply from a loaded machine loses on time.
    let increment = clock.increment.saturating_sub(overhead);
    let share = left / moves + increment * 3 / 4;
    // Never plan to use more than a fifth of the clock (a third with a control ahead, where
    // the clock is refilled), whatever the increment promises.
    let cap = if clock.moves_to_go.is_some() {
        left / 3
    } else {
        left / 5
    };
    let soft = share.min(cap);
    // The hard stop: room for one iteration beyond the soft limit, within half the clock.
    let hard = (soft * 4).min(left / 2).max(soft);
    Budget { soft, hard }
}

/// The share of the soft limit to spend, by how the search is going: less when the best
/// move has stayed the same for several iterations (a deeper search rarely changes it then),
/// more when it has just changed or the value is falling (the position needs the time).
/// `stable` counts the iterations since the best move last changed; `drop` is how much the
/// value fell in the last iteration, in evaluation units (negative: it rose).
pub fn soft_scale(stable: u32, drop: i32) -> f64 {
    let by_move = match stable {
        0 => 1.5,
        1 | 2 => 1.15,
        3..=5 => 0.95,
        _ => 0.7,
    };
    by_move * (1.0 + f64::from(drop.clamp(0, 100)) / 200.0)
}

/// How the search goes from iteration to iteration, for [`soft_scale`]: the last best move
/// and value, and how many iterations the move has stayed the best.
#[derive(Debug, Default)]
pub struct Trend {
    best: Option<String>,
    value: Option<i32>,
    stable: u32,
    /// The last scale found (None before the first iteration: the plain soft limit).
    scale: Option<f64>,
}

impl Trend {
    /// Takes in an iteration's best move and value.
    pub fn observe(&mut self, best: &Option<String>, value: Score) {
        self.stable = if self.best == *best {
            self.stable + 1
        } else {
            0
        };
        // Mate values are far apart: a drop is counted only between plain values.
        let drop = match self.value {
            Some(v) if !value.is_decisive() => v - value.0,
            _ => 0,
        };
        self.best.clone_from(best);
        self.value = (!value.is_decisive()).then_some(value.0);
        self.scale = Some(soft_scale(self.stable, drop));
    }

    /// The soft limit of `b` scaled by the trend so far, never past half the hard one: an
    /// iteration started later than that would rarely finish before the hard stop, and the
    /// search, which spends its time limit to the end, would use the clock for a partial one.
    pub fn soft_limit(&self, b: &Budget) -> Duration {
        b.soft.mul_f64(self.scale.unwrap_or(1.0)).min(b.hard / 2)
    }

    /// After an iteration with best move `best` and value `value`, `elapsed` into the move:
    /// whether to stop, the soft limit of `b` as the trend now scales it having passed.
    pub fn past_soft(
        &mut self,
        best: &Option<String>,
        value: Score,
        b: &Budget,
        elapsed: Duration,
    ) -> bool {
        self.observe(best, value);
        elapsed >= self.soft_limit(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(left: u64, inc: u64, mtg: Option<u32>) -> Clock {
        Clock {
            left: ms(left),
            increment: ms(inc),
            moves_to_go: mtg,
        }
    }

    /// Whatever the clock, the hard limit plus the overhead fits in the time left, and the
    /// soft limit is at most the hard one.
    #[test]
    fn never_beyond_the_clock() {
        for left in [0, 1, 5, 20, 50, 100, 1_000, 10_000, 60_000, 3_600_000] {
            for inc in [0, 10, 100, 1_000, 30_000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    for overhead in [0, 10, 50] {
                        let b = budget(&clock(left, inc, mtg), ms(overhead));
                        assert!(b.soft <= b.hard, "{left} {inc} {mtg:?}");
                        assert!(
                            b.hard + ms(overhead) <= ms(left).max(ms(overhead)),
                            "{left} {inc} {mtg:?} {overhead}: {b:?}"
                        );
                    }
                }
            }
        }
    }

    /// A long game at 1+0.01 where each move takes one and a half times the soft limit (the
    /// trend's scale at its usual worst) plus 3 ms the engine never sees (pipes, a loaded
    /// scheduler): the clock settles well clear of zero, so a slow reply does not lose on
    /// time. Spending the whole increment as well let it sink below 50 ms.
    #[test]
    fn the_clock_settles_clear_of_zero() {
        let overhead = ms(10);
        let mut left = ms(1_000);
        let mut lowest = left;
        for mv in 0..300 {
            let b = budget(&clock(left.as_millis() as u64, 10, None), overhead);
            let spent = (b.soft.mul_f64(1.5)).min(b.hard) + ms(3);
            left = left.saturating_sub(spent) + ms(10);
            if mv >= 100 {
                lowest = lowest.min(left);
            }
        }
        assert!(lowest >= ms(150), "the clock sank to {lowest:?}");
    }

    #[test]
    fn soft_scale_spends_more_when_unsettled() {
        // Monotone: a newer change or a larger drop never asks for less time.
        for drop in [-50, 0, 30, 100, 500] {
            for stable in 0..10 {
                assert!(soft_scale(stable, drop) >= soft_scale(stable + 1, drop));
                assert!(soft_scale(stable, drop + 10) >= soft_scale(stable, drop));
            }
        }
        assert!(soft_scale(0, 0) > 1.0 && soft_scale(8, 0) < 1.0);
        // Bounded either way, so the hard limit stays the real one.
        assert!(soft_scale(0, 10_000) <= 2.25 && soft_scale(100, -10_000) >= 0.7);
    }

    #[test]
    fn typical_controls() {
        // 10+0.1 at the start: about a thirty-fifth of the clock plus most of what the
        // increment leaves after the overhead.
        let b = budget(&clock(10_000, 100, None), ms(10));
        assert_eq!(b.soft, ms(9_990) / 35 + ms(90) * 3 / 4);
        assert_eq!(b.hard, b.soft * 4);
        // 1+0.01: well under a tenth of a second per move.
        let b = budget(&clock(1_000, 10, None), ms(10));
        assert!(b.soft < ms(40) && b.hard < ms(160), "{b:?}");
        // The last move before a control may use a third of the clock, no more.
        let b = budget(&clock(3_000, 0, Some(1)), Duration::ZERO);
        assert_eq!(b.soft, ms(1_000));
        // A huge increment on a nearly empty clock is not spent in advance.
        let b = budget(&clock(100, 5_000, None), Duration::ZERO);
        assert_eq!(b.soft, ms(20));
    }
}
