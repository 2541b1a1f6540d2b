//! [`Strong`], duel's fitted chess evaluation: linear in its weights, so that a logistic fit on
//! game results (Texel's method, `duel-train chess-fit`) finds them by plain gradient descent.
//!
//! The value is tapered like [`crate::Pst`]'s: `(mg·phase + eg·(24 − phase)) / 24`, where
//! `mg = Σ w_mg[i]·x[i]` and `eg = Σ w_eg[i]·x[i]` over integer features `x`, each counted for
//! White minus the same count for Black (squares seen from each side's own back rank). The
//! features: material, piece-square tables, mobility tables; passed pawns by rank, with a free
//! path, a blocked or a safe square in front, and the two kings' distances to it (by rank),
//! defended passers; isolated, doubled, backward, defended and side-by-side pawns, and
//! connected pawns by rank; the pawn shield, the enemy pawn storm, open files by the king, the
//! attacks on each king's zone, a king-danger table by the number of attackers, the checks
//! each piece type has ready and those of them the enemy does not cover, minor pieces by the
//! king; threats (pieces hit by pawns, rooks and queens by minors, queens by rooks, undefended
//! pieces, pieces a pawn push would hit, undefended units next to the king, weak pawns);
//! knight and bishop outposts, minor pieces behind a pawn, the pawns on a bishop's colour; the
//! bishop pair, rooks on open and semi-open files and on the seventh; space behind the pawns;
//! the king's distance to the nearest pawn; and a tempo for the side to move. Both sides'
//! attack sets are found first (`Attacks`), so each side's terms can ask what the other
//! covers.
//!
//! One rule is not a weight: in endings a material edge rarely wins (a pawnless side at most a
//! minor piece up, a side that cannot mate, bishops of opposite colours) the endgame value is
//! scaled down by [`crate::endgame::scales`]; the fit models it the same way. The rules of the
//! game, not the fit, make these endings drawish, and a linear term cannot express "whoever is
//! ahead".
//!
//! [`features`] lists a position's features sparsely for the fitter; [`Strong::evaluate`] walks
//! the same code with an accumulator in place of the list, so the two cannot disagree (a test
//! checks it on every position of the chess data files).

use std::sync::{Arc, OnceLock};

use cozy_chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_rook_moves, BitBoard, Board, Color,
    Piece, Square,
};
use duel_core::Evaluator;

use crate::{Chess, PIECE_VALUES};

/// Phase weight per piece (pawn .. king), as [`crate::Pst`] counts it: 24 with every minor and
/// major piece on the board.
const PHASE_WEIGHTS: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase of the full set of pieces.
pub const PHASE_MAX: i32 = 24;

// Feature indices. Each block's size is its table's length.
const MATERIAL: usize = 0; // pawn, knight, bishop, rook, queen
const PST: usize = MATERIAL + 5; // 6 pieces × 64 squares
/// Mobility tables by piece (knight, bishop, rook, queen): one weight per number of squares.
const MOBILITY_SIZES: [usize; 4] = [9, 14, 15, 28];
const MOBILITY: [usize; 4] = {
    let mut m = [0; 4];
    let mut next = PST + 6 * 64;
    let mut t = 0;
    while t < 4 {
        m[t] = next;
        next += MOBILITY_SIZES[t];
        t += 1;
    }
    m
};
const PASSED: usize = MOBILITY[3] + MOBILITY_SIZES[3]; // relative ranks 2..7
const ISOLATED: usize = PASSED + 6;
const DOUBLED: usize = ISOLATED + 1;
const SHIELD: usize = DOUBLED + 1; // one rank ahead of the king, two ranks ahead
const KING_ATTACK: usize = SHIELD + 2; // by knight, bishop, rook, queen
const BISHOP_PAIR: usize = KING_ATTACK + 4;
const ROOK_OPEN: usize = BISHOP_PAIR + 1;
const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
const TEMPO: usize = ROOK_SEMI_OPEN + 1; // +1 for the side to move
/// King danger: the attack units on the enemy king's zone ([`KING_UNITS`] per attacking piece),
/// one weight per number of attackers (1 to 7 or more). A single attacker is rarely
/// dangerous, three together often are: the fit learns that from the data.
const KING_DANGER: usize = TEMPO + 1;
const PASSED_FREE: usize = KING_DANGER + 7; // by rank 2..7: nothing on the way to promotion
const PASSED_OWN_KING: usize = PASSED_FREE + 6; // by rank: own king's distance to the stop square
const PASSED_THEIR_KING: usize = PASSED_OWN_KING + 6; // by rank: the enemy king's distance
const PASSED_SUPPORTED: usize = PASSED_THEIR_KING + 6; // a passed pawn defended by a pawn
const PAWN_SUPPORTED: usize = PASSED_SUPPORTED + 1; // any pawn defended by a pawn
const PAWN_PHALANX: usize = PAWN_SUPPORTED + 1; // a pawn with a friend beside it
const PAWN_BACKWARD: usize = PAWN_PHALANX + 1; // no friend beside or behind, stop square hit
const THREAT_BY_PAWN: usize = PAWN_BACKWARD + 1; // enemy pieces attacked by our pawns
const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 1; // enemy rooks and queens hit by minors
const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 1; // enemy queens hit by rooks
const OUTPOST: usize = THREAT_BY_ROOK + 1; // knight, bishop on an outpost
/// Checks ready: squares from which a knight, bishop, rook or queen could check the enemy
/// king next move, free of own pieces and of enemy pawn attacks (one per square and piece).
const CHECK: usize = OUTPOST + 2;
/// Pawn storm: enemy pawns on the king's and the neighbouring files, one, two and three ranks
/// in front of the king.
const STORM: usize = CHECK + 4;
/// Files among the king's and its neighbours with no pawn of the king's side.
const KING_OPEN: usize = STORM + 3;
/// Enemy knights, bishops, rooks and queens we attack that nothing of theirs defends.
const THREAT_HANGING: usize = KING_OPEN + 1;
/// Checks ready (as [`CHECK`]) from squares the enemy does not attack at all.
const SAFE_CHECK: usize = THREAT_HANGING + 1;
/// Passed pawns by rank whose stop square holds an enemy piece.
const PASSED_BLOCKED: usize = SAFE_CHECK + 4;
/// Passed pawns by rank whose stop square is empty and not attacked by the enemy.
const PASSED_SAFE: usize = PASSED_BLOCKED + 6;
/// Pawns defended by a pawn or with a friend beside them, by rank.
const PAWN_CONNECTED: usize = PASSED_SAFE + 6;
/// A rook on the seventh rank with the enemy king on the eighth or enemy pawns on the seventh.
const ROOK_SEVENTH: usize = PAWN_CONNECTED + 6;
/// Own pawns on the squares of a bishop's colour, summed over bishops.
const BISHOP_PAWNS: usize = ROOK_SEVENTH + 1;
/// Knights and bishops with an own pawn on the square in front.
const MINOR_BEHIND_PAWN: usize = BISHOP_PAWNS + 1;
/// The king's distance to the nearest pawn of either side (0 without pawns).
const KING_PAWN_DISTANCE: usize = MINOR_BEHIND_PAWN + 1;
/// Enemy knights, bishops, rooks and queens a safe one-square pawn push would attack.
const THREAT_PUSH: usize = KING_PAWN_DISTANCE + 1;
/// Squares of files c to f on ranks 2 to 4 not holding an own pawn nor hit by an enemy pawn.
const SPACE: usize = THREAT_PUSH + 1;
/// Own knights and bishops next to the own king.
const KING_DEFENDERS: usize = SPACE + 1;
/// Enemy pieces and pawns the king attacks that nothing of theirs defends.
const THREAT_BY_KING: usize = KING_DEFENDERS + 1;
/// Enemy pawns no pawn of theirs defends that we attack.
const THREAT_WEAK_PAWN: usize = THREAT_BY_KING + 1;
/// The number of features (and of weight pairs).
pub const N_FEATURES: usize = THREAT_WEAK_PAWN + 1;

/// King-danger units per attacking piece (knight, bishop, rook, queen).
const KING_UNITS: [i32; 4] = [2, 2, 3, 5];

const PIECE_NAMES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];
const FILE_A: u64 = 0x0101_0101_0101_0101;

/// The squares in front of a pawn on its own and the neighbouring files: no enemy pawn there
/// makes it passed. Index: colour, square.
const PASSED_MASKS: [[u64; 64]; 2] = {
    let mut m = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (sq % 8, sq / 8);
        let files = adjacent_and_own(f);
        let mut rank = 0;
        while rank < 8 {
            let row = 0xFFu64 << (8 * rank);
            if rank > r {
                m[0][sq] |= files & row;
            }
            if rank < r {
                m[1][sq] |= files & row;
            }
            rank += 1;
        }
        sq += 1;
    }
    m
};

/// The squares on the neighbouring files in front of a square: no enemy pawn there means no
/// enemy pawn can ever attack it. Index: colour, square.
const FRONT_SPAN_SIDES: [[u64; 64]; 2] = {
    let mut m = [[0u64; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            m[c][sq] = PASSED_MASKS[c][sq] & !(FILE_A << (sq % 8));
            sq += 1;
        }
        c += 1;
    }
    m
};

/// The squares within `d` king moves of a square: index square, then `d` (0 to 7).
const WITHIN: [[u64; 8]; 64] = {
    let mut t = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut other: usize = 0;
        while other < 64 {
            let df = (sq % 8) as i32 - (other % 8) as i32;
            let dr = (sq / 8) as i32 - (other / 8) as i32;
            let df = if df < 0 { -df } else { df };
            let dr = if dr < 0 { -dr } else { dr };
            let dist = if df > dr { df } else { dr } as usize;
            let mut d = dist;
            while d < 8 {
                t[sq][d] |= 1u64 << other;
                d += 1;
            }
            other += 1;
        }
        sq += 1;
    }
    t
};

/// The king's distance (moves on an empty board) between two squares.
pub(crate) fn distance(a: usize, b: usize) -> i32 {
    let df = (a % 8) as i32 - (b % 8) as i32;
    let dr = (a / 8) as i32 - (b / 8) as i32;
    df.abs().max(dr.abs())
}

/// The file `f` and its neighbours.
const fn adjacent_and_own(f: usize) -> u64 {
    let own = FILE_A << f;
    let left = if f > 0 { FILE_A << (f - 1) } else { 0 };
    let right = if f < 7 { FILE_A << (f + 1) } else { 0 };
    own | left | right
}

/// The files beside file `f` (one or two), looked up rather than shifted at every pawn.
const NEIGHBOUR_FILES: [u64; 8] = {
    let mut t = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        t[f] = adjacent_and_own(f) & !(FILE_A << f);
        f += 1;
    }
    t
};

/// The squares `color`'s pawns attack.
fn pawn_attacks(pawns: u64, color: Color) -> u64 {
    let not_a = !FILE_A;
    let not_h = !(FILE_A << 7);
    match color {
        Color::White => ((pawns & not_a) << 7) | ((pawns & not_h) << 9),
        Color::Black => ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7),
    }
}

/// Where the feature walk sends each feature's count (already signed: + for White).
trait Sink {
    fn add(&mut self, index: usize, count: i32);
}

/// The game phase: 24 with every minor and major piece on the board, down to 0 with none
/// (promotions can take the sum above 24; it is capped).
pub fn phase(pos: &Chess) -> i32 {
    board_phase(pos.board())
}

fn board_phase(b: &Board) -> i32 {
    let sum: i32 = Piece::ALL
        .iter()
        .map(|&p| PHASE_WEIGHTS[p as usize] * b.pieces(p).len() as i32)
        .sum();
    sum.min(PHASE_MAX)
}

/// The squares a knight, bishop, rook or queen on `sq` attacks.
#[inline(always)]
fn piece_attacks(piece: Piece, sq: Square, occupied: BitBoard) -> u64 {
    match piece {
        Piece::Knight => get_knight_moves(sq),
        Piece::Bishop => get_bishop_moves(sq, occupied),
        Piece::Rook => get_rook_moves(sq, occupied),
        _ => get_bishop_moves(sq, occupied) | get_rook_moves(sq, occupied),
    }
    .0
}

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
    let them = !color;
    let occupied = b.occupied();
    let own = b.colors(color).0;
    let our_pawns = b.colored_pieces(color, Piece::Pawn).0;
    let their_pawns = b.colored_pieces(them, Piece::Pawn).0;
    let their_pawn_attacks = pawn_attacks(their_pawns, them);
    let their_king = b.king(them);
    let king_zone = get_king_moves(their_king).0 | their_king.bitboard().0;
    let ci = color as usize;
    let their = |p: Piece| b.colored_pieces(them, p).0;
    let their_majors = their(Piece::Rook) | their(Piece::Queen);
    let their_queens = their(Piece::Queen);
    let our_pawn_attacks = pawn_attacks(our_pawns, color);
    let (mut attackers, mut units) = (0, 0);
    let diagonal_checks = get_bishop_moves(their_king, occupied).0;
    let straight_checks = get_rook_moves(their_king, occupied).0;
    let check_squares = [
        get_knight_moves(their_king).0,
        diagonal_checks,
        straight_checks,
        diagonal_checks | straight_checks,
    ];

    let their_pieces = b.colors(them).0 & !their_pawns & !b.pieces(Piece::King).0;
    let our_king_moves = get_king_moves(b.king(color)).0;
    let (mut safe_checks, mut bishop_pawns, mut behind_pawn, mut defenders) = ([0; 4], 0, 0, 0);
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
                piece_attacks(piece, sq, occupied)
            };
            next += 1;
            let s = sq as usize;
            if matches!(piece, Piece::Knight | Piece::Bishop) {
                let front = if color == Color::White {
                    s + 8
                } else {
                    s.wrapping_sub(8)
                };
                if front < 64 && our_pawns & (1u64 << front) != 0 {
                    behind_pawn += 1;
                }
                if our_king_moves & (1u64 << s) != 0 {
                    defenders += 1;
                }
            }
            if piece == Piece::Bishop {
                let light = 0x55AA_55AA_55AA_55AAu64;
                let colour = if light & (1u64 << s) != 0 {
                    light
                } else {
                    !light
                };
                bishop_pawns += (our_pawns & colour).count_ones() as i32;
            }
            safe_checks[pi - 1] +=
                (attacks & check_squares[pi - 1] & !own & !theirs.all).count_ones() as i32;
            // Squares a piece could go to without standing on a friend or walking into a pawn's
            // capture: the squares that count for its activity.
            let mobility = (attacks & !own & !their_pawn_attacks).count_ones() as usize;
            sink.add(MOBILITY[pi - 1] + mobility, sign);
            let checks =
                (attacks & check_squares[pi - 1] & !own & !their_pawn_attacks).count_ones() as i32;
            if checks > 0 {
                sink.add(CHECK + pi - 1, sign * checks);
            }
            let on_zone = (attacks & king_zone).count_ones() as i32;
            if on_zone > 0 {
                sink.add(KING_ATTACK + pi - 1, sign * on_zone);
                attackers += 1;
                units += KING_UNITS[pi - 1];
            }
            let targets = match piece {
                Piece::Knight | Piece::Bishop => their_majors,
                Piece::Rook => their_queens,
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
                let s = sq as usize;
                if (3..=5).contains(&rank)
                    && our_pawn_attacks & (1u64 << s) != 0
                    && FRONT_SPAN_SIDES[ci][s] & their_pawns == 0
                {
                    sink.add(OUTPOST + pi - 1, sign);
                }
            }
            if piece == Piece::Rook {
                let file = FILE_A << (sq as usize % 8);
                if file & our_pawns == 0 {
                    let open = file & their_pawns == 0;
                    sink.add(if open { ROOK_OPEN } else { ROOK_SEMI_OPEN }, sign);
                }
                if sq.relative_to(color) as usize / 8 == 6 {
                    let (seventh, eighth) = if color == Color::White {
                        (0xFFu64 << 48, 0xFFu64 << 56)
                    } else {
                        (0xFF00u64, 0xFFu64)
                    };
                    if their_pawns & seventh != 0 || b.king(them).bitboard().0 & eighth != 0 {
                        sink.add(ROOK_SEVENTH, sign);
                    }
                }
            }
        }
    }
    for (i, &n) in safe_checks.iter().enumerate() {
        if n > 0 {
            sink.add(SAFE_CHECK + i, sign * n);
        }
    }
    for (feature, n) in [
        (BISHOP_PAWNS, bishop_pawns),
        (MINOR_BEHIND_PAWN, behind_pawn),
        (KING_DEFENDERS, defenders),
        (
            THREAT_HANGING,
            (their_pieces & ours.all & !theirs.all).count_ones() as i32,
        ),
        (
            THREAT_BY_KING,
            (b.colors(them).0 & our_king_moves & !theirs.all).count_ones() as i32,
        ),
        (
            THREAT_WEAK_PAWN,
            (their_pawns & !their_pawn_attacks & ours.all).count_ones() as i32,
        ),
    ] {
        if n > 0 {
            sink.add(feature, sign * n);
        }
    }
    // Pawn pushes: one square onto an empty square no enemy pawn hits, then threatening a
    // piece.
    let pushed = if color == Color::White {
        our_pawns << 8
    } else {
        our_pawns >> 8
    } & !occupied.0
        & !their_pawn_attacks;
    let push_threats = (pawn_attacks(pushed, color) & their_pieces).count_ones() as i32;
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
    let space = (centre_files & own_ranks & !our_pawns & !their_pawn_attacks).count_ones() as i32;
    if space > 0 {
        sink.add(SPACE, sign * space);
    }

    if attackers > 0 {
        sink.add(KING_DANGER + attackers.min(7) - 1, sign * units);
    }
    let threatened = (our_pawn_attacks & b.colors(them).0 & !their_pawns).count_ones() as i32;
    if threatened > 0 {
        sink.add(THREAT_BY_PAWN, sign * threatened);
    }

    // Pawn structure.
    let our_king = b.king(color) as usize;
    let their_king = their_king as usize;
    let mut isolated = 0;
    let (mut supported, mut phalanx, mut backward) = (0, 0, 0);
    let mut p = our_pawns;
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
        let defended = our_pawn_attacks & bit != 0;
        supported += i32::from(defended);
        let neighbours = NEIGHBOUR_FILES[f] & our_pawns;
        let beside = neighbours & (0xFFu64 << (8 * (sq / 8))) != 0;
        phalanx += i32::from(beside);
        if defended || beside {
            sink.add(PAWN_CONNECTED + rank - 1, sign);
        }
        if PASSED_MASKS[ci][sq] & their_pawns == 0 {
            sink.add(PASSED + rank - 1, sign);
            let stop_bit = 1u64 << stop;
            if b.colors(them).0 & stop_bit != 0 {
                sink.add(PASSED_BLOCKED + rank - 1, sign);
            } else if occupied.0 & stop_bit == 0 && theirs.all & stop_bit == 0 {
                sink.add(PASSED_SAFE + rank - 1, sign);
            }
            if PASSED_MASKS[ci][sq] & (FILE_A << f) & occupied.0 == 0 {
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
            && their_pawn_attacks & (1u64 << stop) != 0
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
        doubled += ((FILE_A << f) & our_pawns).count_ones().saturating_sub(1) as i32;
    }
    if doubled > 0 {
        sink.add(DOUBLED, sign * doubled);
    }

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
        let n = ahead(step).map_or(0, |zone| (zone & our_pawns).count_ones() as i32);
        if n > 0 {
            sink.add(SHIELD + i, sign * n);
        }
    }
    // Pawn storm: their pawns one, two and three ranks in front of our king.
    for (i, step) in [1, 2, 3].into_iter().enumerate() {
        let n = ahead(step).map_or(0, |zone| (zone & their_pawns).count_ones() as i32);
        if n > 0 {
            sink.add(STORM + i, sign * n);
        }
    }
    let open = (kf.saturating_sub(1)..=(kf + 1).min(7))
        .filter(|&f| (FILE_A << f) & our_pawns == 0)
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
            .find(|&d| WITHIN[our_king][d] & pawns != 0)
            .unwrap_or(7);
        sink.add(KING_PAWN_DISTANCE, sign * nearest as i32);
    }
}

fn walk<S: Sink>(b: &Board, sink: &mut S) {
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

/// The tapered value with the endgame part scaled by whoever it favours
/// ([`crate::endgame::scales`]).
pub fn blend(mg: i32, eg: i32, phase: i32, scales: [i32; 2]) -> i32 {
    let scale = if eg > 0 { scales[0] } else { scales[1] };
    taper(mg, eg * scale / 64, phase)
}

/// Collects counts densely, to hand them out sparsely.
struct Dense([i32; N_FEATURES]);

impl Sink for Dense {
    fn add(&mut self, index: usize, count: i32) {
        self.0[index] += count;
    }
}

/// The position's features that are not zero, as (index, White-minus-Black count), in index
/// order; `out` is cleared first. Counts lie far inside `i8` in any reachable position (the
/// largest, a queen's attacks on the king zone, is at most 8 per queen).
pub fn features(pos: &Chess, out: &mut Vec<(u16, i8)>) {
    let mut d = Dense([0; N_FEATURES]);
    walk(pos.board(), &mut d);
    out.clear();
    out.extend(
        d.0.iter()
            .enumerate()
            .filter(|(_, &c)| c != 0)
            .map(|(i, &c)| (i as u16, c.clamp(-128, 127) as i8)),
    );
}

/// The feature of piece `piece` (0 = pawn, ..., 5 = king) on square `sq` (0 = a1, seen from
/// its own side) in the piece-square tables.
pub fn pst_feature(piece: usize, sq: usize) -> usize {
    PST + piece * 64 + sq
}

/// The human-readable name of feature `index` (as the weights file spells it).
pub fn feature_name(index: usize) -> String {
    const MOB: [&str; 4] = ["knight", "bishop", "rook", "queen"];
    match index {
        i if i < PST => format!("material.{}", PIECE_NAMES[i - MATERIAL]),
        i if i < MOBILITY[0] => {
            let (p, sq) = ((i - PST) / 64, (i - PST) % 64);
            format!("pst.{}.{}", PIECE_NAMES[p], Square::index(sq))
        }
        i if i < PASSED => {
            let t = (0..4).rev().find(|&t| i >= MOBILITY[t]).unwrap_or(0);
            format!("mobility.{}.{}", MOB[t], i - MOBILITY[t])
        }
        i if i < ISOLATED => format!("pawn.passed.rank{}", i - PASSED + 2),
        ISOLATED => "pawn.isolated".into(),
        DOUBLED => "pawn.doubled".into(),
        i if i < KING_ATTACK => format!("king.shield.{}", i - SHIELD + 1),
        i if i < BISHOP_PAIR => format!("king.attack.{}", MOB[i - KING_ATTACK]),
        BISHOP_PAIR => "bishop.pair".into(),
        ROOK_OPEN => "rook.open_file".into(),
        ROOK_SEMI_OPEN => "rook.semi_open_file".into(),
        TEMPO => "tempo".into(),
        i if i < PASSED_FREE => format!("king.danger.attackers{}", i - KING_DANGER + 1),
        i if i < PASSED_OWN_KING => format!("pawn.passed.free.rank{}", i - PASSED_FREE + 2),
        i if i < PASSED_THEIR_KING => {
            format!("pawn.passed.own_king.rank{}", i - PASSED_OWN_KING + 2)
        }
        i if i < PASSED_SUPPORTED => {
            format!("pawn.passed.their_king.rank{}", i - PASSED_THEIR_KING + 2)
        }
        PASSED_SUPPORTED => "pawn.passed.supported".into(),
        PAWN_SUPPORTED => "pawn.supported".into(),
        PAWN_PHALANX => "pawn.phalanx".into(),
        PAWN_BACKWARD => "pawn.backward".into(),
        THREAT_BY_PAWN => "threat.by_pawn".into(),
        THREAT_BY_MINOR => "threat.by_minor".into(),
        THREAT_BY_ROOK => "threat.by_rook".into(),
        i if i < CHECK => format!("outpost.{}", MOB[i - OUTPOST]),
        i if i < STORM => format!("king.check.{}", MOB[i - CHECK]),
        i if i < KING_OPEN => format!("king.storm.{}", i - STORM + 1),
        KING_OPEN => "king.open_files".into(),
        THREAT_HANGING => "threat.hanging".into(),
        i if i < PASSED_BLOCKED => format!("king.safe_check.{}", MOB[i - SAFE_CHECK]),
        i if i < PASSED_SAFE => format!("pawn.passed.blocked.rank{}", i - PASSED_BLOCKED + 2),
        i if i < PAWN_CONNECTED => format!("pawn.passed.safe.rank{}", i - PASSED_SAFE + 2),
        i if i < ROOK_SEVENTH => format!("pawn.connected.rank{}", i - PAWN_CONNECTED + 2),
        ROOK_SEVENTH => "rook.seventh".into(),
        BISHOP_PAWNS => "bishop.same_colour_pawns".into(),
        MINOR_BEHIND_PAWN => "minor.behind_pawn".into(),
        KING_PAWN_DISTANCE => "king.pawn_distance".into(),
        THREAT_PUSH => "threat.pawn_push".into(),
        SPACE => "space".into(),
        KING_DEFENDERS => "king.defenders".into(),
        THREAT_BY_KING => "threat.by_king".into(),
        THREAT_WEAK_PAWN => "threat.weak_pawn".into(),
        _ => format!("unknown.{index}"),
    }
}

/// Every feature's name, in index order.
fn names() -> Vec<String> {
    (0..N_FEATURES).map(feature_name).collect()
}

/// The largest weight [`Weights::parse`] takes, either way.
pub const MAX_WEIGHT: i32 = 10_000;

pub use duel_core::weights::WeightsError;

/// The weights: a (middlegame, endgame) pair per feature, in centipawns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weights {
    w: Vec<[i32; 2]>,
}

/// The committed, fitted weights (`weights/strong.txt`; `weights/README.md` says how they were
/// made).
const COMMITTED: &str = include_str!("../weights/strong.txt");

impl Weights {
    /// All zero.
    pub fn zero() -> Weights {
        Weights {
            w: vec![[0, 0]; N_FEATURES],
        }
    }

    /// The (middlegame, endgame) weight of feature `index`.
    pub fn get(&self, index: usize) -> [i32; 2] {
        self.w[index]
    }

    /// Sets the (middlegame, endgame) weight of feature `index`.
    pub fn set(&mut self, index: usize, w: [i32; 2]) {
        self.w[index] = w;
    }

    /// The committed fitted weights, parsed once.
    pub fn committed() -> &'static Weights {
        static W: OnceLock<Weights> = OnceLock::new();
        W.get_or_init(|| {
            Weights::parse(COMMITTED).unwrap_or_else(|e| panic!("weights/strong.txt: {e}"))
        })
    }

    /// [`crate::Pst`]'s hand-set values in this form (mobility and the other terms zero): where
    /// the fit starts. `Strong` with these weights evaluates exactly as `Pst` does.
    pub fn hand() -> Weights {
        let mut w = Weights::zero();
        for (p, &v) in PIECE_VALUES[..5].iter().enumerate() {
            w.w[MATERIAL + p] = [v; 2];
        }
        for p in 0..6 {
            for sq in 0..64 {
                w.w[pst_feature(p, sq)] = hand_table(p, sq);
            }
        }
        w
    }

    /// Reads `name mg eg` lines (blank lines and `#` comments skipped). Every feature must be
    /// given exactly once.
    pub fn parse(text: &str) -> Result<Weights, WeightsError> {
        let w = duel_core::weights::parse_table(text, &names(), "name mg eg", MAX_WEIGHT)?;
        Ok(Weights { w })
    }

    /// The weights as [`Weights::parse`] reads them, one feature a line, after `header` (each
    /// of its lines written as a `#` comment).
    pub fn to_text(&self, header: &str) -> String {
        duel_core::weights::table_text(header, &names(), &self.w)
    }

    /// White's tapered value of `board` (the side to move counts only through the tempo term).
    fn white_value(&self, b: &Board) -> i32 {
        let mut acc = Acc {
            w: &self.w,
            mg: 0,
            eg: 0,
        };
        walk(b, &mut acc);
        blend(acc.mg, acc.eg, board_phase(b), crate::endgame::scales(b))
    }
}

/// `Pst`'s rules for its tables, (middlegame, endgame) for piece `p` on square `sq` seen from
/// its own side: only the fit's starting point (a test checks it against `Pst` itself).
fn hand_table(p: usize, sq: usize) -> [i32; 2] {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    let c = (if f < 4 { f } else { 7 - f }).min(if r < 4 { r } else { 7 - r });
    let centre_file = f == 3 || f == 4;
    match p {
        0 if (1..=6).contains(&r) => [
            5 * (r - 1)
                + if centre_file && (r == 3 || r == 4) {
                    15
                } else {
                    0
                },
            12 * (r - 1),
        ],
        0 => [0, 0],
        1 => [12 * c - 25, 8 * c - 15],
        2 => [6 * c - 8, 5 * c - 8],
        3 => [
            if r == 6 { 15 } else { 0 } + if centre_file { 5 } else { 0 },
            if r == 6 { 10 } else { 0 },
        ],
        4 => [3 * c - 5, 5 * c - 8],
        _ => [
            if r == 0 {
                match f {
                    1 | 2 | 6 => 20,
                    0 | 7 => 10,
                    _ => 0,
                }
            } else {
                -15 * r.min(4)
            },
            12 * c - 20,
        ],
    }
}

/// The tapered blend; the truncating division is odd (`taper(-a) = -taper(a)`), which keeps the
/// evaluation exactly colour-symmetric.
pub fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
}

/// The evaluation's accumulator: the feature walk with the weights applied on the spot.
struct Acc<'a> {
    w: &'a [[i32; 2]],
    mg: i32,
    eg: i32,
}

impl Sink for Acc<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, count: i32) {
        let [mg, eg] = self.w[index];
        self.mg += mg * count;
        self.eg += eg * count;
    }
}

/// The fitted evaluation: material, piece-square tables, mobility, pawn structure, king safety,
/// bishop pair and rook files, with weights from `weights/strong.txt` by default.
#[derive(Debug, Clone)]
pub struct Strong {
    weights: Arc<Weights>,
}

impl Default for Strong {
    fn default() -> Self {
        static SHARED: OnceLock<Arc<Weights>> = OnceLock::new();
        Strong {
            weights: Arc::clone(SHARED.get_or_init(|| Arc::new(Weights::committed().clone()))),
        }
    }
}

impl Strong {
    /// Strong with other weights (the fitter's candidates).
    pub fn new(weights: Weights) -> Strong {
        Strong {
            weights: Arc::new(weights),
        }
    }

    /// The weights in use.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The value from White's side, whoever is to move.
    pub fn white_value(&self, pos: &Chess) -> i32 {
        self.weights.white_value(pos.board())
    }
}

impl Evaluator<Chess> for Strong {
    fn name(&self) -> &'static str {
        "strong"
    }

    fn evaluate(&self, pos: &Chess) -> i32 {
        if let Some(v) = crate::endgame::mop_up(pos.board()) {
            return v;
        }
        let v = self.white_value(pos);
        match pos.board().side_to_move() {
            Color::White => v,
            Color::Black => -v,
        }
    }

    crate::eval::pst_hooks!();
}
