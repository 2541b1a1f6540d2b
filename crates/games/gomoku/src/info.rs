//! Gomoku as the front ends see it: names, notation, variants, the evaluator, bench positions.

use std::path::Path;

use duel_core::{EvaluatorError, EvaluatorVisitor, Game, GameInfo, PositionError, RecordInfo};

use crate::{Gomoku, Textbook, Variant};

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
    const EVALUATORS: &'static [&'static str] = &["textbook"];
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
    /// Full width, some 200 moves a ply: depth 3 is about 50 000 nodes a position, 1.6 s
    /// for the five with the textbook evaluator (measured 2026-11-28, release, two busy cores).
    const BENCH_DEPTH: u32 = 3;
    const DEFAULT_DEPTH: u32 = 3;
    /// Full width, a depth-3 judge of every random opening takes a second or two.
    const OPENING_DEPTH: u32 = 3;
    /// Below an open three's weight (700 for the side waiting, 1500 for the side to move): an
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

    /// One evaluator, no file: there is nothing to choose.
    fn make_evaluator<V: EvaluatorVisitor<Self>>(
        _name: &str,
        _file: Option<&Path>,
        visitor: V,
    ) -> Result<V::Output, EvaluatorError> {
        Ok(visitor.visit(Textbook))
    }

    fn diagram(&self) -> String {
        Gomoku::diagram(self)
    }

    /// The position text of the game's end: the variant and every move from the empty board.
    fn record(start: &Self, moves: &[Self::Move], _info: &RecordInfo<'_>) -> Option<String> {
        let mut pos = start.clone();
        for &mv in moves {
            pos.play(mv);
        }
        Some(pos.to_text())
    }

    fn end_reason(&self) -> &'static str {
        self.ended_by().unwrap_or("not over")
    }
}
