//! Connect Four as the front ends see it: names, notation, evaluator, bench, and the exact
//! solver behind `solve`.

use std::path::Path;

use duel_core::solve::{
    solve_each_move, Distance, ExactSolver, Solution, SolveError, SolveLimits, SolveProgress,
    SolverProgress,
};
use duel_core::{
    pgn, BoardStyle, BoardView, EvaluatorError, EvaluatorVisitor, Game, GameInfo, MoveCells, Piece,
    PositionError, RecordInfo, Score, SolveBudget, SolverStopped,
};

use crate::{pons_to_score, Column, Connect4, Solver, Threats, HEIGHT, WIDTH};

/// Without a limit, `solve` refuses positions with fewer stones than this: the empty board.
/// Measured 2026-11-28 with `duel solve connect4` on the two-core development machine, the
/// other core busy: the empty board 1179 s (8.9 G nodes, 7.6 M nodes/s), one stone (`-p 4`)
/// 426 s (2.3 G nodes), two stones (`-p 44`) 137 s (716 M nodes). One stone is minutes, with
/// a line every few seconds: tried.
pub const SOLVE_MIN_STONES: u32 = 1;

/// What the solves below [`SOLVE_MIN_STONES`] take.
const SOLVE_TAKES: &str = "every move's exact value took 20 minutes here, 9 G nodes";

impl GameInfo for Connect4 {
    fn end_reason(&self) -> &'static str {
        match self.outcome() {
            Some(duel_core::Outcome::Draw) => "the board is full",
            _ => "four in a row",
        }
    }

    const TITLE: &'static str = "Connect Four";
    const ALIASES: &'static [&'static str] = &["connectfour", "c4"];
    const NOTATION: &'static str = "columns 1-7; a position is the columns played so far from \
        the empty board, e.g. 4453, as in Pascal Pons' test sets";
    const EVALUATORS: &'static [&'static str] = &["threats"];
    /// The start, early openings and middle games with threats on both sides.
    const SIDE_NAMES: [&'static str; 2] = ["X", "O"];
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

    /// One evaluator, no file: there is nothing to choose.
    fn make_evaluator<V: EvaluatorVisitor<Self>>(
        _name: &str,
        _file: Option<&Path>,
        visitor: V,
    ) -> Result<V::Output, EvaluatorError> {
        Ok(visitor.visit(Threats::default()))
    }

    fn diagram(&self) -> String {
        Connect4::diagram(self)
    }

    const BOARD_STYLE: BoardStyle = BoardStyle::Drop;

    /// The rows from the top as the diagram draws them, `X` and `O` as it writes the sides;
    /// the columns are numbered as moves are, the rows have no names.
    fn board_view(&self) -> BoardView {
        let cells = (0..HEIGHT)
            .rev()
            .flat_map(|row| (0..WIDTH as Column).map(move |col| (col, row)))
            .map(|(col, row)| {
                self.at(col, row)
                    .map(|side| Piece::of_side(side, ['X', 'O']))
            })
            .collect();
        BoardView {
            cols: WIDTH as u16,
            rows: HEIGHT as u16,
            cells,
            col_labels: (1..=WIDTH).map(|c| c.to_string()).collect(),
            row_labels: vec![String::new(); HEIGHT as usize],
            // A disc is dropped into a column, whichever of its cells is clicked.
            cell_names: (0..WIDTH * HEIGHT)
                .map(|i| (i % WIDTH + 1).to_string())
                .collect(),
        }
    }

    /// Where the disc lands: the lowest empty cell of the column (none in a full one).
    fn move_cells(&self, col: Column) -> MoveCells {
        if !self.can_play(col) {
            return MoveCells::default();
        }
        let row_from_top = HEIGHT - 1 - self.height(col);
        MoveCells::placement((row_from_top * WIDTH + u32::from(col)) as u16)
    }

    /// PGN's tags (the roster with the players under `X` and `O`, then the front end's), then
    /// the columns played from the empty board as the position text writes them, and the
    /// result: `4453 *`. No Connect Four format is read widely enough to follow, and this is
    /// the shape of the other games' records around the form of Pons' test sets. Comments and
    /// times have no place in it.
    fn record(start: &Self, moves: &[Column], info: &RecordInfo<'_>) -> Option<String> {
        let mut end = *start;
        for &col in moves {
            end.play(col);
        }
        let result = info.result.unwrap_or(pgn::result(&end));
        let tags = pgn::write_tags(info.pgn_tags(Self::SIDE_NAMES, result));
        let movetext = [end.to_text().as_str(), result].join(" ");
        Some(format!("{tags}\n{}\n", movetext.trim_start()))
    }

    /// What [`GameInfo::record`] writes, or the position text alone: the columns played from
    /// the empty board, given back as moves. The tags are passed over; the columns may stand
    /// apart (`4 4 5 3`), and a result may end them.
    fn read_record(_start: &Self, text: &str) -> Result<(Self, Vec<Column>), PositionError> {
        let (_, movetext) = pgn::read_tags(text)
            .map_err(|e| PositionError::new(Self::NAME, text, e.to_string()))?;
        let mut words: Vec<&str> = movetext.split_whitespace().collect();
        if words.last().is_some_and(|w| pgn::RESULTS.contains(w)) {
            words.pop();
        }
        let end = Self::from_text(&words.concat())?;
        Ok((Self::start(), end.moves_played().to_vec()))
    }

    fn solve(
        &self,
        limits: &SolveLimits<'_>,
        progress: &mut dyn FnMut(&SolveProgress<'_>),
    ) -> Result<Solution, SolveError> {
        let stones = self.ply();
        if !limits.any() && stones < SOLVE_MIN_STONES {
            return Err(SolveError::TooFarFromEnd {
                game: Self::NAME,
                distance: Distance::Stones {
                    count: stones,
                    fewest: SOLVE_MIN_STONES,
                },
                takes: SOLVE_TAKES,
            });
        }
        solve_each_move(self, &mut Solver::new(), limits, progress)
    }
}

impl ExactSolver<Connect4> for Solver {
    const METHOD: &'static str = "Connect Four solver (Pons: alpha-beta, null windows, bitboards)";
    const MARGIN_NAME: &'static str = "Pons score";
    const PLIES_KNOWN: bool = true;

    fn solve_limited(
        &mut self,
        pos: &Connect4,
        limits: &SolveBudget<'_>,
        progress: &mut dyn FnMut(&SolverProgress),
    ) -> Result<(i32, u64), SolverStopped> {
        let before = self.nodes();
        let pons = Solver::solve_limited(self, pos, false, limits, &mut |p| {
            progress(&SolverProgress {
                lower: p.lower,
                upper: p.upper,
                guess: None,
                stage: "null-window probe",
                // The probe asks "is the score above m?": the window (m, m + 1).
                window: p.probe.map(|m| (m, m + 1)),
                nodes: p.nodes,
            })
        })?;
        Ok((pons, self.nodes() - before))
    }

    fn finished_margin(&mut self, pos: &Connect4) -> i32 {
        self.solve(pos, false)
    }

    fn score(pos: &Connect4, margin: i32) -> Score {
        pons_to_score(pos, margin)
    }
}
