//! Xiangqi as the front ends see it: names, notation, the evaluator, bench, the search
//! profile, WXF for people, PGN records and the board a browser draws.

use std::path::Path;

use duel_core::{
    BoardStyle, BoardView, EvaluatorError, EvaluatorVisitor, GameInfo, MoveCells, Piece,
    PositionError, RecordInfo, SearchProfile,
};

use crate::board::{file_of, rank_of, square, square_name, Square, FILES, RANKS};
use crate::strong::Weights;
use crate::{Material, Move, Strong, Xiangqi};

/// A point's cell in the view: rank 9 is the top row, file a the left column.
fn cell(sq: Square) -> u16 {
    u16::from(RANKS - 1 - rank_of(sq)) * u16::from(FILES) + u16::from(file_of(sq))
}

impl GameInfo for Xiangqi {
    const TITLE: &'static str = "xiangqi (Chinese chess)";
    const ALIASES: &'static [&'static str] = &["chinesechess", "cchess"];
    const NOTATION: &'static str = "moves in WXF as players write them (C2.5, H8+7, +R.4: the \
        piece, its file from the mover's right or a front/rear mark, then . + or - and a file \
        or a count) or in ICCS coordinates as UCCI writes them (h2e2: files a-i from Red's \
        left, ranks 0-9 from Red's side), shown in WXF; a position is a FEN as Pikafish and Fairy-Stockfish write it (Red in capitals, w or r for \
        Red to move, b for Black; startpos or nothing for the start)";
    /// UCCI as ElephantEye speaks it; UCI as Fairy-Stockfish does (`UCI_Variant xiangqi`,
    /// ranks from 1).
    const PROTOCOLS: &'static [&'static str] = &["ucci", "uci"];
    /// Strong first, the default: at equal nodes it scores 87% against Material
    /// (docs/BENCHMARKS.md, "Xiangqi: the strong evaluator").
    const EVALUATORS: &'static [&'static str] = &["strong", "material"];
    /// Strong reads its weights from a file as `weights/strong.txt` is written.
    const FILE_EVALUATORS: &'static [&'static str] = &["strong"];
    /// Fairy-Stockfish numbers ranks from 1 in UCI (`h3e3`), ICCS from 0 (`h2e2`).
    const UCI_RANK_OFFSET: u8 = 1;
    const SIDE_NAMES: [&'static str; 2] = ["Red", "Black"];
    /// The start, two middlegames of the perft suite (data/xiangqi/perft.txt) and a
    /// cannon-and-horse ending.
    const BENCH: &'static [&'static str] = &[
        crate::START_FEN,
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
        "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    ];
    const BENCH_DEPTH: u32 = 9;
    const DEFAULT_DEPTH: u32 = 10;
    /// Chess's selective search but for singular extensions: xiangqi's trees are as wide and
    /// as full of bad moves. Measured by self-play (docs/BENCHMARKS.md, "The search profile,
    /// by self-play"): each switch on is worth its place or within the noise; `improving`
    /// gained with the material evaluator and not with Strong, so it stays off, and singular
    /// extensions gained nothing in 200 games. Exchange pruning needs a static exchange that
    /// lets only legal captures take part (pins to the general are everywhere in xiangqi):
    /// without that it lost 33% of its games. Correction history keys on the soldiers,
    /// advisors and elephants ([`duel_core::Game::structure_key`]). Exchange pruning spares
    /// every check: xiangqi's mates begin with a chariot given up with check.
    const SEARCH_PROFILE: SearchProfile = SearchProfile {
        null_move: true,
        lmr: true,
        futility: 100,
        iir: true,
        late_move_pruning: true,
        continuation: true,
        correction: true,
        exchange_pruning: true,
        exchange_spares_checks: true,
        ..SearchProfile::NONE
    };

    fn make_evaluator<V: EvaluatorVisitor<Self>>(
        name: &str,
        file: Option<&Path>,
        visitor: V,
    ) -> Result<V::Output, EvaluatorError> {
        match (name, file) {
            ("strong", Some(path)) => {
                let text =
                    std::fs::read_to_string(path).map_err(|e| EvaluatorError::file(path, e))?;
                let weights = Weights::parse(&text).map_err(|e| EvaluatorError::file(path, e))?;
                Ok(visitor.visit(Strong::new(weights)))
            }
            ("strong", None) => Ok(visitor.visit(Strong::default())),
            _ => Ok(visitor.visit(Material)),
        }
    }

    fn diagram(&self) -> String {
        Xiangqi::diagram(self)
    }

    const RECORD_EXTENSION: &'static str = "pgn";

    const BOARD_STYLE: BoardStyle = BoardStyle::Xiangqi;

    /// Red's view, as the diagram: rank 9 on top, file a on the left; the cells are named as
    /// ICCS names the points (`e0`).
    fn board_view(&self) -> BoardView {
        let points = || {
            (0..RANKS)
                .rev()
                .flat_map(|r| (0..FILES).map(move |f| square(f, r)))
        };
        let cells = points()
            .map(|sq| {
                self.board().piece_at(sq).map(|p| Piece {
                    side: p.side,
                    kind: p.kind.letter(),
                })
            })
            .collect();
        BoardView {
            cols: u16::from(FILES),
            rows: u16::from(RANKS),
            cells,
            col_labels: (0..FILES)
                .map(|f| char::from(b'a' + f).to_string())
                .collect(),
            row_labels: (0..RANKS).rev().map(|r| r.to_string()).collect(),
            cell_names: points().map(square_name).collect(),
        }
    }

    fn move_cells(&self, mv: Move) -> MoveCells {
        MoveCells::between(cell(mv.from()), cell(mv.to()))
    }

    /// WXF notation (`C2.5`, `H2+3`, `R+.3`).
    fn display_move(&self, mv: Move) -> String {
        crate::notation::wxf(self.board(), mv)
    }

    /// PGN with the `Variant "xiangqi"` tag and the moves in ICCS coordinates.
    fn record(start: &Self, moves: &[Move], info: &RecordInfo<'_>) -> Option<String> {
        Some(crate::record::write(start, moves, info))
    }

    /// PGN (the first game of a file), a FEN alone, or ICCS moves after `startpos` or a FEN
    /// (`startpos moves h2e2 h9g7`, as UCCI's `position` gives them); a bare list of moves is
    /// read from the start. Repetitions do not stop the reading.
    fn read_record(_start: &Self, text: &str) -> Result<(Self, Vec<Move>), PositionError> {
        crate::record::read_record(text)
    }

    /// `checkmate`, `stalemate` (which loses too), `60 moves without a capture` (a draw), or
    /// on the third occurrence of a position (the second inside a search) the ruling on the
    /// cycle of moves since the last one: `perpetual check` (a side that checked with every
    /// move of it, the other not, loses), else `perpetual chase` (a side whose chariot,
    /// horse or cannon newly attacked one same unprotected piece with every move, or a
    /// chariot with a horse or cannon, the other not, loses), else `repetition` (a draw).
    /// Not modelled: alternating check and chase, chases by other pieces, pins and
    /// protection the capture itself changes (`duel_xiangqi::rulings` has the full list).
    fn end_reason(&self) -> &'static str {
        Xiangqi::end_reason(self).unwrap_or("win")
    }

    /// The published tables count on the bare rules: no repetition or 60-move rule stops a
    /// line.
    fn perft(&self, depth: u32) -> u64 {
        self.board().clone().perft(depth)
    }
}
