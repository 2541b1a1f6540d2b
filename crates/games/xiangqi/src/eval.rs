//! The founding texts' evaluation, as they give it for chess, applied to xiangqi: material plus
//! piece-square tables, from the side to move, in hundredths of an uncrossed soldier.
//!
//! The values are the ones xiangqi books teach (a chariot worth about two horses or cannons, an
//! advisor or elephant about two soldiers, a soldier twice as much once across the river),
//! and the tables are written here from the game's logic rather than taken from an engine:
//! soldiers gain as they near the palace and lose on the last rank, where they can only go
//! sideways; horses are worth more where they have room and near the enemy palace and less on
//! the edge; a cannon on the central file threatens the general; a chariot is worth more when
//! it has left its corner and stands on the enemy half; the general is safest at home, and
//! its guards in the middle of their points.

use duel_core::{Evaluator, Game};

use crate::board::{file_of, rank_of, Board, Kind, Move, Piece, Square, POINTS};
use crate::Xiangqi;

/// Material values by kind (general, advisor, elephant, horse, chariot, cannon, soldier). The
/// general has none: both sides always have one.
pub const PIECE_VALUES: [i32; 7] = [0, 200, 200, 400, 900, 450, 100];

/// The tables, by kind, from Red's side (a0 = 0); Black reads them with the ranks turned over.
const TABLES: [[i32; POINTS]; 7] = {
    let mut t = [[0; POINTS]; 7];
    let mut sq = 0;
    while sq < POINTS {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let side_dist = if f < 4 { 4 - f } else { f - 4 };
        let palace_file = f >= 3 && f <= 5;
        // General: at home on e0; each step up or aside leaves it more open.
        t[0][sq] = -10 * r - 5 * side_dist;
        // Advisors and elephants guard best from the middle of their points.
        t[1][sq] = if f == 4 { 10 } else { 0 };
        t[2][sq] = if f == 4 && r == 2 {
            10
        } else if f == 0 || f == 8 {
            -5
        } else {
            0
        };
        // Horses: room to move (fewer points on the edge), and the enemy palace in reach.
        let edge = if f == 0 || f == 8 {
            2
        } else if f == 1 || f == 7 {
            1
        } else {
            0
        };
        let advance = if r <= 6 { 5 * r } else { 30 - 5 * (r - 6) };
        t[3][sq] = advance - 15 * edge
            + if palace_file && r >= 6 && r <= 8 {
                15
            } else {
                0
            };
        // Chariots: out of the corner and onto the enemy half, the palace files a little more.
        t[4][sq] = if r >= 5 { 15 } else { 3 * r } + if palace_file { 5 } else { 0 }
            - if r == 0 && (f == 0 || f == 8) { 10 } else { 0 };
        // Cannons: the central file aims at the general; deep in the enemy camp a cannon
        // lacks screens.
        t[5][sq] = if f == 4 { 15 } else { 0 } - if r >= 8 { 10 } else { 0 };
        // Soldiers: a second soldier's worth once across the river, more near the palace,
        // less on the last rank and on the edge files.
        t[6][sq] = if r <= 4 {
            0
        } else if r == 9 {
            70
        } else {
            90 + 15 * (r - 5) + if palace_file { 20 } else { 0 }
                - if f == 0 || f == 8 { 15 } else { 0 }
        };
        sq += 1;
    }
    t
};

/// Kind `kind`'s table value on `sq` (seen from its own side): where Strong's hand weights
/// start.
pub(crate) fn hand_table(kind: usize, sq: Square) -> i32 {
    TABLES[kind][usize::from(sq)]
}

/// A piece's value where it stands.
fn value(sq: Square, piece: Piece) -> i32 {
    let own = match piece.side {
        duel_core::Side::First => sq,
        duel_core::Side::Second => (9 - rank_of(sq)) * 9 + file_of(sq),
    };
    PIECE_VALUES[piece.kind as usize] + TABLES[piece.kind as usize][usize::from(own)]
}

/// Material and piece-square tables: the textbook evaluator.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Material;

impl Evaluator<Xiangqi> for Material {
    fn unit(&self) -> &'static str {
        "hundredths of a soldier (a chariot is 900)"
    }

    fn name(&self) -> &'static str {
        "material"
    }

    fn evaluate(&self, pos: &Xiangqi) -> i32 {
        let b = pos.board();
        let us = b.side_to_move();
        let side = |s| b.pieces(s).map(|(sq, p)| value(sq, p)).sum::<i32>();
        side(us) - side(us.other())
    }

    /// Captures that do not lose material by static exchange; every move in check, so that
    /// quiescence looks at the escapes.
    fn noisy_moves(&self, pos: &Xiangqi, moves: &mut Vec<Move>) {
        pos.generate_moves(moves);
        if pos.in_check() {
            return;
        }
        let b = pos.board();
        moves.retain(|&m| b.captured(m).is_some() && !losing_capture(b, m));
    }

    /// Most valuable victim first, least valuable attacker as the tie-break; captures that lose
    /// material by static exchange after the quiet moves.
    fn move_hint(&self, pos: &Xiangqi, mv: Move) -> i32 {
        let b = pos.board();
        let Some(victim) = b.captured(mv) else {
            return 0;
        };
        if losing_capture(b, mv) {
            return -1;
        }
        let attacker = b
            .piece_at(mv.from())
            .map_or(0, |p| PIECE_VALUES[p.kind as usize]);
        10 * PIECE_VALUES[victim.kind as usize] - attacker / 10 + 10
    }

    fn exchange_at_least(&self, pos: &Xiangqi, mv: Move, threshold: i32) -> bool {
        exchange_at_least(pos.board(), mv, threshold)
    }

    fn extend(&self, pos: &Xiangqi) -> bool {
        pos.in_check()
    }

    /// Zugzwang threatens where the side to move has nothing to attack with (generals, guards
    /// and soldiers); a null move is illegal in check.
    fn null_move_ok(&self, pos: &Xiangqi) -> bool {
        let b = pos.board();
        !pos.in_check()
            && b.pieces(b.side_to_move())
                .any(|(_, p)| matches!(p.kind, Kind::Chariot | Kind::Horse | Kind::Cannon))
    }
}

/// A general's worth in the static exchange: it may take, but never be taken.
const KING_VALUE: i32 = 20_000;

fn exchange_value(p: Piece) -> i32 {
    match p.kind {
        Kind::King => KING_VALUE,
        k => PIECE_VALUES[k as usize],
    }
}

/// Whether the static exchange of `mv` is at least `threshold`: what it takes, less what the
/// pieces that then take turns on its target win back, each side taking with its least
/// valuable piece and free to stop. The exchange is played out on a copy of the board, so a
/// cannon gains or loses its screen and a horse its leg as the pieces come and go. The
/// general's safety aside, as in chess's exchange.
pub(crate) fn exchange_at_least(b: &Board, mv: Move, threshold: i32) -> bool {
    let taken = b.captured(mv).map_or(0, exchange_value);
    if taken < threshold {
        return false;
    }
    let mut exposed = b.piece_at(mv.from()).map_or(0, exchange_value);
    // Even losing the mover keeps the threshold.
    if taken - exposed >= threshold {
        return true;
    }
    let mover = b.side_to_move();
    let to = mv.to();
    let mut board = b.clone();
    board.make(mv);
    // The side that took last leads by `lead` and stands `exposed` on the target; the other
    // side must take back, if it can, when that piece is worth more than the lead.
    let mut lead = taken - threshold;
    // A side has at most 16 pieces: the takers fit on the stack (this runs inside the search).
    let mut takers = [(0i32, 0 as Square); 16];
    while exposed > lead {
        let side = board.side_to_move();
        // Most targets have no taker: no need to ask every piece.
        if !board.may_be_reached(to, side) {
            break;
        }
        let mut n = 0;
        for (sq, p) in board.pieces(side) {
            if n < takers.len() && board.reaches(sq, to) {
                takers[n] = (exchange_value(p), sq);
                n += 1;
            }
        }
        takers[..n].sort_unstable();
        // The least valuable piece that may take: pins by a chariot or a cannon, and the
        // generals facing, are common in xiangqi.
        let taker = takers[..n].iter().find(|&&(_, from)| {
            let capture = Move::new(from, to);
            let taken = board.make(capture);
            let legal = !board.opponent_in_check();
            if !legal {
                board.unmake(capture, taken);
            }
            legal
        });
        let Some(&(value, _)) = taker else {
            break;
        };
        lead = exposed - lead - 1;
        exposed = value;
    }
    // The side to take next is the one behind.
    board.side_to_move() != mover
}

/// A capture that loses material by static exchange.
fn losing_capture(b: &Board, mv: Move) -> bool {
    !exchange_at_least(b, mv, 0)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Mirrors a FEN: ranks reversed, colours swapped, the other side to move.
    pub(crate) fn mirror(fen: &str) -> String {
        let mut f = fen.split(' ');
        let board: Vec<String> = f
            .next()
            .unwrap()
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let side = if f.next() == Some("w") { "b" } else { "w" };
        format!("{} {side} - - 0 1", board.join("/"))
    }

    #[test]
    fn values_are_colour_symmetric() {
        for fen in [
            crate::START_FEN,
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
        ] {
            let pos = Xiangqi::from_text(fen).unwrap();
            let m = Xiangqi::from_text(&mirror(fen)).unwrap();
            assert_eq!(Material.evaluate(&pos), Material.evaluate(&m), "{fen}");
        }
        assert_eq!(Material.evaluate(&Xiangqi::start()), 0);
    }

    #[test]
    fn crossed_soldiers_and_central_cannons_count_more() {
        let pos = |fen: &str| Xiangqi::from_text(fen).unwrap();
        let home = pos("4k4/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1");
        let crossed = pos("4k4/9/9/4P4/9/9/9/9/9/4K4 w - - 0 1");
        assert!(Material.evaluate(&crossed) >= Material.evaluate(&home) + 90);
        let central = pos("4k4/9/9/9/9/9/9/4C4/9/3K5 w - - 0 1");
        let side = pos("4k4/9/9/9/9/9/9/1C7/9/3K5 w - - 0 1");
        assert!(Material.evaluate(&central) > Material.evaluate(&side));
    }

    /// Exchanges worked out by hand, each move's exchange exactly: at least its value and
    /// not one more.
    #[test]
    fn static_exchange() {
        let cases = [
            // A chariot takes an unprotected cannon: +450.
            ("4k4/9/4c4/9/4R4/9/9/9/9/3K5 w - - 0 1", "e5e7", 450),
            // A chariot takes a horse the other chariot protects: 400 - 900.
            ("2r2k3/9/9/9/2n1R4/9/9/9/9/3K5 w - - 0 1", "e5c5", -500),
            // A soldier across the river takes a chariot that a horse protects: 900 - 100.
            ("4k4/3n5/9/4r4/4P4/9/9/9/9/3K5 w - - 0 1", "e5e6", 800),
            // The red cannon on e2 takes the chariot over the soldier on e3; the black cannon
            // on e9 takes back over its own screen, the soldier on e7: 900 - 450.
            ("4c4/3k5/4p4/9/4r4/9/4P4/4C4/9/5K3 w - - 0 1", "e2e5", 450),
            // The same with a red chariot on a5, which the cannon's capture leaves its turn to
            // take back: 900 - 450 + 450.
            ("4c4/3k5/4p4/9/R3r4/9/4P4/4C4/9/5K3 w - - 0 1", "e2e5", 900),
            // The black horse on d7 would guard e5, but the red soldier on d6 stands on its
            // leg: the chariot takes the soldier for nothing.
            ("4k4/9/3n5/3P5/R3p4/9/9/9/9/3K5 w - - 0 1", "a5e5", 100),
            // The black chariot on e8 guards the horse on a8, but it is pinned to its general
            // by the red chariot on e2: the horse is won.
            ("4k4/n3r4/9/9/9/9/9/R3R4/9/3K5 w - - 0 1", "a2a8", 400),
            // A quiet move onto a point the black chariot attacks: the horse is lost.
            ("1r2k4/9/9/9/9/9/9/2N6/9/3K5 w - - 0 1", "c2b4", -400),
        ];
        for (fen, text, value) in cases {
            let pos = Xiangqi::from_text(fen).unwrap();
            let mv = pos.parse_move(text).unwrap();
            let b = pos.board();
            assert!(exchange_at_least(b, mv, value), "{fen} {text} >= {value}");
            assert!(
                !exchange_at_least(b, mv, value + 1),
                "{fen} {text} > {value}"
            );
        }
    }

    #[test]
    fn hooks() {
        // The red chariot on e5 can take the black cannon on e7 (protected by nothing) and the
        // horse on c5 (protected by the chariot on c9): the cannon is a noisy move, the horse
        // gives the chariot for a horse.
        let pos = Xiangqi::from_text("2r1k4/9/4c4/9/2n1R4/9/9/9/9/3K5 w - - 0 1").unwrap();
        let mut noisy = Vec::new();
        Material.noisy_moves(&pos, &mut noisy);
        let take_cannon = pos.parse_move("e5e7").unwrap();
        let take_horse = pos.parse_move("e5c5").unwrap();
        assert_eq!(noisy, [take_cannon]);
        assert!(Material.move_hint(&pos, take_cannon) > 0);
        assert_eq!(Material.move_hint(&pos, take_horse), -1);
        assert_eq!(Material.move_hint(&pos, pos.parse_move("e5e4").unwrap()), 0);
        assert!(Material.null_move_ok(&pos));
        // In check, every legal move is noisy, and no null move.
        let check = Xiangqi::from_text("4k4/9/9/9/9/9/9/9/9/3K1r3 w - - 0 1").unwrap();
        Material.noisy_moves(&check, &mut noisy);
        let mut all = Vec::new();
        check.generate_moves(&mut all);
        assert_eq!(noisy, all);
        assert!(Material.extend(&check) && !Material.null_move_ok(&check));
    }
}
