//! The bare rules: the board, legal move generation, make and unmake, the Zobrist hash and
//! perft. Nothing here looks at the game's history; [`crate::Xiangqi`] adds it.
//!
//! # Representation
//!
//! A mailbox of the 90 points (`rank * 9 + file`, a0 = 0, i9 = 89) holding one byte per point,
//! beside the occupancy of each rank and of each file as bits (ElephantEye's bit-ranks and
//! bit-files, here without its lookup tables: the nearest pieces along a line are found with
//! `trailing_zeros`/`leading_zeros`), and each side's points as a `u128`. The steps of the
//! king, advisors, elephants, horses and soldiers, with the point that blocks each (the
//! elephant's eye, the horse's leg), are tables built at compile time.
//!
//! # Legality
//!
//! Moves are generated pseudo-legally and filtered. Out of check, a move can only expose its
//! own general if the general moves, if it leaves a point the general's safety depends on (a
//! piece pinned against a chariot or the other general, one of two screens in front of a
//! cannon, a horse's leg next to the general), or if it lands between the general and a cannon
//! with no screen; only those moves are tested, by looking at the attacks on the general as
//! they would be after the move, without playing it. In check every move is tested. Testing
//! every move instead made perft 5 from the start four times slower (6.1 to 7.1 s against 1.5
//! to 1.7 s, release build, 2026-11-29).

use duel_core::{Side, SplitMix64};

/// Points on a rank (files a to i).
pub const FILES: u8 = 9;
/// Ranks, 0 (Red's back rank) to 9 (Black's).
pub const RANKS: u8 = 10;
/// Points on the board.
pub const POINTS: usize = 90;

/// A point of the board, `rank * 9 + file`: a0 is 0, i0 is 8, a9 is 81.
pub type Square = u8;

/// The point on `file` (0 = a) and `rank` (0 = Red's back rank).
pub const fn square(file: u8, rank: u8) -> Square {
    rank * FILES + file
}

/// The file of a point, 0 (a) to 8 (i).
pub const fn file_of(sq: Square) -> u8 {
    sq % FILES
}

/// The rank of a point, 0 (Red's back rank) to 9.
pub const fn rank_of(sq: Square) -> u8 {
    sq / FILES
}

/// The point in ICCS coordinates (`e0`).
pub fn square_name(sq: Square) -> String {
    format!("{}{}", char::from(b'a' + file_of(sq)), rank_of(sq))
}

/// What a piece is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The general (king).
    King,
    /// An advisor (guard).
    Advisor,
    /// An elephant (minister).
    Elephant,
    /// A horse.
    Horse,
    /// A chariot.
    Chariot,
    /// A cannon.
    Cannon,
    /// A soldier (pawn).
    Pawn,
}

impl Kind {
    /// Every kind, in the order of the piece codes.
    pub const ALL: [Kind; 7] = [
        Kind::King,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Chariot,
        Kind::Cannon,
        Kind::Pawn,
    ];

    /// The FEN letter in upper case (Pikafish's and Fairy-Stockfish's: `K A B N R C P`).
    pub const fn letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'B',
            Kind::Horse => 'N',
            Kind::Chariot => 'R',
            Kind::Cannon => 'C',
            Kind::Pawn => 'P',
        }
    }

    /// The most a side can have: the pieces of the start position, as none is ever added.
    pub const fn most(self) -> u32 {
        match self {
            Kind::King => 1,
            Kind::Pawn => 5,
            _ => 2,
        }
    }
}

/// A piece: its side and kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Red (`First`) or Black (`Second`).
    pub side: Side,
    /// What it is.
    pub kind: Kind,
}

impl Piece {
    /// The piece's byte on the board: 1 + kind, plus 8 for Black; 0 is an empty point.
    const fn code(self) -> u8 {
        1 + self.kind as u8 + 8 * self.side as u8
    }

    /// The piece a board byte holds, if any.
    fn from_code(code: u8) -> Option<Piece> {
        let kind = *Kind::ALL.get(usize::from((code & 7).checked_sub(1)?))?;
        let side = if code & 8 == 0 {
            Side::First
        } else {
            Side::Second
        };
        Some(Piece { side, kind })
    }
}

/// Board bytes by side and kind, for the move generator.
const fn code(side: usize, kind: Kind) -> u8 {
    1 + kind as u8 + 8 * side as u8
}
const KING: u8 = Kind::King as u8 + 1;
const ADVISOR: u8 = Kind::Advisor as u8 + 1;
const ELEPHANT_CODE: u8 = Kind::Elephant as u8 + 1;
const HORSE: u8 = Kind::Horse as u8 + 1;
const CHARIOT: u8 = Kind::Chariot as u8 + 1;
const CANNON: u8 = Kind::Cannon as u8 + 1;
const PAWN: u8 = Kind::Pawn as u8 + 1;

/// The side index (0 Red, 1 Black) of a non-empty board byte.
const fn side_of(code: u8) -> usize {
    (code >> 3) as usize
}

/// The kind part of a board byte (the `KING`..`PAWN` constants), the side stripped.
const fn kind_of(code: u8) -> u8 {
    code & 7
}

/// A move: from one point to another. Printed in ICCS coordinates (`h2e2`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: Square,
    to: Square,
}

impl Move {
    /// The move from `from` to `to` (both below [`POINTS`]).
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// Where the piece starts.
    pub const fn from(self) -> Square {
        self.from
    }

    /// Where it lands.
    pub const fn to(self) -> Square {
        self.to
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", square_name(self.from), square_name(self.to))
    }
}

/// Steps from each point: up to `N` targets, each with the point that must be empty for the
/// step (the elephant's eye, the horse's leg; the target itself where nothing can block).
#[derive(Clone, Copy)]
struct Steps<const N: usize> {
    to: [[u8; N]; POINTS],
    via: [[u8; N]; POINTS],
    len: [u8; POINTS],
}

impl<const N: usize> Steps<N> {
    const EMPTY: Self = Steps {
        to: [[0; N]; POINTS],
        via: [[0; N]; POINTS],
        len: [0; POINTS],
    };

    const fn add(&mut self, from: usize, to: i32, via: i32) {
        let i = self.len[from] as usize;
        self.to[from][i] = to as u8;
        self.via[from][i] = via as u8;
        self.len[from] += 1;
    }

    /// Calls `f` with the targets of `from` and their blocking points, as two slices.
    #[inline]
    fn with<R>(&self, from: Square, f: impl FnOnce(&[Square], &[Square]) -> R) -> R {
        let i = usize::from(from);
        let n = usize::from(self.len[i]);
        f(&self.to[i][..n], &self.via[i][..n])
    }

    /// The targets and blocking points of `from`.
    #[inline]
    fn of(&self, from: Square) -> impl Iterator<Item = (Square, Square)> + '_ {
        let i = usize::from(from);
        let n = usize::from(self.len[i]);
        self.to[i][..n]
            .iter()
            .copied()
            .zip(self.via[i][..n].iter().copied())
    }
}

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < FILES as i32 && r >= 0 && r < RANKS as i32
}

const fn in_palace(f: i32, r: i32) -> bool {
    on_board(f, r) && f >= 3 && f <= 5 && (r <= 2 || r >= 7)
}

/// The points of the palace (for the general and advisors) and of one half (for the elephants)
/// hold the piece to them, so the tables need no side: a piece's own palace or half is the one
/// it stands in.
const fn same_half(r1: i32, r2: i32) -> bool {
    (r1 <= 4) == (r2 <= 4)
}

const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const ELEPHANT: [(i32, i32); 4] = [(2, 2), (2, -2), (-2, 2), (-2, -2)];
const HORSE_JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (-1, 2),
    (2, 1),
    (-2, 1),
    (2, -1),
    (-2, -1),
    (1, -2),
    (-1, -2),
];

/// The general's steps inside its palace.
const KING_STEPS: Steps<4> = table(&ORTHOGONAL, Table::Palace);
/// The advisors' steps inside their palace.
const ADVISOR_STEPS: Steps<4> = table(&DIAGONAL, Table::Palace);
/// The elephants' two diagonal steps, on their own side of the river, with the eye between.
const ELEPHANT_STEPS: Steps<4> = table(&ELEPHANT, Table::Half);
/// The horses' moves, with the leg: the point one step straight towards the target.
const HORSE_MOVES: Steps<8> = table(&HORSE_JUMPS, Table::HorseMoves);
/// The horses that attack a point: each horse's point and its leg, which is always diagonally
/// next to the attacked point.
const HORSE_ATTACKS: Steps<8> = table(&HORSE_JUMPS, Table::HorseAttacks);

/// Which steps a table keeps, and which point each must find empty.
#[derive(Clone, Copy)]
enum Table {
    /// Within the palace; nothing blocks.
    Palace,
    /// Within the half of the board; blocked at the middle point (the elephant's eye).
    Half,
    /// A horse's moves from the point, blocked at the leg.
    HorseMoves,
    /// The horse moves onto the point, from the other end of each step, blocked at the leg.
    HorseAttacks,
}

/// The steps `vectors` from every point, as `kind` keeps them.
const fn table<const N: usize>(vectors: &[(i32, i32)], kind: Table) -> Steps<N> {
    let mut t = Steps::EMPTY;
    let mut sq = 0;
    while sq < POINTS {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut d = 0;
        while d < vectors.len() {
            let (df, dr) = vectors[d];
            let (tf, tr) = (f + df, r + dr);
            let kept = on_board(tf, tr)
                && match kind {
                    Table::Palace => in_palace(f, r) && in_palace(tf, tr) && same_half(r, tr),
                    Table::Half => same_half(r, tr),
                    Table::HorseMoves | Table::HorseAttacks => true,
                };
            // The horse's point and its move: the leg is one step straight from the horse
            // along the move's longer side.
            let ((hf, hr), (mf, mr)) = match kind {
                Table::HorseAttacks => ((tf, tr), (-df, -dr)),
                _ => ((f, r), (df, dr)),
            };
            let via = match kind {
                Table::Palace => tr * 9 + tf,
                Table::Half => (r + dr / 2) * 9 + f + df / 2,
                _ if mr == 2 || mr == -2 => (hr + mr / 2) * 9 + hf,
                _ => hr * 9 + hf + mf / 2,
            };
            if kept {
                t.add(sq, tr * 9 + tf, via);
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// The soldiers' steps per side: forward, and sideways once across the river.
const PAWN_STEPS: [Steps<3>; 2] = [pawn_steps(0), pawn_steps(1)];

const fn pawn_steps(side: usize) -> Steps<3> {
    let mut t = Steps::EMPTY;
    let forward = if side == 0 { 1 } else { -1 };
    let mut sq = 0;
    while sq < POINTS {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        if on_board(f, r + forward) {
            t.add(sq, (r + forward) * 9 + f, (r + forward) * 9 + f);
        }
        let across = if side == 0 { r >= 5 } else { r <= 4 };
        if across {
            if f > 0 {
                t.add(sq, r * 9 + f - 1, r * 9 + f - 1);
            }
            if f < 8 {
                t.add(sq, r * 9 + f + 1, r * 9 + f + 1);
            }
        }
        sq += 1;
    }
    t
}

/// Zobrist keys: one per board byte (16, of which 14 are pieces) and point, then Black to move.
const KEYS: [u64; 16 * POINTS + 1] = SplitMix64::keys(0x0C4E_5500_9A1D_0044);
const BLACK_KEY: u64 = KEYS[16 * POINTS];

#[inline]
fn key(code: u8, sq: Square) -> u64 {
    KEYS[usize::from(code) * POINTS + usize::from(sq)]
}

/// The Zobrist keys of the slow-moving pieces (soldiers, advisors, elephants), zero for the
/// rest: their part of the hash keys the structure an evaluator's errors follow.
const STRUCTURE_KEYS: [u64; 16 * POINTS] = {
    let mut t = [0; 16 * POINTS];
    let mut i = 0;
    while i < 16 * POINTS {
        let kind = ((i / POINTS) & 7) as u8;
        if kind == ADVISOR || kind == ELEPHANT_CODE || kind == PAWN {
            t[i] = KEYS[i];
        }
        i += 1;
    }
    t
};

#[inline]
fn structure_key(code: u8, sq: Square) -> u64 {
    STRUCTURE_KEYS[usize::from(code) * POINTS + usize::from(sq)]
}

#[inline]
const fn bit(sq: Square) -> u128 {
    1 << sq
}

/// No point: the first/second/third piece along a line where there is none.
const NONE: u8 = u8::MAX;

/// The pieces along a line from a point, nearest first, [`NONE`] past the last: enough for
/// every attack (a chariot's first, a cannon's second) and pin (a cannon's third).
#[derive(Clone, Copy)]
struct Ray([u8; 3]);

/// The positions (0-based along the line) of the set bits of `line` above `at`, nearest first.
#[inline]
fn up(line: u16, at: u8) -> Ray {
    let mut m = u32::from(line) >> (at + 1);
    let mut out = [NONE; 3];
    for o in &mut out {
        if m == 0 {
            break;
        }
        *o = at + 1 + m.trailing_zeros() as u8;
        m &= m - 1;
    }
    Ray(out)
}

/// The positions of the set bits of `line` below `at`, nearest first.
#[inline]
fn down(line: u16, at: u8) -> Ray {
    let mut m = u32::from(line) & ((1 << at) - 1);
    let mut out = [NONE; 3];
    for o in &mut out {
        if m == 0 {
            break;
        }
        let top = 31 - m.leading_zeros() as u8;
        *o = top;
        m ^= 1 << top;
    }
    Ray(out)
}

/// A position under the bare rules: the pieces and the side to move, without history.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    squares: [u8; POINTS],
    /// Each side's points.
    occupied: [u128; 2],
    /// Per rank, bit `file` set where a piece stands.
    ranks: [u16; RANKS as usize],
    /// Per file, bit `rank` set where a piece stands.
    files: [u16; FILES as usize],
    kings: [Square; 2],
    side: Side,
    hash: u64,
    /// The hash of the soldiers, advisors and elephants alone, kept incrementally.
    structure: u64,
}

/// The board's FEN, without the clock and move number.
impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let fen = crate::fen::write(self, 0, 1);
        let board = fen.rsplitn(5, ' ').last().unwrap_or_default();
        write!(f, "Board(\"{board}\")")
    }
}

/// A move as it would change the board, for attack tests without playing it: `from` empties,
/// `to` holds `piece`. [`After::NOTHING`] leaves the board as it is.
#[derive(Clone, Copy)]
struct After {
    from: Square,
    to: Square,
    piece: u8,
}

impl After {
    const NOTHING: After = After {
        from: NONE,
        to: NONE,
        piece: 0,
    };
}

impl Board {
    /// An empty board, `side` to move; pieces go on with [`Board::put`]. Used while a FEN is
    /// read.
    pub(crate) fn empty(side: Side) -> Board {
        Board {
            squares: [0; POINTS],
            occupied: [0; 2],
            ranks: [0; RANKS as usize],
            files: [0; FILES as usize],
            kings: [NONE; 2],
            side,
            hash: if side == Side::Second { BLACK_KEY } else { 0 },
            structure: 0,
        }
    }

    /// Puts `piece` on the empty point `sq`.
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        let c = piece.code();
        self.squares[usize::from(sq)] = c;
        self.occupied[piece.side as usize] |= bit(sq);
        self.ranks[usize::from(rank_of(sq))] |= 1 << file_of(sq);
        self.files[usize::from(file_of(sq))] |= 1 << rank_of(sq);
        if piece.kind == Kind::King {
            self.kings[piece.side as usize] = sq;
        }
        self.hash ^= key(c, sq);
        self.structure ^= structure_key(c, sq);
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(*self.squares.get(usize::from(sq))?)
    }

    /// Whose turn it is.
    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The Zobrist hash, kept incrementally.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash of the soldiers, advisors and elephants of both sides, kept incrementally:
    /// the slow-moving structure that correction history keys on.
    #[inline]
    pub fn structure_hash(&self) -> u64 {
        self.structure
    }

    /// The hash computed from the pieces and the side to move alone.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.side == Side::Second {
            BLACK_KEY
        } else {
            0
        };
        for sq in 0..POINTS as Square {
            let c = self.squares[usize::from(sq)];
            if c != 0 {
                h ^= key(c, sq);
            }
        }
        h
    }

    /// The general of `side`'s point ([`None`] only on a board still being set up).
    pub fn king(&self, side: Side) -> Option<Square> {
        let k = self.kings[side as usize];
        (k != NONE).then_some(k)
    }

    /// The points `side`'s pieces stand on, as bits (bit `sq`).
    #[inline]
    pub fn occupied(&self, side: Side) -> u128 {
        self.occupied[side as usize]
    }

    /// `side`'s pieces and their points, a0 first.
    pub fn pieces(&self, side: Side) -> impl Iterator<Item = (Square, Piece)> + '_ {
        points(self.occupied[side as usize]).filter_map(move |sq| Some((sq, self.piece_at(sq)?)))
    }

    /// True if the side to move's general is attacked.
    #[inline]
    pub fn in_check(&self) -> bool {
        let us = self.side as usize;
        self.attacked(self.kings[us], 1 - us, After::NOTHING)
    }

    /// True if the general of the side not to move is attacked: the position cannot have
    /// been reached by a legal move.
    pub(crate) fn opponent_in_check(&self) -> bool {
        let them = 1 - self.side as usize;
        self.attacked(self.kings[them], 1 - them, After::NOTHING)
    }

    /// What stands on `sq` once `after` is played.
    #[inline]
    fn at(&self, sq: Square, after: After) -> u8 {
        if sq == after.to {
            after.piece
        } else if sq == after.from {
            0
        } else {
            self.squares[usize::from(sq)]
        }
    }

    /// The occupancy of rank `r` and file `f` once `after` is played.
    #[inline]
    fn lines(&self, r: u8, f: u8, after: After) -> (u16, u16) {
        let mut rank = self.ranks[usize::from(r)];
        let mut file = self.files[usize::from(f)];
        if after.from != NONE {
            if rank_of(after.from) == r {
                rank &= !(1 << file_of(after.from));
            }
            if file_of(after.from) == f {
                file &= !(1 << rank_of(after.from));
            }
            if rank_of(after.to) == r {
                rank |= 1 << file_of(after.to);
            }
            if file_of(after.to) == f {
                file |= 1 << rank_of(after.to);
            }
        }
        (rank, file)
    }

    /// Whether the general standing on `sq` would be attacked by side `by` once `after` is
    /// played: by a chariot or the other general along a line (the general only along the
    /// file: the flying general), a cannon over one screen, a horse whose leg is free, or a
    /// soldier. Advisors and elephants never leave their own half, so never attack a general.
    #[inline]
    fn attacked(&self, sq: Square, by: usize, after: After) -> bool {
        let (r, f) = (rank_of(sq), file_of(sq));
        let (rank, file) = self.lines(r, f, after);
        let chariot = code(by, Kind::Chariot);
        let cannon = code(by, Kind::Cannon);
        let king = code(by, Kind::King);
        let on_rank = |x: u8| {
            if x == NONE {
                0
            } else {
                self.at(r * FILES + x, after)
            }
        };
        let on_file = |x: u8| {
            if x == NONE {
                0
            } else {
                self.at(x * FILES + f, after)
            }
        };
        for Ray([a, b, _]) in [up(rank, f), down(rank, f)] {
            if on_rank(a) == chariot || on_rank(b) == cannon {
                return true;
            }
        }
        for Ray([a, b, _]) in [up(file, r), down(file, r)] {
            let first = on_file(a);
            if first == chariot || first == king || on_file(b) == cannon {
                return true;
            }
        }
        let horse = code(by, Kind::Horse);
        for (h, leg) in HORSE_ATTACKS.of(sq) {
            if self.at(h, after) == horse && self.at(leg, after) == 0 {
                return true;
            }
        }
        let pawn = code(by, Kind::Pawn);
        // A soldier of `by` attacks from the point behind `sq` (as `by` moves), or beside it
        // once across the river, which `sq`'s rank tells as well as the soldier's.
        let (behind, across) = if by == 0 {
            (r.checked_sub(1), r >= 5)
        } else {
            ((r < 9).then_some(r + 1), r <= 4)
        };
        if behind.is_some_and(|b| self.at(b * FILES + f, after) == pawn) {
            return true;
        }
        across
            && ((f > 0 && self.at(sq - 1, after) == pawn)
                || (f < 8 && self.at(sq + 1, after) == pawn))
    }

    /// Plays `mv` (legal, or at least a pseudo-legal move of the side to move) and returns
    /// the byte of what it took (0 for nothing), which [`Board::unmake`] needs.
    #[inline]
    pub(crate) fn make(&mut self, mv: Move) -> u8 {
        let piece = self.squares[usize::from(mv.from)];
        let taken = self.squares[usize::from(mv.to)];
        self.squares[usize::from(mv.to)] = piece;
        self.squares[usize::from(mv.from)] = 0;
        self.toggle(mv, piece, taken);
        if kind_of(piece) == KING {
            self.kings[side_of(piece)] = mv.to;
        }
        taken
    }

    /// Takes back `mv`, which took `taken` ([`Board::make`]'s answer).
    #[inline]
    pub(crate) fn unmake(&mut self, mv: Move, taken: u8) {
        let piece = self.squares[usize::from(mv.to)];
        self.squares[usize::from(mv.from)] = piece;
        self.squares[usize::from(mv.to)] = taken;
        self.toggle(mv, piece, taken);
        if kind_of(piece) == KING {
            self.kings[side_of(piece)] = mv.from;
        }
    }

    /// What making and unmaking `mv` of `piece`, taking `taken`, both change, by exclusive
    /// or, so that one undoes the other: the occupancy, the hash and the side to move.
    #[inline]
    fn toggle(&mut self, mv: Move, piece: u8, taken: u8) {
        let (from, to) = (mv.from, mv.to);
        let us = side_of(piece);
        self.occupied[us] ^= bit(from) | bit(to);
        self.ranks[usize::from(rank_of(from))] ^= 1 << file_of(from);
        self.files[usize::from(file_of(from))] ^= 1 << rank_of(from);
        self.hash ^= key(piece, from) ^ key(piece, to) ^ BLACK_KEY;
        self.structure ^= structure_key(piece, from) ^ structure_key(piece, to);
        if taken == 0 {
            // The target's point changes occupancy only when it was empty.
            self.ranks[usize::from(rank_of(to))] ^= 1 << file_of(to);
            self.files[usize::from(file_of(to))] ^= 1 << rank_of(to);
        } else {
            self.occupied[1 - us] ^= bit(to);
            self.hash ^= key(taken, to);
            self.structure ^= structure_key(taken, to);
        }
        self.side = self.side.other();
    }

    /// Passes the turn (a null move).
    pub(crate) fn pass(&mut self) {
        self.side = self.side.other();
        self.hash ^= BLACK_KEY;
    }

    /// The piece `mv` takes, if any.
    #[inline]
    pub fn captured(&self, mv: Move) -> Option<Piece> {
        self.piece_at(mv.to)
    }

    /// Calls `f` with every pseudo-legal move of the side to move (the rules of movement, the
    /// general's safety aside) until it returns true; returns whether it did.
    fn pseudo_moves(&self, f: &mut impl FnMut(Square, Square) -> bool) -> bool {
        let us = self.side as usize;
        let own = self.occupied[us];
        let free = |sq: Square| own & bit(sq) == 0;
        macro_rules! emit {
            ($from:expr, $to:expr) => {
                if f($from, $to) {
                    return true;
                }
            };
        }
        for from in points(own) {
            let piece = self.squares[usize::from(from)];
            match kind_of(piece) {
                CHARIOT | CANNON => {
                    let cannon = kind_of(piece) == CANNON;
                    let (r, file) = (rank_of(from), file_of(from));
                    let rank = self.ranks[usize::from(r)];
                    let column = self.files[usize::from(file)];
                    if self.slide(f, from, cannon, rank, file, FILES, r * FILES, 1)
                        || self.slide(f, from, cannon, column, r, RANKS, file, FILES)
                    {
                        return true;
                    }
                }
                HORSE => {
                    for (to, leg) in HORSE_MOVES.of(from) {
                        if self.squares[usize::from(leg)] == 0 && free(to) {
                            emit!(from, to);
                        }
                    }
                }
                PAWN => {
                    for (to, _) in PAWN_STEPS[us].of(from) {
                        if free(to) {
                            emit!(from, to);
                        }
                    }
                }
                KING => {
                    for (to, _) in KING_STEPS.of(from) {
                        if free(to) {
                            emit!(from, to);
                        }
                    }
                }
                ADVISOR => {
                    for (to, _) in ADVISOR_STEPS.of(from) {
                        if free(to) {
                            emit!(from, to);
                        }
                    }
                }
                _ => {
                    for (to, eye) in ELEPHANT_STEPS.of(from) {
                        if self.squares[usize::from(eye)] == 0 && free(to) {
                            emit!(from, to);
                        }
                    }
                }
            }
        }
        false
    }

    /// The moves of the chariot or cannon on `from` along one line whose occupancy is `line`,
    /// `from` being at `at` of its `len` points and point `x` of it `base + x * stride`: the
    /// empty points up to the first piece each way, then a capture of the first piece (a
    /// chariot) or the second (a cannon, over its screen) if it is not ours. Calls `f` as
    /// [`Board::pseudo_moves`] does and returns whether it stopped.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn slide(
        &self,
        f: &mut impl FnMut(Square, Square) -> bool,
        from: Square,
        cannon: bool,
        line: u16,
        at: u8,
        len: u8,
        base: u8,
        stride: u8,
    ) -> bool {
        let own = self.occupied[self.side as usize];
        let sq = |x: u8| base + x * stride;
        let Ray([a, b, _]) = up(line, at);
        for x in at + 1..if a == NONE { len } else { a } {
            if f(from, sq(x)) {
                return true;
            }
        }
        let target = if cannon { b } else { a };
        if target != NONE && own & bit(sq(target)) == 0 && f(from, sq(target)) {
            return true;
        }
        let Ray([a, b, _]) = down(line, at);
        for x in (if a == NONE { 0 } else { a + 1 }..at).rev() {
            if f(from, sq(x)) {
                return true;
            }
        }
        let target = if cannon { b } else { a };
        target != NONE && own & bit(sq(target)) == 0 && f(from, sq(target))
    }

    /// The points from which a move of ours may expose our general, and the empty points onto
    /// which one may (see the module doc). Out of check only.
    fn hazards(&self) -> (u128, u128) {
        let us = self.side as usize;
        let them = 1 - us;
        let k = self.kings[us];
        let (r, f) = (rank_of(k), file_of(k));
        let ours = |x: u8| x != NONE && side_of(self.squares[usize::from(x)]) == us;
        let is = |x: u8, c: u8| x != NONE && self.squares[usize::from(x)] == c;
        let chariot = code(them, Kind::Chariot);
        let cannon = code(them, Kind::Cannon);
        let king = code(them, Kind::King);
        let (mut pinned, mut blocks) = (0u128, 0u128);
        let rank_sq = |x: u8| if x == NONE { NONE } else { r * FILES + x };
        let file_sq = |x: u8| if x == NONE { NONE } else { x * FILES + f };
        let rays = [
            (up(self.ranks[usize::from(r)], f), true),
            (down(self.ranks[usize::from(r)], f), true),
            (up(self.files[usize::from(f)], r), false),
            (down(self.files[usize::from(f)], r), false),
        ];
        for (Ray(ray), on_rank) in rays {
            let [a, b, c] = ray.map(|x| if on_rank { rank_sq(x) } else { file_sq(x) });
            if a == NONE {
                continue;
            }
            if ours(a) && (is(b, chariot) || (!on_rank && is(b, king))) {
                pinned |= bit(a);
            }
            if is(c, cannon) {
                if ours(a) {
                    pinned |= bit(a);
                }
                if ours(b) {
                    pinned |= bit(b);
                }
            }
            if is(a, cannon) {
                blocks |= between(k, a);
            }
        }
        let horse = code(them, Kind::Horse);
        for (h, leg) in HORSE_ATTACKS.of(k) {
            if self.squares[usize::from(h)] == horse && ours(leg) {
                pinned |= bit(leg);
            }
        }
        (pinned, blocks)
    }

    /// Calls `f` with every legal move until it returns true; returns whether it did.
    #[inline]
    pub(crate) fn legal_moves(&self, mut f: impl FnMut(Move) -> bool) -> bool {
        let us = self.side as usize;
        let k = self.kings[us];
        let (pinned, blocks) = if self.in_check() {
            (u128::MAX, u128::MAX)
        } else {
            self.hazards()
        };
        self.pseudo_moves(&mut |from, to| {
            let risky = from == k || (pinned >> from) & 1 != 0 || (blocks >> to) & 1 != 0;
            if risky && !self.safe_after(from, to) {
                return false;
            }
            f(Move { from, to })
        })
    }

    /// Whether the side to move's general is safe once it has played `from`-`to`.
    #[inline]
    fn safe_after(&self, from: Square, to: Square) -> bool {
        let us = self.side as usize;
        let piece = self.squares[usize::from(from)];
        let k = if from == self.kings[us] {
            to
        } else {
            self.kings[us]
        };
        !self.attacked(k, 1 - us, After { from, to, piece })
    }

    /// Every legal move, into `moves` (cleared first), in a fixed order: by the moving piece's
    /// point, a0 first.
    pub fn generate(&self, moves: &mut Vec<Move>) {
        moves.clear();
        self.legal_moves(|m| {
            moves.push(m);
            false
        });
    }

    /// Whether the side to move has a legal move; stops at the first.
    pub fn has_legal_move(&self) -> bool {
        self.legal_moves(|_| true)
    }

    /// Whether `mv` is a legal move here.
    pub fn is_legal(&self, mv: Move) -> bool {
        usize::from(mv.from) < POINTS
            && self.squares[usize::from(mv.from)] != 0
            && side_of(self.squares[usize::from(mv.from)]) == self.side as usize
            && self.legal_moves(|m| m == mv)
    }

    /// Whether `mv` follows the movement rules here, its general's safety aside.
    pub fn is_pseudo_legal(&self, mv: Move) -> bool {
        self.pseudo_moves(&mut |from, to| from == mv.from && to == mv.to)
    }

    /// Leaf count `depth` plies ahead, on the bare rules, the last ply counted in bulk.
    pub fn perft(&mut self, depth: u32) -> u64 {
        let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
        self.perft_with(depth, &mut buffers)
    }

    fn perft_with(&mut self, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            let mut n = 0;
            self.legal_moves(|_| {
                n += 1;
                false
            });
            return n;
        }
        let Some((moves, rest)) = buffers.split_first_mut() else {
            return 0;
        };
        self.generate(moves);
        let mut total = 0;
        for &mv in moves.iter() {
            let taken = self.make(mv);
            total += self.perft_with(depth - 1, rest);
            self.unmake(mv, taken);
        }
        total
    }

    /// Whether some piece of `by` reaches `to` ([`Board::reaches`]), or `by`'s general faces
    /// `to` along an open file: a test from the target outwards, far cheaper than asking each
    /// piece, which can only err towards true (the flying general takes nothing but the other
    /// general). The static exchange asks it before it looks for takers.
    pub fn may_be_reached(&self, to: Square, by: Side) -> bool {
        let by = by as usize;
        if self.attacked(to, by, After::NOTHING) {
            return true;
        }
        // `attacked` leaves out what reaches only its own palace or half, as a general never
        // stands in the other's: the steps are their own reverse.
        let king = code(by, Kind::King);
        let advisor = code(by, Kind::Advisor);
        let elephant = code(by, Kind::Elephant);
        let empty = |sq: Square| self.squares[usize::from(sq)] == 0;
        KING_STEPS
            .of(to)
            .any(|(t, _)| self.squares[usize::from(t)] == king)
            || ADVISOR_STEPS
                .of(to)
                .any(|(t, _)| self.squares[usize::from(t)] == advisor)
            || ELEPHANT_STEPS
                .of(to)
                .any(|(t, eye)| self.squares[usize::from(t)] == elephant && empty(eye))
    }

    /// Whether the piece on `from` could move to (or take on) `to` by its own movement,
    /// whatever stands on `to` and whether its general would be safe: what attacking and
    /// protecting mean for the repetition rulings and the evaluator.
    pub fn reaches(&self, from: Square, to: Square) -> bool {
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        let empty = |sq: Square| self.squares[usize::from(sq)] == 0;
        let step = |steps: &Steps<4>| steps.of(from).any(|(t, via)| t == to && empty(via));
        match piece.kind {
            Kind::King => KING_STEPS.of(from).any(|(t, _)| t == to),
            Kind::Advisor => ADVISOR_STEPS.of(from).any(|(t, _)| t == to),
            Kind::Elephant => step(&ELEPHANT_STEPS),
            Kind::Horse => HORSE_MOVES.of(from).any(|(t, leg)| t == to && empty(leg)),
            Kind::Pawn => PAWN_STEPS[piece.side as usize]
                .of(from)
                .any(|(t, _)| t == to),
            Kind::Chariot => self.pieces_between(from, to) == Some(0),
            Kind::Cannon => self.pieces_between(from, to) == Some(1),
        }
    }

    /// How many pieces stand strictly between two points on one rank or file; None if they
    /// share neither (or are the same point).
    pub fn pieces_between(&self, a: Square, b: Square) -> Option<u32> {
        if a == b {
            return None;
        }
        let (line, lo, hi) = if rank_of(a) == rank_of(b) {
            let (x, y) = (file_of(a).min(file_of(b)), file_of(a).max(file_of(b)));
            (self.ranks[usize::from(rank_of(a))], x, y)
        } else if file_of(a) == file_of(b) {
            let (x, y) = (rank_of(a).min(rank_of(b)), rank_of(a).max(rank_of(b)));
            (self.files[usize::from(file_of(a))], x, y)
        } else {
            return None;
        };
        let inside = ((1u32 << hi) - 1) & !((1u32 << (lo + 1)) - 1);
        Some((u32::from(line) & inside).count_ones())
    }
}

/// What one piece reaches by its own movement, for evaluators (its general's safety aside).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reach {
    /// The empty points it could move to.
    pub quiet: u128,
    /// The occupied points it attacks, or protects where its own pieces stand: a chariot's
    /// first piece along each line, a cannon's second (over its screen).
    pub hits: u128,
    /// Its steps stopped at a horse's leg or an elephant's eye.
    pub blocked: u32,
}

impl Board {
    /// What the piece on `sq` reaches; nothing for an empty point.
    pub fn reach(&self, sq: Square) -> Reach {
        let mut out = Reach::default();
        let Some(piece) = self.piece_at(sq) else {
            return out;
        };
        let all = self.occupied[0] | self.occupied[1];
        let mut steps = |targets: &[Square], vias: &[Square], guarded: bool| {
            for (&to, &via) in targets.iter().zip(vias) {
                if guarded && all & bit(via) != 0 {
                    out.blocked += 1;
                } else if all & bit(to) != 0 {
                    out.hits |= bit(to);
                } else {
                    out.quiet |= bit(to);
                }
            }
        };
        match piece.kind {
            Kind::King => KING_STEPS.with(sq, |t, v| steps(t, v, false)),
            Kind::Advisor => ADVISOR_STEPS.with(sq, |t, v| steps(t, v, false)),
            Kind::Elephant => ELEPHANT_STEPS.with(sq, |t, v| steps(t, v, true)),
            Kind::Horse => HORSE_MOVES.with(sq, |t, v| steps(t, v, true)),
            Kind::Pawn => PAWN_STEPS[piece.side as usize].with(sq, |t, v| steps(t, v, false)),
            Kind::Chariot | Kind::Cannon => {
                let (r, f) = (rank_of(sq), file_of(sq));
                let on_rank = SLIDES[usize::from(f)][usize::from(self.ranks[usize::from(r)])];
                let on_file = SLIDES[usize::from(r)][usize::from(self.files[usize::from(f)])];
                let rank = |line: u16| u128::from(line & RANK_MASK) << (r * FILES);
                let file = |line: u16| FILE_SPREAD[usize::from(line)] << f;
                out.quiet = rank(on_rank.quiet) | file(on_file.quiet);
                out.hits = if piece.kind == Kind::Cannon {
                    rank(on_rank.cannon) | file(on_file.cannon)
                } else {
                    rank(on_rank.chariot) | file(on_file.chariot)
                };
            }
        }
        out
    }
}

/// What a chariot or cannon on one line (a rank or a file, as its bits) reaches: the empty
/// points up to the first piece each way, that first piece (the chariot's hit) and the
/// second (the cannon's, over its screen). Lines of up to 10 points; a rank's quiet points
/// are masked to its 9.
#[derive(Clone, Copy)]
struct Slide {
    quiet: u16,
    chariot: u16,
    cannon: u16,
}

const RANK_MASK: u16 = (1 << FILES) - 1;

/// [`Slide`] by the slider's place on the line (0 to 9) and the line's occupancy (10 bits).
static SLIDES: [[Slide; 1 << RANKS]; RANKS as usize] = {
    let mut t = [[Slide {
        quiet: 0,
        chariot: 0,
        cannon: 0,
    }; 1 << RANKS]; RANKS as usize];
    let mut at = 0;
    while at < RANKS as i32 {
        let mut line = 0;
        while line < 1 << RANKS {
            let mut s = Slide {
                quiet: 0,
                chariot: 0,
                cannon: 0,
            };
            let mut dir = -1;
            while dir <= 1 {
                let (mut x, mut screens) = (at + dir, 0);
                while x >= 0 && x < RANKS as i32 && screens < 2 {
                    if line & (1 << x) == 0 {
                        if screens == 0 {
                            s.quiet |= 1 << x;
                        }
                    } else {
                        if screens == 0 {
                            s.chariot |= 1 << x;
                        } else {
                            s.cannon |= 1 << x;
                        }
                        screens += 1;
                    }
                    x += dir;
                }
                dir += 2;
            }
            t[at as usize][line] = s;
            line += 1;
        }
        at += 1;
    }
    t
};

/// A file's line bits (bit `rank`) as the points of file a (bit `rank · 9`).
static FILE_SPREAD: [u128; 1 << RANKS] = {
    let mut t = [0u128; 1 << RANKS];
    let mut line = 0;
    while line < 1 << RANKS {
        let mut r = 0;
        while r < RANKS as usize {
            if line & (1 << r) != 0 {
                t[line] |= 1 << (r * FILES as usize);
            }
            r += 1;
        }
        line += 1;
    }
    t
};

/// The points strictly between two points of one rank or file, as bits.
fn between(a: Square, b: Square) -> u128 {
    let (lo, hi) = (a.min(b), a.max(b));
    let step = if rank_of(a) == rank_of(b) { 1 } else { FILES };
    let mut out = 0;
    let mut x = lo + step;
    while x < hi {
        out |= bit(x);
        x += step;
    }
    out
}

/// The set bits of a point set, lowest first.
pub fn points(mut set: u128) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let sq = set.trailing_zeros() as Square;
        set &= set - 1;
        Some(sq)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Calls `f` with every board along 40 seeded random games of up to 120 plies.
    fn along_random_games(seed: u64, mut f: impl FnMut(&Board)) {
        let mut rng = SplitMix64::new(seed);
        let mut moves = Vec::new();
        for _ in 0..40 {
            let mut b = crate::fen::parse(crate::START_FEN).unwrap().board;
            for _ in 0..rng.below(120) {
                b.generate(&mut moves);
                if moves.is_empty() {
                    break;
                }
                b.make(moves[rng.below(moves.len())]);
                f(&b);
            }
        }
    }

    /// `may_be_reached` is exactly "some piece reaches the point, or the general faces it",
    /// at every point for both sides.
    #[test]
    fn may_be_reached_is_reaches_or_the_flying_general() {
        let (mut reached, mut checked) = (0, 0);
        along_random_games(11, |b| {
            for to in 0..POINTS as Square {
                for by in [Side::First, Side::Second] {
                    let some = b.pieces(by).any(|(sq, _)| b.reaches(sq, to));
                    let facing = b.king(by).is_some_and(|k| {
                        k != to && file_of(k) == file_of(to) && b.pieces_between(k, to) == Some(0)
                    });
                    let at = square_name(to);
                    assert_eq!(b.may_be_reached(to, by), some || facing, "{b:?} {at}");
                    reached += usize::from(some);
                    checked += 1;
                }
            }
        });
        // Both answers were seen many times.
        assert!(
            reached > checked / 10 && reached < checked * 9 / 10,
            "{reached} of {checked}"
        );
    }

    /// Every piece's `reach` agrees with `reaches` point by point: its hits are the occupied
    /// points it reaches, its quiet points the empty ones it could move to (for a cannon,
    /// those with nothing between).
    #[test]
    fn reach_agrees_with_reaches() {
        along_random_games(12, |b| {
            for side in [Side::First, Side::Second] {
                for (from, p) in b.pieces(side) {
                    let r = b.reach(from);
                    for to in (0..POINTS as Square).filter(|&t| t != from) {
                        let empty = b.piece_at(to).is_none();
                        let moves_there = if p.kind == Kind::Cannon {
                            b.pieces_between(from, to) == Some(0)
                        } else {
                            b.reaches(from, to)
                        };
                        let at = || format!("{b:?} {}{}", square_name(from), square_name(to));
                        let hit = !empty && b.reaches(from, to);
                        assert_eq!(r.hits & bit(to) != 0, hit, "{}", at());
                        assert_eq!(r.quiet & bit(to) != 0, empty && moves_there, "{}", at());
                    }
                }
            }
        });
    }

    #[test]
    fn lines_find_the_nearest_pieces() {
        let line = 0b1_0010_0101u16; // bits 0, 2, 5, 8
        assert_eq!(up(line, 2).0, [5, 8, NONE]);
        assert_eq!(down(line, 5).0, [2, 0, NONE]);
        assert_eq!(down(line, 0).0, [NONE; 3]);
        assert_eq!(up(line, 8).0, [NONE; 3]);
    }

    #[test]
    fn tables_hold_pieces_to_their_areas() {
        // The general in the corner of the palace (d0) has two steps; at e1 four.
        assert_eq!(KING_STEPS.of(square(3, 0)).count(), 2);
        assert_eq!(KING_STEPS.of(square(4, 1)).count(), 4);
        assert_eq!(KING_STEPS.of(square(4, 8)).count(), 4);
        // An advisor at e1 reaches the four corners, from d0 only e1.
        assert_eq!(ADVISOR_STEPS.of(square(4, 1)).count(), 4);
        assert_eq!(ADVISOR_STEPS.of(square(3, 0)).count(), 1);
        // An elephant at e2 goes to a0? no: c0, g0, c4, g4; at c4 it cannot cross the river.
        assert_eq!(ELEPHANT_STEPS.of(square(4, 2)).count(), 4);
        let c4: Vec<_> = ELEPHANT_STEPS.of(square(2, 4)).map(|(t, _)| t).collect();
        assert_eq!(c4, [square(4, 2), square(0, 2)]);
        // A horse in the corner has two moves; in the middle eight.
        assert_eq!(HORSE_MOVES.of(square(0, 0)).count(), 2);
        assert_eq!(HORSE_MOVES.of(square(4, 4)).count(), 8);
        // Red soldiers: one step before the river, three after; on the last rank two.
        assert_eq!(PAWN_STEPS[0].of(square(4, 3)).count(), 1);
        assert_eq!(PAWN_STEPS[0].of(square(4, 5)).count(), 3);
        assert_eq!(PAWN_STEPS[0].of(square(4, 9)).count(), 2);
        assert_eq!(PAWN_STEPS[1].of(square(4, 4)).count(), 3);
    }

    #[test]
    fn every_step_stays_on_the_board() {
        let tables = [&KING_STEPS, &ADVISOR_STEPS, &ELEPHANT_STEPS];
        for sq in 0..POINTS as Square {
            let small = tables.iter().flat_map(|t| t.of(sq));
            let horses = HORSE_MOVES.of(sq).chain(HORSE_ATTACKS.of(sq));
            let pawns = PAWN_STEPS.iter().flat_map(|t| t.of(sq));
            for (to, via) in small.chain(horses).chain(pawns) {
                assert!(usize::from(to.max(via)) < POINTS, "{}", square_name(sq));
            }
        }
    }

    #[test]
    fn horse_attacks_mirror_horse_moves() {
        for t in 0..POINTS as Square {
            for (h, leg) in HORSE_ATTACKS.of(t) {
                assert!(
                    HORSE_MOVES.of(h).any(|(to, l)| to == t && l == leg),
                    "{} from {}",
                    square_name(t),
                    square_name(h)
                );
            }
            assert_eq!(HORSE_ATTACKS.of(t).count(), HORSE_MOVES.of(t).count());
        }
    }
}
