//! Chess's draw rules inside the engine's tree, with the transposition table kept from one
//! search to the next as in a game: a table entry holds no history and no fifty-move clock,
//! so a value stored under one history must not decide a position reached under another.
//! The engine plays as `duel uci` does (chess's search profile); the positions' values were
//! checked with Stockfish 15.1 at depth 20.

use duel_chess::{Chess, Pst};
use duel_core::{Evaluator, Game, Score};
use duel_search::{Limits, SearchConfig, Searcher};

fn engine() -> Searcher<Chess, Pst> {
    Searcher::new(
        Pst,
        SearchConfig::with_profile(&<Chess as duel_core::GameInfo>::SEARCH_PROFILE),
    )
}

fn position(fen: &str, moves: &[&str]) -> Chess {
    let mut pos = Chess::from_text(fen).unwrap();
    for text in moves {
        let mv = pos.parse_move(text).unwrap();
        pos.play(mv);
    }
    pos
}

fn best(s: &mut Searcher<Chess, Pst>, pos: &Chess, depth: u32) -> (String, Score) {
    let r = s.search(pos, &Limits::depth(depth), |_| {});
    (pos.format_move(r.best.unwrap()), r.value)
}

/// A queen and a rook down, White draws by perpetual check (Qg5+ Kh8 Qf6+ Kg8): the engine
/// finds it, and four plies on, with the table full of the first search's values and the
/// start position twice in the history, still plays the one move that keeps the draw (every
/// other loses, Stockfish: mate in 8 or worse).
#[test]
fn perpetual_check_is_found_and_kept() {
    const FEN: &str = "5rk1/5p1p/8/8/8/8/qr4PP/2Q4K w - - 0 1";
    let start = position(FEN, &[]);
    assert!(Pst.evaluate(&start) < -1000, "White is lost on material");
    let mut s = engine();
    assert_eq!(best(&mut s, &start, 10), ("c1g5".into(), Score::DRAW));
    let on = position(FEN, &["c1g5", "g8h8", "g5f6", "h8g8"]);
    assert_eq!(best(&mut s, &on, 10), ("f6g5".into(), Score::DRAW));
    // The side that is ahead cannot escape it either: Black's only move, and the draw.
    let black = position(FEN, &["c1g5", "g8h8", "g5f6"]);
    assert_eq!(best(&mut s, &black, 10), ("h8g8".into(), Score::DRAW));
}

/// Mate in two (Kf7 Kh7 Rh1#) with the fifty-move clock at 0, at 97 (the mate lands on the
/// hundredth half-move, and a mate then still wins) and at 98 (the hundredth half-move comes
/// first: a draw). One table throughout, in both orders: the entries of one clock must not
/// decide the other's value.
#[test]
fn the_fifty_move_rule_holds_with_the_table_kept() {
    let at = |clock: u32| position(&format!("7k/8/5K2/8/8/8/8/6R1 w - - {clock} 1"), &[]);
    for order in [[0, 97, 98], [98, 97, 0]] {
        let mut s = engine();
        for clock in order {
            let (mv, value) = best(&mut s, &at(clock), 8);
            if clock == 98 {
                assert_eq!(value, Score::DRAW, "clock {clock}, order {order:?}");
            } else {
                assert_eq!(
                    (mv.as_str(), value),
                    ("f6f7", Score::win_in(3)),
                    "clock {clock}, order {order:?}"
                );
            }
        }
    }
}
