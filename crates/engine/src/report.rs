//! The typed answers of the facade: no game types, moves as text in the game's notation.

use std::time::Duration;

use duel_core::Game;
use duel_search::{Reference, Report};

use crate::EngineError;

/// A search report with its moves written in the game's notation (the facade's boundary is
/// game-agnostic).
pub type SearchReport = Report<String>;

/// Writes `report` (a search from `pos`) with its moves in the game's notation.
pub(crate) fn report_text<G: Game>(pos: &G, report: &Report<G::Move>) -> SearchReport {
    Report {
        algorithm: report.algorithm,
        value: report.value,
        best: report.best.map(|m| pos.format_move(m)),
        pv: line_text(pos, &report.pv),
        depth: report.depth,
        stats: report.stats,
        time: report.time,
        lines: report
            .lines
            .iter()
            .map(|(v, line)| (*v, line_text(pos, line)))
            .collect(),
        hashfull: report.hashfull,
        margin: report.margin,
        partial: report.partial,
    }
}

/// `count` per second over `time` (0 for a time too short to measure).
pub fn per_second(count: u64, time: Duration) -> u64 {
    (count as u128 * 1_000_000)
        .checked_div(time.as_micros())
        .map_or(0, |n| n as u64)
}

/// A line of moves from `pos`, each written in the position it is played from. Stops at the
/// first move that is not legal there (a PV never has one, but the text must not panic).
/// Legal as the search saw it: from its root, which a draw rule alone does not end.
pub(crate) fn line_text<G: Game>(pos: &G, line: &[G::Move]) -> Vec<String> {
    let mut p = pos.search_root();
    let mut moves = Vec::new();
    let mut out = Vec::with_capacity(line.len());
    for &mv in line {
        p.generate_moves(&mut moves);
        if !moves.contains(&mv) {
            break;
        }
        out.push(p.format_move(mv));
        p.play(mv);
    }
    out
}

/// One position of `bench`.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchEntry {
    /// The position in the game's text form.
    pub position: String,
    /// The search of it.
    pub report: SearchReport,
}

/// The result of `bench` for one game.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchResult {
    /// The game.
    pub game: &'static str,
    /// The fixed depth every position was searched to.
    pub depth: u32,
    /// One entry per position searched.
    pub entries: Vec<BenchEntry>,
    /// Stopped before every position was searched (the totals are then no signature).
    pub stopped: bool,
}

impl BenchResult {
    /// Nodes over all positions: the signature.
    pub fn nodes(&self) -> u64 {
        self.entries.iter().map(|e| e.report.stats.nodes).sum()
    }

    /// Search time over all positions.
    pub fn time(&self) -> Duration {
        self.entries.iter().map(|e| e.report.time).sum()
    }

    /// Nodes per second over all positions.
    pub fn nps(&self) -> u64 {
        per_second(self.nodes(), self.time())
    }
}

/// Every algorithm `compare` can put side by side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Algorithm {
    /// One of the textbook algorithms.
    Reference(Reference),
    /// Search under a node budget (the reference `node_budget`); not exact.
    NodeBudget,
    /// The engine's principal variation search, made to equal minimax at the same depth
    /// (same-depth TT cut-offs only, no quiescence, no extensions, no exact hook, no
    /// candidate-move pruning).
    Pvs,
    /// The same as [`Algorithm::Pvs`] without a transposition table.
    PvsNoTt,
    /// The same as [`Algorithm::Pvs`] with MTD(f) at the root of each iteration.
    Mtdf,
}

impl Algorithm {
    /// Every algorithm, in the order `compare` shows them by default.
    pub const ALL: [Algorithm; 9] = [
        Algorithm::Reference(Reference::Minimax),
        Algorithm::Reference(Reference::Negamax),
        Algorithm::Reference(Reference::AlphaBetaHard),
        Algorithm::Reference(Reference::AlphaBetaSoft),
        Algorithm::Reference(Reference::TwoPhase),
        Algorithm::NodeBudget,
        Algorithm::Pvs,
        Algorithm::PvsNoTt,
        Algorithm::Mtdf,
    ];

    /// The name on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Reference(r) => r.name(),
            Algorithm::NodeBudget => "node-budget",
            Algorithm::Pvs => "pvs",
            Algorithm::PvsNoTt => "pvs-no-tt",
            Algorithm::Mtdf => "mtdf",
        }
    }

    /// True if the algorithm returns the exact minimax value at the depth (all but the
    /// node-budget search, whose horizon is uneven).
    pub const fn is_exact(self) -> bool {
        !matches!(self, Algorithm::NodeBudget)
    }

    /// Reads an algorithm name.
    pub fn parse(name: &str) -> Result<Algorithm, EngineError> {
        let n = name.trim().to_ascii_lowercase();
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == n)
            .ok_or_else(|| EngineError::UnknownAlgorithm {
                name: name.to_string(),
                known: Self::known(),
            })
    }

    fn known() -> String {
        Algorithm::ALL.map(Algorithm::name).join(", ")
    }
}

/// The algorithms a tree can be recorded for.
pub const TREE_ALGORITHMS: [Reference; 5] = Reference::ALL;

/// Reads the name of a reference algorithm (for `tree`).
pub fn parse_reference(name: &str) -> Result<Reference, EngineError> {
    let n = name.trim().to_ascii_lowercase();
    TREE_ALGORITHMS
        .into_iter()
        .find(|a| a.name() == n)
        .ok_or_else(|| EngineError::UnknownAlgorithm {
            name: name.to_string(),
            known: TREE_ALGORITHMS.map(Reference::name).join(", "),
        })
}

/// One row of `compare`.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareRow {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Its report.
    pub report: SearchReport,
    /// For the node-budget search: the budget it was given (the alpha-beta node count).
    pub budget: Option<u64>,
}
