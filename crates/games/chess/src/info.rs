//! Chess as the front ends see it: names, notation, evaluators (and the net file `net` may
//! read), bench, the search profile chess is tuned with, SAN and PGN for people, Chess960
//! (its numbered starts), openings files and EPD test suites.

use std::path::Path;

use cozy_chess::{Color, File, Rank, Square};
use duel_core::{
    BoardStyle, BoardView, EvaluatorError, EvaluatorVisitor, Game, GameInfo, MoveCells,
    OpeningsError, Outcome, Piece, PositionError, RecordInfo, SearchProfile, Side, SuiteError,
    SuitePosition,
};

use crate::nnue::Network;
use crate::{pgn, piece_char, Chess, Material, Move, Net, Pst, Strong};

impl GameInfo for Chess {
    const TITLE: &'static str = "chess";
    const NOTATION: &'static str = "moves in SAN as players write them (e4, Nf3, exd5, O-O, \
        e8=Q) or in UCI long algebraic (e2e4, e7e8q; castling e1g1, e1h1 accepted too); a \
        position is a FEN (startpos or nothing for the start)";
    const PROTOCOLS: &'static [&'static str] = &["uci"];
    const EVALUATORS: &'static [&'static str] = &["net", "strong", "pst", "material"];
    /// A net trained with `duel-train chess-nnue`, played without rebuilding duel.
    const FILE_EVALUATORS: &'static [&'static str] = &["net"];
    /// The perft suite's positions (data/chess/perft.txt): the opening, Kiwipete's tactics, a
    /// rook ending, promotions and castling.
    const SIDE_NAMES: [&'static str; 2] = ["White", "Black"];
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
    /// Null move (with the evaluator's zugzwang guard), late-move reductions and the rest:
    /// chess trees are wide and most moves are bad, the case they were made for. The margins
    /// are in centipawns; each was measured by self-play (docs/BENCHMARKS.md, "Search
    /// changes").
    const SEARCH_PROFILE: SearchProfile = SearchProfile {
        null_move: true,
        lmr: true,
        futility: 90,
        iir: true,
        late_move_pruning: true,
        singular: 2,
        continuation: true,
        correction: true,
        exchange_pruning: true,
        exchange_spares_checks: false,
        probcut: 0,
    };
    /// Chess960 notation: castling written as the king taking its rook.
    const SWITCHES: &'static [&'static str] = &["UCI_Chess960"];
    /// Standard chess is xboard's `normal`, what its `new` sets up.
    const XBOARD_VARIANT: &'static str = "normal";
    /// Chess960's starts, in Scharnagl's numbering (518 is the standard start).
    const NUMBERED_STARTS: u32 = 960;

    fn make_evaluator<V: EvaluatorVisitor<Self>>(
        name: &str,
        file: Option<&Path>,
        visitor: V,
    ) -> Result<V::Output, EvaluatorError> {
        match (name, file) {
            ("net", Some(path)) => {
                let net = Network::read(path).map_err(|e| EvaluatorError::file(path, e))?;
                Ok(visitor.visit(Net::new(net)))
            }
            ("net", _) => Ok(visitor.visit(Net::default())),
            ("strong", _) => Ok(visitor.visit(Strong::default())),
            ("pst", _) => Ok(visitor.visit(Pst)),
            _ => Ok(visitor.visit(Material)),
        }
    }

    fn set_switch(&mut self, name: &str, on: bool) {
        if name == "UCI_Chess960" {
            self.set_chess960(on);
        }
    }

    fn diagram(&self) -> String {
        Chess::diagram(self)
    }

    const RECORD_EXTENSION: &'static str = "pgn";

    const BOARD_STYLE: BoardStyle = BoardStyle::Checkered;

    /// White's view, as the diagram: a8 first, h1 last.
    fn board_view(&self) -> BoardView {
        let b = self.board();
        let cells = Rank::ALL
            .iter()
            .rev()
            .flat_map(|&rank| File::ALL.map(|file| Square::new(file, rank)))
            .map(|sq| {
                let side = match b.color_on(sq)? {
                    Color::White => Side::First,
                    Color::Black => Side::Second,
                };
                let kind = piece_char(b.piece_on(sq)?).to_ascii_uppercase();
                Some(Piece { side, kind })
            })
            .collect();
        BoardView::with_coordinates(8, 8, cells, false)
    }

    /// The from and to squares; castling goes to the king's own destination (g1, c1...), not
    /// onto its rook as it is played inside, so that a click on g1 castles in Chess960 too.
    /// A promotion's cells are those of its pawn's move, whatever the piece.
    fn move_cells(&self, mv: Move) -> MoveCells {
        let mv = self.king_step_castle(mv);
        let cell = |sq: Square| (7 - sq.rank() as u16) * 8 + sq.file() as u16;
        MoveCells::between(cell(mv.from), cell(mv.to))
    }

    /// PGN (the first game of a file), a FEN alone, or UCI moves after `startpos` or a FEN
    /// (`startpos moves e2e4 e7e5`, UCI's `position` arguments); a PGN's moves may be SAN or
    /// UCI, so a bare list of either is read from the standard start. Draw rules do not stop
    /// the reading (a repetition no one claimed), and Chess960 notation is on where `start`
    /// has it or the record's Variant tag says so.
    fn read_record(start: &Self, text: &str) -> Result<(Self, Vec<Move>), PositionError> {
        crate::record::read_record(start, text)
    }

    fn display_move(&self, mv: Move) -> String {
        self.san(mv)
    }

    /// PGN with the front end's tags, each move's comment, the result and the termination.
    fn record(start: &Self, moves: &[Move], info: &RecordInfo<'_>) -> Option<String> {
        Some(pgn(start, moves, info))
    }

    fn end_reason(&self) -> &'static str {
        match self.outcome() {
            Some(Outcome::Draw) => {
                let b = self.board();
                if !b.generate_moves(|_| true) {
                    "stalemate"
                } else if crate::insufficient_material(b) {
                    "insufficient material"
                } else if b.halfmove_clock() >= 100 {
                    "fifty-move rule"
                } else {
                    "threefold repetition"
                }
            }
            Some(Outcome::Loss) => "checkmate",
            _ => "win",
        }
    }

    /// The published tables count on the bare rules: no repetition or fifty-move draw stops a
    /// line.
    fn perft(&self, depth: u32) -> u64 {
        crate::perft(self.board(), depth)
    }

    /// The Chess960 start of Scharnagl's number `n`, in Chess960 notation.
    fn numbered_start(n: u32) -> Option<Self> {
        (n < Self::NUMBERED_STARTS).then(|| Chess::chess960_start(n))
    }

    /// EPD or FEN lines, or PGN games (`crate::openings`).
    fn read_openings(start: &Self, text: &str) -> Result<Vec<(Self, Vec<String>)>, OpeningsError> {
        crate::openings::read_openings(start, text)
    }

    /// EPD with `bm`, `am` and `id` (`crate::suite`).
    fn read_suite_line(line: &str) -> Option<Result<SuitePosition, SuiteError>> {
        Some(crate::suite::read_suite_line(line))
    }
}
