//! Othello as the front ends see it: names, notation, evaluators, bench, GGF records, and the
//! endgame solver behind `solve` and behind the exact answers near the end of a game.

use std::path::Path;

use duel_core::solve::{
    solve_each_move, Distance, ExactSolver, QuickSolve, Solution, SolveError, SolveGoal,
    SolveLimits, SolveProgress, SolverCache, SolverProgress,
};
use duel_core::{
    BoardStyle, BoardView, EvaluatorError, EvaluatorVisitor, Game, GameInfo, MoveCells, Piece,
    PositionError, RecordInfo, Score, SearchProfile, Side, SolveBudget, SolverStopped,
};

use crate::solver::Stage;
use crate::{parse_ggf, GgfGame, Move, Othello, Pattern, Solver, Textbook};

/// Positions with at most this many empty squares are solved exactly by `analyze`, `play` and
/// (by default) `nboard`: a few milliseconds, and the answer is perfect.
pub const QUICK_SOLVE_EMPTIES: u32 = 14;

/// Without a limit, `solve` refuses positions with more empty squares than this. Solving
/// every move exactly, measured 2026-11-28 with `duel solve othello -p` on the two-core
/// development machine, the other core busy: FFO #40 (20 empties) 1.5 s, #45 (24) 62 s, #49
/// (26) 137 s, #53 (28) 5 of 11 moves in 10 minutes, #57 (30) 5 of 8 moves in 10 minutes, #59
/// (34) not even the first of 11 moves in 5 minutes (4.1 G nodes), though its value alone
/// takes 5 s: the exact values of the bad moves are what cost.
pub const SOLVE_MAX_EMPTIES: u32 = 30;

/// The most empty squares at which an exact solve is worth starting with `time` to spend:
/// the solver's time grows about 2.5-fold per empty square from about 2 ms at 14. Measured
/// 2026-11-29 with `cargo run --release -p duel-othello --example ffo` on the two-core
/// development machine, the other core busy: FFO #1–#7 (14 empties) 1–5 ms, #13–#19 (16)
/// 2–14 ms, #22–#23 (17, 18) 23–27 ms, #26–#34 (20) 82–791 ms, #37 (22) 1.1 s. Positions from
/// games are mostly easier than FFO's; a solve past its deadline gives way to a search.
pub fn solve_reach(time: std::time::Duration) -> u32 {
    let mut reach = QUICK_SOLVE_EMPTIES;
    let mut cost = 0.002;
    while reach < SOLVE_MAX_EMPTIES && cost * 2.5 <= time.as_secs_f64() {
        cost *= 2.5;
        reach += 1;
    }
    reach
}

/// What the solves beyond [`SOLVE_MAX_EMPTIES`] take.
const SOLVE_TAKES: &str = "solving every move exactly took a minute at 24 empty squares here, \
    some 20 minutes at 28 to 30, and hours from 34";

impl GameInfo for Othello {
    fn end_reason(&self) -> &'static str {
        // Othello ends when neither side can move; the discs decide.
        match self.outcome() {
            Some(duel_core::Outcome::Draw) => "neither side can move, discs equal",
            _ => "neither side can move, most discs",
        }
    }

    const TITLE: &'static str = "Othello";
    const ALIASES: &'static [&'static str] = &["reversi"];
    const NOTATION: &'static str = "squares a1..h8, PA for a pass; a position is the 64 squares \
        a1, b1, ..., h8 as X (black), O (white) or -, a space and the side to move, as in the \
        FFO test files";
    const PROTOCOLS: &'static [&'static str] = &["nboard"];
    const EVALUATORS: &'static [&'static str] = &["patterns", "textbook"];
    /// `pattern` until issue 61 gave both pattern evaluators (Othello's, Gomoku's) one name.
    const EVALUATOR_ALIASES: &'static [(&'static str, &'static str)] = &[("pattern", "patterns")];
    /// The start and three positions of the FFO suite (#1, #2, #5), searched by the midgame
    /// search (not the solver) to the bench depth.
    const SIDE_NAMES: [&'static str; 2] = ["Black", "White"];
    const BENCH: &'static [&'static str] = &[
        "---------------------------OX------XO--------------------------- X",
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
        "-OOOOO----OXXO-XXXOXOXX-XXOXOXXOXXOOXOOOXXXXOO-OX-XOOO---XXXXX-- X",
        "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X",
    ];
    const BENCH_DEPTH: u32 = 8;
    const DEFAULT_DEPTH: u32 = 10;
    /// Multi-ProbCut at 1.5 sigma (the pattern evaluator's tests, `Pattern::probcut`; Edax's
    /// "87%" level): Othello's selective search, as in Logistello, Edax and NTest. Measured
    /// by self-play at equal nodes (docs/BENCHMARKS.md, "Othello: Multi-ProbCut").
    const SEARCH_PROFILE: SearchProfile = SearchProfile {
        probcut: 150,
        ..SearchProfile::NONE
    };

    fn make_evaluator<V: EvaluatorVisitor<Self>>(
        name: &str,
        _file: Option<&Path>,
        visitor: V,
    ) -> Result<V::Output, EvaluatorError> {
        match name {
            "textbook" => Ok(visitor.visit(Textbook::default())),
            _ => Ok(visitor.visit(Pattern::default())),
        }
    }

    fn diagram(&self) -> String {
        Othello::diagram(self)
    }

    const RECORD_EXTENSION: &'static str = "ggf";

    const BOARD_STYLE: BoardStyle = BoardStyle::Discs;

    /// Rank 1 on top, as the diagram and Othello boards are drawn: a cell's number is its
    /// square's (a1 = 0, h8 = 63). `X` black and `O` white, as the position text writes them.
    fn board_view(&self) -> BoardView {
        let (black, white) = (self.black(), self.white());
        let cells = (0..64)
            .map(|sq| {
                let side = match (black >> sq & 1, white >> sq & 1) {
                    (1, _) => Side::First,
                    (_, 1) => Side::Second,
                    _ => return None,
                };
                Some(Piece::of_side(side, ['X', 'O']))
            })
            .collect();
        BoardView::with_coordinates(8, 8, cells, true)
    }

    /// The square played; a pass touches none.
    fn move_cells(&self, mv: Move) -> MoveCells {
        mv.to_square().map_or(MoveCells::default(), |sq| {
            MoveCells::placement(u16::from(sq))
        })
    }

    /// GGF, with the clocks (`TI`, or `TB` and `TW`) and each move's time where known and not
    /// zero (GGS writes none then); the names and tags have no place NBoard reads.
    fn record(start: &Self, moves: &[Move], info: &RecordInfo<'_>) -> Option<String> {
        let mut game = GgfGame::new(start.clone(), moves.to_vec());
        game.clocks = info.clocks;
        for (time, &t) in game.times.iter_mut().zip(info.times) {
            *time = (!t.is_zero()).then_some(t);
        }
        // The players, so that a match's records say who had which colour. GGF escapes `]`
        // and `\` in a value with a backslash.
        let name = |n: &str| {
            let n = n.trim();
            if n.is_empty() {
                "?".to_string()
            } else {
                n.replace('\\', "\\\\").replace(']', "\\]")
            }
        };
        let names = format!("PB[{}]PW[{}]", name(info.names[0]), name(info.names[1]));
        Some(game.to_text().replacen("PB[?]PW[?]", &names, 1))
    }

    /// A GGF game (NBoard's, or [`GameInfo::record`]'s), else a position text as a start with
    /// no moves.
    fn read_record(start: &Self, text: &str) -> Result<(Self, Vec<Move>), PositionError> {
        if text.trim_start().starts_with("(;") {
            parse_ggf(text)
        } else {
            Ok((Self::from_text_in(start, text)?, Vec::new()))
        }
    }

    /// Bik's tables (data/othello/perft.txt) count a game that ends before the horizon as one
    /// leaf; from depth 10 that differs from the generic count.
    fn perft(&self, depth: u32) -> u64 {
        crate::perft::perft_fast(self, depth)
    }

    fn quick_solve(&self) -> Option<QuickSolve<Move>> {
        if self.is_over() || self.empties().count_ones() > QUICK_SOLVE_EMPTIES {
            return None;
        }
        // 2^16 entries (1.5 MiB) are plenty at these depths, and cheap to allocate each time.
        let mut solver = Solver::new(16);
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
            exact: true,
            line,
            nodes,
        })
    }

    fn solve_near_end(
        &self,
        reach: u32,
        goal: SolveGoal,
        cache: &mut SolverCache,
        limits: &SolveBudget<'_>,
    ) -> Option<Result<QuickSolve<Move>, SolverStopped>> {
        if self.is_over() || self.empties().count_ones() > reach {
            return None;
        }
        // The default table (48 MiB): a reach can be 24 empty squares, and the solves of one
        // game's positions share much of their trees.
        let solver = cache.get_or_insert_with(Solver::default);
        solver.set_threads(limits.threads);
        let solved = solver.solve_goal(self, goal, limits, &mut |_| {});
        Some(solved.map(|s| QuickSolve {
            value: <Solver as ExactSolver<Othello>>::score(self, s.score),
            margin: s.score,
            exact: goal == SolveGoal::Exact || s.score == 0,
            line: s.best_move.into_iter().collect(),
            nodes: s.nodes,
        }))
    }

    fn solve(
        &self,
        limits: &SolveLimits<'_>,
        progress: &mut dyn FnMut(&SolveProgress<'_>),
    ) -> Result<Solution, SolveError> {
        let empties = self.empties().count_ones();
        if !limits.any() && empties > SOLVE_MAX_EMPTIES && !self.is_over() {
            return Err(SolveError::TooFarFromEnd {
                game: Self::NAME,
                distance: Distance::EmptySquares {
                    count: empties,
                    most: SOLVE_MAX_EMPTIES,
                },
                takes: SOLVE_TAKES,
            });
        }
        let mut solver = Solver::default();
        solver.set_threads(limits.threads);
        solve_each_move(self, &mut solver, limits, progress)
    }
}

impl ExactSolver<Othello> for Solver {
    const METHOD: &'static str =
        "Othello endgame solver (null windows, table, fastest-first, parity)";
    const MARGIN_NAME: &'static str = "disc difference";
    /// The solver counts discs, not the plies to the end.
    const PLIES_KNOWN: bool = false;

    fn solve_limited(
        &mut self,
        pos: &Othello,
        limits: &SolveBudget<'_>,
        progress: &mut dyn FnMut(&SolverProgress),
    ) -> Result<(i32, u64), SolverStopped> {
        let s = Solver::solve_limited(self, pos, limits, &mut |p| {
            let (stage, guess) = match p.stage {
                Stage::Guess => ("selective search", p.guess),
                Stage::ProbCut { .. } => ("ProbCut pass", p.guess),
                // Its values are the bounds themselves.
                Stage::Exact => ("exact search", None),
            };
            progress(&SolverProgress {
                lower: p.lower,
                upper: p.upper,
                guess,
                stage,
                window: p.window,
                nodes: p.nodes,
            })
        })?;
        Ok((s.score, s.nodes))
    }

    fn finished_margin(&mut self, pos: &Othello) -> i32 {
        pos.final_score()
    }

    fn score(_pos: &Othello, discs: i32) -> Score {
        match discs.signum() {
            1 => Score::win_in(0),
            -1 => Score::loss_in(0),
            _ => Score::DRAW,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn records_name_the_players_and_read_back() {
        use duel_core::Game;
        let start = Othello::start();
        let moves: Vec<Move> = ["f5", "d6", "c3"]
            .iter()
            .scan(start.clone(), |pos, m| {
                let mv = pos.parse_move(m).unwrap();
                pos.play(mv);
                Some(mv)
            })
            .collect();
        let info = RecordInfo {
            names: ["duel nboard", "odd]name\\"],
            ..RecordInfo::default()
        };
        let text = Othello::record(&start, &moves, &info).unwrap();
        assert!(text.contains("PB[duel nboard]PW[odd\\]name\\\\]"), "{text}");
        assert_eq!(Othello::read_record(&start, &text).unwrap().1, moves);
        let unnamed = Othello::record(&start, &moves, &RecordInfo::default()).unwrap();
        assert!(unnamed.contains("PB[?]PW[?]"), "{unnamed}");
    }

    #[test]
    fn the_solve_reach_grows_with_time_within_the_limits() {
        let at = |ms| solve_reach(Duration::from_millis(ms));
        assert_eq!(at(0), QUICK_SOLVE_EMPTIES);
        // 2 ms · 2.5^4 = 78 ms, 2.5^6 = 488 ms.
        assert_eq!(at(150), 18);
        assert_eq!(at(500), 20);
        assert_eq!(solve_reach(Duration::from_secs(1 << 20)), SOLVE_MAX_EMPTIES);
        let mut last = 0;
        for ms in (0..100_000).step_by(250) {
            assert!(at(ms) >= last);
            last = at(ms);
        }
    }
}
