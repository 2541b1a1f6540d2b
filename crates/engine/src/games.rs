//! What the facade needs from each game beyond the [`Game`] trait: a diagram, side names, the
//! bench positions, a default depth and an exact solver. One impl per game, all in this file.

use std::time::Instant;

use duel_chess::{Chess, Move as ChessMove};
use duel_connect4::{pons_to_score, Connect4, Solver};
use duel_core::{Game, Score, Side};
use duel_othello::{Move, Othello};
use duel_tictactoe::{OpenLines, TicTacToe};

use crate::session::solve_by_search;
use crate::{EngineError, MoveValue, SearchConfig, Solution};

/// Othello positions with at most this many empty squares are solved exactly by `analyze`,
/// `play` and (by default) `nboard`: a few milliseconds, and the answer is perfect.
pub const OTHELLO_SOLVE_EMPTIES: u32 = 14;

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
    /// it.
    fn solve(&self) -> Result<Solution, EngineError>;

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

    /// [`Supported::perft`] split by first move.
    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        duel_core::perft_divide(&mut self.clone(), depth)
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

    fn solve(&self) -> Result<Solution, EngineError> {
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

    fn solve(&self) -> Result<Solution, EngineError> {
        let start = Instant::now();
        let mut solver = Solver::new();
        let moves: Vec<MoveValue> = solver
            .best_moves(self)
            .into_iter()
            .map(|(col, pons)| MoveValue {
                mv: self.format_move(col),
                value: pons_to_score(self, pons),
                margin: Some(pons),
            })
            .collect();
        let pons = match moves.iter().filter_map(|m| m.margin).max() {
            Some(p) => p,
            None => solver.solve(self, false),
        };
        Ok(Solution {
            value: pons_to_score(self, pons),
            plies_known: true,
            margin: Some(pons),
            margin_name: "Pons score",
            moves,
            method: "Connect Four solver (Pons: alpha-beta, null windows, bitboards)",
            nodes: solver.nodes(),
            time: start.elapsed(),
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

    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        duel_othello::perft::perft_fast_divide(self, depth)
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

    fn solve(&self) -> Result<Solution, EngineError> {
        let start = Instant::now();
        let mut solver = duel_othello::Solver::default();
        let by_sign = |discs: i32| match discs.signum() {
            1 => Score::win_in(0),
            -1 => Score::loss_in(0),
            _ => Score::DRAW,
        };
        let mut list = Vec::new();
        self.generate_moves(&mut list);
        let mut nodes = 0;
        let moves: Vec<MoveValue> = list
            .iter()
            .map(|&mv| {
                let mut child = self.clone();
                child.play(mv);
                let s = solver.solve(&child);
                nodes += s.nodes;
                let discs = -s.score;
                MoveValue {
                    mv: self.format_move(mv),
                    value: by_sign(discs),
                    margin: Some(discs),
                }
            })
            .collect();
        let discs = match moves.iter().filter_map(|m| m.margin).max() {
            Some(d) => d,
            None => self.final_score(),
        };
        Ok(Solution {
            value: by_sign(discs),
            plies_known: false,
            margin: Some(discs),
            margin_name: "disc difference",
            moves,
            method: "Othello endgame solver (null windows, table, fastest-first, parity)",
            nodes,
            time: start.elapsed(),
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
        SearchConfig {
            null_move: true,
            lmr: true,
            futility: 90,
            iir: true,
            late_move_pruning: true,
            singular: 2,
            continuation: true,
            correction: true,
            exchange_pruning: true,
            ..SearchConfig::default()
        }
    }

    fn solve(&self) -> Result<Solution, EngineError> {
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

    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        duel_chess::perft_divide(self, depth)
    }
}
