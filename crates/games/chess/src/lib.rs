//! Chess for duel. The rules and move generation come from `cozy-chess` (MIT; perft about
//! 355 M nodes/s here against 204 M for shakmaty, which is GPL-3.0 and would make duel GPL);
//! this crate adds what an engine needs around them:
//!
//! - [`Chess`], the [`duel_core::Game`]: play/undo on a stack of boards, a hash that counts the
//!   en-passant square only when an en-passant capture is legal (otherwise a position reached
//!   after a double pawn push would never repeat the same position reached otherwise), and the
//!   draws: threefold repetition (and, inside a search, any repetition since the search began),
//!   the fifty-move rule, insufficient material and stalemate;
//! - move text in UCI long algebraic notation, castling written king-two-squares (`e1g1`) as
//!   every GUI expects, though `cozy-chess` plays it as king-takes-rook (`e1h1`); both are
//!   accepted on input. In Chess960 notation ([`Chess::set_chess960`], UCI's `UCI_Chess960`)
//!   castling is king-takes-rook both ways;
//! - FEN read with the castling field as standard (`KQkq`), Shredder-FEN (`HAha`) or X-FEN, and
//!   written as X-FEN ([`parse_fen`]), so every Chess960 position reads back as it was; a
//!   refused FEN comes with a [`FenError`] naming the rule it breaks;
//! - [`Chess::san`], standard algebraic notation for the terminal and PGN, and
//!   [`Chess::parse_san`] to read it back; [`pgn`] writes a game record, [`read_pgn`] reads
//!   one;
//! - the founding texts' evaluations: [`Material`] (material balance) and [`Pst`] (material
//!   and piece-square tables), with the quiescence, ordering and null-move hooks;
//! - [`Net`], the default: a small network of NNUE's shape trained on duel's own games
//!   (`nets/README.md`);
//! - [`Strong`]: tapered material, piece-square tables, mobility, pawn structure,
//!   king safety, bishop pair and rooks on open files, with weights fitted by the project's
//!   own Texel tuning (`duel-train chess-fit`; `weights/README.md`);
//! - [`perft`], counted on the bare rules (no draw stops a line), as the published tables are.
//!
//! ```
//! use duel_core::Game;
//! use duel_chess::Chess;
//!
//! let mut pos = Chess::start();
//! let e4 = pos.parse_move("e2e4").unwrap();
//! assert_eq!(pos.san(e4), "e4");
//! pos.play(e4);
//! assert_eq!(pos.to_text(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
//! ```

pub mod endgame;
mod eval;
mod fen;
mod info;
pub mod nnue;
mod openings;
mod record;
mod san;
mod see;
pub mod strong;
mod suite;
mod values;

use cozy_chess::{get_pawn_attacks, Board, Color, File, GameStatus, Piece, Rank, Square};
use duel_core::{Game, MoveError, Outcome, PositionError, Side, SplitMix64};

// The move type is cozy-chess's own (a from, a to and a promotion): front ends read and write
// it only through `Game`'s notation.
pub use cozy_chess::Move;
pub use eval::{is_noisy, Material, Pst};
pub use fen::FenError;
pub use nnue::Net;
pub use record::read_pgn;
pub use san::pgn;
pub use see::{see, see_at_least};
pub use strong::Strong;
pub use values::PIECE_VALUES;

/// The standard start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// One key per en-passant file, mixed into the hash only when the capture is legal.
const EP_KEYS: [u64; 8] = SplitMix64::keys(0xC4E5_5E9A_55A4_7001);

/// A chess position with the boards before it (for undo and repetition).
#[derive(Debug, Clone)]
pub struct Chess {
    board: Board,
    hash: u64,
    /// Every earlier position of the game, oldest first, with its hash.
    history: Vec<(Board, u64)>,
    /// `history.len()` when the current search began (`usize::MAX` outside a search): a
    /// position repeated after this point is a draw at its first repetition, since the side
    /// that could avoid it did not.
    search_root: usize,
    /// Chess960 notation (UCI's `UCI_Chess960`): castling written as the king taking its own
    /// rook, the only unambiguous form when the king may start next to it. The rules are the
    /// same either way: `cozy-chess` plays any start position.
    chess960: bool,
}

impl PartialEq for Chess {
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board && self.history.len() == other.history.len()
    }
}

impl Chess {
    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// A position from a `cozy-chess` board, with no history.
    pub fn from_board(board: Board) -> Chess {
        Chess {
            hash: position_hash(&board),
            board,
            history: Vec::new(),
            search_root: usize::MAX,
            chess960: false,
        }
    }

    /// Chess960 start position number `n` (Scharnagl's numbering, 0 to 959; 518 is the
    /// standard start), with Chess960 notation on ([`Chess::set_chess960`]).
    ///
    /// # Panics
    ///
    /// If `n` is 960 or more.
    pub fn chess960_start(n: u32) -> Chess {
        let mut pos = Chess::from_board(Board::chess960_startpos(n));
        pos.set_chess960(true);
        pos
    }

    /// The position mirrored left to right (files a and h swapped), when neither side may
    /// castle: chess is symmetric that way but for castling, so the mirror is worth what the
    /// position is worth. Without history and without an en-passant square.
    pub fn file_mirror(&self) -> Option<Chess> {
        let b = &self.board;
        let no_castling = [Color::White, Color::Black].iter().all(|&c| {
            let r = b.castle_rights(c);
            r.short.is_none() && r.long.is_none()
        });
        if !no_castling {
            return None;
        }
        let mut m = cozy_chess::BoardBuilder::empty();
        for sq in b.occupied() {
            *m.square_mut(sq.flip_file()) = Some((b.piece_on(sq)?, b.color_on(sq)?));
        }
        m.side_to_move = b.side_to_move();
        m.build().ok().map(Chess::from_board)
    }

    /// Switches Chess960 notation on or off: castling is then written, and must be given, as
    /// the king taking its own rook (`e1h1`), as UCI's `UCI_Chess960` asks. The position and
    /// its rules do not change; off, castling is the king's two-square move (`e1g1`).
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    /// Whether Chess960 notation is on ([`Chess::set_chess960`]).
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// The board as text, rank 8 first, White's pieces in capitals, then the files and a
    /// legend of the letters. The last move is marked as every game marks it
    /// ([`duel_core::diagram`]): the piece that moved in brackets on the square it went to,
    /// `[N]`, and the square it left as `-` (castling: the king's move; a square the move
    /// also filled, as a Chess960 castling's rook may, keeps its piece). A brace of brackets
    /// for the square left would need the separator the two squares share when they stand
    /// side by side (a king's or rook's step along the rank), so it has a mark of its own.
    pub fn diagram(&self) -> String {
        let b = &self.board;
        let (from, to) = self
            .last_move()
            .map_or((None, None), |(mv, to)| (Some(mv.from), Some(to)));
        let mut out = String::new();
        for rank in Rank::ALL.iter().rev() {
            let cells = File::ALL.map(|file| {
                let sq = Square::new(file, *rank);
                let c = match (b.piece_on(sq), b.color_on(sq)) {
                    (Some(p), Some(Color::White)) => piece_char(p).to_ascii_uppercase(),
                    (Some(p), _) => piece_char(p),
                    _ if Some(sq) == from => '-',
                    _ => '.',
                };
                (c, Some(sq) == to)
            });
            let row = duel_core::diagram::row(cells);
            out.push_str(&format!("{rank}{}\n", row.trim_end()));
        }
        out.push_str("  a b c d e f g h\n");
        out.push_str("K king, Q queen, R rook, B bishop, N knight, P pawn; White upper case\n");
        out
    }

    /// The move that led here from the position before it and the square it is drawn to
    /// (castling: the king's own, `g1`, where it is played onto the rook), found among the
    /// moves of that position; None where the game was set up here.
    pub fn last_move(&self) -> Option<(Move, Square)> {
        let (before, _) = self.history.last()?;
        let mut found = None;
        before.generate_moves(|pm| {
            found = pm.into_iter().find(|&mv| {
                let mut after = before.clone();
                after.play_unchecked(mv);
                after == self.board
            });
            found.is_some()
        });
        let mv = found?;
        Some((
            mv,
            Chess::from_board(before.clone()).king_step_castle(mv).to,
        ))
    }

    /// True if the side to move is in check.
    pub fn in_check(&self) -> bool {
        !self.board.checkers().is_empty()
    }

    /// Whether the draw rules (repetition, the fifty-move rule, insufficient material) end
    /// the game here. Everywhere but at the root of a search: an engine asked for a move in a
    /// position those rules have drawn still gives one, as Stockfish does, since declaring the
    /// draw is the arbiter's business (the GUI's, or `duel play`'s), and a GUI that asks anyway
    /// would take `bestmove (none)` for a forfeit. Mate and stalemate end the game everywhere.
    fn draw_rules_apply(&self) -> bool {
        self.history.len() != self.search_root
    }

    /// The draw by repetition: the position occurred twice before, or once since the search
    /// root. Only positions since the last capture or pawn move can repeat, and only every
    /// second ply (the same side to move).
    fn repeated(&self) -> bool {
        let reach = (self.board.halfmove_clock() as usize).min(self.history.len());
        let mut seen = 0;
        let n = self.history.len();
        let mut back = 2;
        while back <= reach {
            let i = n - back;
            if self.history[i].1 == self.hash {
                if i >= self.search_root {
                    return true;
                }
                seen += 1;
                if seen == 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    /// The UCI text of a move as GUIs expect it: castling as the king's two-square move, or in
    /// Chess960 notation as the king taking its rook.
    fn uci(&self, mv: Move) -> String {
        // The king's two-square step names castling only from the e-file: from elsewhere
        // (a Chess960 position read without Chess960 notation) it may be a step the king
        // could also take without castling (b1c1), so it is written as king takes rook.
        let mv = if self.chess960 || mv.from.file() != File::E {
            mv
        } else {
            self.king_step_castle(mv)
        };
        let mut s = format!("{}{}", mv.from, mv.to);
        if let Some(p) = mv.promotion {
            s.push(piece_char(p));
        }
        s
    }

    /// `cozy-chess`'s king-takes-rook castling as the king's own destination (e1h1 -> e1g1).
    fn king_step_castle(&self, mv: Move) -> Move {
        if self.is_castle(mv) {
            let file = if mv.to.file() > mv.from.file() {
                File::G
            } else {
                File::C
            };
            Move {
                from: mv.from,
                to: Square::new(file, mv.from.rank()),
                promotion: None,
            }
        } else {
            mv
        }
    }

    /// True if `mv` (in `cozy-chess` form) castles: the king moves onto its own rook.
    pub fn is_castle(&self, mv: Move) -> bool {
        self.board.piece_on(mv.from) == Some(Piece::King)
            && self.board.color_on(mv.to) == Some(self.board.side_to_move())
    }

    fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.board.generate_moves(|pm| {
            out.extend(pm);
            false
        });
        out
    }
}

/// A board from a FEN whose castling field may take any of the three forms GUIs write:
/// standard (`KQkq`: the rooks on the a- and h-files), Shredder-FEN (each castling rook's
/// file, `HAha`) and X-FEN (`KQkq` for the outermost rook on a side, the file only for an
/// inner one), the last two for Chess960 positions. Every field after the side to move may be
/// left out, from the end, as in EPD and in the short FENs GUIs and Fairy-Stockfish write:
/// then no castling rights, no en passant square and the counters 0 and 1, as Stockfish
/// reads them.
///
/// `cozy-chess` decides what is accepted; a refusal is explained as a [`FenError`] that names
/// the rule broken (`two white kings (e1, e4)`), or is `cozy-chess`'s own when no rule is seen.
pub fn parse_fen(fen: &str) -> Result<Board, FenError> {
    // The fields after the side to move, as Stockfish reads them when they are left out.
    const DEFAULTS: [&str; 4] = ["-", "-", "0", "1"];
    let fields = fen.split_whitespace().count();
    let padded;
    let fen = match fields {
        2..=5 => {
            padded = format!("{} {}", fen.trim_end(), DEFAULTS[fields - 2..].join(" "));
            &padded
        }
        _ => fen,
    };
    match Board::from_fen(fen, false) {
        Err(cozy_chess::FenParseError::InvalidCastlingRights) => from_xfen(fen),
        other => other,
    }
    .map_err(|cause| fen::diagnose(fen, cause))
}

/// [`parse_fen`] for a castling field that is not the standard form: each `K`/`Q` made the
/// file of the outermost rook on that side of the king, then read as Shredder-FEN.
fn from_xfen(fen: &str) -> Result<Board, cozy_chess::FenParseError> {
    let invalid = cozy_chess::FenParseError::InvalidCastlingRights;
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() < 3 {
        return Err(invalid);
    }
    let mut bare = fields.clone();
    bare[2] = "-";
    let board = Board::from_fen(&bare.join(" "), false)?;
    let mut rights = String::new();
    for c in fields[2].chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let file = match c.to_ascii_lowercase() {
            side @ ('k' | 'q') => outermost_rook(&board, color, side == 'k').ok_or(invalid)?,
            f @ 'a'..='h' => File::try_from(f).map_err(|_| invalid)?,
            _ => return Err(invalid),
        };
        rights.push(in_case(color, char::from(file)));
    }
    let mut shredder = fields;
    shredder[2] = &rights;
    Board::from_fen(&shredder.join(" "), true)
}

/// A castling-field letter in `color`'s case (White's upper).
fn in_case(color: Color, c: char) -> char {
    match color {
        Color::White => c.to_ascii_uppercase(),
        Color::Black => c.to_ascii_lowercase(),
    }
}

/// The file of `color`'s rook on its back rank furthest from its king on the short (`short`)
/// or long side, if the king stands on that rank and such a rook exists.
fn outermost_rook(board: &Board, color: Color, short: bool) -> Option<File> {
    let back = Rank::First.relative_to(color);
    let king = board.king(color);
    if king.rank() != back {
        return None;
    }
    let rooks = board.colored_pieces(color, Piece::Rook) & back.bitboard();
    let files = rooks.into_iter().map(|sq| sq.file());
    if short {
        files.filter(|&f| f > king.file()).max()
    } else {
        files.filter(|&f| f < king.file()).min()
    }
}

/// The FEN of a board in X-FEN: the standard `KQkq` wherever it names the castling rook
/// unambiguously (always in standard chess), the rook's file otherwise, so that every
/// Chess960 position reads back as it was.
fn fen(board: &Board) -> String {
    let mut rights = String::new();
    for color in [Color::White, Color::Black] {
        let r = board.castle_rights(color);
        for (file, short) in [(r.short, true), (r.long, false)] {
            let Some(file) = file else { continue };
            let c = if outermost_rook(board, color, short) == Some(file) {
                if short {
                    'k'
                } else {
                    'q'
                }
            } else {
                char::from(file)
            };
            rights.push(in_case(color, c));
        }
    }
    if rights.is_empty() {
        rights.push('-');
    }
    let text = board.to_string();
    let mut fields: Vec<&str> = text.split(' ').collect();
    fields[2] = &rights;
    fields.join(" ")
}

/// The hash of a board: `cozy-chess`'s without the en-passant part, plus our en-passant key
/// only when the capture is legal.
fn position_hash(board: &Board) -> u64 {
    let h = board.hash_without_ep();
    match legal_ep_file(board) {
        Some(f) => h ^ EP_KEYS[f as usize],
        None => h,
    }
}

/// The en-passant file if some legal move captures en passant.
fn legal_ep_file(board: &Board) -> Option<File> {
    let file = board.en_passant()?;
    let us = board.side_to_move();
    let target = Square::new(file, Rank::Sixth.relative_to(us));
    // Our pawns that attack the target are those a pawn of theirs on the target would attack.
    let candidates = get_pawn_attacks(target, !us) & board.colored_pieces(us, Piece::Pawn);
    if candidates.is_empty() {
        return None;
    }
    let mut legal = false;
    board.generate_moves_for(candidates, |pm| {
        legal = pm.into_iter().any(|m| m.to == target);
        legal
    });
    legal.then_some(file)
}

/// The colour-flipped mirror of a FEN: ranks reversed, colours swapped, the other side to move,
/// the castling rights and the en-passant square swapped with them. Every evaluation must give
/// a position and its mirror the same value from the side to move (the symmetry tests), and
/// the mirror is how to check by hand that an asymmetric value is not a bug. `fen` must have
/// its six fields (`Chess::to_text` writes them).
pub fn mirror_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let board: Vec<String> = f[0]
        .split('/')
        .rev()
        .map(|r| r.chars().map(swap).collect())
        .collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let castle = if f[2] == "-" {
        "-".to_string()
    } else {
        let upper: String = f[2]
            .chars()
            .filter(char::is_ascii_lowercase)
            .map(swap)
            .collect();
        let lower: String = f[2]
            .chars()
            .filter(char::is_ascii_uppercase)
            .map(swap)
            .collect();
        upper + &lower
    };
    let ep = match f[3].as_bytes() {
        [file, b'3'] => format!("{}6", *file as char),
        [file, b'6'] => format!("{}3", *file as char),
        _ => "-".into(),
    };
    format!("{} {side} {castle} {ep} {} {}", board.join("/"), f[4], f[5])
}

/// Neither side can ever mate: kings alone, a lone minor piece, or bishops all on one colour of
/// square. (Positions where mate is possible only with help, like knight against knight, play
/// on, as under FIDE rules.)
pub fn insufficient_material(board: &Board) -> bool {
    let heavy = board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    if !heavy.is_empty() {
        return false;
    }
    let knights = board.pieces(Piece::Knight);
    let bishops = board.pieces(Piece::Bishop);
    let minors = knights.len() + bishops.len();
    if minors <= 1 {
        return true;
    }
    if !knights.is_empty() {
        return false;
    }
    let dark = bishops & cozy_chess::BitBoard::DARK_SQUARES;
    dark == bishops || dark.is_empty()
}

/// Squares a1..h8 twice, then an optional promotion piece in lower case.
fn is_uci_syntax(t: &str) -> bool {
    let b = t.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    (b.len() == 4 || (b.len() == 5 && b"qrbn".contains(&b[4])))
        && square(b[0], b[1])
        && square(b[2], b[3])
}

fn piece_char(p: Piece) -> char {
    match p {
        Piece::Pawn => 'p',
        Piece::Knight => 'n',
        Piece::Bishop => 'b',
        Piece::Rook => 'r',
        Piece::Queen => 'q',
        Piece::King => 'k',
    }
}

impl Game for Chess {
    type Move = Move;
    const NAME: &'static str = "chess";
    /// Repetitions are judged on the positions before, which FEN does not carry.
    const OUTCOME_NEEDS_HISTORY: bool = true;
    /// From-square times 64 plus to-square.
    const MOVE_INDICES: usize = 64 * 64;

    fn move_index(mv: Move) -> usize {
        mv.from as usize * 64 + mv.to as usize
    }

    /// Colour and piece (12) times 64 to-squares.
    const PIECE_MOVE_INDICES: usize = 12 * 64;

    fn piece_move_index(&self, mv: Move) -> usize {
        let piece = self.board.piece_on(mv.from).map_or(0, |p| p as usize);
        let colour = self.board.side_to_move() as usize;
        (colour * 6 + piece) * 64 + mv.to as usize
    }

    fn start() -> Self {
        Chess::from_board(Board::default())
    }

    fn side_to_move(&self) -> Side {
        match self.board.side_to_move() {
            Color::White => Side::First,
            Color::Black => Side::Second,
        }
    }

    fn ply(&self) -> u32 {
        let full = u32::from(self.board.fullmove_number().max(1));
        (full - 1) * 2 + u32::from(self.board.side_to_move() == Color::Black)
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        self.board.generate_moves(|pm| {
            moves.extend(pm);
            false
        });
        // No move: mate or stalemate, over either way. Otherwise only the draw rules can end
        // the game; `outcome` would look for a legal move a second time.
        if !moves.is_empty()
            && self.draw_rules_apply()
            && (self.board.halfmove_clock() >= 100
                || insufficient_material(&self.board)
                || self.repeated())
        {
            moves.clear();
        }
    }

    fn play(&mut self, mv: Move) {
        let before = self.board.clone();
        self.history.push((before, self.hash));
        self.board.play_unchecked(mv);
        self.hash = position_hash(&self.board);
    }

    fn undo(&mut self, _mv: Move) {
        let (board, hash) = self.history.pop().expect("undo follows a play");
        self.board = board;
        self.hash = hash;
    }

    fn plies_to_count_draw(&self) -> Option<u32> {
        Some(100u32.saturating_sub(u32::from(self.board.halfmove_clock())))
    }

    fn outcome(&self) -> Option<Outcome> {
        // Mate and stalemate first: a mate on the hundredth half-move still wins. `Drawn` is a
        // stalemate or the fifty-move rule; only the first holds at a search's root.
        let rules = self.draw_rules_apply();
        match self.board.status() {
            GameStatus::Won => return Some(Outcome::Loss),
            GameStatus::Drawn if rules || !self.board.generate_moves(|_| true) => {
                return Some(Outcome::Draw)
            }
            GameStatus::Drawn | GameStatus::Ongoing => {}
        }
        if rules && (insufficient_material(&self.board) || self.repeated()) {
            return Some(Outcome::Draw);
        }
        None
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        // Re-parsing the FEN rebuilds cozy-chess's hash from the pieces.
        let fresh = parse_fen(&self.to_text()).expect("own FEN parses");
        position_hash(&fresh)
    }

    fn format_move(&self, mv: Move) -> String {
        self.uci(mv)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        // What people write (e4, Nf3, exd5, O-O, e8=Q+) as well as what programs write: the
        // two never look alike, so either reads without ambiguity.
        if san::is_san_syntax(t) {
            return self.parse_san(t);
        }
        if !is_uci_syntax(t) {
            return Err(MoveError::syntax(
                Self::NAME,
                text,
                "expected a move in UCI long algebraic notation (e2e4, e7e8q) or in SAN (e4, \
                 Nf3, exd5, O-O, e8=Q)",
            ));
        }
        let mv: Move = t
            .parse()
            .map_err(|_| MoveError::syntax(Self::NAME, text, "not a move"))?;
        let legal = self.legal_moves();
        if legal.contains(&mv) {
            return Ok(mv);
        }
        // The king's two-square castling move, written as GUIs write it. Not in Chess960
        // notation, where the king may castle onto a square it could also step to.
        if let Some(&c) = legal
            .iter()
            .find(|&&m| self.is_castle(m) && self.king_step_castle(m) == mv)
        {
            if !self.chess960 {
                return Ok(c);
            }
            return Err(MoveError::illegal(
                text,
                format!(
                    "in Chess960 notation (UCI_Chess960) castling is the king taking its own \
                     rook: {} in {}",
                    self.uci(c),
                    self.to_text()
                ),
            ));
        }
        Err(MoveError::illegal(
            text,
            format!("no legal move goes so in {}", self.to_text()),
        ))
    }

    fn to_text(&self) -> String {
        fen(&self.board)
    }

    fn from_text(text: &str) -> Result<Self, PositionError> {
        let t = text.trim();
        let fen = if t.is_empty() || t == "startpos" {
            START_FEN
        } else {
            t
        };
        let board = parse_fen(fen)
            .map_err(|e| PositionError::new(Self::NAME, text, format!("bad FEN: {e}")))?;
        Ok(Chess::from_board(board))
    }

    /// From here on one repetition is a draw (a line that repeats gains nothing the side to
    /// move could not also get by deviating), while positions from before the search need
    /// three occurrences, as in the game.
    fn begin_search(&mut self) {
        self.search_root = self.history.len();
    }

    fn play_null(&mut self) -> bool {
        match self.board.null_move() {
            Some(b) => {
                let before = std::mem::replace(&mut self.board, b);
                self.history.push((before, self.hash));
                self.hash = position_hash(&self.board);
                true
            }
            None => false,
        }
    }

    fn undo_null(&mut self) {
        self.undo(Move {
            from: Square::A1,
            to: Square::A1,
            promotion: None,
        });
    }

    /// The pawns of each colour: a static evaluation's errors follow the pawn structure
    /// (a blocked centre, a passer the terms undervalue), which changes only with pawn moves
    /// and captures of pawns.
    fn structure_key(&self) -> Option<u64> {
        let pawns = self.board.pieces(Piece::Pawn);
        let white = (pawns & self.board.colors(Color::White)).0;
        let black = (pawns & self.board.colors(Color::Black)).0;
        // Two independent multipliers, so the same pawn set of either colour differs.
        Some(
            white.wrapping_mul(0xA24B_AED4_963E_E407)
                ^ black.wrapping_mul(0x9FB2_1C65_1E98_DF25).rotate_left(32),
        )
    }
}

/// Leaf count at `depth` on the bare rules (every line runs to the depth unless mated or
/// stalemated), with the last ply counted in bulk: the convention of the published tables.
pub fn perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    if depth == 1 {
        board.generate_moves(|pm| {
            n += pm.len() as u64;
            false
        });
        return n;
    }
    board.generate_moves(|pm| {
        for mv in pm {
            let mut child = board.clone();
            child.play_unchecked(mv);
            n += perft(&child, depth - 1);
        }
        false
    });
    n
}

/// [`perft`] split by first move, each in UCI text.
pub fn perft_divide(pos: &Chess, depth: u32) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = pos
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = pos.board.clone();
            child.play_unchecked(mv);
            (pos.uci(mv), perft(&child, depth.saturating_sub(1)))
        })
        .collect();
    out.sort();
    out
}
