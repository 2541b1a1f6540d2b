//! One game, one evaluator, one position: [`GameSession`], generic and monomorphised, behind the
//! object-safe [`Session`] trait that front ends hold after choosing the game at run time.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use duel_core::solve::{QuickSolve, SolveGoal, SolverCache};
use duel_core::{
    BoardStyle, BoardView, Evaluator, Game, GameInfo, MoveCells, Outcome, RecordInfo, Side,
    SolveBudget, SolverStopped,
};
use duel_search::reference::node_budget;
use duel_search::tree::Count;
use duel_search::{Reference, ReferenceOptions, Stats, Tree, TreeNode};

use crate::report::{
    line_text, report_text, Algorithm, BenchEntry, BenchResult, CompareRow, SearchReport,
};
use crate::{EngineError, Limits, SearchConfig, Searcher, Solution, SolveLimits, SolveProgress};

/// What a front end can do with a game chosen at run time. Every method works on text and typed
/// reports; the search itself runs in the generic [`GameSession`] behind it, so the only dynamic
/// call is the one that starts it.
///
/// ```
/// use duel_engine::{Algorithm, Limits, Reference, SolveLimits};
///
/// let mut s = duel_engine::open("connect4", None).unwrap();
/// s.set_position("444", &[]).unwrap();
///
/// // The engine search, to a depth; its moves are in the game's notation.
/// let r = s.search(&Limits::depth(8), &mut |_| {}).unwrap();
/// assert!(s.legal_moves().contains(r.best.as_ref().unwrap()));
///
/// // Every exact algorithm of the texts agrees with minimax at the same depth.
/// let rows = s.compare(3, &Algorithm::ALL).unwrap();
/// let minimax = rows[0].report.value;
/// assert!(rows.iter().filter(|r| r.algorithm.is_exact()).all(|r| r.report.value == minimax));
///
/// // The tree alpha-beta explores, node by node, refused beyond 10,000 nodes.
/// let (report, root) = s.tree(Reference::AlphaBetaSoft, 2, 10_000).unwrap();
/// assert_eq!(root.children.len(), 7);
/// let minimax = s.run(Algorithm::Reference(Reference::Minimax), 2).unwrap();
/// assert_eq!(report.value, minimax.value);
///
/// // The exact value of a position near the end, and of each move.
/// let mut end = duel_engine::open("tictactoe", None).unwrap();
/// end.set_position("5137", &[]).unwrap();
/// let solution = end.solve(&SolveLimits::default(), &mut |_| {}).unwrap();
/// assert_eq!(solution.moves.len(), 5);
/// ```
pub trait Session: Send {
    /// The game's name (`tictactoe`, `connect4`).
    fn game(&self) -> &'static str;
    /// The evaluator's name.
    fn evaluator(&self) -> &'static str;
    /// What one point of the evaluator's scores is ([`duel_core::Evaluator::unit`]).
    fn score_unit(&self) -> &'static str;

    /// Sets the position: the game's text form (empty for the start), then `moves` played on it.
    /// Forgets the moves played before (undo stops here).
    /// Sets the position from its text (empty: the start position), then plays `moves`.
    fn set_position(&mut self, text: &str, moves: &[&str]) -> Result<(), EngineError>;
    /// Plays the variant `spec` from now on (`renju:20` for `gomoku:renju:20`): the position
    /// becomes its start, and position text that names no variant is read in it.
    fn set_variant(&mut self, spec: &str) -> Result<(), EngineError>;
    /// The current position in the game's text form.
    fn position(&self) -> String;
    /// The board drawn as text by the game (several lines, each ending in a newline).
    fn diagram(&self) -> String;
    /// Whose turn it is.
    fn side_to_move(&self) -> Side;
    /// The game's name for a side (`X`/`O`, `Red`/`Yellow`).
    fn side_name(&self, side: Side) -> &'static str;
    /// How the game ended, from the side to move; None while it goes on.
    fn outcome(&self) -> Option<Outcome>;
    /// The winner of a finished game (None for a draw or a game in progress).
    fn winner(&self) -> Option<Side> {
        match self.outcome()? {
            Outcome::Win => Some(self.side_to_move()),
            Outcome::Loss => Some(self.side_to_move().other()),
            Outcome::Draw => None,
        }
    }
    /// The legal moves in the game's notation and move order.
    fn legal_moves(&self) -> Vec<String>;
    /// Plays a move given as text; returns it as the game writes it.
    fn play(&mut self, mv: &str) -> Result<String, EngineError>;
    /// Takes back the last move played since the position was set; returns it.
    fn undo(&mut self) -> Option<String>;
    /// `moves` (in the game's notation, played one after another from the current position)
    /// as the terminal shows them (chess: SAN); stops at the first move that is not legal.
    fn display_line(&self, moves: &[String]) -> Vec<String>;
    /// The record of the moves played since the position was set, in the game's standard
    /// format (chess: PGN, Othello: GGF), with `info`'s names and headers.
    fn record(&self, info: &RecordInfo<'_>) -> Option<String>;
    /// Number of moves played since the position was set (what `undo` can take back).
    fn moves_played(&self) -> usize;
    /// The moves played since the position was set, in the game's notation.
    fn moves(&self) -> Vec<String>;
    /// [`Session::moves`] as the terminal shows them (chess: SAN).
    fn moves_display(&self) -> Vec<String>;
    /// The position the moves were played from, in the game's text form.
    fn start_position(&self) -> String;
    /// Why the game ended, in a few words ([`GameInfo::end_reason`]).
    fn end_reason(&self) -> &'static str;
    /// The file extension of the game's records ([`GameInfo::RECORD_EXTENSION`]).
    fn record_extension(&self) -> &'static str;
    /// Reads a game record in the game's format ([`GameInfo::read_record`]: PGN, GGF, a move
    /// list): its start becomes the position and its moves are played, so `undo` takes them
    /// back. Text that names no variant is read in the session's.
    fn load_record(&mut self, text: &str) -> Result<(), EngineError>;

    /// How a graphical front end draws the board ([`GameInfo::BOARD_STYLE`]).
    fn board_style(&self) -> BoardStyle;
    /// The board as a grid of cells.
    fn board(&self) -> BoardView;
    /// The legal moves in the game's notation and move order, each with the cells it touches.
    fn legal_move_cells(&self) -> Vec<(String, MoveCells)>;
    /// The cells the last move played since the position was set touched.
    fn last_move_cells(&self) -> Option<MoveCells>;

    /// The game's on/off options ([`GameInfo::SWITCHES`]: chess's `UCI_Chess960`).
    fn switches(&self) -> &'static [&'static str];
    /// [`GameInfo::UCI_RANK_OFFSET`]: how much higher UCI numbers the game's ranks.
    fn uci_rank_offset(&self) -> u8;
    /// Turns one of [`Session::switches`] (its name in any case) on or off, for the current
    /// position and every position set after it.
    fn set_switch(&mut self, name: &str, on: bool) -> Result<(), EngineError>;

    /// The engine search's options.
    fn config(&self) -> &SearchConfig;
    /// Changes the engine search's options (a new TT size reallocates the table). A table the
    /// machine cannot give is refused, and the options stay as they were.
    fn set_config(&mut self, config: SearchConfig) -> Result<(), EngineError>;
    /// Setting this flag to true stops a running [`Session::search`].
    fn stop_flag(&self) -> Arc<AtomicBool>;
    /// Clears the transposition table and the history (a new game).
    fn new_game(&mut self);
    /// How full the transposition table is, in permille.
    fn hashfull(&self) -> u32;
    /// The transposition table's size in MiB, or None while the session has none: its first
    /// search makes it ([`Searcher`]), so a session opened only to read positions costs none.
    /// A size given to [`Session::set_config`] is made at once.
    fn table_mb(&self) -> Option<usize>;

    /// The engine search from the current position, by iterative deepening; `on_iteration`
    /// sees the report of each completed depth.
    fn search(
        &mut self,
        limits: &Limits,
        on_iteration: &mut dyn FnMut(&SearchReport),
    ) -> Result<SearchReport, EngineError> {
        self.search_among(limits, &[], on_iteration)
    }
    /// [`Session::search`] with the root restricted to the moves in `among` (all when empty),
    /// as UCI `go searchmoves` asks; a move in `among` that is not legal here is an error.
    fn search_among(
        &mut self,
        limits: &Limits,
        among: &[String],
        on_iteration: &mut dyn FnMut(&SearchReport),
    ) -> Result<SearchReport, EngineError>;
    /// Whether [`Session::search`] answers from the game's own solver where it answers in a
    /// moment ([`GameInfo::quick_solve`]); on by default. A loop that solves with a reach of
    /// its own ([`Session::solve_near_end`]) turns it off, so that beyond it a search searches.
    fn set_quick_solve(&mut self, on: bool);
    /// The game's own solver on the current position, where it is at most `reach` from the
    /// end in the game's own measure (Othello: empty squares; see
    /// [`GameInfo::solve_near_end`]). Its table is kept from one call to the next, and the
    /// session's stop flag ends it, at once if it is already set (unlike a search, this does
    /// not clear it). The report holds the value, the game's margin and the best move alone;
    /// None where the game has no such solver or the position is farther; the bounds proven
    /// when the flag or the `deadline` came first. With [`SolveGoal::Outcome`] the margin is
    /// exact for a draw and otherwise a bound of its sign.
    fn solve_near_end(
        &mut self,
        reach: u32,
        goal: SolveGoal,
        deadline: Option<Instant>,
    ) -> Option<Result<SearchReport, SolverStopped>>;
    /// The evaluator's static value of the current position, from the side to move.
    fn static_eval(&self) -> i32;
    /// Runs one algorithm to `depth` (for the node-budget search, `depth` is ignored and the
    /// budget is the alpha-beta node count at `depth`).
    fn run(&self, algorithm: Algorithm, depth: u32) -> Result<SearchReport, EngineError>;
    /// Runs several algorithms to the same depth, one row each, in the order given.
    fn compare(&self, depth: u32, algorithms: &[Algorithm])
        -> Result<Vec<CompareRow>, EngineError>;
    /// Records the tree a reference algorithm explores to `depth`; refuses (before recording)
    /// when it has more than `cap` nodes. Returns the search's report and the tree. The
    /// two-phase procedure explores the minimax tree and is recorded as such.
    fn tree(
        &self,
        algorithm: Reference,
        depth: u32,
        cap: u64,
    ) -> Result<(SearchReport, TreeNode), EngineError>;
    /// The nodes Minimax visits to `depth` (the most any algorithm of [`Session::compare`]
    /// visits), or None when that is more than `cap`: found for at most `cap` nodes' work, so
    /// a front end can refuse a comparison too large to run before running it.
    fn minimax_nodes(&self, depth: u32, cap: u64) -> Option<u64>;
    /// What the transposition table holds for the position `text` after `moves` (read as
    /// [`Session::set_position`] reads them, the current position untouched): UCCI's `probe`.
    fn probe(&self, text: &str, moves: &[&str]) -> Result<Option<TableProbe>, EngineError>;
    /// Perft: positions exactly `depth` plies ahead.
    fn perft(&self, depth: u32) -> u64;
    /// Perft split by root move, `(move, leaves)` in the game's move order; None once `stop`
    /// is set (it is looked at every few thousand leaves, so a protocol loop can interrupt a
    /// deep count at once).
    fn perft_divide(&self, depth: u32, stop: &AtomicBool) -> Option<Vec<(String, u64)>>;
    /// The exact value of the position and of each move, each move solved in turn (every game
    /// here but chess can be solved). `progress` hears the plan, then how each move's solve
    /// goes. A limit reached first gives [`crate::SolveError::Unfinished`] with the moves solved and
    /// the bounds proven; a position too far from the end to finish in minutes is refused
    /// without a limit ([`crate::SolveError::TooFarFromEnd`]).
    fn solve(
        &self,
        limits: &SolveLimits<'_>,
        progress: &mut dyn FnMut(&SolveProgress<'_>),
    ) -> Result<Solution, EngineError>;
    /// The bench: the game's fixed positions searched to its fixed depth with one thread and
    /// the default options, the table cleared before each. Ignores the current position. The
    /// session's stop flag ([`Session::stop_flag`]) ends it early, with the positions searched
    /// so far and [`BenchResult::stopped`] set.
    fn bench(&self) -> BenchResult;
    /// A move for [`Session::search_among`]'s list, checked against the moves of the root as
    /// the search sees it, and written as the game writes it.
    fn parse_search_move(&self, mv: &str) -> Result<String, EngineError>;
    /// A search depth that suits the game when the user gives no limit.
    fn default_depth(&self) -> u32;
}

/// What the transposition table holds for a position ([`Session::probe`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableProbe {
    /// The move stored, in the game's notation.
    pub best: Option<String>,
    /// The value, from the position's side to move.
    pub value: duel_core::Score,
    /// The depth it was searched to.
    pub depth: u32,
    /// Exact, or a lower or upper bound.
    pub bound: duel_search::tt::Bound,
}

/// The generic session: a position, its evaluator and the engine searcher that keeps its
/// transposition table from one search to the next.
pub struct GameSession<G: Game, E: Evaluator<G>> {
    pos: G,
    played: Vec<G::Move>,
    /// The start position of the variant played: an empty position text means it.
    start: G,
    eval: E,
    searcher: Searcher<G, E>,
    /// The switches turned on, applied to every position the session sets.
    switches: Vec<&'static str>,
    /// Whether a search first asks the game's quick solve.
    quick_solve: bool,
    /// The game's solver, for [`Session::solve_near_end`].
    solver: SolverCache,
}

impl<G: GameInfo, E: Evaluator<G>> GameSession<G, E> {
    /// A session at the start position, searching with `eval` and the default options.
    pub fn new(eval: E) -> Self {
        GameSession {
            pos: G::start(),
            played: Vec::new(),
            start: G::start(),
            searcher: Searcher::new(eval.clone(), SearchConfig::with_profile(&G::SEARCH_PROFILE)),
            eval,
            switches: Vec::new(),
            quick_solve: true,
            solver: SolverCache::default(),
        }
    }

    /// The position.
    pub fn pos(&self) -> &G {
        &self.pos
    }

    /// The engine configuration `compare` uses for its engine rows: values equal minimax at the
    /// same depth.
    pub fn compare_config(algorithm: Algorithm) -> Option<SearchConfig> {
        let exact = SearchConfig {
            threads: 1,
            tt_same_depth_only: true,
            quiescence: false,
            exact_hook: false,
            candidates: false,
            extensions: false,
            ..SearchConfig::default()
        };
        match algorithm {
            Algorithm::Pvs => Some(exact),
            Algorithm::PvsNoTt => Some(SearchConfig {
                use_tt: false,
                ..exact
            }),
            Algorithm::Mtdf => Some(SearchConfig {
                mtdf: true,
                ..exact
            }),
            _ => None,
        }
    }

    fn engine_run(&self, config: SearchConfig, depth: u32) -> SearchReport {
        let mut s = Searcher::new(self.eval.clone(), config);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let r = s.search(&self.pos, &limits, |_| {});
        report_text(&self.pos, &r)
    }

    /// The position `text` (empty: the variant's start) after `moves`, each checked.
    fn read_position(&self, text: &str, moves: &[&str]) -> Result<G, EngineError> {
        // No text means the start position in every game (Othello's text is a whole board).
        let mut pos = if text.trim().is_empty() {
            self.start.clone()
        } else {
            G::from_text_in(&self.start, text)?
        };
        // Before the moves: a switch may change how they are written (Chess960 castling).
        for name in &self.switches {
            pos.set_switch(name, true);
        }
        for (i, m) in moves.iter().enumerate() {
            let mv = pos.parse_move(m).map_err(|reason| EngineError::MoveList {
                index: i + 1,
                reason,
            })?;
            pos.play(mv);
        }
        Ok(pos)
    }

    /// The moves played since the position was set, each written by `write` in the position
    /// it was played from.
    fn played_text(&self, write: impl Fn(&G, G::Move) -> String) -> Vec<String> {
        let mut pos = self.start_pos();
        self.played
            .iter()
            .map(|&mv| {
                let text = write(&pos, mv);
                pos.play(mv);
                text
            })
            .collect()
    }

    /// The position the moves played since the position was set were played from.
    fn start_pos(&self) -> G {
        let mut start = self.pos.clone();
        for &mv in self.played.iter().rev() {
            start.undo(mv);
        }
        start
    }

    fn check_depth(depth: u32) -> Result<(), EngineError> {
        if depth == 0 {
            Err(EngineError::ZeroDepth)
        } else {
            Ok(())
        }
    }
}

impl<G: GameInfo, E: Evaluator<G>> Session for GameSession<G, E> {
    fn game(&self) -> &'static str {
        G::NAME
    }

    fn set_variant(&mut self, spec: &str) -> Result<(), EngineError> {
        self.start = G::variant(spec)?;
        self.set_position("", &[])
    }

    fn evaluator(&self) -> &'static str {
        self.eval.name()
    }

    fn score_unit(&self) -> &'static str {
        self.eval.unit()
    }

    fn set_position(&mut self, text: &str, moves: &[&str]) -> Result<(), EngineError> {
        self.pos = self.read_position(text, moves)?;
        self.played.clear();
        Ok(())
    }

    fn position(&self) -> String {
        self.pos.to_text()
    }

    fn uci_rank_offset(&self) -> u8 {
        G::UCI_RANK_OFFSET
    }

    fn switches(&self) -> &'static [&'static str] {
        G::SWITCHES
    }

    fn set_switch(&mut self, name: &str, on: bool) -> Result<(), EngineError> {
        let Some(&known) = G::SWITCHES.iter().find(|s| s.eq_ignore_ascii_case(name)) else {
            return Err(EngineError::UnknownSwitch {
                game: G::NAME,
                name: name.to_string(),
            });
        };
        self.switches.retain(|&s| s != known);
        if on {
            self.switches.push(known);
        }
        self.pos.set_switch(known, on);
        Ok(())
    }

    fn diagram(&self) -> String {
        self.pos.diagram()
    }

    fn side_to_move(&self) -> Side {
        self.pos.side_to_move()
    }

    fn side_name(&self, side: Side) -> &'static str {
        G::side_name(side)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome()
    }

    fn legal_moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.pos.generate_moves(&mut moves);
        moves.iter().map(|&m| self.pos.format_move(m)).collect()
    }

    fn play(&mut self, mv: &str) -> Result<String, EngineError> {
        let m = self.pos.parse_move(mv)?;
        let text = self.pos.format_move(m);
        self.pos.play(m);
        self.played.push(m);
        Ok(text)
    }

    fn undo(&mut self) -> Option<String> {
        let m = self.played.pop()?;
        self.pos.undo(m);
        Some(self.pos.format_move(m))
    }

    fn display_line(&self, moves: &[String]) -> Vec<String> {
        let mut pos = self.pos.clone();
        let mut out = Vec::new();
        for m in moves {
            let Ok(mv) = pos.parse_move(m) else { break };
            out.push(pos.display_move(mv));
            pos.play(mv);
        }
        out
    }

    fn record(&self, info: &RecordInfo<'_>) -> Option<String> {
        G::record(&self.start_pos(), &self.played, info)
    }

    fn moves_played(&self) -> usize {
        self.played.len()
    }

    fn moves(&self) -> Vec<String> {
        self.played_text(G::format_move)
    }

    fn moves_display(&self) -> Vec<String> {
        self.played_text(G::display_move)
    }

    fn start_position(&self) -> String {
        self.start_pos().to_text()
    }

    fn end_reason(&self) -> &'static str {
        self.pos.end_reason()
    }

    fn record_extension(&self) -> &'static str {
        G::RECORD_EXTENSION
    }

    fn load_record(&mut self, text: &str) -> Result<(), EngineError> {
        let (mut pos, moves) = G::read_record(&self.start, text)?;
        for name in &self.switches {
            pos.set_switch(name, true);
        }
        for &mv in &moves {
            pos.play(mv);
        }
        self.pos = pos;
        self.played = moves;
        Ok(())
    }

    fn board_style(&self) -> BoardStyle {
        G::BOARD_STYLE
    }

    fn board(&self) -> BoardView {
        self.pos.board_view()
    }

    fn legal_move_cells(&self) -> Vec<(String, MoveCells)> {
        let mut moves = Vec::new();
        self.pos.generate_moves(&mut moves);
        moves
            .into_iter()
            .map(|mv| (self.pos.format_move(mv), self.pos.move_cells(mv)))
            .collect()
    }

    fn last_move_cells(&self) -> Option<MoveCells> {
        let &mv = self.played.last()?;
        let mut before = self.pos.clone();
        before.undo(mv);
        Some(before.move_cells(mv))
    }

    fn config(&self) -> &SearchConfig {
        self.searcher.config()
    }

    fn set_config(&mut self, config: SearchConfig) -> Result<(), EngineError> {
        Ok(self.searcher.set_config(config)?)
    }

    fn stop_flag(&self) -> Arc<AtomicBool> {
        self.searcher.stop_flag()
    }

    fn new_game(&mut self) {
        self.searcher.new_game();
    }

    fn hashfull(&self) -> u32 {
        self.searcher.hashfull()
    }

    fn table_mb(&self) -> Option<usize> {
        self.searcher.table_mb()
    }

    fn search_among(
        &mut self,
        limits: &Limits,
        among: &[String],
        on_iteration: &mut dyn FnMut(&SearchReport),
    ) -> Result<SearchReport, EngineError> {
        // A finished game is refused as the search sees its root, where a draw rule alone
        // (chess's repetition, fifty-move rule or bare kings) does not end it: an engine asked
        // for a move there must give one. The moves of `among` are read there too.
        let root = self.pos.search_root();
        if let Some(o) = root.outcome() {
            return Err(EngineError::GameOver(o));
        }
        if limits.depth == Some(0) {
            return Err(EngineError::ZeroDepth);
        }
        let pos = &self.pos;
        let among = among
            .iter()
            .map(|m| root.parse_move(m))
            .collect::<Result<Vec<_>, _>>()?;
        // The exact-knowledge switch also governs the game's own solver, which knows no
        // restriction of the root.
        if self.quick_solve && self.searcher.config().exact_hook && among.is_empty() {
            let start = Instant::now();
            if let Some(q) = pos.quick_solve() {
                let report = solver_report(pos, &q, start);
                on_iteration(&report);
                return Ok(report);
            }
        }
        let r = self
            .searcher
            .search_among(pos, limits, &among, |r| on_iteration(&report_text(pos, r)));
        Ok(report_text(pos, &r))
    }

    fn set_quick_solve(&mut self, on: bool) {
        self.quick_solve = on;
    }

    fn solve_near_end(
        &mut self,
        reach: u32,
        goal: SolveGoal,
        deadline: Option<Instant>,
    ) -> Option<Result<SearchReport, SolverStopped>> {
        let start = Instant::now();
        let stop = self.searcher.stop_flag();
        let limits = SolveBudget {
            stop: Some(&stop),
            threads: self.searcher.config().threads,
            deadline,
            ..SolveBudget::default()
        };
        let solved = self
            .pos
            .solve_near_end(reach, goal, &mut self.solver, &limits)?;
        Some(solved.map(|q| solver_report(&self.pos, &q, start)))
    }

    fn static_eval(&self) -> i32 {
        self.eval.evaluate(&self.pos)
    }

    fn run(&self, algorithm: Algorithm, depth: u32) -> Result<SearchReport, EngineError> {
        Self::check_depth(depth)?;
        let opts = ReferenceOptions::default();
        Ok(match algorithm {
            Algorithm::Reference(r) => {
                report_text(&self.pos, &r.search(&self.pos, &self.eval, depth, opts))
            }
            Algorithm::NodeBudget => {
                let ab = Reference::AlphaBetaSoft.search(&self.pos, &self.eval, depth, opts);
                let r = node_budget(&self.pos, &self.eval, ab.stats.nodes, opts);
                report_text(&self.pos, &r)
            }
            engine => {
                let config = Self::compare_config(engine).expect("an engine row");
                self.engine_run(config, depth)
            }
        })
    }

    fn compare(
        &self,
        depth: u32,
        algorithms: &[Algorithm],
    ) -> Result<Vec<CompareRow>, EngineError> {
        Self::check_depth(depth)?;
        let opts = ReferenceOptions::default();
        let mut rows: Vec<CompareRow> = Vec::with_capacity(algorithms.len());
        for &algorithm in algorithms {
            let (report, budget) = if algorithm == Algorithm::NodeBudget {
                // The budget is what alpha-beta needed at this depth: reuse its row if it ran.
                let ab = rows
                    .iter()
                    .find(|r| r.algorithm == Algorithm::Reference(Reference::AlphaBetaSoft))
                    .map(|r| r.report.stats.nodes);
                let budget = ab.unwrap_or_else(|| {
                    Reference::AlphaBetaSoft
                        .search(&self.pos, &self.eval, depth, opts)
                        .stats
                        .nodes
                });
                let r = node_budget(&self.pos, &self.eval, budget, opts);
                (report_text(&self.pos, &r), Some(budget))
            } else {
                (self.run(algorithm, depth)?, None)
            };
            rows.push(CompareRow {
                algorithm,
                report,
                budget,
            });
        }
        Ok(rows)
    }

    fn tree(
        &self,
        algorithm: Reference,
        depth: u32,
        cap: u64,
    ) -> Result<(SearchReport, TreeNode), EngineError> {
        Self::check_depth(depth)?;
        let opts = ReferenceOptions::default();
        // The two-phase procedure explores exactly the minimax tree; it is drawn as that.
        let traced = match algorithm {
            Reference::TwoPhase => Reference::Minimax,
            other => other,
        };
        // The recorder stops the search at the cap, so a huge tree is refused quickly.
        let mut tree = Tree::with_cap(&self.pos, cap);
        let mut r = traced.search_traced(&self.pos, &self.eval, depth, opts, &mut tree);
        if tree.exceeded() {
            return Err(EngineError::TreeTooLarge { cap });
        }
        r.algorithm = algorithm.name();
        Ok((report_text(&self.pos, &r), tree.finish(r.value)))
    }

    fn minimax_nodes(&self, depth: u32, cap: u64) -> Option<u64> {
        let mut count = Count::with_cap(cap);
        Reference::Minimax.search_traced(
            &self.pos,
            &self.eval,
            depth,
            ReferenceOptions::default(),
            &mut count,
        );
        (!count.exceeded()).then_some(count.nodes)
    }

    fn probe(&self, text: &str, moves: &[&str]) -> Result<Option<TableProbe>, EngineError> {
        let pos = self.read_position(text, moves)?;
        Ok(self.searcher.probe(&pos).map(|p| TableProbe {
            best: p.best.map(|m| pos.format_move(m)),
            value: p.value,
            depth: p.depth,
            bound: p.bound,
        }))
    }

    fn perft(&self, depth: u32) -> u64 {
        GameInfo::perft(&self.pos, depth)
    }

    fn perft_divide(&self, depth: u32, stop: &AtomicBool) -> Option<Vec<(String, u64)>> {
        let mut pos = self.pos.clone();
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let mut rows = Vec::with_capacity(moves.len());
        for mv in moves {
            let text = pos.format_move(mv);
            pos.play(mv);
            let n = perft_until(&mut pos, depth.saturating_sub(1), stop);
            pos.undo(mv);
            rows.push((text, if depth == 0 { 0 } else { n? }));
        }
        Some(rows)
    }

    fn parse_search_move(&self, mv: &str) -> Result<String, EngineError> {
        let root = self.pos.search_root();
        let m = root.parse_move(mv)?;
        Ok(root.format_move(m))
    }

    fn solve(
        &self,
        limits: &SolveLimits<'_>,
        progress: &mut dyn FnMut(&SolveProgress<'_>),
    ) -> Result<Solution, EngineError> {
        Ok(self.pos.solve(limits, progress)?)
    }

    fn bench(&self) -> BenchResult {
        let config = SearchConfig {
            threads: 1,
            ..SearchConfig::with_profile(&G::SEARCH_PROFILE)
        };
        let mut searcher = Searcher::new(self.eval.clone(), config);
        let stop = self.searcher.stop_flag();
        searcher.share_stop_flag(Arc::clone(&stop));
        let limits = Limits {
            depth: Some(G::BENCH_DEPTH),
            ..Limits::default()
        };
        let mut entries = Vec::with_capacity(G::BENCH.len());
        for text in G::BENCH {
            let pos = G::from_text(text).expect("bench positions are valid");
            searcher.new_game();
            let r = searcher.search(&pos, &limits, |_| {});
            // A search clears the flag when it starts, so a stop seen after it is this one's.
            if stop.load(Ordering::Relaxed) {
                break;
            }
            entries.push(BenchEntry {
                position: text.to_string(),
                report: report_text(&pos, &r),
            });
        }
        BenchResult {
            game: G::NAME,
            depth: G::BENCH_DEPTH,
            stopped: entries.len() < G::BENCH.len(),
            entries,
        }
    }

    fn default_depth(&self) -> u32 {
        G::DEFAULT_DEPTH
    }
}

/// The report of an answer from the game's own solver, begun at `start`.
fn solver_report<G: Game>(pos: &G, q: &QuickSolve<G::Move>, start: Instant) -> SearchReport {
    SearchReport {
        algorithm: "solver",
        value: q.value,
        best: q.line.first().map(|&m| pos.format_move(m)),
        pv: line_text(pos, &q.line),
        depth: q.line.len() as u32,
        stats: Stats {
            nodes: q.nodes,
            ..Stats::default()
        },
        time: start.elapsed(),
        margin: Some(q.margin),
        partial: false,
        lines: Vec::new(),
        hashfull: 0,
    }
}

/// Leaves between two looks at the stop flag: counts of this depth take milliseconds in every
/// game here (chess's worst, Kiwipete, about four million leaves).
const PERFT_CHUNK: u32 = 4;

/// [`GameInfo::perft`], interruptible: the plies above the last [`PERFT_CHUNK`] are played
/// here and the stop flag read between chunks. A position without moves is counted by the
/// game itself, which knows how its published tables count a finished game (Othello: one
/// leaf) or a draw by a rule the tables ignore (chess's repetitions).
fn perft_until<G: GameInfo>(pos: &mut G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth <= PERFT_CHUNK {
        return Some(pos.perft(depth));
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    if moves.is_empty() {
        return Some(pos.perft(depth));
    }
    let mut total = 0;
    for mv in moves {
        pos.play(mv);
        let n = perft_until(pos, depth - 1, stop);
        pos.undo(mv);
        total += n?;
    }
    Some(total)
}
