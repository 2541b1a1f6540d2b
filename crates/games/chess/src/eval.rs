//! The founding texts' chess evaluations, in centipawns from the side to move: material
//! balance alone ([`Material`]), then material plus piece-square tables ([`Pst`]), so that
//! `duel compare` can show what each adds. Both share the search hooks: captures and promotions
//! (every move when in check) for quiescence, most-valuable-victim ordering hints, and the
//! null-move guard against zugzwang.

use cozy_chess::{BitBoard, Board, Color, Move, Piece, Rank, Square};
use duel_core::Evaluator;

use crate::see::see_at_least;
use crate::values::{material, PHASE_MAX, PHASE_WEIGHTS, PIECE_VALUES};
use crate::Chess;

/// The search hooks both evaluators share, as `Evaluator` methods.
macro_rules! shared_hooks {
    () => {
        fn noisy_moves(&self, pos: &Chess, moves: &mut Vec<Move>) {
            noisy_moves(pos, moves);
        }

        fn move_hint(&self, pos: &Chess, mv: Move) -> i32 {
            capture_hint(pos.board(), mv)
        }

        fn exchange_at_least(&self, pos: &Chess, mv: Move, threshold: i32) -> bool {
            exchange_at_least(pos.board(), mv, threshold)
        }

        fn null_move_ok(&self, pos: &Chess) -> bool {
            null_move_ok(pos)
        }

        fn extend(&self, pos: &Chess) -> bool {
            pos.in_check()
        }
    };
}

/// Pst's search hooks, for an evaluator that adds nothing to them (Strong, Net): captures,
/// ordering, exchanges and the zugzwang guard depend on the rules and on material only.
macro_rules! pst_hooks {
    () => {
        fn noisy_moves(&self, pos: &$crate::Chess, moves: &mut Vec<$crate::Move>) {
            duel_core::Evaluator::noisy_moves(&$crate::Pst, pos, moves);
        }

        fn move_hint(&self, pos: &$crate::Chess, mv: $crate::Move) -> i32 {
            duel_core::Evaluator::move_hint(&$crate::Pst, pos, mv)
        }

        fn exchange_at_least(&self, pos: &$crate::Chess, mv: $crate::Move, threshold: i32) -> bool {
            duel_core::Evaluator::exchange_at_least(&$crate::Pst, pos, mv, threshold)
        }

        fn null_move_ok(&self, pos: &$crate::Chess) -> bool {
            duel_core::Evaluator::null_move_ok(&$crate::Pst, pos)
        }

        fn extend(&self, pos: &$crate::Chess) -> bool {
            duel_core::Evaluator::extend(&$crate::Pst, pos)
        }
    };
}
pub(crate) use pst_hooks;

/// Material balance only: the first evaluation the texts give.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Material;

impl Evaluator<Chess> for Material {
    fn unit(&self) -> &'static str {
        "centipawns (a pawn is 100)"
    }

    fn name(&self) -> &'static str {
        "material"
    }

    fn evaluate(&self, pos: &Chess) -> i32 {
        let b = pos.board();
        let us = b.side_to_move();
        material(b, us) - material(b, !us)
    }

    shared_hooks!();
}

/// How central a square is: 0 on the rim, 3 on the four centre squares.
const fn centrality(sq: usize) -> i32 {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    let df = if f < 4 { f } else { 7 - f };
    let dr = if r < 4 { r } else { 7 - r };
    if df < dr {
        df
    } else {
        dr
    }
}

/// Middlegame and endgame tables from White's side (a1 = 0), built from simple rules rather
/// than tuned: knights and bishops want the centre, pawns want to advance (the centre pawns
/// first in the middlegame, every pawn in the endgame), rooks want the seventh rank and the
/// centre files, the king hides in a back-rank corner in the middlegame and comes to the
/// centre in the endgame.
const TABLES: [[[i32; 64]; 6]; 2] = {
    let mut t = [[[0; 64]; 6]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let c = centrality(sq);
        let centre_file = f == 3 || f == 4;
        // Pawns (no pawn stands on rank 1 or 8).
        if r >= 1 && r <= 6 {
            t[0][0][sq] = 5 * (r - 1)
                + if centre_file && (r == 3 || r == 4) {
                    15
                } else {
                    0
                };
            t[1][0][sq] = 12 * (r - 1);
        }
        // Knights suffer most on the rim.
        t[0][1][sq] = 12 * c - 25;
        t[1][1][sq] = 8 * c - 15;
        t[0][2][sq] = 6 * c - 8;
        t[1][2][sq] = 5 * c - 8;
        t[0][3][sq] = if r == 6 { 15 } else { 0 } + if centre_file { 5 } else { 0 };
        t[1][3][sq] = if r == 6 { 10 } else { 0 };
        t[0][4][sq] = 3 * c - 5;
        t[1][4][sq] = 5 * c - 8;
        t[0][5][sq] = if r == 0 {
            match f {
                1 | 2 | 6 => 20,
                0 | 7 => 10,
                _ => 0,
            }
        } else {
            -15 * (if r < 4 { r } else { 4 })
        };
        t[1][5][sq] = 12 * c - 20;
        sq += 1;
    }
    t
};

/// Material plus piece-square tables, blended from middlegame to endgame by the material left.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pst;

impl Pst {
    /// (middlegame, endgame, phase weight) of `color`'s pieces, from White's view of the tables.
    fn side(board: &Board, color: Color) -> (i32, i32, i32) {
        let (mut mg, mut eg, mut phase) = (0, 0, 0);
        for &p in &Piece::ALL {
            for sq in board.colored_pieces(color, p) {
                let i = sq.relative_to(color) as usize;
                let v = PIECE_VALUES[p as usize];
                mg += v + TABLES[0][p as usize][i];
                eg += v + TABLES[1][p as usize][i];
                phase += PHASE_WEIGHTS[p as usize];
            }
        }
        (mg, eg, phase)
    }
}

impl Evaluator<Chess> for Pst {
    fn unit(&self) -> &'static str {
        "centipawns (a pawn is 100)"
    }

    fn name(&self) -> &'static str {
        "pst"
    }

    fn evaluate(&self, pos: &Chess) -> i32 {
        let b = pos.board();
        let us = b.side_to_move();
        let (mg_us, eg_us, ph_us) = Pst::side(b, us);
        let (mg_them, eg_them, ph_them) = Pst::side(b, !us);
        let phase = (ph_us + ph_them).min(PHASE_MAX);
        let mg = mg_us - mg_them;
        let eg = eg_us - eg_them;
        (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
    }

    shared_hooks!();
}

/// True if `mv` takes something (en passant included) or promotes.
pub fn is_noisy(board: &Board, mv: Move) -> bool {
    victim(board, mv) > 0 || mv.promotion.is_some()
}

/// The value of what `mv` takes: the enemy piece on the target, a pawn for en passant (a pawn
/// moving diagonally onto an empty square), else 0. Bitboard tests first: most moves are quiet.
fn victim(board: &Board, mv: Move) -> i32 {
    if board.colors(!board.side_to_move()).has(mv.to) {
        board
            .piece_on(mv.to)
            .map_or(0, |p| PIECE_VALUES[p as usize])
    } else if board.pieces(Piece::Pawn).has(mv.from) && mv.from.file() != mv.to.file() {
        PIECE_VALUES[Piece::Pawn as usize]
    } else {
        0
    }
}

/// Whether the capture `mv` of a piece worth `victim` by a piece worth `mover` loses no material
/// by static exchange. Taking at least what the taker is worth never does (the exchange can
/// stop after the recapture; the king, worth 0 here, takes only what nothing guards), so most
/// captures need no exchange walk.
fn not_losing(board: &Board, mv: Move, victim: i32, mover: i32) -> bool {
    victim >= mover || see_at_least(board, mv, 0)
}

/// Captures that do not lose material by static exchange, and promotions; every move when in
/// check, so quiescence never stands pat on a position it has not looked at the escapes from.
fn noisy_moves(pos: &Chess, moves: &mut Vec<Move>) {
    moves.clear();
    let b = pos.board();
    let in_check = pos.in_check();
    // Out of check, only the target squares that can make a move noisy (an enemy piece; for
    // a pawn also the en-passant square and the last rank): most quiet moves are never built.
    let us = b.side_to_move();
    let enemies = b.colors(!us);
    let pawn_targets = enemies
        | Rank::Eighth.relative_to(us).bitboard()
        | b.en_passant().map_or(BitBoard::EMPTY, |f| {
            Square::new(f, Rank::Sixth.relative_to(us)).bitboard()
        });
    b.generate_moves(|mut pm| {
        if in_check {
            moves.extend(pm);
            return false;
        }
        pm.to &= if pm.piece == Piece::Pawn {
            pawn_targets
        } else {
            enemies
        };
        let mover = PIECE_VALUES[pm.piece as usize];
        moves.extend(pm.into_iter().filter(|&m| {
            if m.promotion.is_some() {
                return true;
            }
            let v = victim(b, m);
            v > 0 && not_losing(b, m, v, mover)
        }));
        false
    });
}

/// Most valuable victim first, least valuable attacker as the tie-break; promotions by the
/// piece they make. Quiet moves get no hint (killers and history order them); captures that
/// lose material by static exchange come after them.
fn capture_hint(board: &Board, mv: Move) -> i32 {
    let victim = victim(board, mv);
    let promotion = mv.promotion.map_or(0, |p| PIECE_VALUES[p as usize]);
    if victim == 0 && promotion == 0 {
        return 0;
    }
    let attacker = board
        .piece_on(mv.from)
        .map_or(0, |p| PIECE_VALUES[p as usize]);
    if promotion == 0 && !not_losing(board, mv, victim, attacker) {
        return -1;
    }
    10 * (victim + promotion) - attacker / 10 + 10
}

/// Whether the static exchange of `mv` (a capture or a quiet move) is at least `threshold`.
/// What the move takes bounds the exchange from above and what it puts en prise from below,
/// so most moves need no exchange walk.
fn exchange_at_least(board: &Board, mv: Move, threshold: i32) -> bool {
    let taken = victim(board, mv) + mv.promotion.map_or(0, |p| PIECE_VALUES[p as usize] - 100);
    if taken < threshold {
        return false;
    }
    // What then stands on the target: the promoted piece, else the mover.
    let exposed = mv
        .promotion
        .or_else(|| board.piece_on(mv.from))
        .map_or(0, |p| PIECE_VALUES[p as usize]);
    // Even losing it (the king is worth 0 here, and a legal king move is never taken back)
    // keeps the threshold.
    if taken - exposed >= threshold {
        return true;
    }
    see_at_least(board, mv, threshold)
}

/// A null move is unsound in zugzwang, which in practice needs a side with only king and
/// pawns; and it is illegal in check.
fn null_move_ok(pos: &Chess) -> bool {
    let b = pos.board();
    let us = b.side_to_move();
    let pieces = b.colors(us) & !(b.pieces(Piece::Pawn) | b.pieces(Piece::King));
    !pos.in_check() && !pieces.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::see::see;
    use duel_core::Game;

    /// Colour symmetry: a position and its mirror image (colours swapped, board flipped,
    /// the other side to move) evaluate the same for the side to move.
    #[test]
    fn evaluations_are_colour_symmetric() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        for fen in fens {
            let pos = Chess::from_text(fen).unwrap();
            let mirrored = crate::mirror_fen(fen);
            let m = Chess::from_text(&mirrored).unwrap();
            assert_eq!(Material.evaluate(&pos), Material.evaluate(&m), "{fen}");
            assert_eq!(Pst.evaluate(&pos), Pst.evaluate(&m), "{fen} / {mirrored}");
        }
        let start = Chess::start();
        assert_eq!(Material.evaluate(&start), 0);
        assert_eq!(Pst.evaluate(&start), 0);
    }

    #[test]
    fn material_counts_by_hand() {
        // White is a knight up; Black to move sees -320.
        let pos = Chess::from_text("4k3/8/8/8/8/8/8/1N2K3 b - - 0 1").unwrap();
        assert_eq!(Material.evaluate(&pos), -320);
    }

    #[test]
    fn hooks() {
        let kiwipete = Chess::from_text(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        let mut noisy = Vec::new();
        Pst.noisy_moves(&kiwipete, &mut noisy);
        // Kiwipete's first ply has 8 captures (the perft tables' capture count at depth 1);
        // quiescence keeps those that do not lose material by exchange.
        let mut all = Vec::new();
        kiwipete.generate_moves(&mut all);
        let captures: Vec<Move> = all
            .iter()
            .copied()
            .filter(|&m| is_noisy(kiwipete.board(), m))
            .collect();
        assert_eq!(captures.len(), 8);
        let winning: Vec<Move> = captures
            .into_iter()
            .filter(|&m| see(kiwipete.board(), m) >= 0)
            .collect();
        assert_eq!(noisy, winning);
        assert!(!noisy.is_empty() && noisy.len() < 8);
        let qxf6 = kiwipete.parse_move("f3f6").unwrap();
        let dxe6 = kiwipete.parse_move("d5e6").unwrap();
        let quiet = kiwipete.parse_move("a2a3").unwrap();
        // dxe6 trades pawns (an even exchange: first); Qxf6 wins a knight but the bishop on
        // g7 takes the queen back (a losing exchange: after the quiet moves).
        assert!(Pst.move_hint(&kiwipete, dxe6) > 0);
        assert_eq!(Pst.move_hint(&kiwipete, quiet), 0);
        assert!(Pst.move_hint(&kiwipete, qxf6) < 0);
        assert!(Pst.null_move_ok(&kiwipete));
        let pawns_only = Chess::from_text("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        assert!(!Pst.null_move_ok(&pawns_only));
        // In check: every legal move is an escape to look at.
        let check = Chess::from_text("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1").unwrap();
        Pst.noisy_moves(&check, &mut noisy);
        check.generate_moves(&mut all);
        assert_eq!(noisy.len(), all.len());
    }

    /// The quick paths (target masks, the victim-at-least-the-taker shortcut, the exchange's
    /// bounds) against the definitions, on every move of random games from the perft
    /// positions: quiescence's moves are the legal captures that do not lose by exchange and
    /// the promotions, in move generation order; a hint is negative exactly for a capture that
    /// loses by exchange; `exchange_at_least` is SEE against the threshold; the move list is
    /// empty exactly when the game is over.
    #[test]
    fn quick_paths_agree_with_the_definitions() {
        let text = include_str!("../../../../data/chess/perft.txt");
        let fens: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| l.split(';').next().unwrap().trim())
            .collect();
        assert!(fens.len() >= 6);
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let (mut noisy, mut all) = (Vec::new(), Vec::new());
        let mut checked = 0;
        for fen in fens {
            let mut pos = Chess::from_text(fen).unwrap();
            for _ in 0..120 {
                pos.generate_moves(&mut all);
                assert_eq!(all.is_empty(), pos.outcome().is_some(), "{}", pos.board());
                if all.is_empty() {
                    break;
                }
                let b = pos.board();
                let expected: Vec<Move> = all
                    .iter()
                    .copied()
                    .filter(|&m| {
                        pos.in_check()
                            || m.promotion.is_some()
                            || (is_noisy(b, m) && see(b, m) >= 0)
                    })
                    .collect();
                Pst.noisy_moves(&pos, &mut noisy);
                assert_eq!(noisy, expected, "{b}");
                for &m in &all {
                    let losing = m.promotion.is_none() && is_noisy(b, m) && see(b, m) < 0;
                    assert_eq!(Pst.move_hint(&pos, m) < 0, losing, "{b} {m}");
                    let exchange = see(b, m);
                    for t in [-1000, -330, -100, -64, -1, 0, 1, 100, 220, 330, 800] {
                        assert_eq!(
                            Pst.exchange_at_least(&pos, m, t),
                            exchange >= t,
                            "{b} {m} {t}"
                        );
                    }
                    checked += 1;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let mv = all[(seed % all.len() as u64) as usize];
                pos.play(mv);
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
