//! Exact solving, for every game that has a solver: the types a solve reports in, and
//! [`solve_each_move`], which proves each root move in turn with the game's own
//! [`ExactSolver`] within one set of limits, reporting as it goes. A game crate implements
//! [`ExactSolver`] for its solver and calls [`solve_each_move`] from
//! [`crate::GameInfo::solve`]; the front ends see only these types.

use std::any::Any;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::{Game, Score, SolveBudget, SolverStopped};

/// The exact value of one move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveValue {
    /// The move in the game's notation.
    pub mv: String,
    /// Its exact value for the side that plays it, distances counted from the position solved.
    pub value: Score,
    /// The game's own exact score, where it has one (see [`Solution::margin_name`]).
    pub margin: Option<i32>,
}

/// The exact game-theoretic value of a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// The value for the side to move: a win or loss (with its distance in plies where
    /// `plies_known`), or a draw.
    pub value: Score,
    /// Whether `value` counts the plies to the end of the game (Othello's solver finds the disc
    /// count, not the game's length).
    pub plies_known: bool,
    /// The game's own exact score, from the side to move, where it has one: the Pons score in
    /// Connect Four (positive = the side to move wins, larger = sooner), the final disc
    /// difference in Othello.
    pub margin: Option<i32>,
    /// What `margin` is called (`Pons score`, `disc difference`); empty without one.
    pub margin_name: &'static str,
    /// Every legal move with its exact value, in the game's move order. Empty at a finished
    /// position.
    pub moves: Vec<MoveValue>,
    /// How the value was found (`alphabeta to the end`, `connect4 solver`, ...).
    pub method: &'static str,
    /// Positions visited.
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
}

impl Solution {
    /// The moves that keep the value (all of them if several do).
    pub fn best_moves(&self) -> Vec<&str> {
        let best_margin = self.moves.iter().filter_map(|m| m.margin).max();
        self.moves
            .iter()
            .filter(|m| match (m.margin, best_margin) {
                // A margin (disc count, Pons score) says more than win/draw/loss: compare it.
                (Some(a), Some(b)) => a == b,
                _ => m.value == self.value,
            })
            .map(|m| m.mv.as_str())
            .collect()
    }
}

/// What may end a whole solve before it has proven the value, as a user gives it; each call
/// of a game's solver gets the [`crate::limits::SolveBudget`] left. The default ends nothing.
/// The limits cover the whole solve, every move together; the solvers look at them every few
/// tens of thousands of nodes (tic-tac-toe, solved at once, ignores them).
#[derive(Debug, Clone, Copy, Default)]
pub struct SolveLimits<'a> {
    /// Threads the solver may use (0 and 1 both mean one): not a limit, but given with them.
    pub threads: usize,
    /// At most about this many nodes.
    pub nodes: Option<u64>,
    /// At most about this much wall time.
    pub time: Option<Duration>,
    /// Stop once another thread sets this flag.
    pub stop: Option<&'a AtomicBool>,
}

impl SolveLimits<'_> {
    /// Whether any limit is set: a solve that may not end for hours is refused without one.
    pub fn any(&self) -> bool {
        self.nodes.is_some() || self.time.is_some() || self.stop.is_some()
    }
}

/// Which limit ended an unfinished solve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolveStop {
    /// The node limit, as given.
    Nodes(u64),
    /// The time limit, as given.
    Time(Duration),
    /// The stop flag.
    Flag,
}

/// What happened to one root move of a running solve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolveStep {
    /// Its solve begins.
    Started,
    /// A stage of its solve ended and may have narrowed its bounds: a null-window probe
    /// (Connect Four), a window or a selective pass (Othello).
    Narrowed,
    /// A long stage is still running (reported every two seconds or so).
    Running,
    /// Its value is proven: `lower` and `upper` both hold it.
    Solved,
}

/// A report from a running a solve, for front ends to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolveProgress<'a> {
    /// Before any search: how the solve proceeds.
    Plan {
        /// How many root moves are solved, one after the other.
        moves: usize,
        /// The solver (as [`Solution::method`]).
        method: &'static str,
        /// What the bounds count (as [`Solution::margin_name`]).
        margin_name: &'static str,
    },
    /// A root move's solve moved on.
    Move(MoveProgress<'a>),
}

/// Where the solve of one root move stands. Bounds and windows are in the game's margin (as
/// [`Solution::margin`]) for the side that plays the move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveProgress<'a> {
    /// The move, in the game's notation.
    pub mv: &'a str,
    /// Its place among the root moves, from 0.
    pub index: usize,
    /// How many root moves there are.
    pub of: usize,
    /// What happened.
    pub step: SolveStep,
    /// Its bounds, guess, stage and window, for the side that plays it; `nodes` counts the
    /// whole solve so far.
    pub search: SolverProgress,
    /// Wall time of the whole solve so far.
    pub time: Duration,
}

/// Bounds proven for a move whose solve a limit cut short.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveBounds {
    /// The move, in the game's notation.
    pub mv: String,
    /// The proven lower bound on its margin, if any.
    pub lower: Option<i32>,
    /// The proven upper bound on its margin, if any.
    pub upper: Option<i32>,
}

/// What an unfinished solve knows when a limit stops it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unfinished {
    /// The limit that stopped it.
    pub stop: SolveStop,
    /// The moves solved before the stop, with their exact values.
    pub solved: Vec<MoveValue>,
    /// The move in progress and the bounds proven for it.
    pub current: Option<MoveBounds>,
    /// Root moves not started.
    pub untried: usize,
    /// A proven lower bound on the position's margin: the best of the solved moves and of the
    /// bounds of the move in progress.
    pub at_least: Option<i32>,
    /// What the margins count (as [`Solution::margin_name`]).
    pub margin_name: &'static str,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
}

/// How far a position is from the end of the game, and how far a solve without a limit goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Distance {
    /// Empty squares (Othello): a solve without a limit takes on at most `most`.
    EmptySquares {
        /// The position's empty squares.
        count: u32,
        /// The most a solve without a limit takes on.
        most: u32,
    },
    /// Stones on the board (Connect Four): a solve without a limit needs at least `fewest`.
    Stones {
        /// The position's stones.
        count: u32,
        /// The fewest a solve without a limit takes on.
        fewest: u32,
    },
}

impl std::fmt::Display for Distance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Distance::EmptySquares { count, most } => {
                write!(f, "{count} empty squares, more than {most}")
            }
            Distance::Stones { count: 0, .. } => write!(f, "the empty board"),
            Distance::Stones { count, fewest } => {
                let stones = if count == 1 { "stone" } else { "stones" };
                write!(f, "{count} {stones}, fewer than {fewest}")
            }
        }
    }
}

fn unfinished_words(u: &Unfinished) -> String {
    let by = match u.stop {
        SolveStop::Nodes(n) => format!("the node limit ({n})"),
        SolveStop::Time(t) => format!("the time limit ({} ms)", t.as_millis()),
        SolveStop::Flag => "a stop".to_string(),
    };
    format!(
        "stopped by {by} after {} nodes, {} of {} moves solved",
        u.nodes,
        u.solved.len(),
        u.solved.len() + usize::from(u.current.is_some()) + u.untried
    )
}

/// Why a solve gave no value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The game has no exact solver for positions like this one.
    #[error("{game} positions are not solved exactly here: use analyze for a search")]
    NotSolvable {
        /// The game.
        game: &'static str,
    },
    /// A limit stopped a solve before it proved the value; what it had found comes with it.
    #[error("unfinished: {}", unfinished_words(.0))]
    Unfinished(Box<Unfinished>),
    /// A solve that would take far more than minutes, asked for without any limit.
    #[error(
        "this {game} position is too far from the end to solve without a limit: {distance} \
         ({takes}); give a time or node limit to try anyway"
    )]
    TooFarFromEnd {
        /// The game.
        game: &'static str,
        /// How far the position is from the end, and how far a solve without a limit goes.
        distance: Distance,
        /// What such solves take, as measured.
        takes: &'static str,
    },
}

/// Where a game's own solver stands on one position, in its margin from that position's side
/// to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolverProgress {
    /// The lower bound proven so far, if any.
    pub lower: Option<i32>,
    /// The upper bound proven so far, if any.
    pub upper: Option<i32>,
    /// An unproven estimate (a selective pass's value), if any.
    pub guess: Option<i32>,
    /// The stage running or just ended (`null-window probe`, `exact search`).
    pub stage: &'static str,
    /// The window still being searched, in a report of a long stage; None when a stage has
    /// just ended and set the bounds.
    pub window: Option<(i32, i32)>,
    /// Nodes this solve has searched.
    pub nodes: u64,
}

impl SolverProgress {
    /// Nothing known yet, no stage running.
    pub const NOTHING: SolverProgress = SolverProgress {
        lower: None,
        upper: None,
        guess: None,
        stage: "",
        window: None,
        nodes: 0,
    };

    /// The same, for the other side: bounds, guess and window negated and swapped.
    pub fn flipped(&self) -> SolverProgress {
        SolverProgress {
            lower: self.upper.map(|u| -u),
            upper: self.lower.map(|l| -l),
            guess: self.guess.map(|g| -g),
            window: self.window.map(|(a, b)| (-b, -a)),
            ..*self
        }
    }
}

/// A game's exact solver, as [`solve_each_move`] drives it.
pub trait ExactSolver<G: Game> {
    /// How it works, in a few words (`Connect Four solver (Pons: ...)`).
    const METHOD: &'static str;
    /// What its margin counts (`Pons score`, `disc difference`).
    const MARGIN_NAME: &'static str;
    /// Whether a margin gives the plies to the end of the game (Pons scores do; Othello's disc
    /// counts do not).
    const PLIES_KNOWN: bool;

    /// The margin of `pos` for its side to move, within `limits`, and the nodes this call
    /// searched.
    fn solve_limited(
        &mut self,
        pos: &G,
        limits: &SolveBudget<'_>,
        progress: &mut dyn FnMut(&SolverProgress),
    ) -> Result<(i32, u64), SolverStopped>;

    /// The margin of a position without moves (the game is over), for its side to move.
    fn finished_margin(&mut self, pos: &G) -> i32;

    /// The value a margin means for the side to move at `pos`.
    fn score(pos: &G, margin: i32) -> Score;
}

/// Solves every root move of `pos` in turn with `solver`, within `limits` for the whole solve,
/// telling `progress` the plan, then each move's start, each narrowing of its bounds, every long
/// stage still running, and its value. A limit reached first ends it with
/// [`SolveError::Unfinished`]: the moves solved, the bounds of the move cut short.
pub fn solve_each_move<G: Game, S: ExactSolver<G>>(
    pos: &G,
    solver: &mut S,
    limits: &SolveLimits<'_>,
    progress: &mut dyn FnMut(&SolveProgress<'_>),
) -> Result<Solution, SolveError> {
    let mut list = Vec::new();
    pos.generate_moves(&mut list);
    let mut run = RootSolve::new(limits, progress, list.len(), S::METHOD, S::MARGIN_NAME);
    for (index, &mv) in list.iter().enumerate() {
        let text = pos.format_move(mv);
        if run.exhausted() {
            return Err(run.unfinished(None, list.len() - index));
        }
        let mut report = run.reporter(&text, index);
        report.send(SolveStep::Started, SolverProgress::NOTHING);
        let mut child = pos.clone();
        child.play(mv);
        let child_limits = SolveBudget {
            nodes: report.run.nodes_left(),
            deadline: report.run.deadline,
            stop: limits.stop,
            threads: limits.threads,
        };
        // The child's values, seen from the side that plays `mv`.
        let result = solver.solve_limited(&child, &child_limits, &mut |p| {
            let step = match p.window {
                Some(_) => SolveStep::Running,
                None => SolveStep::Narrowed,
            };
            // The stage that proves the value is reported as the move solved, next.
            if step == SolveStep::Narrowed && p.lower.is_some() && p.lower == p.upper {
                return;
            }
            report.send(step, p.flipped());
        });
        match result {
            Ok((child_margin, nodes)) => {
                let margin = -child_margin;
                report.solved(S::score(pos, margin), margin, nodes);
            }
            Err(stopped) => {
                run.nodes += stopped.nodes;
                let current = MoveBounds {
                    mv: text,
                    lower: stopped.upper.map(|u| -u),
                    upper: stopped.lower.map(|l| -l),
                };
                return Err(run.unfinished(Some(current), list.len() - index - 1));
            }
        }
    }
    let margin = match run.solved.iter().filter_map(|m| m.margin).max() {
        Some(m) => m,
        None => solver.finished_margin(pos),
    };
    Ok(Solution {
        value: S::score(pos, margin),
        plies_known: S::PLIES_KNOWN,
        margin: Some(margin),
        margin_name: S::MARGIN_NAME,
        method: S::METHOD,
        nodes: run.nodes,
        time: run.start.elapsed(),
        moves: run.solved,
    })
}

/// The bookkeeping of a solve that proves one root move after another within limits: the
/// clock, the nodes of the moves already finished, the reports, the moves solved.
struct RootSolve<'a, 'l> {
    limits: &'a SolveLimits<'l>,
    start: Instant,
    deadline: Option<Instant>,
    /// Nodes of the moves finished (and, at a stop, of the move cut short).
    nodes: u64,
    of: usize,
    progress: &'a mut dyn FnMut(&SolveProgress<'_>),
    solved: Vec<MoveValue>,
    margin_name: &'static str,
}

impl<'a, 'l> RootSolve<'a, 'l> {
    /// Starts the clock and tells `progress` the plan.
    fn new(
        limits: &'a SolveLimits<'l>,
        progress: &'a mut dyn FnMut(&SolveProgress<'_>),
        moves: usize,
        method: &'static str,
        margin_name: &'static str,
    ) -> Self {
        let start = Instant::now();
        progress(&SolveProgress::Plan {
            moves,
            method,
            margin_name,
        });
        RootSolve {
            limits,
            start,
            deadline: limits.time.map(|t| start + t),
            nodes: 0,
            of: moves,
            progress,
            solved: Vec::with_capacity(moves),
            margin_name,
        }
    }

    /// The nodes the next move may search, under a node limit.
    fn nodes_left(&self) -> Option<u64> {
        self.limits.nodes.map(|n| n.saturating_sub(self.nodes))
    }

    /// Which limit is reached, if any: the next move is then not started.
    fn reached(&self) -> Option<SolveStop> {
        if let Some(n) = self.limits.nodes.filter(|&n| self.nodes >= n) {
            return Some(SolveStop::Nodes(n));
        }
        if let Some(t) = self.limits.time.filter(|&t| self.start.elapsed() >= t) {
            return Some(SolveStop::Time(t));
        }
        let flagged = self.limits.stop.is_some_and(|f| f.load(Ordering::Relaxed));
        flagged.then_some(SolveStop::Flag)
    }

    fn exhausted(&self) -> bool {
        self.reached().is_some()
    }

    /// What a stop leaves: `current` is the move cut short, `untried` the moves after it.
    fn unfinished(self, current: Option<MoveBounds>, untried: usize) -> SolveError {
        // A solver stops on the first limit it sees; if none is reached by now, it was the
        // flag.
        let stop = self.reached().unwrap_or(SolveStop::Flag);
        let best_solved = self.solved.iter().filter_map(|m| m.margin).max();
        let at_least = match current.as_ref().and_then(|c| c.lower) {
            Some(l) => Some(best_solved.map_or(l, |b| b.max(l))),
            None => best_solved,
        };
        SolveError::Unfinished(Box::new(Unfinished {
            stop,
            solved: self.solved,
            current,
            untried,
            at_least,
            margin_name: self.margin_name,
            nodes: self.nodes,
            time: self.start.elapsed(),
        }))
    }

    /// Reports for the move at `index`, written `mv`.
    fn reporter<'r>(&'r mut self, mv: &'r str, index: usize) -> MoveReporter<'r, 'a, 'l> {
        MoveReporter {
            run: self,
            mv,
            index,
        }
    }
}

/// The reports of one root move's solve.
struct MoveReporter<'r, 'a, 'l> {
    run: &'r mut RootSolve<'a, 'l>,
    mv: &'r str,
    index: usize,
}

impl MoveReporter<'_, '_, '_> {
    /// One report; `search.nodes` are the nodes of this move's solve so far.
    fn send(&mut self, step: SolveStep, search: SolverProgress) {
        let r = &mut *self.run;
        let p = MoveProgress {
            mv: self.mv,
            index: self.index,
            of: r.of,
            step,
            search: SolverProgress {
                nodes: r.nodes + search.nodes,
                ..search
            },
            time: r.start.elapsed(),
        };
        (r.progress)(&SolveProgress::Move(p));
    }

    /// The move is solved: `margin` for the side that plays it, in `move_nodes` nodes.
    fn solved(mut self, value: Score, margin: i32, move_nodes: u64) {
        let m = Some(margin);
        let search = SolverProgress {
            lower: m,
            upper: m,
            nodes: move_nodes,
            ..SolverProgress::NOTHING
        };
        self.send(SolveStep::Solved, search);
        self.run.nodes += move_nodes;
        self.run.solved.push(MoveValue {
            mv: self.mv.to_string(),
            value,
            margin: m,
        });
    }
}

/// What a solve near the end must prove ([`crate::GameInfo::solve_near_end`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolveGoal {
    /// The exact final margin and a move that reaches it.
    Exact,
    /// Only who wins (win, draw or loss) and a move that keeps it: a null-window proof around
    /// a draw, a fraction of the exact solve's work, so it reaches a few squares further.
    Outcome,
}

/// An answer from a game's own solver: exact, or the outcome alone ([`SolveGoal`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuickSolve<M> {
    /// Win, loss or draw, with the length of `line` ([`crate::GameInfo::solve_near_end`]:
    /// without a distance).
    pub value: Score,
    /// The final margin under perfect play (Othello: disc difference); when `exact` is false,
    /// a bound on the same side of zero (a win by at least `margin`, a loss by at least
    /// `-margin`).
    pub margin: i32,
    /// Whether `margin` is exact; an outcome proof's draw is.
    pub exact: bool,
    /// A perfect-play line to the end of the game ([`crate::GameInfo::solve_near_end`]: its
    /// first move only).
    pub line: Vec<M>,
    /// Nodes the solver visited.
    pub nodes: u64,
}

/// What a game's own solver keeps from one solve to the next (its table), held by whoever
/// solves many positions of one game, so that each solve reuses what the earlier ones proved.
/// The game decides what goes in ([`crate::GameInfo::solve_near_end`]); it starts empty.
#[derive(Default)]
pub struct SolverCache(Option<Box<dyn Any + Send>>);

impl SolverCache {
    /// The `T` kept here, made by `make` first if there is none.
    pub fn get_or_insert_with<T: Any + Send>(&mut self, make: impl FnOnce() -> T) -> &mut T {
        if !self.0.as_ref().is_some_and(|kept| kept.is::<T>()) {
            self.0 = Some(Box::new(make()));
        }
        self.0
            .as_mut()
            .and_then(|kept| kept.downcast_mut())
            .expect("a T was just put here")
    }
}

impl std::fmt::Debug for SolverCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = if self.0.is_some() { "in use" } else { "empty" };
        write!(f, "SolverCache({state})")
    }
}

#[cfg(test)]
mod tests {
    use super::SolverCache;

    /// The cache keeps what was put in until a solver of another type asks for it.
    #[test]
    fn a_cache_keeps_its_solver() {
        let mut cache = SolverCache::default();
        *cache.get_or_insert_with(|| 1u32) += 1;
        assert_eq!(*cache.get_or_insert_with(|| 7u32), 2);
        assert_eq!(cache.get_or_insert_with(|| "other").len(), 5);
        assert_eq!(*cache.get_or_insert_with(|| 7u32), 7);
    }
}
