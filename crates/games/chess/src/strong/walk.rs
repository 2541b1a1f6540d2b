//! The feature walk: every feature of a position counted once, White's minus Black's, handed to
//! a [`Sink`] (the evaluation's weights or the fitter's list). Both sides' attacks are found
//! first ([`Attacks`]), so that each side's terms can ask what the other covers; then each
//! side's pieces, its threats and space, its pawns, and its king's shelter, in that order.

use cozy_chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_rook_moves, BitBoard, Board, Color,
    Piece, Square,
};
use duel_core::features::Sink;

use super::layout::*;
use super::masks::{
    pawn_attacks, piece_attacks, FILE_A, FRONT_SPAN_SIDES, NEIGHBOUR_FILES, PASSED_MASKS, WITHIN,
};
use crate::endgame::distance;

/// King-danger units per attacking piece (knight, bishop, rook, queen).
const KING_UNITS: [i32; 4] = [2, 2, 3, 5];

/// What one side attacks, found before either side's features so that each can see the
/// other's: the knights', bishops', rooks' and queens' attack sets in the order the feature
/// walk meets them (piece type, then square), and their union with the pawns' and king's.
struct Attacks {
    all: u64,
    pieces: [u64; 16],
}

impl Attacks {
    #[inline(always)]
    fn of(b: &Board, color: Color) -> Attacks {
        let occupied = b.occupied();
        let mut a = Attacks {
            all: pawn_attacks(b.colored_pieces(color, Piece::Pawn).0, color)
                | get_king_moves(b.king(color)).0,
            pieces: [0; 16],
        };
        let mut n = 0;
        for piece in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
            for sq in b.colored_pieces(color, piece) {
                let attacks = piece_attacks(piece, sq, occupied);
                a.all |= attacks;
                // Fifteen pieces besides king and pawns at most, promotions included.
                if n < a.pieces.len() {
                    a.pieces[n] = attacks;
                }
                n += 1;
            }
        }
        a
    }
}

/// Every feature of `b`, White's counts minus Black's, into `sink`.
pub(super) fn walk<S: Sink>(b: &Board, sink: &mut S) {
    let white = Attacks::of(b, Color::White);
    let black = Attacks::of(b, Color::Black);
    side(b, Color::White, 1, sink, &white, &black);
    side(b, Color::Black, -1, sink, &black, &white);
    sink.add(
        TEMPO,
        if b.side_to_move() == Color::White {
            1
        } else {
            -1
        },
    );
}

/// Every feature of `color`'s pieces, signed `sign` (+1 White, −1 Black); `ours` and
/// `theirs` are the two sides' attacks.
#[inline(always)]
fn side<S: Sink>(
    b: &Board,
    color: Color,
    sign: i32,
    sink: &mut S,
    ours: &Attacks,
    theirs: &Attacks,
) {
    let v = View::new(b, color, sign);
    let tally = pieces(&v, sink, ours, theirs);
    threats(&v, &tally, sink, ours, theirs);
    pawns(&v, sink, theirs);
    king(&v, sink);
}

/// What one side's terms look at, found once per side.
struct View<'a> {
    b: &'a Board,
    color: Color,
    them: Color,
    /// +1 White, −1 Black.
    sign: i32,
    /// `color as usize`, for the masks indexed by colour.
    ci: usize,
    occupied: BitBoard,
    own: u64,
    our_pawns: u64,
    their_pawns: u64,
    our_pawn_attacks: u64,
    their_pawn_attacks: u64,
    their_king: Square,
    /// The enemy king's square and those around it.
    king_zone: u64,
    their_majors: u64,
    their_queens: u64,
    /// The enemy's pieces other than pawns and king.
    their_pieces: u64,
    our_king_moves: u64,
    /// The squares from which a knight, bishop, rook or queen would check the enemy king.
    check_squares: [u64; 4],
}

impl<'a> View<'a> {
    #[inline(always)]
    fn new(b: &'a Board, color: Color, sign: i32) -> View<'a> {
        let them = !color;
        let occupied = b.occupied();
        let our_pawns = b.colored_pieces(color, Piece::Pawn).0;
        let their_pawns = b.colored_pieces(them, Piece::Pawn).0;
        let their_king = b.king(them);
        let their = |p: Piece| b.colored_pieces(them, p).0;
        let diagonal_checks = get_bishop_moves(their_king, occupied).0;
        let straight_checks = get_rook_moves(their_king, occupied).0;
        View {
            b,
            color,
            them,
            sign,
            ci: color as usize,
            occupied,
            own: b.colors(color).0,
            our_pawns,
            their_pawns,
            our_pawn_attacks: pawn_attacks(our_pawns, color),
            their_pawn_attacks: pawn_attacks(their_pawns, them),
            their_king,
            king_zone: get_king_moves(their_king).0 | their_king.bitboard().0,
            their_majors: their(Piece::Rook) | their(Piece::Queen),
            their_queens: their(Piece::Queen),
            their_pieces: b.colors(them).0 & !their_pawns & !b.pieces(Piece::King).0,
            our_king_moves: get_king_moves(b.king(color)).0,
            check_squares: [
                get_knight_moves(their_king).0,
                diagonal_checks,
                straight_checks,
                diagonal_checks | straight_checks,
            ],
        }
    }
}

/// What the piece loop counts for the terms after it.
#[derive(Default)]
struct Tally {
    /// Pieces attacking the enemy king's zone, and their danger units.
    attackers: usize,
    units: i32,
    /// Checks ready from squares the enemy does not attack, by piece (knight .. queen).
    safe_checks: [i32; 4],
    bishop_pawns: i32,
    behind_pawn: i32,
    defenders: i32,
}

/// Material, piece-square tables, and each knight's, bishop's, rook's and queen's mobility,
/// checks, attacks on the king's zone, threats, outposts and files.
#[inline(always)]
fn pieces<S: Sink>(v: &View<'_>, sink: &mut S, ours: &Attacks, theirs: &Attacks) -> Tally {
    let (b, color, sign) = (v.b, v.color, v.sign);
    let mut t = Tally::default();
    let mut next = 0;
    for (pi, &piece) in Piece::ALL.iter().enumerate() {
        let pieces = b.colored_pieces(color, piece);
        if pi < 5 {
            sink.add(MATERIAL + pi, sign * pieces.len() as i32);
        }
        for sq in pieces {
            sink.add(PST + pi * 64 + sq.relative_to(color) as usize, sign);
            if matches!(piece, Piece::Pawn | Piece::King) {
                continue;
            }
            // The walk meets the pieces in the order `Attacks::of` stored them; past the
            // sixteenth (never in a game) the attacks are found again.
            let attacks = if next < ours.pieces.len() {
                ours.pieces[next]
            } else {
                piece_attacks(piece, sq, v.occupied)
            };
            next += 1;
            let s = sq as usize;
            if matches!(piece, Piece::Knight | Piece::Bishop) {
                let front = if color == Color::White {
                    s + 8
                } else {
                    s.wrapping_sub(8)
                };
                if front < 64 && v.our_pawns & (1u64 << front) != 0 {
                    t.behind_pawn += 1;
                }
                if v.our_king_moves & (1u64 << s) != 0 {
                    t.defenders += 1;
                }
            }
            if piece == Piece::Bishop {
                let light = 0x55AA_55AA_55AA_55AAu64;
                let colour = if light & (1u64 << s) != 0 {
                    light
                } else {
                    !light
                };
                t.bishop_pawns += (v.our_pawns & colour).count_ones() as i32;
            }
            let check_squares = v.check_squares[pi - 1];
            t.safe_checks[pi - 1] +=
                (attacks & check_squares & !v.own & !theirs.all).count_ones() as i32;
            // Squares a piece could go to without standing on a friend or walking into a pawn's
            // capture: the squares that count for its activity.
            let mobility = (attacks & !v.own & !v.their_pawn_attacks).count_ones() as usize;
            sink.add(MOBILITY[pi - 1] + mobility, sign);
            let checks =
                (attacks & check_squares & !v.own & !v.their_pawn_attacks).count_ones() as i32;
            if checks > 0 {
                sink.add(CHECK + pi - 1, sign * checks);
            }
            let on_zone = (attacks & v.king_zone).count_ones() as i32;
            if on_zone > 0 {
                sink.add(KING_ATTACK + pi - 1, sign * on_zone);
                t.attackers += 1;
                t.units += KING_UNITS[pi - 1];
            }
            let targets = match piece {
                Piece::Knight | Piece::Bishop => v.their_majors,
                Piece::Rook => v.their_queens,
                _ => 0,
            };
            let hit = (attacks & targets).count_ones() as i32;
            if hit > 0 {
                let f = if piece == Piece::Rook {
                    THREAT_BY_ROOK
                } else {
                    THREAT_BY_MINOR
                };
                sink.add(f, sign * hit);
            }
            // An outpost: well forward, defended by a pawn, and no enemy pawn can ever drive
            // the piece away.
            if matches!(piece, Piece::Knight | Piece::Bishop) {
                let rank = sq.relative_to(color) as usize / 8;
                if (3..=5).contains(&rank)
                    && v.our_pawn_attacks & (1u64 << s) != 0
                    && FRONT_SPAN_SIDES[v.ci][s] & v.their_pawns == 0
                {
                    sink.add(OUTPOST + pi - 1, sign);
                }
            }
            if piece == Piece::Rook {
                rook(v, sq, sink);
            }
        }
    }
    t
}

/// A rook's open or semi-open file, and the seventh rank.
#[inline(always)]
fn rook<S: Sink>(v: &View<'_>, sq: Square, sink: &mut S) {
    let file = FILE_A << (sq as usize % 8);
    if file & v.our_pawns == 0 {
        let open = file & v.their_pawns == 0;
        sink.add(if open { ROOK_OPEN } else { ROOK_SEMI_OPEN }, v.sign);
    }
    if sq.relative_to(v.color) as usize / 8 == 6 {
        let (seventh, eighth) = if v.color == Color::White {
            (0xFFu64 << 48, 0xFFu64 << 56)
        } else {
            (0xFF00u64, 0xFFu64)
        };
        if v.their_pawns & seventh != 0 || v.their_king.bitboard().0 & eighth != 0 {
            sink.add(ROOK_SEVENTH, v.sign);
        }
    }
}

/// The piece loop's totals (safe checks, bishops' pawns, minors behind pawns, the king's
/// defenders, king danger), then the threats on enemy units and space.
#[inline(always)]
fn threats<S: Sink>(v: &View<'_>, t: &Tally, sink: &mut S, ours: &Attacks, theirs: &Attacks) {
    let (b, color, them, sign) = (v.b, v.color, v.them, v.sign);
    for (i, &n) in t.safe_checks.iter().enumerate() {
        if n > 0 {
            sink.add(SAFE_CHECK + i, sign * n);
        }
    }
    for (feature, n) in [
        (BISHOP_PAWNS, t.bishop_pawns),
        (MINOR_BEHIND_PAWN, t.behind_pawn),
        (KING_DEFENDERS, t.defenders),
        (
            THREAT_HANGING,
            (v.their_pieces & ours.all & !theirs.all).count_ones() as i32,
        ),
        (
            THREAT_BY_KING,
            (b.colors(them).0 & v.our_king_moves & !theirs.all).count_ones() as i32,
        ),
        (
            THREAT_WEAK_PAWN,
            (v.their_pawns & !v.their_pawn_attacks & ours.all).count_ones() as i32,
        ),
    ] {
        if n > 0 {
            sink.add(feature, sign * n);
        }
    }
    // Pawn pushes: one square onto an empty square no enemy pawn hits, then threatening a
    // piece.
    let pushed = if color == Color::White {
        v.our_pawns << 8
    } else {
        v.our_pawns >> 8
    } & !v.occupied.0
        & !v.their_pawn_attacks;
    let push_threats = (pawn_attacks(pushed, color) & v.their_pieces).count_ones() as i32;
    if push_threats > 0 {
        sink.add(THREAT_PUSH, sign * push_threats);
    }
    // Space: the centre files' squares behind the front, own ranks 2 to 4.
    let centre_files = 0x3C3C_3C3C_3C3C_3C3Cu64;
    let own_ranks = if color == Color::White {
        0x0000_0000_FFFF_FF00u64
    } else {
        0x00FF_FFFF_0000_0000u64
    };
    let space =
        (centre_files & own_ranks & !v.our_pawns & !v.their_pawn_attacks).count_ones() as i32;
    if space > 0 {
        sink.add(SPACE, sign * space);
    }

    if t.attackers > 0 {
        sink.add(KING_DANGER + t.attackers.min(7) - 1, sign * t.units);
    }
    let threatened = (v.our_pawn_attacks & b.colors(them).0 & !v.their_pawns).count_ones() as i32;
    if threatened > 0 {
        sink.add(THREAT_BY_PAWN, sign * threatened);
    }
}

/// Pawn structure: connected, passed (free, blocked, safe, by the kings' distances,
/// supported), isolated, backward and doubled pawns.
#[inline(always)]
fn pawns<S: Sink>(v: &View<'_>, sink: &mut S, theirs: &Attacks) {
    let (b, color, them, sign, ci) = (v.b, v.color, v.them, v.sign, v.ci);
    let our_king = b.king(color) as usize;
    let their_king = v.their_king as usize;
    let mut isolated = 0;
    let (mut supported, mut phalanx, mut backward) = (0, 0, 0);
    let mut p = v.our_pawns;
    while p != 0 {
        let sq = p.trailing_zeros() as usize;
        p &= p - 1;
        let bit = 1u64 << sq;
        let f = sq % 8;
        let rank = Square::index(sq).relative_to(color) as usize / 8;
        // The square in front (a pawn on the last rank does not exist).
        let stop = if color == Color::White {
            sq + 8
        } else {
            sq - 8
        };
        let defended = v.our_pawn_attacks & bit != 0;
        supported += i32::from(defended);
        let neighbours = NEIGHBOUR_FILES[f] & v.our_pawns;
        let beside = neighbours & (0xFFu64 << (8 * (sq / 8))) != 0;
        phalanx += i32::from(beside);
        if defended || beside {
            sink.add(PAWN_CONNECTED + rank - 1, sign);
        }
        if PASSED_MASKS[ci][sq] & v.their_pawns == 0 {
            sink.add(PASSED + rank - 1, sign);
            let stop_bit = 1u64 << stop;
            if b.colors(them).0 & stop_bit != 0 {
                sink.add(PASSED_BLOCKED + rank - 1, sign);
            } else if v.occupied.0 & stop_bit == 0 && theirs.all & stop_bit == 0 {
                sink.add(PASSED_SAFE + rank - 1, sign);
            }
            if PASSED_MASKS[ci][sq] & (FILE_A << f) & v.occupied.0 == 0 {
                sink.add(PASSED_FREE + rank - 1, sign);
            }
            sink.add(PASSED_OWN_KING + rank - 1, sign * distance(our_king, stop));
            sink.add(
                PASSED_THEIR_KING + rank - 1,
                sign * distance(their_king, stop),
            );
            if defended {
                sink.add(PASSED_SUPPORTED, sign);
            }
        }
        if neighbours == 0 {
            isolated += 1;
        } else if neighbours & !PASSED_MASKS[ci][sq] == 0
            && v.their_pawn_attacks & (1u64 << stop) != 0
        {
            // Every friend on the neighbouring files is ahead: none can come up to defend it,
            // and the square it would advance to is covered by an enemy pawn.
            backward += 1;
        }
    }
    if isolated > 0 {
        sink.add(ISOLATED, sign * isolated);
    }
    for (feature, n) in [
        (PAWN_SUPPORTED, supported),
        (PAWN_PHALANX, phalanx),
        (PAWN_BACKWARD, backward),
    ] {
        if n > 0 {
            sink.add(feature, sign * n);
        }
    }
    let mut doubled = 0;
    for f in 0..8 {
        doubled += ((FILE_A << f) & v.our_pawns).count_ones().saturating_sub(1) as i32;
    }
    if doubled > 0 {
        sink.add(DOUBLED, sign * doubled);
    }
}

/// The king's shelter: the pawn shield, the enemy pawn storm, the open files by the king;
/// then the bishop pair and the king's distance to the nearest pawn.
#[inline(always)]
fn king<S: Sink>(v: &View<'_>, sink: &mut S) {
    let (b, color, sign) = (v.b, v.color, v.sign);
    // King shelter: our pawns on the king's and the neighbouring files, one and two ranks
    // towards the enemy.
    let king = b.king(color);
    let (kf, kr) = (king as usize % 8, king as usize / 8);
    let files = NEIGHBOUR_FILES[kf] | FILE_A << kf;
    // The king's and the neighbouring files, `step` ranks in front of the king (towards the
    // enemy); None past the board's edge.
    let ahead = |step: i32| {
        let r = if color == Color::White {
            kr as i32 + step
        } else {
            kr as i32 - step
        };
        (0..8).contains(&r).then(|| files & (0xFFu64 << (8 * r)))
    };
    for (i, step) in [1, 2].into_iter().enumerate() {
        let n = ahead(step).map_or(0, |zone| (zone & v.our_pawns).count_ones() as i32);
        if n > 0 {
            sink.add(SHIELD + i, sign * n);
        }
    }
    // Pawn storm: their pawns one, two and three ranks in front of our king.
    for (i, step) in [1, 2, 3].into_iter().enumerate() {
        let n = ahead(step).map_or(0, |zone| (zone & v.their_pawns).count_ones() as i32);
        if n > 0 {
            sink.add(STORM + i, sign * n);
        }
    }
    let open = (kf.saturating_sub(1)..=(kf + 1).min(7))
        .filter(|&f| (FILE_A << f) & v.our_pawns == 0)
        .count() as i32;
    if open > 0 {
        sink.add(KING_OPEN, sign * open);
    }

    if b.colored_pieces(color, Piece::Bishop).len() >= 2 {
        sink.add(BISHOP_PAIR, sign);
    }
    let pawns = b.pieces(Piece::Pawn).0;
    if pawns != 0 {
        // The first ring around the king that holds a pawn (one always does by distance 7).
        let nearest = (1..8)
            .find(|&d| WITHIN[king as usize][d] & pawns != 0)
            .unwrap_or(7);
        sink.add(KING_PAWN_DISTANCE, sign * nearest as i32);
    }
}
