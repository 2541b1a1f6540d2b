//! What the facade needs from each game beyond the [`Game`] trait: a diagram, side names, the
//! bench positions, a default depth and an exact solver. One impl per game, all in this file.

use std::time::Instant;

use duel_chess::{Chess, Move as ChessMove};
use duel_connect4::{pons_to_score, Connect4, Solver};
use duel_core::{Game, Score, Side};
use duel_othello::{Move, Othello};
use duel_tictactoe::{OpenLines, TicTacToe};

use crate::session::solve_by_search;
use crate::{
    Distance, EngineError, MoveBounds, MoveProgress, MoveValue, SearchConfig, Solution,
    SolveLimits, SolveProgress, SolveStep, SolveStop, Unfinished,
};

/// Othello positions with at most this many empty squares are solved exactly by `analyze`,
/// `play` and (by default) `nboard`: a few milliseconds, and the answer is perfect.
pub const OTHELLO_SOLVE_EMPTIES: u32 = 14;

/// Without a limit, `solve` refuses Othello positions with more empty squares than this.
/// Solving every move exactly, measured 2026-11-28 with `duel solve othello -p` on this
/// two-core machine, the other core busy: FFO #40 (20 empties) 1.5 s, #45 (24) 62 s, #49 (26)
/// 137 s, #53 (28) 5 of 11 moves in 10 minutes, #57 (30) 5 of 8 moves in 10 minutes, #59 (34)
/// not even the first of 11 moves in 5 minutes (4.1 G nodes), though its value alone takes
/// 5 s: the exact values of the bad moves are what cost.
pub const OTHELLO_SOLVE_MAX_EMPTIES: u32 = 30;

/// What the solves beyond [`OTHELLO_SOLVE_MAX_EMPTIES`] take.
const OTHELLO_SOLVE_TAKES: &str = "solving every move exactly took a minute at 24 empty \
    squares here, some 20 minutes at 28 to 30, and hours from 34";

/// Without a limit, `solve` refuses Connect Four positions with fewer stones than this: the
/// empty board. Measured 2026-11-28 with `duel solve connect4` on this two-core machine, the
/// other core busy: the empty board 1179 s (8.9 G nodes, 7.6 M nodes/s; the build before
/// progress reports did not finish within 20 minutes), one stone (`-p 4`) 426 s (2.3 G
/// nodes), two stones (`-p 44`) 137 s (716 M nodes; 68 s on a quieter machine). One stone
/// is minutes, with a line every few seconds: tried.
pub const CONNECT4_SOLVE_MIN_STONES: u32 = 1;

/// What the solves below [`CONNECT4_SOLVE_MIN_STONES`] take.
const CONNECT4_SOLVE_TAKES: &str = "every move's exact value took 20 minutes here, 9 G nodes";

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
        let flagged = self
            .limits
            .stop
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed));
        flagged.then_some(SolveStop::Flag)
    }

    fn exhausted(&self) -> bool {
        self.reached().is_some()
    }

    /// What a stop leaves: `current` is the move cut short, `untried` the moves after it.
    fn unfinished(self, current: Option<MoveBounds>, untried: usize) -> EngineError {
        // A solver stops on the first limit it sees; if none is reached by now, it was the
        // flag.
        let stop = self.reached().unwrap_or(SolveStop::Flag);
        let best_solved = self.solved.iter().filter_map(|m| m.margin).max();
        let at_least = match current.as_ref().and_then(|c| c.lower) {
            Some(l) => Some(best_solved.map_or(l, |b| b.max(l))),
            None => best_solved,
        };
        EngineError::Unfinished(Box::new(Unfinished {
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

/// What one report says of a move, beyond the move and the totals.
struct Step {
    step: SolveStep,
    lower: Option<i32>,
    upper: Option<i32>,
    guess: Option<i32>,
    stage: &'static str,
    window: Option<(i32, i32)>,
}

impl Step {
    /// `step` with nothing known.
    fn new(step: SolveStep) -> Self {
        Step {
            step,
            lower: None,
            upper: None,
            guess: None,
            stage: "",
            window: None,
        }
    }
}

impl MoveReporter<'_, '_, '_> {
    /// One report; `move_nodes` are the nodes of this move's solve so far.
    fn send(&mut self, s: Step, move_nodes: u64) {
        let r = &mut *self.run;
        let p = MoveProgress {
            mv: self.mv,
            index: self.index,
            of: r.of,
            step: s.step,
            lower: s.lower,
            upper: s.upper,
            guess: s.guess,
            stage: s.stage,
            window: s.window,
            nodes: r.nodes + move_nodes,
            time: r.start.elapsed(),
        };
        (r.progress)(&SolveProgress::Move(p));
    }

    /// The move is solved: `margin` for the side that plays it, in `move_nodes` nodes.
    fn solved(mut self, value: Score, margin: i32, move_nodes: u64) {
        let m = Some(margin);
        let step = Step {
            lower: m,
            upper: m,
            ..Step::new(SolveStep::Solved)
        };
        self.send(step, move_nodes);
        self.run.nodes += move_nodes;
        self.run.solved.push(MoveValue {
            mv: self.mv.to_string(),
            value,
            margin: m,
        });
    }
}

/// An exact answer from a game's own solver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuickSolve<M> {
    /// Win, loss or draw, with the length of `line`.
    pub value: Score,
    /// The final margin under perfect play (Othello: disc difference).
    pub margin: i32,
    /// A perfect-play line to the end of the game.
    pub line: Vec<M>,
    /// Nodes the solver visited.
    pub nodes: u64,
}

/// A game the facade can run.
pub trait Supported: Game {
    /// The bench positions, in the game's text form.
    const BENCH: &'static [&'static str];
    /// The depth every bench position is searched to.
    const BENCH_DEPTH: u32;
    /// The depth `analyze` and `play` search to when the user gives no limit.
    const DEFAULT_DEPTH: u32;

    /// The game's on/off options beyond the search's, by the names GUIs set them with (chess:
    /// `UCI_Chess960`); none by default.
    const SWITCHES: &'static [&'static str] = &[];

    /// Turns `name`, one of [`Supported::SWITCHES`], on or off for this position; the
    /// positions played from it keep it.
    fn set_switch(&mut self, _name: &str, _on: bool) {}

    /// The board as text, one line per row, each ending in a newline.
    fn diagram(&self) -> String;

    /// The game's name for a side.
    fn side_name(side: Side) -> &'static str;

    /// The exact value of the position and of each of its moves, or why the game cannot give
    /// it: a limit reached first ([`EngineError::Unfinished`], with what was found), a
    /// position too far from the end to solve without a limit, or a game without a solver.
    /// `progress` hears how the solve goes.
    fn solve(
        &self,
        limits: &SolveLimits<'_>,
        progress: &mut dyn FnMut(&SolveProgress<'_>),
    ) -> Result<Solution, EngineError>;

    /// The engine search's options for this game, before the user changes any: the generic
    /// defaults, plus the selective options where the game is known to profit.
    fn search_config() -> SearchConfig {
        SearchConfig::default()
    }

    /// A move as the terminal shows it to people: the game's notation by default, SAN in
    /// chess.
    fn display_move(&self, mv: Self::Move) -> String {
        self.format_move(mv)
    }

    /// The game record of `moves` played from `start`, in the game's standard format (chess:
    /// PGN, Othello: GGF), with `names` for the first and second player; None where the game
    /// has none.
    fn record(_start: &Self, _moves: &[Self::Move], _names: [&str; 2]) -> Option<String> {
        None
    }

    /// Where the game's own solver answers in a moment, its answer: `analyze` and `play` then
    /// give it instead of a depth-limited search. None (the default) means search.
    fn quick_solve(&self) -> Option<QuickSolve<Self::Move>> {
        None
    }

    /// Perft as the game's published tables count it. The default is [`duel_core::perft`]:
    /// a finished game adds nothing beyond its own ply.
    fn perft(&self, depth: u32) -> u64 {
        duel_core::perft(&mut self.clone(), depth)
    }
}

impl Supported for TicTacToe {
    /// Openings and middle games, each searched to the end of the game.
    const BENCH: &'static [&'static str] = &["", "5", "1", "2", "51", "52", "159", "5137"];
    const BENCH_DEPTH: u32 = 9;
    /// The whole game: the engine then plays perfectly.
    const DEFAULT_DEPTH: u32 = 9;

    fn diagram(&self) -> String {
        TicTacToe::diagram(self)
    }

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "X",
            Side::Second => "O",
        }
    }

    /// Solved in a millisecond or so: the limits are not looked at, and there is nothing to
    /// report on the way.
    fn solve(
        &self,
        _limits: &SolveLimits<'_>,
        _progress: &mut dyn FnMut(&SolveProgress<'_>),
    ) -> Result<Solution, EngineError> {
        // At most 9 - ply plies remain: alpha-beta to that depth never meets a heuristic leaf,
        // so the evaluator plays no part and the value is exact.
        Ok(solve_by_search(self, &OpenLines, 9 - self.ply().min(9)))
    }
}

impl Supported for Connect4 {
    /// The start, early openings and middle games with threats on both sides.
    const BENCH: &'static [&'static str] = &[
        "",
        "4",
        "44",
        "4453",
        "43443",
        "3246313",
        "2416615552",
        "32164625",
        "274552224131661",
    ];
    const BENCH_DEPTH: u32 = 12;
    const DEFAULT_DEPTH: u32 = 14;

    fn diagram(&self) -> String {
        Connect4::diagram(self)
    }

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "X",
            Side::Second => "O",
        }
    }

    fn solve(
        &self,
        limits: &SolveLimits<'_>,
        progress: &mut dyn FnMut(&SolveProgress<'_>),
    ) -> Result<Solution, EngineError> {
        let stones = self.ply();
        if !limits.any() && stones < CONNECT4_SOLVE_MIN_STONES {
            return Err(EngineError::TooFarFromEnd {
                game: "connect4",
                distance: Distance::Stones {
                    count: stones,
                    fewest: CONNECT4_SOLVE_MIN_STONES,
                },
                takes: CONNECT4_SOLVE_TAKES,
            });
        }
        let mut list = Vec::new();
        self.generate_moves(&mut list);
        let method = "Connect Four solver (Pons: alpha-beta, null windows, bitboards)";
        let mut run = RootSolve::new(limits, progress, list.len(), method, "Pons score");
        let mut solver = Solver::new();
        for (index, &col) in list.iter().enumerate() {
            let mv = self.format_move(col);
            if run.exhausted() {
                return Err(run.unfinished(None, list.len() - index));
            }
            let mut report = run.reporter(&mv, index);
            report.send(Step::new(SolveStep::Started), 0);
            let mut child = *self;
            child.play(col);
            let before = solver.nodes();
            let child_limits = duel_connect4::solver::Limits {
                nodes: report.run.nodes_left(),
                deadline: report.run.deadline,
                stop: limits.stop,
            };
            // The child's bounds, seen from the side that plays `col`.
            let result = solver.solve_limited(&child, false, &child_limits, &mut |p| {
                let (step, window) = match p.probe {
                    Some(m) => (SolveStep::Running, Some((-m - 1, -m))),
                    None => (SolveStep::Narrowed, None),
                };
                // The probe that proves the value is reported as the move solved, next.
                if step == SolveStep::Narrowed && p.lower.is_some() && p.lower == p.upper {
                    return;
                }
                let step = Step {
                    lower: p.upper.map(|u| -u),
                    upper: p.lower.map(|l| -l),
                    stage: "null-window probe",
                    window,
                    ..Step::new(step)
                };
                report.send(step, p.nodes);
            });
            match result {
                Ok(child_pons) => {
                    let pons = -child_pons;
                    report.solved(pons_to_score(self, pons), pons, solver.nodes() - before);
                }
                Err(stopped) => {
                    run.nodes += stopped.nodes;
                    let current = MoveBounds {
                        mv,
                        lower: stopped.upper.map(|u| -u),
                        upper: stopped.lower.map(|l| -l),
                    };
                    return Err(run.unfinished(Some(current), list.len() - index - 1));
                }
            }
        }
        let pons = match run.solved.iter().filter_map(|m| m.margin).max() {
            Some(p) => p,
            None => solver.solve(self, false),
        };
        Ok(Solution {
            value: pons_to_score(self, pons),
            plies_known: true,
            margin: Some(pons),
            margin_name: "Pons score",
            method,
            nodes: solver.nodes(),
            time: run.start.elapsed(),
            moves: run.solved,
        })
    }
}

impl Supported for Othello {
    fn record(start: &Self, moves: &[Move], _names: [&str; 2]) -> Option<String> {
        Some(duel_othello::to_ggf(start, moves))
    }

    /// The start and three positions of the FFO suite (#1, #2, #5), searched by the midgame
    /// search (not the solver) to the bench depth.
    const BENCH: &'static [&'static str] = &[
        "---------------------------OX------XO--------------------------- X",
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
        "-OOOOO----OXXO-XXXOXOXX-XXOXOXXOXXOOXOOOXXXXOO-OX-XOOO---XXXXX-- X",
        "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X",
    ];
    const BENCH_DEPTH: u32 = 8;
    const DEFAULT_DEPTH: u32 = 10;

    /// Othello's tables (Bik's "Perft for Reversi", data/othello/perft.txt) count a game that
    /// ends before the horizon as one leaf; from depth 10 that differs from the generic count.
    fn perft(&self, depth: u32) -> u64 {
        duel_othello::perft::perft_fast(self, depth)
    }

    fn diagram(&self) -> String {
        Othello::diagram(self)
    }

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "Black",
            Side::Second => "White",
        }
    }

    fn quick_solve(&self) -> Option<QuickSolve<Move>> {
        if self.is_over() || self.empties().count_ones() > OTHELLO_SOLVE_EMPTIES {
            return None;
        }
        // 2^16 entries (1.5 MiB) are plenty at these depths, and cheap to allocate each time.
        let mut solver = duel_othello::Solver::new(16);
        let first = solver.solve(self);
        let mut nodes = first.nodes;
        // The solver names one best move; following it with further solves (the table makes
        // them cheap) gives the whole perfect-play line.
        let mut line = Vec::new();
        let mut pos = self.clone();
        let mut best = first.best_move;
        while let Some(mv) = best {
            line.push(mv);
            pos.play(mv);
            if pos.is_over() {
                break;
            }
            let s = solver.solve(&pos);
            nodes += s.nodes;
            best = s.best_move;
        }
        let plies = line.len() as i32;
        let value = match first.score.signum() {
            1 => Score::win_in(plies),
            -1 => Score::loss_in(plies),
            _ => Score::DRAW,
        };
        Some(QuickSolve {
            value,
            margin: first.score,
            line,
            nodes,
        })
    }

    fn solve(
        &self,
        limits: &SolveLimits<'_>,
        progress: &mut dyn FnMut(&SolveProgress<'_>),
    ) -> Result<Solution, EngineError> {
        let empties = self.empties().count_ones();
        if !limits.any() && empties > OTHELLO_SOLVE_MAX_EMPTIES && !self.is_over() {
            return Err(EngineError::TooFarFromEnd {
                game: "othello",
                distance: Distance::EmptySquares {
                    count: empties,
                    most: OTHELLO_SOLVE_MAX_EMPTIES,
                },
                takes: OTHELLO_SOLVE_TAKES,
            });
        }
        let by_sign = |discs: i32| match discs.signum() {
            1 => Score::win_in(0),
            -1 => Score::loss_in(0),
            _ => Score::DRAW,
        };
        let mut list = Vec::new();
        self.generate_moves(&mut list);
        let method = "Othello endgame solver (null windows, table, fastest-first, parity)";
        let mut run = RootSolve::new(limits, progress, list.len(), method, "disc difference");
        let mut solver = duel_othello::Solver::default();
        for (index, &mv) in list.iter().enumerate() {
            let text = self.format_move(mv);
            if run.exhausted() {
                return Err(run.unfinished(None, list.len() - index));
            }
            let mut report = run.reporter(&text, index);
            report.send(Step::new(SolveStep::Started), 0);
            let mut child = self.clone();
            child.play(mv);
            let child_limits = duel_othello::solver::Limits {
                nodes: report.run.nodes_left(),
                deadline: report.run.deadline,
                stop: limits.stop,
            };
            // The child's values, seen from the side that plays `mv`.
            let result = solver.solve_limited(&child, &child_limits, &mut |p| {
                use duel_othello::solver::Stage;
                let (stage, guess) = match p.stage {
                    Stage::Guess => ("selective search", p.guess),
                    Stage::ProbCut { .. } => ("ProbCut pass", p.guess),
                    // Its values are the bounds themselves.
                    Stage::Exact => ("exact search", None),
                };
                let step = match p.window {
                    Some(_) => SolveStep::Running,
                    None => SolveStep::Narrowed,
                };
                // A window that proves the value is reported as the move solved, next.
                if step == SolveStep::Narrowed && p.lower.is_some() && p.lower == p.upper {
                    return;
                }
                let step = Step {
                    lower: p.upper.map(|u| -u),
                    upper: p.lower.map(|l| -l),
                    guess: guess.map(|g| -g),
                    stage,
                    window: p.window.map(|(a, b)| (-b, -a)),
                    ..Step::new(step)
                };
                report.send(step, p.nodes);
            });
            match result {
                Ok(s) => {
                    let discs = -s.score;
                    report.solved(by_sign(discs), discs, s.nodes);
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
        let discs = match run.solved.iter().filter_map(|m| m.margin).max() {
            Some(d) => d,
            None => self.final_score(),
        };
        Ok(Solution {
            value: by_sign(discs),
            plies_known: false,
            margin: Some(discs),
            margin_name: "disc difference",
            method,
            nodes: run.nodes,
            time: run.start.elapsed(),
            moves: run.solved,
        })
    }
}

impl Supported for Chess {
    /// The perft suite's positions (data/chess/perft.txt): the opening, Kiwipete's tactics, a
    /// rook ending, promotions and castling.
    const BENCH: &'static [&'static str] = &[
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    ];
    // Deep enough that the reductions and pruning near the horizon change the node count
    // (at depth 4 they barely did), and still about half a second.
    const BENCH_DEPTH: u32 = 10;
    const DEFAULT_DEPTH: u32 = 6;

    /// Chess960 notation: castling written as the king taking its rook.
    const SWITCHES: &'static [&'static str] = &["UCI_Chess960"];

    fn set_switch(&mut self, name: &str, on: bool) {
        if name == "UCI_Chess960" {
            self.set_chess960(on);
        }
    }

    fn diagram(&self) -> String {
        Chess::diagram(self)
    }

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "White",
            Side::Second => "Black",
        }
    }

    /// Null move (with the evaluator's zugzwang guard) and late-move reductions: chess trees
    /// are wide and most moves are bad, the case both were made for.
    fn search_config() -> SearchConfig {
        SearchConfig::with_profile(&duel_core::SearchProfile {
            null_move: true,
            lmr: true,
            futility: 90,
            iir: true,
            late_move_pruning: true,
            singular: 2,
            continuation: true,
            correction: true,
            exchange_pruning: true,
        })
    }

    fn solve(
        &self,
        _limits: &SolveLimits<'_>,
        _progress: &mut dyn FnMut(&SolveProgress<'_>),
    ) -> Result<Solution, EngineError> {
        Err(EngineError::NotSolvable { game: "chess" })
    }

    fn display_move(&self, mv: ChessMove) -> String {
        self.san(mv)
    }

    fn record(start: &Self, moves: &[ChessMove], names: [&str; 2]) -> Option<String> {
        let date = crate::today();
        let tags = [
            ("Event", "duel play"),
            ("Site", "?"),
            ("Date", date.as_str()),
            ("Round", "-"),
            ("White", names[0]),
            ("Black", names[1]),
        ];
        Some(duel_chess::pgn(start, moves, &[], &tags, None, None))
    }

    /// The published tables count on the bare rules: no repetition or fifty-move draw stops a
    /// line.
    fn perft(&self, depth: u32) -> u64 {
        duel_chess::perft(self.board(), depth)
    }
}
