//! The Othello position, its moves and the [`Game`] implementation.

use std::fmt;

use duel_core::{Game, GameInfo, MoveError, Outcome, PositionError, Side, SplitMix64};

use crate::bitboard;

/// Zobrist keys: 64 for black discs, 64 for white discs, then one for "white to move".
const KEYS: [u64; 129] = SplitMix64::keys(0x07E1_1000_0000_0003);

/// What flipping a disc on each square does to the hash: it leaves one colour, joins the other.
const FLIP_KEYS: [u64; 64] = {
    let mut k = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        k[sq] = KEYS[sq] ^ KEYS[64 + sq];
        sq += 1;
    }
    k
};

const WHITE_TO_MOVE: u64 = KEYS[128];

/// A move: a square `a1`..`h8` (index 0..63, a1 = 0, b1 = 1, ..., h8 = 63) or the pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u8);

impl Move {
    /// The pass, legal exactly when the side to move has no move and the opponent has one.
    pub const PASS: Move = Move(64);

    /// The move onto `square` (0..63, a1 = 0, h8 = 63).
    ///
    /// # Panics
    /// If `square` is 64 or more.
    pub const fn square(square: u8) -> Move {
        assert!(square < 64, "a square is 0..63");
        Move(square)
    }

    /// The square of a disc-placing move, `None` for the pass.
    pub const fn to_square(self) -> Option<u8> {
        if self.0 < 64 {
            Some(self.0)
        } else {
            None
        }
    }

    /// True for the pass.
    pub const fn is_pass(self) -> bool {
        self.0 == 64
    }

    /// The square index, 64 for the pass: the move's slot in history tables.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Reads a move's syntax only: `a1`..`h8` in either case, or `PA`/`pass` for the pass.
    /// Whether it is legal is [`Game::parse_move`]'s business.
    pub fn parse(text: &str) -> Option<Move> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("pa") || t.eq_ignore_ascii_case("pass") {
            return Some(Move::PASS);
        }
        match t.as_bytes() {
            [f, r] => {
                let f = f.to_ascii_lowercase();
                if (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(r) {
                    Some(Move((r - b'1') * 8 + (f - b'a')))
                } else {
                    None
                }
            }
            _ => None,
        }
    }
}

impl fmt::Display for Move {
    /// `a1`..`h8` in lowercase, `PA` for the pass.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_square() {
            Some(sq) => write!(f, "{}{}", (b'a' + sq % 8) as char, sq / 8 + 1),
            None => f.write_str("PA"),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// What `undo` needs to put a move back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Undone {
    flipped: u64,
    hash: u64,
    mv: Move,
}

/// An Othello position: the discs of the side to move and of its opponent as bitboards, whose
/// turn it is, the Zobrist hash and the moves played since setup (for `undo`).
#[derive(Clone, PartialEq, Eq)]
pub struct Othello {
    player: u64,
    opponent: u64,
    side: Side,
    hash: u64,
    history: Vec<Undone>,
}

impl fmt::Debug for Othello {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Othello({})", self.to_text())
    }
}

/// The name used in errors.
const NAME: &str = "othello";

impl Othello {
    /// A position from the discs of the side to move and of the other side, `side` being the
    /// colour to move (`First` = black). `None` if the two sets overlap.
    pub fn from_bitboards(player: u64, opponent: u64, side: Side) -> Option<Othello> {
        if player & opponent != 0 {
            return None;
        }
        let mut pos = Othello {
            player,
            opponent,
            side,
            hash: 0,
            history: Vec::with_capacity(64),
        };
        pos.hash = pos.hash_from_scratch();
        Some(pos)
    }

    /// The discs of the side to move.
    pub fn player(&self) -> u64 {
        self.player
    }

    /// The discs of the side not to move.
    pub fn opponent(&self) -> u64 {
        self.opponent
    }

    /// The black (X, first player's) discs.
    pub fn black(&self) -> u64 {
        match self.side {
            Side::First => self.player,
            Side::Second => self.opponent,
        }
    }

    /// The white (O) discs.
    pub fn white(&self) -> u64 {
        match self.side {
            Side::First => self.opponent,
            Side::Second => self.player,
        }
    }

    /// The empty squares.
    pub fn empties(&self) -> u64 {
        !(self.player | self.opponent)
    }

    /// The squares where the side to move can place a disc.
    pub fn moves_bb(&self) -> u64 {
        bitboard::moves(self.player, self.opponent)
    }

    /// The squares where the opponent could place a disc if it were its turn.
    pub fn opponent_moves_bb(&self) -> u64 {
        bitboard::moves(self.opponent, self.player)
    }

    /// The opponent discs a disc of the side to move on `sq` would turn (empty if illegal).
    pub fn flips(&self, sq: u8) -> u64 {
        if self.empties() >> sq & 1 == 0 {
            return 0;
        }
        bitboard::flips(self.player, self.opponent, u32::from(sq))
    }

    /// Discs of the side to move minus discs of the opponent.
    pub fn disc_difference(&self) -> i32 {
        self.player.count_ones() as i32 - self.opponent.count_ones() as i32
    }

    /// The final score of a finished game from the side to move, as the FFO files and every
    /// Othello program count it: the disc difference, the empty squares going to the winner.
    pub fn final_score(&self) -> i32 {
        final_score(self.player, self.opponent)
    }

    /// True when neither side can move.
    pub fn is_over(&self) -> bool {
        self.moves_bb() == 0 && self.opponent_moves_bb() == 0
    }

    /// The last move played since setup, `None` right after setup. The corner rule of the
    /// textbook ordering needs the opponent's last move.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv)
    }

    /// The moves played since setup, in order.
    pub fn moves_played(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|u| u.mv)
    }

    /// The board as an 8×8 diagram with coordinates: `X` Black, `O` White, `*` the legal
    /// moves of the side to move, `.` other empty squares, the disc just placed in brackets
    /// ([`duel_core::diagram`], as every game marks its last move; a pass marks nothing);
    /// then a legend naming the letters as the sides are named everywhere else (GGF's `PB`
    /// and `PW`, NBoard's black and white), whose turn it is and each side's discs.
    pub fn diagram(&self) -> String {
        let (black, white, moves) = (self.black(), self.white(), self.moves_bb());
        let last = self.last_move().and_then(Move::to_square);
        let files = "  a b c d e f g h\n";
        let mut out = String::from(files);
        for rank in 0..8 {
            let cells = (rank * 8..rank * 8 + 8).map(|sq: u8| {
                let bit = 1u64 << sq;
                let c = if black & bit != 0 {
                    'X'
                } else if white & bit != 0 {
                    'O'
                } else if moves & bit != 0 {
                    '*'
                } else {
                    '.'
                };
                (c, Some(sq) == last)
            });
            let row = duel_core::diagram::row(cells);
            out.push_str(&format!("{}{row}{}\n", rank + 1, rank + 1));
        }
        out.push_str(files);
        let name = <Othello as GameInfo>::side_name;
        let (first, second) = (name(Side::First), name(Side::Second));
        out.push_str(&format!("X {first}, O {second}, * a legal move\n"));
        let turn = if self.is_over() {
            "game over".to_string()
        } else if moves == 0 {
            format!("{} must pass", name(self.side))
        } else {
            format!("{} to move", name(self.side))
        };
        out.push_str(&format!(
            "{turn}; {first} {}, {second} {}\n",
            black.count_ones(),
            white.count_ones()
        ));
        out
    }

    /// The colour to move as a letter, `X` or `O`.
    pub fn side_char(&self) -> char {
        side_char(self.side)
    }
}

/// `X` for black (first), `O` for white.
pub(crate) fn side_char(side: Side) -> char {
    match side {
        Side::First => 'X',
        Side::Second => 'O',
    }
}

/// The final score from `p`'s side when neither side can move: empties go to the winner.
#[inline]
pub fn final_score(p: u64, o: u64) -> i32 {
    let (np, no) = (p.count_ones() as i32, o.count_ones() as i32);
    let empties = 64 - np - no;
    match np.cmp(&no) {
        std::cmp::Ordering::Greater => np - no + empties,
        std::cmp::Ordering::Less => np - no - empties,
        std::cmp::Ordering::Equal => 0,
    }
}

/// Reads a board of 64 squares (listed a1, b1, ..., h1, a2, ..., h8) and a side to move, in
/// the characters of the FFO files and of GGF: `X`, `x`, `*`, `B`, `b` black; `O`, `o`, `0`,
/// `W`, `w` white; `-`, `.`, `_` empty. Returns (black, white).
pub(crate) fn parse_board(text: &str, board: &str) -> Result<(u64, u64), PositionError> {
    let chars: Vec<char> = board.chars().collect();
    if chars.len() != 64 {
        return Err(PositionError::new(
            NAME,
            text,
            format!(
                "the board has {} squares, expected 64 (a1..h1, a2..h8)",
                chars.len()
            ),
        ));
    }
    let (mut black, mut white) = (0u64, 0u64);
    for (sq, c) in chars.iter().enumerate() {
        match c {
            'X' | 'x' | '*' | 'B' | 'b' => black |= 1 << sq,
            'O' | 'o' | '0' | 'W' | 'w' => white |= 1 << sq,
            '-' | '.' | '_' => {}
            _ => {
                return Err(PositionError::new(
                    NAME,
                    text,
                    format!(
                        "bad character '{c}' at square {} (use X, O or -)",
                        Move(sq as u8)
                    ),
                ))
            }
        }
    }
    Ok((black, white))
}

/// Reads the side to move: `X`/`*`/`B` (black) or `O`/`W` (white), either case, or the words.
pub(crate) fn parse_side(text: &str, side: &str) -> Result<Side, PositionError> {
    match side.to_ascii_lowercase().as_str() {
        "x" | "*" | "b" | "black" => Ok(Side::First),
        "o" | "0" | "w" | "white" => Ok(Side::Second),
        "" => Err(PositionError::new(
            NAME,
            text,
            "missing the side to move (X or O) after the board",
        )),
        _ => Err(PositionError::new(
            NAME,
            text,
            format!("the side to move must be X or O, not '{side}'"),
        )),
    }
}

impl Game for Othello {
    type Move = Move;
    const NAME: &'static str = NAME;
    const MOVE_INDICES: usize = 65;

    fn move_index(mv: Move) -> usize {
        mv.index()
    }

    fn start() -> Self {
        // d5 and e4 black, d4 and e5 white, black to move.
        let black = (1 << 35) | (1 << 28);
        let white = (1 << 27) | (1 << 36);
        Othello::from_bitboards(black, white, Side::First).expect("disjoint")
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn ply(&self) -> u32 {
        self.history.len() as u32
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        let mut bb = self.moves_bb();
        if bb == 0 {
            if self.opponent_moves_bb() != 0 {
                moves.push(Move::PASS);
            }
            return;
        }
        while bb != 0 {
            moves.push(Move(bb.trailing_zeros() as u8));
            bb &= bb - 1;
        }
    }

    fn play(&mut self, mv: Move) {
        let mut flipped = 0;
        let old_hash = self.hash;
        let mut h = self.hash ^ WHITE_TO_MOVE;
        if let Some(sq) = mv.to_square() {
            flipped = bitboard::flips(self.player, self.opponent, u32::from(sq));
            debug_assert!(
                flipped != 0 && self.empties() >> sq & 1 != 0,
                "illegal move {mv} in {self:?}"
            );
            let colour = match self.side {
                Side::First => 0,
                Side::Second => 64,
            };
            h ^= KEYS[colour + sq as usize];
            let mut f = flipped;
            while f != 0 {
                h ^= FLIP_KEYS[f.trailing_zeros() as usize];
                f &= f - 1;
            }
            let mover = self.player | flipped | (1 << sq);
            self.player = self.opponent & !flipped;
            self.opponent = mover;
        } else {
            std::mem::swap(&mut self.player, &mut self.opponent);
        }
        self.side = self.side.other();
        self.hash = h;
        self.history.push(Undone {
            flipped,
            hash: old_hash,
            mv,
        });
    }

    fn undo(&mut self, mv: Move) {
        let u = self.history.pop().expect("undo without a move played");
        debug_assert_eq!(u.mv, mv, "undo of a move that was not the last one");
        let (mover, other) = (self.opponent, self.player);
        match u.mv.to_square() {
            Some(sq) => {
                self.player = mover & !(u.flipped | (1 << sq));
                self.opponent = other | u.flipped;
            }
            None => {
                self.player = mover;
                self.opponent = other;
            }
        }
        self.side = self.side.other();
        self.hash = u.hash;
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        Some(match self.disc_difference().signum() {
            1 => Outcome::Win,
            -1 => Outcome::Loss,
            _ => Outcome::Draw,
        })
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.side == Side::Second {
            WHITE_TO_MOVE
        } else {
            0
        };
        for (base, mut bb) in [(0, self.black()), (64, self.white())] {
            while bb != 0 {
                h ^= KEYS[base + bb.trailing_zeros() as usize];
                bb &= bb - 1;
            }
        }
        h
    }

    fn format_move(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let mv = Move::parse(text).ok_or_else(|| {
            MoveError::syntax(NAME, text, "expected a square a1..h8 or PA for a pass")
        })?;
        let moves = self.moves_bb();
        if moves == 0 && self.opponent_moves_bb() == 0 {
            return Err(MoveError::illegal(text, "game over: neither side can move"));
        }
        match mv.to_square() {
            None if moves != 0 => Err(MoveError::illegal(text, "cannot pass: you have moves")),
            None => Ok(mv),
            Some(sq) if self.empties() >> sq & 1 == 0 => {
                Err(MoveError::illegal(text, format!("square {mv} is occupied")))
            }
            Some(_) if moves == 0 => Err(MoveError::illegal(
                text,
                "you must pass: no move flips anything",
            )),
            Some(sq) if moves >> sq & 1 == 0 => {
                Err(MoveError::illegal(text, format!("{mv} flips nothing")))
            }
            Some(_) => Ok(mv),
        }
    }

    fn to_text(&self) -> String {
        let (black, white) = (self.black(), self.white());
        let mut s: String = (0..64)
            .map(|sq| {
                if black >> sq & 1 != 0 {
                    'X'
                } else if white >> sq & 1 != 0 {
                    'O'
                } else {
                    '-'
                }
            })
            .collect();
        s.push(' ');
        s.push(side_char(self.side));
        s
    }

    /// Reads `<64 squares> <side>`, the FFO form: `X` black, `O` white, `-` empty, squares
    /// listed a1, b1, ..., h8, then `X` or `O` for the side to move (see [`Othello::to_text`]
    /// for the other characters accepted).
    fn from_text(text: &str) -> Result<Self, PositionError> {
        let t = text.trim();
        let (board, side) = match t.find(char::is_whitespace) {
            Some(i) => (&t[..i], t[i..].trim()),
            // 65 characters in one piece: the side to move glued to the board.
            None if t.chars().count() == 65 => t.split_at(t.char_indices().nth(64).unwrap().0),
            None => (t, ""),
        };
        let (black, white) = parse_board(text, board)?;
        if side.split_whitespace().count() > 1 {
            return Err(PositionError::new(
                NAME,
                text,
                "unexpected text after the side to move",
            ));
        }
        let side = parse_side(text, side)?;
        let (p, o) = match side {
            Side::First => (black, white),
            Side::Second => (white, black),
        };
        Ok(Othello::from_bitboards(p, o, side).expect("a square holds one colour"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position() {
        let s = Othello::start();
        assert_eq!(
            s.to_text(),
            "---------------------------OX------XO--------------------------- X"
        );
        let mut moves = Vec::new();
        s.generate_moves(&mut moves);
        let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(names, ["d3", "c4", "f5", "e6"]);
    }

    #[test]
    fn move_text() {
        assert_eq!(Move::parse("A1"), Some(Move::square(0)));
        assert_eq!(Move::parse("h8"), Some(Move::square(63)));
        assert_eq!(Move::parse("b1"), Some(Move::square(1)));
        assert_eq!(Move::parse("a2"), Some(Move::square(8)));
        assert_eq!(Move::parse(" pass "), Some(Move::PASS));
        assert_eq!(Move::parse("Pa"), Some(Move::PASS));
        for bad in ["", "i1", "a9", "a0", "a10", "aa", "11", "p"] {
            assert_eq!(Move::parse(bad), None, "{bad}");
        }
        assert_eq!(Move::PASS.to_string(), "PA");
        assert_eq!(Move::square(60).to_string(), "e8");
    }
}
