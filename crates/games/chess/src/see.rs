//! Static exchange evaluation: what a capture wins or loses once every piece that can join
//! the fight on the target square has captured there, least valuable first, each side free to
//! stop when going on would lose more. Quiescence uses it to skip captures that lose material,
//! which otherwise make up most of its tree.

use cozy_chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_rook_moves, BitBoard,
    Board, Color, Move, Piece, Square,
};

use crate::values::PIECE_VALUES;

/// Value of a king in the exchange: it can capture, but never be captured.
const KING_VALUE: i32 = 20_000;

fn value(p: Piece) -> i32 {
    if p == Piece::King {
        KING_VALUE
    } else {
        PIECE_VALUES[p as usize]
    }
}

/// Every piece of either colour that attacks `sq` with `occupied` as the blockers (so that a
/// piece behind one that has captured joins in: the x-ray).
#[inline]
fn attackers(board: &Board, sq: Square, occupied: BitBoard) -> BitBoard {
    let diag = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let line = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    let pawns = board.pieces(Piece::Pawn);
    (get_pawn_attacks(sq, Color::Black) & pawns & board.colors(Color::White))
        | (get_pawn_attacks(sq, Color::White) & pawns & board.colors(Color::Black))
        | (get_knight_moves(sq) & board.pieces(Piece::Knight))
        | (get_king_moves(sq) & board.pieces(Piece::King))
        | (get_bishop_moves(sq, occupied) & diag)
        | (get_rook_moves(sq, occupied) & line)
}

/// The material the side to move gains with `mv` (a legal move, usually a capture) when both
/// sides then capture on the target square in the best order, in centipawns.
pub fn see(board: &Board, mv: Move) -> i32 {
    let Some(first) = first_capture(board, mv) else {
        return 0;
    };
    let mut gain = [0i32; 34];
    gain[0] = first.gain;
    // The piece now standing on the target, which the next capture takes.
    let mut on_target = first.on_target;
    let mut n = 1;
    for piece in Recaptures::new(board, mv, &first) {
        gain[n] = on_target - gain[n - 1];
        on_target = value(piece);
        n += 1;
        if n == gain.len() {
            break;
        }
    }
    // Back up: each side takes only if taking is better than stopping.
    while n > 1 {
        n -= 1;
        gain[n - 1] = -(-gain[n - 1]).max(gain[n]);
    }
    gain[0]
}

/// Whether [`see`] of `mv` is at least `threshold`, found with less work: the walk stops as
/// soon as one side is sure of the outcome, which for most moves is at the first or second
/// capture, and nothing is backed up.
///
/// After each capture, the side that made it leads by `lead` (0 or more: it reaches its aim if
/// the exchange stops here; the mover's aim is `threshold` or more, the other side's anything
/// less) and stands its piece, worth `exposed`, on the target. If taking that piece would not
/// put the other side in the lead (`exposed <= lead`), the leader wins whatever follows: it can
/// stop after any reply. Otherwise the other side must take, if it can, or lose.
pub fn see_at_least(board: &Board, mv: Move, threshold: i32) -> bool {
    let Some(first) = first_capture(board, mv) else {
        return 0 >= threshold;
    };
    let mut lead = first.gain - threshold;
    if lead < 0 {
        return false;
    }
    let mut exposed = first.on_target;
    let mut walk = Recaptures::new(board, mv, &first);
    while exposed > lead {
        let Some(piece) = walk.next() else {
            break;
        };
        // The taker's lead: what it took, less the other side's lead, less one because the
        // mover's aim includes `threshold` itself and the other side's excludes it.
        lead = exposed - lead - 1;
        exposed = value(piece);
    }
    // The side that took last leads; the walk's side to take is the one behind.
    walk.side != board.side_to_move()
}

/// The captures on the target after the first, alternating sides, each side's least valuable
/// attacker first: the pieces that take, until a side has none (or only a king, which may
/// take only what nothing guards).
struct Recaptures<'a> {
    board: &'a Board,
    target: Square,
    occupied: BitBoard,
    /// Every piece still on the board that attacks the target.
    all: BitBoard,
    diag: BitBoard,
    line: BitBoard,
    /// The side to take next.
    side: Color,
}

impl<'a> Recaptures<'a> {
    #[inline]
    fn new(board: &'a Board, mv: Move, first: &FirstCapture) -> Self {
        // The attackers are found once; a capture can then only uncover a slider behind the
        // piece that made it, on the line through the target, which is all that is looked up
        // again.
        Recaptures {
            board,
            target: mv.to,
            occupied: first.occupied,
            all: attackers(board, mv.to, first.occupied) & first.occupied,
            diag: board.pieces(Piece::Bishop) | board.pieces(Piece::Queen),
            line: board.pieces(Piece::Rook) | board.pieces(Piece::Queen),
            side: !board.side_to_move(),
        }
    }
}

impl Iterator for Recaptures<'_> {
    type Item = Piece;

    #[inline]
    fn next(&mut self) -> Option<Piece> {
        let (piece, from) = least_valuable(self.board, self.all & self.board.colors(self.side))?;
        self.occupied ^= from.bitboard();
        if matches!(
            piece,
            Piece::Pawn | Piece::Bishop | Piece::Queen | Piece::King
        ) {
            self.all |= get_bishop_moves(self.target, self.occupied) & self.diag;
        }
        if matches!(piece, Piece::Rook | Piece::Queen | Piece::King) {
            self.all |= get_rook_moves(self.target, self.occupied) & self.line;
        }
        self.all &= self.occupied;
        // The king may take only if nothing of the other side still guards the square.
        if piece == Piece::King && !(self.all & self.board.colors(!self.side)).is_empty() {
            return None;
        }
        self.side = !self.side;
        Some(piece)
    }
}

/// The board after `mv` as the exchange sees it.
struct FirstCapture {
    /// The pieces left on the board (the mover's square and an en-passant pawn emptied).
    occupied: BitBoard,
    /// What `mv` takes, plus what a promotion adds.
    gain: i32,
    /// The value of the piece now on the target, which the next capture takes.
    on_target: i32,
}

/// `mv`'s own capture, or `None` for castling (the king onto its own rook, as cozy-chess
/// writes it), which takes nothing and leaves the king safe where it lands.
#[inline]
fn first_capture(board: &Board, mv: Move) -> Option<FirstCapture> {
    let us = board.side_to_move();
    if board.colors(us).has(mv.to) {
        return None;
    }
    let mover = board.piece_on(mv.from).expect("a move starts on a piece");
    let mut occupied = board.occupied() ^ mv.from.bitboard();
    let mut gain = match board.piece_on(mv.to) {
        Some(p) => value(p),
        // A pawn moving diagonally onto an empty square takes en passant.
        None if mover == Piece::Pawn && mv.from.file() != mv.to.file() => {
            occupied ^= Square::new(mv.to.file(), mv.from.rank()).bitboard();
            PIECE_VALUES[Piece::Pawn as usize]
        }
        None => 0,
    };
    let mut on_target = value(mover);
    if let Some(p) = mv.promotion {
        gain += value(p) - PIECE_VALUES[Piece::Pawn as usize];
        on_target = value(p);
    }
    Some(FirstCapture {
        occupied,
        gain,
        on_target,
    })
}

#[inline]
fn least_valuable(board: &Board, set: BitBoard) -> Option<(Piece, Square)> {
    Piece::ALL
        .iter()
        .find_map(|&p| (set & board.pieces(p)).into_iter().next().map(|sq| (p, sq)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, mv: &str) -> i32 {
        let board: Board = fen.parse().unwrap();
        see(&board, mv.parse().unwrap())
    }

    /// Exchanges counted by hand.
    #[test]
    fn exchanges() {
        // Rxe5: the pawn is defended by nothing: +100.
        assert_eq!(
            see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
            100
        );
        // Nxe5 takes a pawn defended by the knight on d7 (and more behind): Black takes back
        // and White stops: 100 - 320.
        assert_eq!(
            see_of(
                "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
                "d3e5"
            ),
            100 - 320
        );
        // A queen taking a pawn defended by a pawn: 100 - 900.
        assert_eq!(see_of("4k3/8/3p4/4p3/8/8/8/4QK2 w - - 0 1", "e1e5"), -800);
        // En passant, undefended: a pawn.
        assert_eq!(see_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 100);
        // The black king may not take back on d5 while the rook guards it; without the rook
        // it wins the queen.
        assert_eq!(see_of("8/8/4k3/3p4/8/8/Q7/3R1K2 w - - 0 1", "a2d5"), 100);
        assert_eq!(see_of("8/8/4k3/3p4/8/8/Q7/5K2 w - - 0 1", "a2d5"), -800);
        // A quiet move to an attacked square loses the piece.
        assert_eq!(see_of("4k3/8/8/3p4/8/8/8/2B1K3 w - - 0 1", "c1e3"), 0);
        assert_eq!(see_of("4k3/8/5p2/8/8/8/8/2B1K3 w - - 0 1", "c1g5"), -330);
        // Castling (king takes own rook in cozy-chess) takes nothing and loses nothing, though
        // the knight on f2 hits the rook's square.
        assert_eq!(
            see_of(
                "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                "e1h1"
            ),
            0
        );
    }

    /// The exchange as first written: every attacker looked up again after each capture.
    /// Slow and plainly right; the fast version must agree with it on every move.
    fn see_by_recomputing(board: &Board, mv: Move) -> i32 {
        // The first capture is shared: what is checked here is the walk after it.
        let Some(first) = first_capture(board, mv) else {
            return 0;
        };
        let mut occupied = first.occupied;
        let mut gain = vec![first.gain];
        let mut on_target = first.on_target;
        let mut side = !board.side_to_move();
        loop {
            let ours = attackers(board, mv.to, occupied) & occupied & board.colors(side);
            let Some((piece, from)) = least_valuable(board, ours) else {
                break;
            };
            let after = occupied ^ from.bitboard();
            if piece == Piece::King
                && !(attackers(board, mv.to, after) & after & board.colors(!side)).is_empty()
            {
                break;
            }
            gain.push(on_target - gain[gain.len() - 1]);
            on_target = value(piece);
            occupied = after;
            side = !side;
        }
        while gain.len() > 1 {
            let last = gain.pop().unwrap();
            let n = gain.len() - 1;
            gain[n] = -(-gain[n]).max(last);
        }
        gain[0]
    }

    /// Every legal move of positions along random games from an opening, two crowded
    /// middlegames and a race of pawns to promote agrees with the slow exchange, and the
    /// threshold walk agrees with the full one around its value and at common margins.
    #[test]
    fn agrees_with_recomputing_every_attacker() {
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
            "r3k3/1P4P1/8/8/8/8/1p4p1/R3K3 w Qq - 0 1",
        ];
        let mut rng = duel_core::SplitMix64::new(11);
        let mut checked = 0;
        for fen in starts {
            for _ in 0..30 {
                let mut board: Board = fen.parse().unwrap();
                for _ in 0..60 {
                    let mut moves = Vec::new();
                    board.generate_moves(|ms| {
                        moves.extend(ms);
                        false
                    });
                    if moves.is_empty() {
                        break;
                    }
                    for &m in &moves {
                        let exchange = see(&board, m);
                        assert_eq!(exchange, see_by_recomputing(&board, m), "{m} in {board}");
                        for t in [exchange - 1, exchange, exchange + 1, -330, 0, 100, 330] {
                            assert_eq!(
                                see_at_least(&board, m, t),
                                exchange >= t,
                                "{m} in {board}, threshold {t}"
                            );
                        }
                        checked += 1;
                    }
                    board.play_unchecked(moves[rng.below(moves.len())]);
                }
            }
        }
        assert!(checked > 100_000, "only {checked} moves checked");
    }
}
