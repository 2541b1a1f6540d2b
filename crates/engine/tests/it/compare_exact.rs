//! `compare`'s exact rows are exact: in every game and with every evaluator, from seeded
//! random positions of play, the engine rows (PVS with and without the table, MTD(f)) equal
//! alpha-beta, and alpha-beta, Negamax and the two-phase procedure equal Minimax, at every
//! depth run.

use duel_core::SplitMix64;
use duel_engine::{evaluators, open, Algorithm, Session};

/// Where a disagreement was found, and the values each algorithm gave.
fn disagreement(s: &dyn Session, depth: u32) -> Option<String> {
    let rows = s.compare(depth, &Algorithm::ALL).unwrap();
    let exact: Vec<_> = rows.iter().filter(|r| r.algorithm.is_exact()).collect();
    let minimax = exact[0].report.value;
    if exact.iter().all(|r| r.report.value == minimax) {
        return None;
    }
    let values: Vec<String> = exact
        .iter()
        .map(|r| format!("{} {}", r.algorithm.name(), r.report.value.0))
        .collect();
    Some(format!(
        "{} ({}) after [{}] depth {depth}: {}",
        s.game(),
        s.evaluator(),
        s.moves().join(" "),
        values.join(", ")
    ))
}

/// A position `plies` random moves from the start (fewer where the game ends first).
fn random_position(s: &mut dyn Session, rng: &mut SplitMix64, plies: usize) {
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..plies {
        let legal = s.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.below(legal.len())].clone();
        let mut next = moves.clone();
        next.push(mv);
        let refs: Vec<&str> = next.iter().map(String::as_str).collect();
        s.set_position("", &refs).unwrap();
        if s.legal_moves().is_empty() {
            // A finished game has nothing to compare: keep the position before it.
            let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
            s.set_position("", &refs).unwrap();
            break;
        }
        moves = next;
    }
}

/// Runs `positions` seeded positions of `game` with each evaluator at `depths`; returns every
/// disagreement found.
fn sweep(game: &str, positions: usize, plies: usize, depths: &[u32]) -> Vec<String> {
    let mut found = Vec::new();
    for eval in evaluators(game).unwrap() {
        let mut rng = SplitMix64::new(0x5eed ^ plies as u64);
        for _ in 0..positions {
            let mut s = open(game, Some(eval)).unwrap();
            let n = 1 + rng.below(plies);
            random_position(s.as_mut(), &mut rng, n);
            for &d in depths {
                found.extend(disagreement(s.as_ref(), d));
            }
        }
    }
    found
}

/// Every game and evaluator, seeded positions from random play (checks, captures,
/// promotions, castling and passes among them, as play brings them), at depths 1 to 4 (5 in
/// Connect Four and tic-tac-toe; Gomoku on boards small enough for Minimax, each rule).
#[test]
fn every_game_and_evaluator_agrees_with_minimax() {
    let mut all = Vec::new();
    for (game, positions, plies, depths) in [
        ("tictactoe", 12, 6, &[1u32, 2, 3, 4, 5][..]),
        ("connect4", 12, 24, &[1, 2, 3, 4, 5]),
        ("othello", 12, 50, &[1, 2, 3, 4]),
        ("gomoku:freestyle:7", 6, 12, &[1, 2, 3]),
        ("gomoku:standard:7", 4, 12, &[1, 2, 3]),
        ("gomoku:renju:7", 4, 12, &[1, 2, 3]),
        ("gomoku:caro:7", 4, 12, &[1, 2, 3]),
        ("gomoku", 2, 30, &[1, 2]),
        ("chess", 10, 60, &[1, 2, 3]),
        ("xiangqi", 8, 60, &[1, 2, 3]),
    ] {
        all.extend(sweep(game, positions, plies, depths));
    }
    assert!(
        all.is_empty(),
        "{} disagreements:\n{}",
        all.len(),
        all.join("\n")
    );
}

/// Depth 4 in chess and xiangqi, where a position costs seconds: two positions each.
#[test]
fn chess_and_xiangqi_agree_at_depth_four() {
    let mut all = sweep("chess", 2, 40, &[4]);
    all.extend(sweep("xiangqi", 1, 40, &[4]));
    assert!(
        all.is_empty(),
        "{} disagreements:\n{}",
        all.len(),
        all.join("\n")
    );
}

/// Chess with the `material` evaluator, searched by a plain recursive minimax written here over
/// cozy-chess alone (the rules' crate, not duel-chess): mate, stalemate, the fifty-move rule,
/// insufficient material and repetition as FIDE has them and as duel scores them inside a
/// search (after the root, one repetition since the root or two before it draw), the
/// texts' material values (pawn 100, knight 320, bishop 330, rook 500, queen 900).
mod independent {
    use cozy_chess::{BitBoard, Board, Color, GameStatus, Piece};
    use duel_core::Score;

    const VALUES: [(Piece, i32); 5] = [
        (Piece::Pawn, 100),
        (Piece::Knight, 320),
        (Piece::Bishop, 330),
        (Piece::Rook, 500),
        (Piece::Queen, 900),
    ];

    fn material(b: &Board, c: Color) -> i32 {
        VALUES
            .iter()
            .map(|&(p, v)| v * b.colored_pieces(c, p).len() as i32)
            .sum()
    }

    fn insufficient(b: &Board) -> bool {
        let heavy = b.pieces(Piece::Pawn) | b.pieces(Piece::Rook) | b.pieces(Piece::Queen);
        let (knights, bishops) = (b.pieces(Piece::Knight), b.pieces(Piece::Bishop));
        if !heavy.is_empty() {
            return false;
        }
        if knights.len() + bishops.len() <= 1 {
            return true;
        }
        // Bishops alone, all on one colour of square, cannot mate.
        let dark = bishops & BitBoard::DARK_SQUARES;
        knights.is_empty() && (dark == bishops || dark.is_empty())
    }

    /// `seen`: the hashes of every position of the game so far, this one last; `root`: the
    /// index of the search's root in it.
    fn repeated(b: &Board, seen: &[u64], root: usize) -> bool {
        let n = seen.len() - 1;
        let reach = (b.halfmove_clock() as usize).min(n);
        let mut before_root = 0;
        for back in (2..=reach).step_by(2) {
            let i = n - back;
            if seen[i] == seen[n] {
                if i >= root {
                    return true;
                }
                before_root += 1;
                if before_root == 2 {
                    return true;
                }
            }
        }
        false
    }

    fn minimax(b: &Board, depth: u32, ply: i32, seen: &mut Vec<u64>, root: usize) -> Score {
        let inside = ply > 0;
        let mut moves = Vec::new();
        b.generate_moves(|m| {
            moves.extend(m);
            false
        });
        if moves.is_empty() {
            return if b.checkers().is_empty() {
                Score::DRAW
            } else {
                Score::loss_in(ply)
            };
        }
        if inside && (b.halfmove_clock() >= 100 || insufficient(b) || repeated(b, seen, root)) {
            return Score::DRAW;
        }
        if depth == 0 {
            let us = b.side_to_move();
            return Score::heuristic(material(b, us) - material(b, !us));
        }
        let mut best = -Score::INF;
        for mv in moves {
            let mut child = b.clone();
            child.play_unchecked(mv);
            seen.push(child.hash());
            best = best.max(-minimax(&child, depth - 1, ply + 1, seen, root));
            seen.pop();
        }
        best
    }

    /// The value of `fen` after `moves` (UCI text), `depth` plies deep.
    pub fn value(fen: &str, moves: &[String], depth: u32) -> Score {
        let mut b: Board = fen.parse().unwrap();
        let mut seen = vec![b.hash()];
        for m in moves {
            let mv = cozy_chess::util::parse_uci_move(&b, m).unwrap();
            b.play(mv);
            seen.push(b.hash());
        }
        assert_ne!(b.status(), GameStatus::Won);
        let root = seen.len() - 1;
        minimax(&b, depth, 0, &mut seen, root)
    }
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn chess_material_minimax_equals_an_independent_one() {
    // Castling both ways, promotions with and without capture, en passant, a mate in one
    // on the back rank, and a start of random play.
    let fens = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "1n2k3/P6P/8/8/8/8/p6p/1N2K3 w - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w K - 97 80",
    ];
    let mut rng = SplitMix64::new(29);
    let mut cases: Vec<(String, Vec<String>)> =
        fens.iter().map(|f| (f.to_string(), Vec::new())).collect();
    for _ in 0..8 {
        let mut s = open("chess", Some("material")).unwrap();
        let plies = 1 + rng.below(50);
        random_position(s.as_mut(), &mut rng, plies);
        cases.push((START.to_string(), s.moves()));
    }
    for (fen, moves) in &cases {
        let mut s = open("chess", Some("material")).unwrap();
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        s.set_position(fen, &refs).unwrap();
        for depth in 1..=3 {
            let rows = s.compare(depth, &Algorithm::ALL).unwrap();
            let theirs = independent::value(fen, moves, depth);
            for r in rows.iter().filter(|r| r.algorithm.is_exact()) {
                assert_eq!(
                    r.report.value,
                    theirs,
                    "{} on {fen} after [{}] at depth {depth}",
                    r.algorithm.name(),
                    moves.join(" ")
                );
            }
        }
    }
}
