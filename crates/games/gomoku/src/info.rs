//! Gomoku as the front ends see it: names, notation, variants, the evaluator, bench positions,
//! Piskvork's opening lists and the board as a Gomocup brain is told it.

use std::path::Path;

use std::time::Instant;

use duel_core::solve::{
    MoveValue, QuickSolve, Solution, SolveError, SolveLimits, SolveProgress, SolveStep, SolveStop,
    SolverProgress, Unfinished,
};
use duel_core::{
    read_opening_lines, BoardStyle, BoardView, EvaluatorError, EvaluatorVisitor, Game, GameInfo,
    GomocupBoard, MoveCells, OpeningsError, Outcome, Piece, PositionError, RecordInfo, Score,
    SearchProfile,
};

use crate::openings::piskvork_line;
use crate::vcf::{
    quick_vcf, solve_threats, ThreatKind, ThreatLimits, ThreatStop, SOLVE_DEFAULT_NODES, VCT_DEPTH,
};
use crate::{Cell, Gomoku, PatternWeights, Patterns, Textbook, Variant};

impl GameInfo for Gomoku {
    const TITLE: &'static str = "Gomoku";
    const NOTATION: &'static str = "a cell is a column letter and a row number from 1 at the \
        bottom (h8, the centre of 15x15), or Gomocup's x,y from 0 with y from the top (7,7); \
        a position is the moves from the empty board separated by spaces, after the variant \
        when it is not freestyle 15x15, e.g. 'h8 i9 h9' or 'renju:20 k10 k11'";
    const VARIANTS: &'static str = "a rule (freestyle, standard, renju, caro, or Gomocup's \
        rule0, rule1, rule4, rule8) and/or a board size (20, or 15x20 for width x height, 5 to \
        22), joined by ':', e.g. gomoku:renju, gomoku:20, gomoku:standard:15x20; the default \
        is freestyle on 15x15";
    const PROTOCOLS: &'static [&'static str] = &["gomocup"];
    const EVALUATORS: &'static [&'static str] = &["patterns", "textbook"];
    /// The line patterns read their weights from a file as `weights/patterns.txt` is written.
    const FILE_EVALUATORS: &'static [&'static str] = &["patterns"];
    const SIDE_NAMES: [&'static str; 2] = ["Black", "White"];
    /// Freestyle 15x15 from the empty board to a crowded middle game (the fourth is puzzle 0
    /// of `data/gomoku/vcf-puzzles.txt`), and a renju middle game.
    const BENCH: &'static [&'static str] = &[
        "",
        "h8 i9",
        "h8 i9 i8 g8 j7 k6 h10 h9",
        "g7 g5 h8 h6 i7 i6 j8 j7 j10 j9 k8 k11 l10 l8",
        "renju h8 i9 j10 h9 h10 g10 i8 g11 j8",
    ];
    /// With the default evaluator's candidate moves, its fours followed in quiescence and
    /// late moves reduced and futile ones pruned, depth 5 is 160 048 nodes (fitted weights) and
    /// about a second for the five
    /// (2026-11-29, release, one core; 130 141 before quiescence followed fours); depth 3
    /// was only 7 238 nodes, too few to show a change of the search.
    const BENCH_DEPTH: u32 = 5;
    /// With the candidate moves of `patterns`, depth 6 is about half a second in a middle
    /// game (37,618 nodes, 455 ms, `duel analyze gomoku -p "h8 i9 i8 g8 j7 k6 h10 h9"`).
    const DEFAULT_DEPTH: u32 = 6;
    /// Late-move reductions, late-move pruning and futility (150 a ply, in the evaluation's
    /// units): after the threats and the cells the hints rate, the many weak cells near the stones are searched shallower, or near
    /// the horizon not at all; a move that makes a four (a forcing reply) never is. No null
    /// move: passing is no move in Gomoku. Each measured by self-play (docs/BENCHMARKS.md).
    const SEARCH_PROFILE: SearchProfile = SearchProfile {
        lmr: true,
        late_move_pruning: true,
        futility: 150,
        ..SearchProfile::NONE
    };
    /// A depth-3 judge of every random opening takes a second or two.
    const OPENING_DEPTH: u32 = 3;
    /// Below what an open three of the side waiting weighs (over 1,000 with the committed
    /// weights: two open-four cells and two four cells; the side to move's wins outright): an
    /// opening where neither side has a three yet, whatever its twos.
    const OPENING_MARGIN: i32 = 300;

    fn variant(spec: &str) -> Result<Self, PositionError> {
        Variant::parse(spec)
            .map(Gomoku::empty)
            .map_err(|e| PositionError::new(Self::NAME, spec, e.to_string()))
    }

    fn from_text_in(start: &Self, text: &str) -> Result<Self, PositionError> {
        Gomoku::read(start.board_variant(), text)
    }

    /// The line patterns (the default; their weights from `file` if one is given) or the
    /// textbook counts.
    fn make_evaluator<V: EvaluatorVisitor<Self>>(
        name: &str,
        file: Option<&Path>,
        visitor: V,
    ) -> Result<V::Output, EvaluatorError> {
        match (name, file) {
            ("textbook", _) => Ok(visitor.visit(Textbook)),
            (_, Some(path)) => {
                let text =
                    std::fs::read_to_string(path).map_err(|e| EvaluatorError::file(path, e))?;
                let weights =
                    PatternWeights::parse(&text).map_err(|e| EvaluatorError::file(path, e))?;
                Ok(visitor.visit(Patterns::new(weights)))
            }
            _ => Ok(visitor.visit(Patterns::default())),
        }
    }

    fn diagram(&self) -> String {
        Gomoku::diagram(self)
    }

    const BOARD_STYLE: BoardStyle = BoardStyle::Stones;

    /// Rows from the top, as the diagram and Gomocup's `y` go, so a cell's number is
    /// `y * width + x`; labelled as cells are named (`a` on the left, row 1 at the bottom),
    /// `X` Black and `O` White as the diagram writes them.
    fn board_view(&self) -> BoardView {
        let (w, h) = (self.width(), self.height());
        let cells = (0..h)
            .flat_map(|y| (0..w).map(move |x| Cell::new(x, y)))
            .map(|c| self.stone(c).map(|side| Piece::of_side(side, ['X', 'O'])))
            .collect();
        BoardView::with_coordinates(u16::from(w), u16::from(h), cells, false)
    }

    /// The cell played (none for a cell off this board, which is no move here).
    fn move_cells(&self, mv: Cell) -> MoveCells {
        match self.cell(u32::from(mv.x()), u32::from(mv.y())) {
            Some(_) => MoveCells::placement(
                u16::from(mv.y()) * u16::from(self.width()) + u16::from(mv.x()),
            ),
            None => MoveCells::default(),
        }
    }

    /// The position text of the game's end: the variant and every move from the empty board.
    fn record(start: &Self, moves: &[Self::Move], _info: &RecordInfo<'_>) -> Option<String> {
        let mut pos = start.clone();
        for &mv in moves {
            pos.play(mv);
        }
        Some(pos.to_text())
    }

    /// A position text (what [`GameInfo::record`] writes), in `start`'s variant unless it
    /// names one: the empty board of that variant and the moves.
    fn read_record(start: &Self, text: &str) -> Result<(Self, Vec<Cell>), PositionError> {
        let end = Gomoku::read(start.board_variant(), text)?;
        Ok((
            Gomoku::empty(end.board_variant()),
            end.moves_played().to_vec(),
        ))
    }

    fn end_reason(&self) -> &'static str {
        self.ended_by().unwrap_or("not over")
    }

    /// A position or a line of moves a line, or Piskvork's opening lists (`x,y` offsets
    /// from the centre, Black first), whose lines falling off `start`'s board are skipped.
    fn read_openings(start: &Self, text: &str) -> Result<Vec<(Self, Vec<String>)>, OpeningsError> {
        read_opening_lines(start, text, |line| piskvork_line(start, line))
    }

    /// The board's size, the rule's Gomocup number and the stones played, cells being
    /// Gomocup's points already.
    fn gomocup_board(&self) -> Option<GomocupBoard> {
        let variant = self.board_variant();
        Some(GomocupBoard {
            width: u32::from(variant.width),
            height: u32::from(variant.height),
            rule: variant.rule.gomocup(),
            stones: (self.moves_played().iter())
                .map(|c| (u32::from(c.x()), u32::from(c.y())))
                .collect(),
        })
    }

    /// A VCF for the side to move, if [`quick_vcf`] finds one within its few thousand nodes:
    /// a forced win, its line to the five (not always the shortest: the value's distance is
    /// that line's). Its cost: see [`crate::vcf::QUICK_VCF_NODES`]. `duel bench` does not ask
    /// it (the bench searches directly), so its node count is unchanged.
    fn quick_solve(&self) -> Option<QuickSolve<Self::Move>> {
        let r = quick_vcf(self);
        let line = r.win.ok()?.line;
        let plies = line.len() as i32;
        Some(QuickSolve {
            value: Score::win_in(plies),
            margin: plies,
            exact: true,
            line,
            nodes: r.nodes,
        })
    }

    /// The threat-space solver ([`crate::vcf`]): a VCF, else a VCT, for the side to move. It
    /// proves wins only, so a win is the one value it gives: the winning first move alone is
    /// listed (the others are not solved), its line is reported as the move's progress with
    /// the kind (`g9 by VCF: g9 h10 ...`), and the margin counts the line's plies. Found
    /// nothing: [`SolveError::Unfinished`] when a limit (given, or
    /// [`crate::vcf::SOLVE_DEFAULT_NODES`] without one) stopped it, else [`SolveError::NotSolvable`]: no
    /// VCF, and no VCT within [`crate::vcf::VCT_DEPTH`] threats, which proves nothing.
    fn solve(
        &self,
        limits: &SolveLimits<'_>,
        progress: &mut dyn FnMut(&SolveProgress<'_>),
    ) -> Result<Solution, SolveError> {
        let start = Instant::now();
        if let Some(o) = self.outcome() {
            return Ok(Solution {
                value: match o {
                    Outcome::Win => Score::WIN,
                    Outcome::Loss => Score::LOSS,
                    Outcome::Draw => Score::DRAW,
                },
                plies_known: true,
                margin: None,
                margin_name: "",
                moves: Vec::new(),
                method: "the rules (the game is over)",
                nodes: 0,
                time: start.elapsed(),
            });
        }
        let nodes = match limits.any() {
            true => limits.nodes,
            false => Some(SOLVE_DEFAULT_NODES),
        };
        let threat_limits = ThreatLimits {
            nodes,
            deadline: limits.time.map(|t| start + t),
            stop: limits.stop,
            vct_depth: None,
            vcf_depth: None,
        };
        let result = solve_threats(self, &threat_limits);
        let time = start.elapsed();
        match result.win {
            Ok(win) => {
                let first = self.cell_name(win.line[0]);
                let plies = win.line.len() as i32;
                let line: Vec<String> = line_names(self, &win.line);
                let text = format!("{first} by {}: {}", win.kind.name(), line.join(" "));
                progress(&SolveProgress::Move(duel_core::solve::MoveProgress {
                    mv: &text,
                    index: 0,
                    of: 1,
                    step: SolveStep::Solved,
                    search: SolverProgress {
                        lower: Some(plies),
                        upper: Some(plies),
                        nodes: result.nodes,
                        ..SolverProgress::NOTHING
                    },
                    time,
                }));
                let value = Score::win_in(plies);
                Ok(Solution {
                    value,
                    plies_known: false,
                    margin: Some(plies),
                    margin_name: MARGIN_NAME,
                    moves: vec![MoveValue {
                        mv: first,
                        value,
                        margin: Some(plies),
                    }],
                    method: match win.kind {
                        ThreatKind::Vcf => {
                            "VCF: continuous fours (threat-space search); \
                            only the winning move is proven"
                        }
                        ThreatKind::Vct => {
                            "VCT: continuous fours and threes (threat-space \
                            search); only the winning move is proven"
                        }
                    },
                    nodes: result.nodes,
                    time,
                })
            }
            Err(ThreatStop::Exhausted) => {
                let text = format!("(none: no VCF, and no VCT of at most {VCT_DEPTH} threats)");
                progress(&SolveProgress::Move(duel_core::solve::MoveProgress {
                    mv: &text,
                    index: 0,
                    of: 1,
                    step: SolveStep::Narrowed,
                    search: SolverProgress {
                        stage: "threat-space search, which proves wins only",
                        nodes: result.nodes,
                        ..SolverProgress::NOTHING
                    },
                    time,
                }));
                Err(SolveError::NotSolvable { game: Self::NAME })
            }
            Err(stop) => Err(SolveError::Unfinished(Box::new(Unfinished {
                stop: match stop {
                    ThreatStop::Time => SolveStop::Time(limits.time.unwrap_or_default()),
                    ThreatStop::Flag => SolveStop::Flag,
                    _ => SolveStop::Nodes(nodes.unwrap_or_default()),
                },
                solved: Vec::new(),
                current: None,
                untried: 0,
                at_least: None,
                margin_name: MARGIN_NAME,
                nodes: result.nodes,
                time,
            }))),
        }
    }
}

/// What the margin of a threat-space win counts.
const MARGIN_NAME: &str = "plies to five in the line found";

/// The cells' names.
fn line_names(pos: &Gomoku, line: &[crate::Cell]) -> Vec<String> {
    line.iter().map(|&c| pos.cell_name(c)).collect()
}
