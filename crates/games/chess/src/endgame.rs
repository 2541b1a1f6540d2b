//! Endings the rules make drawn or drawish whatever the material says: the share of a value an
//! evaluator may keep when one side is ahead there ([`scales`]). And the one kind of won ending
//! valued by rule instead of by the evaluator: mating material against a bare king
//! ([`mop_up`]).
//!
//! An evaluation learnt from games, or fitted to them, sees these endings too rarely to learn
//! them, and a material count or a network of piece-on-square inputs cannot express "the
//! bishop does not cover the queening square" or "whoever is ahead cannot mate". In duel's
//! games against Stockfish, 37 of 400 were drawn after duel had valued its position at two
//! pawns or more for ten moves running; six of them ended with a rook pawn and a bishop of
//! the wrong colour against a king in the corner, others with two knights against a king
//! (docs/BENCHMARKS.md, "Endings the rules decide"). Engines scale such values down by rule (Stockfish's
//! `endgame.cpp`, Fruit's draw recognisers); so does duel, for the net and for Strong.
//!
//! The rules, for the side "ahead" (the one the value favours):
//! - it has no pawns and at most one minor piece: it cannot mate, so it keeps nothing;
//! - it has no pawns and is at most a minor piece up (rook against minor piece, rook and minor
//!   against rook): it keeps an eighth;
//! - two knights and nothing else against a bare king: nothing;
//! - all its pawns on one rook file, at most bishops of the colour the queening square is not,
//!   no other pieces, the defending king (without pieces) at or next to the queening square:
//!   nothing. The king cannot be driven out of the corner, and the bishop cannot cover it;
//! - bishops of opposite colours and nothing else but pawns: a quarter, and an eighth more for
//!   each of its passed pawns. In the same 400 games, 21 of the 26 that reached such an ending
//!   were drawn, most of them with duel valuing its extra pawns at 1.5 or more for dozens of
//!   moves.

use cozy_chess::{BitBoard, Board, Color, File, Piece, Rank, Square};

use crate::values::material;

/// Full value, in 64ths.
pub const FULL: i32 = 64;

/// The share (in 64ths) of a value kept when White, then Black, is the side ahead.
pub fn scales(b: &Board) -> [i32; 2] {
    // The common case, cheaply: every rule needs a side without pawns, or a side whose pieces
    // are at most bishops against a side without pieces (so at most one colour has pieces).
    let pawnless = |c: Color| b.colored_pieces(c, Piece::Pawn).is_empty();
    let pieces = |c: Color| b.colors(c) & !b.pieces(Piece::Pawn) & !b.pieces(Piece::King);
    let (white_pieces, black_pieces) = (pieces(Color::White), pieces(Color::Black));
    let opposite = opposite_bishops(b);
    if !opposite
        && !pawnless(Color::White)
        && !pawnless(Color::Black)
        && !white_pieces.is_empty()
        && !black_pieces.is_empty()
    {
        return [FULL, FULL];
    }
    [Color::White, Color::Black].map(|c| {
        let s = scale(b, c);
        if opposite {
            s.min(opposite_bishops_scale(b, c))
        } else {
            s
        }
    })
}

/// One bishop each, on squares of different colours, and no other pieces but pawns.
pub fn opposite_bishops(b: &Board) -> bool {
    let bishops = b.pieces(Piece::Bishop);
    let others = b.pieces(Piece::Knight) | b.pieces(Piece::Rook) | b.pieces(Piece::Queen);
    others.is_empty()
        && bishops.len() == 2
        && b.colored_pieces(Color::White, Piece::Bishop).len() == 1
        && (bishops & BitBoard::DARK_SQUARES).len() == 1
}

/// Bishops of opposite colours: each bishop holds the squares of its colour, so a pawn or two
/// up is mostly a draw; passed pawns far enough apart are what wins. A quarter, and an eighth
/// more for each of `us`'s passed pawns.
fn opposite_bishops_scale(b: &Board, us: Color) -> i32 {
    (16 + 8 * passed_pawns(b, us)).min(FULL)
}

/// `us`'s pawns with no enemy pawn ahead of them on their file or the files beside it.
fn passed_pawns(b: &Board, us: Color) -> i32 {
    let theirs = b.colored_pieces(!us, Piece::Pawn);
    b.colored_pieces(us, Piece::Pawn)
        .into_iter()
        .filter(|&sq| {
            let (f, r) = (sq.file() as i32, sq.rank() as i32);
            !theirs.into_iter().any(|t| {
                let (tf, tr) = (t.file() as i32, t.rank() as i32);
                (tf - f).abs() <= 1 && if us == Color::White { tr > r } else { tr < r }
            })
        })
        .count() as i32
}

/// `value` (from the side to move's view) scaled by the share its favoured side keeps.
pub fn scaled(b: &Board, value: i32) -> i32 {
    let white_ahead = (value > 0) == (b.side_to_move() == Color::White);
    let s = scales(b)[usize::from(!white_ahead)];
    if s == FULL {
        value
    } else {
        value * s / FULL
    }
}

/// The share `us` keeps when ahead.
fn scale(b: &Board, us: Color) -> i32 {
    let them = !us;
    let count = |c: Color, p: Piece| b.colored_pieces(c, p).len() as i32;
    let material = |c: Color| {
        3 * (count(c, Piece::Knight) + count(c, Piece::Bishop))
            + 5 * count(c, Piece::Rook)
            + 9 * count(c, Piece::Queen)
    };
    let (ours, theirs) = (material(us), material(them));
    let our_pawns = b.colored_pieces(us, Piece::Pawn);
    if our_pawns.is_empty() {
        let only_knights = count(us, Piece::Knight) == 2 && ours == 6;
        if ours <= 3
            || (only_knights && theirs == 0 && b.colored_pieces(them, Piece::Pawn).is_empty())
        {
            return 0;
        }
        if ours - theirs <= 3 {
            return 8;
        }
        return FULL;
    }
    if theirs == 0 && ours == 3 * count(us, Piece::Bishop) && rook_pawn_fortress(b, us, our_pawns) {
        return 0;
    }
    FULL
}

/// `us`'s pawns all on the a-file or all on the h-file, its bishops (if any) all on squares of
/// the colour the queening square is not, and the other king at or next to that square.
fn rook_pawn_fortress(b: &Board, us: Color, pawns: BitBoard) -> bool {
    let file = if (pawns & !File::A.bitboard()).is_empty() {
        File::A
    } else if (pawns & !File::H.bitboard()).is_empty() {
        File::H
    } else {
        return false;
    };
    let queening = Square::new(file, Rank::Eighth.relative_to(us));
    let dark = BitBoard::DARK_SQUARES;
    let queening_dark = dark.has(queening);
    let bishops = b.colored_pieces(us, Piece::Bishop);
    let wrong = if queening_dark {
        (bishops & dark).is_empty()
    } else {
        (bishops & !dark).is_empty()
    };
    wrong && distance(b.king(!us) as usize, queening as usize) <= 1
}

/// What a won ending against a bare king is worth before the mate is in sight: more than any
/// other edge the side ahead could keep, and more the nearer the lone king is to an edge (for
/// bishop and knight, to a corner the bishop covers) and to the other king.
const MOP_UP_BASE: i32 = 1000;

/// The value, from the side to move, of a position where one side has only its king and the
/// other no pawns and enough to force mate (a queen, a rook, bishops on both colours, or a
/// bishop and a knight); None for any other position.
///
/// A learnt evaluation sees these endings too rarely to value the progress that wins them: in
/// duel's games against Stockfish a king, rook and bishop against a bare king was drawn by the
/// fifty-move rule, the net valuing every position alike at +5.5 while Stockfish saw mate in
/// five. Engines value such endings by rule (Stockfish's `KXK` and `KBNK`); with this one the
/// search drives the lone king to the edge at any depth and finds the mate once it is near.
pub fn mop_up(b: &Board) -> Option<i32> {
    let lone = [Color::White, Color::Black]
        .into_iter()
        .find(|&c| b.colors(c).len() == 1)?;
    let us = !lone;
    if !b.colored_pieces(us, Piece::Pawn).is_empty() {
        return None;
    }
    let count = |p: Piece| b.colored_pieces(us, p).len() as i32;
    let bishops = b.colored_pieces(us, Piece::Bishop);
    let dark = BitBoard::DARK_SQUARES;
    let both_colours = !(bishops & dark).is_empty() && !(bishops & !dark).is_empty();
    let heavy = count(Piece::Queen) + count(Piece::Rook) > 0;
    let bishop_and_knight = !bishops.is_empty() && count(Piece::Knight) > 0;
    if !(heavy || both_colours || bishop_and_knight) {
        return None;
    }
    let (theirs, ours) = (b.king(lone) as usize, b.king(us) as usize);
    // From 0 in the centre to 6 in a corner: every mate needs an edge.
    let off_centre = |x: usize| if x < 4 { 3 - x } else { x - 4 } as i32;
    let (file, rank) = (theirs % 8, theirs / 8);
    let edge = off_centre(file) + off_centre(rank);
    let push = if heavy || both_colours {
        2 * edge
    } else {
        // Bishop and knight mate only in a corner the bishop covers: away from the long
        // diagonal that joins the other two corners (0 on it, 7 in the right corners), so
        // that a king in a wrong corner is driven along the edge to a right one.
        let (f, r) = (file as i32, rank as i32);
        let off_diagonal = if (bishops & dark).is_empty() {
            (f - r).abs()
        } else {
            (7 - f - r).abs()
        };
        edge + 2 * off_diagonal
    };
    let value = MOP_UP_BASE + material(b, us) + 25 * push + 20 * (7 - distance(ours, theirs));
    Some(if b.side_to_move() == us {
        value
    } else {
        -value
    })
}

/// The king's distance (moves on an empty board) between two squares.
pub(crate) fn distance(a: usize, b: usize) -> i32 {
    let df = (a % 8) as i32 - (b % 8) as i32;
    let dr = (a / 8) as i32 - (b / 8) as i32;
    df.abs().max(dr.abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(fen: &str) -> [i32; 2] {
        scales(&fen.parse::<Board>().unwrap())
    }

    #[test]
    fn rook_pawn_and_the_wrong_bishop_against_the_cornered_king_is_drawn() {
        // From a game duel drew against Stockfish at +4.6: h8 is dark, the bishop light.
        assert_eq!(of("8/6kP/8/5BK1/8/8/8/8 b - - 0 1"), [0, 0]);
        // The king in the corner itself, and a doubled rook pawn change nothing.
        assert_eq!(of("7k/8/7P/5BK1/7P/8/8/8 b - - 0 1"), [0, 0]);
        // Black's mirror of it: a1 is dark, Black's bishop light.
        assert_eq!(of("8/8/8/3b4/8/8/p7/K1k5 w - - 0 1"), [0, 0]);
        // The king without pieces may keep pawns of its own.
        assert_eq!(of("7k/8/6pP/5BK1/8/8/8/8 b - - 0 1"), [0, FULL]);
        // A lone rook pawn: the same fortress.
        assert_eq!(of("k7/8/8/P7/8/8/8/4K3 b - - 0 1")[0], 0);
    }

    #[test]
    fn the_right_bishop_a_distant_king_or_another_file_still_wins() {
        // The bishop covers h8.
        assert_eq!(of("8/6kP/8/4B1K1/8/8/8/8 b - - 0 1"), [FULL, 0]);
        // The king three squares from the corner.
        assert_eq!(of("8/7P/4k3/5BK1/8/8/8/8 b - - 0 1"), [FULL, 0]);
        // A g-pawn as well.
        assert_eq!(of("8/6kP/8/5BK1/6P1/8/8/8 b - - 0 1")[0], FULL);
        assert_eq!(of("8/6kP/8/5BK1/8/8/6P1/8 b - - 0 1")[0], FULL);
        // The defender has a piece: not this rule.
        assert_eq!(of("8/6kP/8/5BK1/8/8/8/n7 b - - 0 1")[0], FULL);
        // A knight beside the bishop.
        assert_eq!(of("8/6kP/8/5BK1/8/8/8/N7 b - - 0 1")[0], FULL);
    }

    #[test]
    fn pawnless_edges_that_cannot_mate_or_rarely_do() {
        // Two knights against a bare king.
        assert_eq!(of("8/8/8/N7/3K3N/8/8/2k5 b - - 0 1"), [0, 0]);
        // Against a pawn two knights can mate, and six pawns' worth up is past the eighth's
        // rule.
        assert_eq!(of("8/8/8/N7/3K3N/8/p7/2k5 b - - 0 1")[0], FULL);
        // A bishop against pawns cannot mate, whatever the count says.
        assert_eq!(of("8/8/4k3/4pp2/8/3BK3/8/8 w - - 0 1"), [0, FULL]);
        // Rook against bishop, rook and knight against rook: an eighth (and the bishop alone
        // cannot mate at all).
        assert_eq!(of("8/8/4k3/8/3b4/8/3RK3/8 w - - 0 1"), [8, 0]);
        assert_eq!(of("8/8/4k3/8/3r4/8/3RKN2/8 w - - 0 1"), [8, 8]);
        // Queen against rook, rook against a bare king, bishop and knight: full.
        assert_eq!(of("8/8/4k3/8/3r4/8/3QK3/8 w - - 0 1")[0], FULL);
        assert_eq!(of("8/8/4k3/8/8/8/3RK3/8 w - - 0 1")[0], FULL);
        assert_eq!(of("8/8/4k3/8/8/8/3BKN2/8 w - - 0 1")[0], FULL);
    }

    #[test]
    fn a_scaled_value_keeps_its_sign_and_the_favoured_side_decides() {
        let b: Board = "7k/8/6pP/5BK1/8/8/8/8 b - - 0 1".parse().unwrap();
        // Black to move: a negative value favours White, whose edge is drawn.
        assert_eq!(scaled(&b, -450), 0);
        // Favouring Black, it stands.
        assert_eq!(scaled(&b, 30), 30);
        let b: Board = "8/8/4k3/8/3b4/8/3RK3/8 w - - 0 1".parse().unwrap();
        assert_eq!(scaled(&b, 160), 20);
        assert_eq!(scaled(&b, -160), 0);
    }

    #[test]
    fn opposite_bishops_keep_a_quarter_and_more_with_passed_pawns() {
        // Two pawns up, none passed (each blocked or held by an enemy pawn beside it).
        assert_eq!(of("4kb2/p4p2/P4P2/8/8/8/8/3BK3 w - - 0 1"), [16, 16]);
        // One passed pawn for White (the h-pawn): a quarter and an eighth.
        assert_eq!(of("4kb2/p7/P7/7P/8/8/8/3BK3 w - - 0 1"), [24, 16]);
        // Two passed pawns, on the a- and h-files (and Black, without pawns, cannot win).
        assert_eq!(of("4kb2/8/P7/7P/8/8/8/3BK3 w - - 0 1"), [32, 0]);
        // The bishops on the same colour: full.
        assert_eq!(of("4kb2/8/P7/7P/8/8/8/2B1K3 w - - 0 1"), [FULL, 0]);
        // A rook each as well: not a pure bishop ending (Black, without pawns and no piece
        // up, keeps the pawnless eighth).
        assert_eq!(of("r3kb2/8/P7/7P/8/8/8/R2BK3 w - - 0 1"), [FULL, 8]);
        // A passed a-pawn against a pawnless bishop, which cannot win at all.
        assert_eq!(of("4kb2/8/8/8/8/8/P7/3BK3 w - - 0 1"), [24, 0]);
    }

    fn mop(fen: &str) -> Option<i32> {
        mop_up(&fen.parse::<Board>().unwrap())
    }

    #[test]
    fn a_bare_king_is_driven_to_the_edge_and_the_right_corner() {
        // Rook against a bare king: more in the corner than in the centre, more with the kings
        // close; from the lone king's side the same values negated.
        let centre = mop("8/8/8/3k4/8/8/8/R3K3 w - - 0 1").unwrap();
        let corner = mop("7k/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        let close = mop("7k/8/5K2/8/8/8/8/R7 w - - 0 1").unwrap();
        assert!(MOP_UP_BASE < centre && centre < corner && corner < close);
        assert_eq!(mop("7k/8/5K2/8/8/8/8/R7 b - - 0 1"), Some(-close));
        // A queen is worth more than a rook in the same place.
        assert!(mop("7k/8/5K2/8/8/8/8/1Q6 w - - 0 1").unwrap() > close);
        // Bishop (dark, c1) and knight: a dark corner (a1, h8) beats a light one (a8), which
        // beats the centre, and along the edge each step towards a1 counts.
        let bn = |king: &str| mop(&format!("{king} w - - 0 1")).unwrap();
        let a1 = bn("8/8/8/8/8/3K4/8/k1B2N2");
        let a8 = bn("k7/8/8/8/8/3K4/8/2B2N2");
        let d5 = bn("8/8/8/3k4/8/8/8/2B1KN2");
        assert!(a1 > a8 && a8 > d5, "{a1} {a8} {d5}");
        // Down the a-file from a8 to a1 (the attacker's king on d4, bishop h2, knight h4).
        let edge: Vec<i32> = [
            "k7/8/8/8/3K3N/8/7B/8",
            "8/k7/8/8/3K3N/8/7B/8",
            "8/8/k7/8/3K3N/8/7B/8",
            "8/8/8/k7/3K3N/8/7B/8",
            "8/8/8/8/k2K3N/8/7B/8",
            "8/8/8/8/3K3N/k7/7B/8",
            "8/8/8/8/3K3N/8/k6B/8",
            "8/8/8/8/3K3N/8/7B/k7",
        ]
        .map(bn)
        .to_vec();
        assert!(edge.windows(2).all(|w| w[0] < w[1]), "{edge:?}");
        // A light bishop (f1) and knight: the light corners instead (a8 before h8).
        assert!(bn("k7/8/8/8/8/3K4/8/5B1N") > bn("7k/8/8/8/8/3K4/8/5B1N"));
    }

    #[test]
    fn no_mop_up_without_a_forced_mate_or_against_more_than_a_king() {
        for fen in [
            // Two knights, one bishop, two bishops of one colour: no forced mate.
            "8/8/8/3k4/8/8/8/1N2KN2 w - - 0 1",
            "8/8/8/3k4/8/8/8/2B1K3 w - - 0 1",
            "8/8/8/3k4/8/B7/8/2B1K3 w - - 0 1",
            // Pawns on the side ahead: the pawns decide, not this rule.
            "8/8/8/3k4/8/8/P7/R3K3 w - - 0 1",
            // The defender has a pawn or a piece.
            "8/8/8/3k4/8/7p/8/R3K3 w - - 0 1",
            "8/8/8/3k4/8/7n/8/R3K3 w - - 0 1",
            // King against king.
            "8/8/8/3k4/8/8/8/4K3 w - - 0 1",
        ] {
            assert_eq!(mop(fen), None, "{fen}");
        }
    }

    #[test]
    fn the_opening_and_middlegame_keep_everything() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9",
            "8/5pk1/6p1/8/8/6P1/5PK1/8 w - - 0 1",
        ] {
            assert_eq!(of(fen), [FULL, FULL], "{fen}");
        }
    }
}
