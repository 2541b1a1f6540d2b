//! Tic-tac-toe as the front ends see it: names, notation, evaluator, bench, and its solver,
//! which searches the whole game (at most nine plies).

use std::path::Path;
use std::time::Instant;

use duel_core::solve::{MoveValue, Solution, SolveError, SolveLimits, SolveProgress};
use duel_core::{
    BoardStyle, BoardView, EvaluatorError, EvaluatorVisitor, Game, GameInfo, MoveCells, Outcome,
    Piece, PositionError, Score, Side,
};

use crate::{Cell, OpenLines, TicTacToe};

impl GameInfo for TicTacToe {
    fn end_reason(&self) -> &'static str {
        match self.outcome() {
            Some(duel_core::Outcome::Draw) => "the board is full",
            _ => "three in a row",
        }
    }

    const TITLE: &'static str = "tic-tac-toe";
    const ALIASES: &'static [&'static str] = &["ttt"];
    const NOTATION: &'static str = "cells 1-9 in reading order; a position is the cells played \
        so far from the empty board, e.g. 519";
    const EVALUATORS: &'static [&'static str] = &["open-lines"];
    /// Openings and middle games, each searched to the end of the game.
    const SIDE_NAMES: [&'static str; 2] = ["X", "O"];
    const BENCH: &'static [&'static str] = &["", "5", "1", "2", "51", "52", "159", "5137"];
    const BENCH_DEPTH: u32 = 9;
    /// The whole game: the engine then plays perfectly.
    const DEFAULT_DEPTH: u32 = 9;

    /// One evaluator, no file: there is nothing to choose.
    fn make_evaluator<V: EvaluatorVisitor<Self>>(
        _name: &str,
        _file: Option<&Path>,
        visitor: V,
    ) -> Result<V::Output, EvaluatorError> {
        Ok(visitor.visit(OpenLines))
    }

    fn diagram(&self) -> String {
        TicTacToe::diagram(self)
    }

    const BOARD_STYLE: BoardStyle = BoardStyle::Marks;

    /// The cells in reading order, as the diagram and the cell numbers go; the notation names
    /// cells, not columns or rows, so the labels are empty.
    fn board_view(&self) -> BoardView {
        let mark = |cell: u16| {
            [Side::First, Side::Second]
                .into_iter()
                .find(|&side| self.stones(side) >> cell & 1 != 0)
                .map(|side| Piece::of_side(side, ['X', 'O']))
        };
        BoardView {
            cols: 3,
            rows: 3,
            cells: (0..9).map(mark).collect(),
            col_labels: vec![String::new(); 3],
            row_labels: vec![String::new(); 3],
            cell_names: (1..=9).map(|n| n.to_string()).collect(),
        }
    }

    fn move_cells(&self, mv: Cell) -> MoveCells {
        MoveCells::placement(u16::from(mv))
    }

    /// The position text is the moves from the empty board: they are given back as moves.
    fn read_record(_start: &Self, text: &str) -> Result<(Self, Vec<Cell>), PositionError> {
        let end = Self::from_text(text)?;
        Ok((Self::start(), end.history().to_vec()))
    }

    /// Solved in a millisecond or so: the limits are not looked at, and there is nothing to
    /// report on the way.
    fn solve(
        &self,
        _limits: &SolveLimits<'_>,
        _progress: &mut dyn FnMut(&SolveProgress<'_>),
    ) -> Result<Solution, SolveError> {
        let start = Instant::now();
        let mut nodes = 1;
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        let mut child = self.clone();
        let values: Vec<MoveValue> = moves
            .iter()
            .map(|&mv| {
                child.play(mv);
                let v = -to_the_end(&mut child, -Score::INF, Score::INF, &mut nodes);
                child.undo(mv);
                MoveValue {
                    mv: self.format_move(mv),
                    // One ply further from the position solved than from the child.
                    value: v.from_tt(1),
                    margin: None,
                }
            })
            .collect();
        let value = match self.outcome() {
            Some(o) => terminal(o),
            None => values.iter().map(|m| m.value).max().unwrap_or(Score::DRAW),
        };
        Ok(Solution {
            value,
            plies_known: true,
            margin: None,
            margin_name: "",
            moves: values,
            method: "alpha-beta to the end of the game",
            nodes,
            time: start.elapsed(),
        })
    }
}

/// A finished game's value for the side to move.
fn terminal(o: Outcome) -> Score {
    match o {
        Outcome::Win => Score::win_in(0),
        Outcome::Loss => Score::loss_in(0),
        Outcome::Draw => Score::DRAW,
    }
}

/// The exact value for the side to move, wins and losses counted in plies from `pos`:
/// fail-soft alpha-beta to the end of the game, which a 3x3 board reaches in nine plies.
fn to_the_end(pos: &mut TicTacToe, mut alpha: Score, beta: Score, nodes: &mut u64) -> Score {
    *nodes += 1;
    if let Some(o) = pos.outcome() {
        return terminal(o);
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut best = -Score::INF;
    for mv in moves {
        pos.play(mv);
        // The child's bounds, one ply further from here.
        let v = (-to_the_end(pos, (-beta).to_tt(1), (-alpha).to_tt(1), nodes)).from_tt(1);
        pos.undo(mv);
        if v > best {
            best = v;
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}
