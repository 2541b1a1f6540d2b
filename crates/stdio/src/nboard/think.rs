//! How an evaluation of the NBoard loop thinks: to a depth or by the clock ([`Think`], from
//! the options' pace and the game's clock, with the lag the GUI's times show), solved exactly
//! near the end and searched before it ([`Job::evaluate`]), its value in discs.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use duel_core::solve::SolveGoal;
use duel_core::{Game, Score};
use duel_engine::timeman::{budget, Budget, Clock, Trend};
use duel_engine::{Limits, Session};
use duel_othello::{solve_reach, Move, Othello};
use duel_protocol::nboard::Reply;

use super::{Nboard, Pace, RecordClock, OUTCOME_EXTRA};
use crate::io::{send, Out};

/// The pattern evaluator's units per disc: it predicts the final disc difference in 1/16ths.
const UNITS_PER_DISC: f64 = 16.0;

/// The value of a searched position in discs, from the side to move. Proven wins and losses
/// without a disc count are shown as the most a game can be won or lost by.
pub(super) fn discs(score: Score) -> f64 {
    if score.is_win() {
        64.0
    } else if score.is_loss() {
        -64.0
    } else {
        f64::from(score.0) / UNITS_PER_DISC
    }
}

/// How long one evaluation may think.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Think {
    /// To this depth, and stopped at the hard limit (a timed game's clock) if there is one.
    Depth(u32, Option<Duration>),
    /// Until the soft limit, scaled by the trend, or the hard one: a game clock.
    Clock(Budget),
    /// This long.
    Fixed(Duration),
}

impl Think {
    /// The hard limit, if any.
    fn hard(self) -> Option<Duration> {
        match self {
            Think::Depth(_, guard) => guard,
            Think::Clock(b) => Some(b.hard),
            Think::Fixed(t) => Some(t),
        }
    }
}

/// What a worker job is given: the position, the depth, and where to answer.
pub(super) struct Job {
    /// The position the job starts from.
    pub(super) pos: Othello,
    /// The depth `set depth` gave.
    pub(super) depth: u32,
    /// How `go` thinks (`hint` and `analyze` search to `depth`).
    pub(super) think: Think,
    /// Positions with at most this many empty squares are solved exactly.
    pub(super) solve_empties: u32,
    pub(super) out: Out,
    /// When the request came: the clock's reference.
    pub(super) start: Instant,
}

impl Job {
    /// One evaluation of `pos` on `session`: exact within the solve threshold, a search
    /// beyond it, to a depth or by the clock as `think` says. Returns (value in discs,
    /// principal variation, plies searched), or None once stopped. An exact solve counts as a
    /// search to the end: as many plies as empty squares, and its line is its best move.
    /// With `to_play` (`go`), one square beyond the solve a proven win or draw is answered
    /// with its bound; `hint` and `analyze` show values, so they never take a bound for one.
    pub(super) fn evaluate(
        &self,
        session: &mut dyn Session,
        pos: &Othello,
        think: Think,
        to_play: bool,
        stop: &AtomicBool,
    ) -> Option<(f64, Vec<String>, u32)> {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        session
            .set_position(&pos.to_text(), &[])
            .expect("an Othello position reads back from its text");
        // `--solve-empties` goes up to 24, where a solve takes a minute: `ping` must end it,
        // through the session's stop flag. Timed, it has three quarters of the hard limit,
        // and a search the rest.
        let hard = think.hard();
        let deadline = hard.map(|h| self.start + h * 3 / 4);
        // On the clock, as far from the end as the move's time is expected to allow
        // (NTest and Edax solve from 20 and more empties at their usual levels).
        let reach = match think {
            Think::Depth(..) => self.solve_empties,
            Think::Clock(b) => self.solve_empties.max(solve_reach(b.soft)),
            Think::Fixed(t) => self.solve_empties.max(solve_reach(t / 2)),
        };
        // Exact within the reach; one step further only the winner, and a proven loss is
        // left to the search, whose move keeps the most chances against a fallible opponent.
        let (goal, limit) = if to_play && pos.empties().count_ones() > reach && reach > 0 {
            (SolveGoal::Outcome, reach + OUTCOME_EXTRA)
        } else {
            (SolveGoal::Exact, reach)
        };
        if let Some(solved) = session.solve_near_end(limit, goal, deadline) {
            match solved {
                Ok(s) => {
                    let margin = s.margin.expect("the solver's report has its disc count");
                    if goal == SolveGoal::Exact || margin >= 0 {
                        return Some((f64::from(margin), s.pv, pos.empties().count_ones()));
                    }
                }
                Err(_) if hard.is_none() || stop.load(Ordering::Relaxed) => return None,
                Err(_) => {}
            }
        }
        let left = |h: Duration| {
            Some(
                h.saturating_sub(self.start.elapsed())
                    .max(Duration::from_millis(1)),
            )
        };
        let limits = match think {
            Think::Depth(d, guard) => Limits {
                depth: Some(d),
                time: guard.and_then(left),
                ..Limits::default()
            },
            Think::Clock(b) => Limits::time(left(b.hard)?),
            Think::Fixed(t) => Limits::time(left(t)?),
        };
        let mut trend = Trend::default();
        let mut report = session
            .search(&limits, &mut |it| {
                send(
                    &self.out,
                    Reply::NodeStats {
                        nodes: it.stats.nodes,
                        seconds: self.start.elapsed().as_secs_f64(),
                    },
                );
                if let Think::Clock(b) = think {
                    if trend.past_soft(&it.best, it.value, &b, self.start.elapsed()) {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            })
            .expect("a game in progress, searched at least a ply deep");
        match think {
            Think::Depth(depth, None) => {
                if stop.load(Ordering::Relaxed) && report.depth < depth {
                    return None;
                }
                report.pv.truncate(depth as usize);
            }
            // Stopped by the clock (or by `ping`, whose answer the GUI ignores): the best
            // move the search has, if it has one.
            _ if report.pv.is_empty() => return None,
            _ => {}
        }
        Some((discs(report.value), report.pv, report.depth))
    }
}

/// How many of the engine's last moves its lag is taken from.
const LAG_MOVES: usize = 6;

/// The moves `go` answered and how long each took, by the number of moves before it, for a
/// clock whose game gives no times.
pub(super) type OwnTimes = BTreeMap<usize, (Move, Duration)>;

impl Nboard {
    /// How `go` thinks in the position now: by [`NboardOptions::pace`], within the game's
    /// clock when it has one.
    pub(super) fn think(&self) -> Think {
        let side = self.pos.side_to_move();
        let own = self.own_times().clone();
        let game = &self.game;
        let own_time = |ply: usize| {
            own.get(&ply)
                .filter(|(mv, _)| game.moves.get(ply) == Some(mv))
                .map(|&(_, t)| t)
        };
        // What a move costs beyond the search: the option, or more where the GUI's clock
        // charged the engine's last moves more than the engine measured (the pipes and a
        // loaded machine's scheduler), the most of the last few.
        let lag = (own.keys().rev())
            .filter_map(|&ply| {
                Some(
                    game.times
                        .get(ply)
                        .copied()??
                        .saturating_sub(own_time(ply)?),
                )
            })
            .take(LAG_MOVES)
            .max()
            .unwrap_or_default();
        let overhead = self.opts.overhead.max(lag);
        // Each move still to come costs that overhead too: where the increment does not pay
        // for it, it is kept back for all of them (Othello knows how many: about half the
        // empty squares), and never counted on to think. `budget` takes the overhead from
        // the increment itself.
        let moves_left = self.pos.empties().count_ones().div_ceil(2);
        let budget_on = |c: RecordClock| {
            let reserve = overhead.saturating_sub(c.increment) * moves_left;
            let clock = Clock {
                left: game.time_left_on(side, c, own_time).saturating_sub(reserve),
                increment: c.increment,
                moves_to_go: None,
            };
            budget(&clock, overhead)
        };
        // The game's clock, where the GUI sent one.
        let game_clock = game.clocks[side as usize].map(budget_on);
        match self.opts.pace {
            Pace::Depth => Think::Depth(self.depth, game_clock.map(|b| b.hard)),
            Pace::MoveTime(t) => {
                let t = t.saturating_sub(overhead);
                let t = game_clock.map_or(t, |b| t.min(b.hard));
                Think::Fixed(t.max(Duration::from_millis(1)))
            }
            Pace::Clock(c) => Think::Clock(game_clock.unwrap_or_else(|| budget_on(c))),
        }
    }
}
