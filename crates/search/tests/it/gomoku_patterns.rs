//! The engine search with Gomoku's strong evaluator ("patterns", its candidate moves): depth
//! 4 finds the move in simple positions.

use duel_core::Game;
use duel_gomoku::{Gomoku, Patterns};
use duel_search::{Limits, SearchConfig, Searcher};

/// The best move at depth 4 from the position of `moves` (Black first), in notation.
fn best(moves: &str) -> String {
    let pos = Gomoku::from_text(moves).unwrap();
    let mut s = Searcher::new(Patterns::default(), SearchConfig::default());
    let r = s.search(&pos, &Limits::depth(4), |_| {});
    pos.format_move(r.best.expect("a move"))
}

#[test]
fn plays_the_centre_on_the_empty_board() {
    assert_eq!(best(""), "h8");
}

#[test]
fn makes_five() {
    // Black e8 f8 g8 h8, d8 White: i8 wins.
    assert_eq!(best("e8 d8 f8 a1 g8 a3 h8 a5"), "i8");
}

#[test]
fn blocks_five() {
    // White to move; Black's e8..h8 blocked at d8: i8.
    assert_eq!(best("e8 d8 f8 a1 g8 a3 h8"), "i8");
}

#[test]
fn makes_an_open_four_from_an_open_three() {
    // Black f8 g8 h8 open, White scattered: e8 or i8 makes an open four.
    let m = best("f8 a1 g8 a3 h8 a5");
    assert!(m == "e8" || m == "i8", "{m}");
}

#[test]
fn a_restricted_root_keeps_its_moves() {
    // The candidates of the empty board are the centre alone; a root restricted to a1 must
    // still search a1 (and the reference algorithms never prune: they stay full width).
    let pos = Gomoku::start();
    let a1 = pos.parse_move("a1").unwrap();
    let mut s = Searcher::new(Patterns::default(), SearchConfig::default());
    let r = s.search_among(&pos, &Limits::depth(2), &[a1], |_| {});
    assert_eq!(r.best, Some(a1));
}

/// With `candidates` off the engine search is full width again: at a fixed depth, with the
/// exact settings `compare` uses, its value equals the textbook alpha-beta's over every move,
/// on positions where the candidates leave many moves out.
#[test]
fn candidates_off_the_engine_equals_the_reference_search() {
    use duel_search::{Reference, ReferenceOptions};
    for moves in ["h8 i9 i8", "h8 i9 i8 g8 j7 k6 h10 h9", "a1 o15 b2"] {
        let pos = Gomoku::from_text(moves).unwrap();
        let reference = Reference::AlphaBetaSoft.search(
            &pos,
            &Patterns::default(),
            2,
            ReferenceOptions::default(),
        );
        let exact = SearchConfig {
            tt_same_depth_only: true,
            quiescence: false,
            exact_hook: false,
            ..SearchConfig::default()
        };
        let full = SearchConfig {
            candidates: false,
            ..exact.clone()
        };
        let r = Searcher::new(Patterns::default(), full).search(&pos, &Limits::depth(2), |_| {});
        assert_eq!(r.value, reference.value, "'{moves}'");
        let pruned =
            Searcher::new(Patterns::default(), exact).search(&pos, &Limits::depth(2), |_| {});
        assert!(pruned.stats.nodes < r.stats.nodes, "'{moves}'");
    }
}

/// Black to move has a VCF of three fours and none of two (the solver's test
/// `three_fours_in_a_row`): a depth-2 search proves it, the fours and their forced blocks
/// being followed past the horizon (no standing pat against a five, the blocks extended),
/// and without quiescence it does not.
#[test]
fn quiescence_follows_fours_to_a_proven_win() {
    // Quiescence follows two fours (Patterns::noisy_limit): the first four at the root and
    // its block, then two more with the five, need a second ply.
    const DEPTH: u32 = 2;
    let pos =
        Gomoku::from_text("e8 d8 f8 g9 g8 h4 g6 h10 g7 d5 h6 e4 h7 j9 e5 e9 f5 j4 o15 f6").unwrap();
    let search = |config: SearchConfig| {
        Searcher::new(Patterns::default(), config).search(&pos, &Limits::depth(DEPTH), |_| {})
    };
    let r = search(SearchConfig::default());
    assert!(r.value.is_win(), "{:?}", r.value);
    let flat = search(SearchConfig {
        quiescence: false,
        ..SearchConfig::default()
    });
    assert!(!flat.value.is_win(), "{:?}", flat.value);
}
