//! Xiangqi (Chinese chess) for duel.
//!
//! - [`Xiangqi`], the [`duel_core::Game`]: the rules on a [`Board`] (a 90-point mailbox with
//!   bit-ranks and bit-files; see [`board`] for the representation and how moves are proven
//!   legal), the history of the game for the repetition rulings, and the no-capture rule;
//! - FEN as Pikafish and Fairy-Stockfish write it ([`START_FEN`]; `startpos` or nothing for
//!   the start), moves in ICCS coordinates (`h2e2`: files a to i from Red's left, ranks 0 to 9
//!   from Red's side, as UCCI has them), shown to people in WXF notation (`C2.5`,
//!   [`notation::wxf`]);
//! - [`Material`], the founding texts' evaluation: material and piece-square tables;
//! - [`Strong`], the fitted evaluation (mobility, blocked legs and eyes, king safety, soldiers'
//!   advance, threats), tapered, its weights in `weights/strong.txt`;
//! - game records as PGN with the `Variant "xiangqi"` tag, the moves in ICCS.
//!
//! # How a game ends
//!
//! - **No legal move loses**, in check (checkmate) or not (stalemate: in xiangqi it loses).
//! - **Repetition**: the position (pieces and side to move) occurs for the third time, or
//!   inside a search for the second time since the search's root. Whether it loses for
//!   someone is decided on the cycle of moves since its last occurrence ([`rulings`]):
//!   perpetual check loses; else a perpetual chase of an unprotected piece by a chariot,
//!   horse or cannon (or of a chariot by a horse or cannon) loses; anything else draws. The
//!   module doc of [`rulings`] states the rule exactly and what it leaves out.
//! - **No capture in 60 moves** (120 plies, counted in the FEN's clock field) draws, unless the
//!   last of them mates.
//!
//! At a search's root ([`Game::begin_search`]) the repetition and no-capture rules are left to
//! the arbiter, as chess leaves its draws: an engine asked for a move there still gives one.
//!
//! ```
//! use duel_core::{Game, GameInfo};
//! use duel_xiangqi::Xiangqi;
//!
//! let mut pos = Xiangqi::start();
//! let mv = pos.parse_move("h2e2").unwrap();
//! assert_eq!(pos.display_move(mv), "C2.5");
//! pos.play(mv);
//! assert_eq!(
//!     pos.to_text(),
//!     "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
//! );
//! ```

pub mod board;
mod eval;
mod fen;
mod info;
pub mod notation;
mod record;
pub mod rulings;
pub mod strong;

use duel_core::{Game, MoveError, Outcome, PositionError, Side};

pub use board::{Board, Kind, Move, Piece, Square};
pub use eval::Material;
pub use fen::START_FEN;
pub use record::read_pgn;
pub use rulings::Ruling;
pub use strong::Strong;

/// What [`Xiangqi::diagram`] writes under the board: the pieces' letters, then the three
/// ways of numbering the points that a player meets (duel reads ICCS and WXF).
const LEGEND: &str = "\
R chariot, H horse, E elephant, A advisor, K king, C cannon, P pawn; Red upper case
ICCS h2e2: files a-i, ranks 0-9 from Red's side; UCI (Fairy-Stockfish) ranks 1-10
WXF C2.5 (the cannon from file 2 to 5): files 1-9 from each player's own right
";

/// Plies without a capture after which the game is drawn: the 60-move rule.
pub const NO_CAPTURE_PLIES: u32 = 120;

/// One move of the game, as taking it back and the rulings need it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Played {
    mv: Move,
    /// The board byte of what it took (0: nothing).
    taken: u8,
    /// The hash of the position before it.
    hash: u64,
    /// The no-capture clock before it.
    clock: u32,
    /// A capture or a soldier's step forward (or a null move): no earlier position can come
    /// back after it.
    irreversible: bool,
}

/// A xiangqi position with the moves that led to it since it was set up.
#[derive(Clone)]
pub struct Xiangqi {
    board: Board,
    /// Plies since the last capture.
    clock: u32,
    /// The ply of the position the game was set up from (from the FEN's move number).
    first_ply: u32,
    history: Vec<Played>,
    /// `history.len()` when the current search began (`usize::MAX` outside a search).
    search_root: usize,
}

impl std::fmt::Debug for Xiangqi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Xiangqi(\"{}\")", self.to_text())
    }
}

/// Positions are equal when the boards, clocks and plies are: the history is not compared.
impl PartialEq for Xiangqi {
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board && self.clock == other.clock && self.ply() == other.ply()
    }
}

impl Xiangqi {
    /// The position on the bare rules.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// True if the side to move's general is attacked.
    pub fn in_check(&self) -> bool {
        self.board.in_check()
    }

    /// Plies since the last capture (the FEN's clock field).
    pub fn no_capture_plies(&self) -> u32 {
        self.clock
    }

    /// Whether the history rules (repetition, no capture) may end the game here: everywhere
    /// but at the root of a search (see the crate doc).
    fn history_rules_apply(&self) -> bool {
        self.history.len() != self.search_root
    }

    /// The earlier occurrence of the position that makes a repetition, as an index into the
    /// history (the cycle is the moves from there): the most recent one, if the position
    /// occurred at least twice before, or once at or after the search's root.
    fn repetition(&self) -> Option<usize> {
        let n = self.history.len();
        let mut seen = None;
        let mut count = 0;
        // Same side to move: every second ply back, up to the last irreversible move.
        for i in (0..n).rev() {
            let played = &self.history[i];
            if played.irreversible {
                break;
            }
            if (n - i).is_multiple_of(2) && played.hash == self.board.hash() {
                let latest = *seen.get_or_insert(i);
                count += 1;
                if i >= self.search_root || count == 2 {
                    return Some(latest);
                }
            }
        }
        None
    }

    /// The ruling on the repetition that ends the game here, if one does.
    pub fn repetition_ruling(&self) -> Option<Ruling> {
        if !self.history_rules_apply() {
            return None;
        }
        let start = self.repetition()?;
        let cycle: Vec<Move> = self.history[start..].iter().map(|p| p.mv).collect();
        let mut board = self.board.clone();
        for p in self.history[start..].iter().rev() {
            board.unmake(p.mv, p.taken);
        }
        Some(rulings::judge(&board, &cycle))
    }

    /// The outcome the history rules give, from the side to move, if they end the game.
    fn history_outcome(&self) -> Option<Outcome> {
        if !self.history_rules_apply() {
            return None;
        }
        let loser = match self.repetition_ruling() {
            Some(Ruling::PerpetualCheck { loser } | Ruling::PerpetualChase { loser }) => {
                Some(loser)
            }
            Some(Ruling::Draw) => return Some(Outcome::Draw),
            None if self.clock >= NO_CAPTURE_PLIES => return Some(Outcome::Draw),
            None => None,
        }?;
        Some(if loser == self.board.side_to_move() {
            Outcome::Loss
        } else {
            Outcome::Win
        })
    }

    /// A position from a board, with no history.
    pub fn from_board(board: Board, clock: u32, ply: u32) -> Xiangqi {
        Xiangqi {
            board,
            clock,
            first_ply: ply,
            history: Vec::new(),
            search_root: usize::MAX,
        }
    }

    /// The board as text, rank 9 first, the pieces in WXF's letters as the moves are shown
    /// (Red in capitals: FEN's `N` and `B` are WXF's `H` and `E`), `.` for an empty point, the
    /// river between ranks 5 and 4, the files, then a legend: the letters, and how ICCS, UCI
    /// and WXF count the files and ranks. The last move is marked as every game marks it
    /// ([`duel_core::diagram`]) and as chess marks its own: the piece in brackets where it
    /// went, `[C]`, and the point it left as `-`.
    pub fn diagram(&self) -> String {
        let last = self.history.last().map(|p| p.mv);
        let (from, to) = match last {
            // A null move (a search's pass) goes nowhere.
            Some(mv) if mv.from() != mv.to() => (Some(mv.from()), Some(mv.to())),
            _ => (None, None),
        };
        let mut out = String::new();
        for rank in (0..board::RANKS).rev() {
            let cells = (0..board::FILES).map(|file| {
                let sq = board::square(file, rank);
                let c = match self.board.piece_at(sq) {
                    Some(p) if p.side == Side::First => notation::wxf_letter(p.kind),
                    Some(p) => notation::wxf_letter(p.kind).to_ascii_lowercase(),
                    None if Some(sq) == from => '-',
                    None => '.',
                };
                (c, Some(sq) == to)
            });
            let row = duel_core::diagram::row(cells);
            out.push_str(&format!("{rank}{}\n", row.trim_end()));
            if rank == 5 {
                out.push_str("  ~ ~ ~ ~ ~ ~ ~ ~ ~\n");
            }
        }
        out.push_str("  a b c d e f g h i\n");
        out.push_str(LEGEND);
        out
    }

    /// Why the game is over here, in a few words, if it is.
    pub fn end_reason(&self) -> Option<&'static str> {
        if !self.board.has_legal_move() {
            return Some(if self.in_check() {
                "checkmate"
            } else {
                "stalemate"
            });
        }
        if !self.history_rules_apply() {
            return None;
        }
        if let Some(r) = self.repetition_ruling() {
            return Some(r.reason());
        }
        (self.clock >= NO_CAPTURE_PLIES).then_some("60 moves without a capture")
    }
}

impl Game for Xiangqi {
    type Move = Move;
    const NAME: &'static str = "xiangqi";
    /// Repetitions are judged on the moves before, which FEN does not carry.
    const OUTCOME_NEEDS_HISTORY: bool = true;
    /// From-point times 90 plus to-point.
    const MOVE_INDICES: usize = board::POINTS * board::POINTS;

    fn move_index(mv: Move) -> usize {
        usize::from(mv.from()) * board::POINTS + usize::from(mv.to())
    }

    /// Side and kind (14) times 90 to-points.
    const PIECE_MOVE_INDICES: usize = 14 * board::POINTS;

    fn piece_move_index(&self, mv: Move) -> usize {
        let piece = self
            .board
            .piece_at(mv.from())
            .map_or(0, |p| p.side as usize * Kind::ALL.len() + p.kind as usize);
        piece * board::POINTS + usize::from(mv.to())
    }

    fn start() -> Self {
        Self::from_text(START_FEN).expect("the start FEN is valid")
    }

    fn side_to_move(&self) -> Side {
        self.board.side_to_move()
    }

    fn ply(&self) -> u32 {
        self.first_ply + self.history.len() as u32
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        self.board.generate(moves);
        // No move: lost either way. Otherwise only the history rules end the game.
        if !moves.is_empty() && self.history_outcome().is_some() {
            moves.clear();
        }
    }

    fn play(&mut self, mv: Move) {
        let pawn_forward = self.board.piece_at(mv.from()).is_some_and(|p| {
            p.kind == Kind::Pawn && board::rank_of(mv.from()) != board::rank_of(mv.to())
        });
        let hash = self.board.hash();
        let taken = self.board.make(mv);
        self.history.push(Played {
            mv,
            taken,
            hash,
            clock: self.clock,
            irreversible: taken != 0 || pawn_forward,
        });
        self.clock = if taken != 0 { 0 } else { self.clock + 1 };
    }

    fn undo(&mut self, _mv: Move) {
        let Some(p) = self.history.pop() else {
            return;
        };
        self.board.unmake(p.mv, p.taken);
        self.clock = p.clock;
    }

    fn plies_to_count_draw(&self) -> Option<u32> {
        Some(NO_CAPTURE_PLIES.saturating_sub(self.clock))
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.board.has_legal_move() {
            return Some(Outcome::Loss);
        }
        self.history_outcome()
    }

    fn hash(&self) -> u64 {
        self.board.hash()
    }

    fn hash_from_scratch(&self) -> u64 {
        self.board.hash_from_scratch()
    }

    /// The soldiers, advisors and elephants: the structure that changes slowly (chess keys
    /// its pawns), on which the evaluator's king safety and soldier terms hang.
    fn structure_key(&self) -> Option<u64> {
        Some(self.board.structure_hash())
    }

    fn format_move(&self, mv: Move) -> String {
        notation::iccs(mv)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        // WXF, as players and the boards here write moves (C2.5, H8+7, +C.5 or C+.5).
        if let Some(wxf) = notation::wxf_shape(text.trim()) {
            let mut moves = Vec::new();
            self.generate_moves(&mut moves);
            return moves
                .into_iter()
                .find(|&m| notation::wxf(&self.board, m) == wxf)
                .ok_or_else(|| {
                    MoveError::illegal(
                        text,
                        format!("no legal move is written so in WXF in {}", self.to_text()),
                    )
                });
        }
        let Some((from, to)) = notation::parse_iccs(text.trim()) else {
            return Err(MoveError::syntax(
                Self::NAME,
                text,
                "expected ICCS coordinates, the from and to points (h2e2: files a-i from Red's \
                 left, ranks 0-9 from Red's side), or WXF (C2.5, H8+7, +R.4)",
            ));
        };
        let mv = Move::new(from, to);
        if let Some(why) = self.end_reason() {
            return Err(MoveError::illegal(
                text,
                format!("the game is over ({why})"),
            ));
        }
        let side = self.board.side_to_move();
        let name = if side == Side::First { "Red" } else { "Black" };
        let piece = match self.board.piece_at(from) {
            Some(p) if p.side == side => p,
            _ => {
                return Err(MoveError::illegal(
                    text,
                    format!(
                        "no {name} piece on {} in {}",
                        board::square_name(from),
                        self.to_text()
                    ),
                ))
            }
        };
        if self.board.is_legal(mv) {
            return Ok(mv);
        }
        let reason = if self.board.is_pseudo_legal(mv) {
            format!("it would leave the {name} general attacked (or facing the other general)")
        } else {
            format!(
                "the {} on {} does not move to {} in {}",
                kind_name(piece.kind),
                board::square_name(from),
                board::square_name(to),
                self.to_text()
            )
        };
        Err(MoveError::illegal(text, reason))
    }

    fn to_text(&self) -> String {
        fen::write(&self.board, self.clock, self.ply() / 2 + 1)
    }

    fn from_text(text: &str) -> Result<Self, PositionError> {
        let t = text.trim();
        let fen = if t.is_empty() || t == "startpos" {
            START_FEN
        } else {
            t
        };
        let read = fen::parse(fen)
            .map_err(|e| PositionError::new(Self::NAME, text, format!("bad FEN: {e}")))?;
        let black = u32::from(read.board.side_to_move() == Side::Second);
        let ply = (read.fullmove - 1).saturating_mul(2).saturating_add(black);
        Ok(Xiangqi::from_board(read.board, read.clock, ply))
    }

    /// From here on a position repeated once is judged (see the crate doc).
    fn begin_search(&mut self) {
        self.search_root = self.history.len();
    }

    /// Not in check: passing there would leave the general to be taken.
    fn play_null(&mut self) -> bool {
        if self.board.in_check() {
            return false;
        }
        self.history.push(Played {
            mv: Move::new(0, 0),
            taken: 0,
            hash: self.board.hash(),
            clock: self.clock,
            irreversible: true,
        });
        self.board.pass();
        true
    }

    fn undo_null(&mut self) {
        if self.history.pop().is_some() {
            self.board.pass();
        }
    }
}

/// A kind's name in messages.
fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::King => "general",
        Kind::Advisor => "advisor",
        Kind::Elephant => "elephant",
        Kind::Horse => "horse",
        Kind::Chariot => "chariot",
        Kind::Cannon => "cannon",
        Kind::Pawn => "soldier",
    }
}
