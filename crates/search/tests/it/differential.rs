//! Differential tests: on random positions of tic-tac-toe, Connect Four, chess and Othello,
//! every exact algorithm and every exact engine configuration (quiescence off) returns the
//! value of plain Minimax at the same depth; Negamax and the two-phase procedure, which search
//! the Minimax tree itself, also its nodes, leaves and line (the two-phase procedure on a few
//! positions of Gomoku and xiangqi too).

use duel_chess::{Chess, Pst};
use duel_connect4::{Connect4, Threats};
use duel_core::{Evaluator, Game, Score, SearchProfile, SplitMix64};
use duel_othello::{Othello, Pattern};
use duel_search::reference::{Reference, ReferenceOptions};
use duel_search::{Limits, SearchConfig, Searcher};
use duel_tictactoe::{OpenLines, TicTacToe};
use proptest::prelude::*;

/// The engine configurations whose values must equal Minimax exactly.
fn exact_configs() -> Vec<(&'static str, SearchConfig)> {
    let base = SearchConfig {
        tt_mb: 1,
        quiescence: false,
        exact_hook: false,
        tt_same_depth_only: true,
        // The engine searches a check a ply deeper; Minimax at a fixed depth does not.
        extensions: false,
        ..SearchConfig::default()
    };
    vec![
        ("pvs", base.clone()),
        (
            "pvs-no-tt",
            SearchConfig {
                use_tt: false,
                ..base.clone()
            },
        ),
        (
            "pvs-fixed-depth",
            SearchConfig {
                iterative: false,
                ..base.clone()
            },
        ),
        (
            "pvs-no-aspiration",
            SearchConfig {
                aspiration: false,
                ..base.clone()
            },
        ),
        (
            "mtdf",
            SearchConfig {
                mtdf: true,
                ..base.clone()
            },
        ),
        (
            "pvs-continuation-history",
            SearchConfig {
                profile: SearchProfile {
                    continuation: true,
                    ..base.profile
                },
                ..base.clone()
            },
        ),
        (
            "mtdf-no-tt",
            SearchConfig {
                mtdf: true,
                use_tt: false,
                ..base
            },
        ),
    ]
}

/// A position reached by `plies` seeded random moves (stopping early at the end of a game).
fn random_position<G: Game>(seed: u64, plies: usize) -> G {
    let mut rng = SplitMix64::new(seed);
    let mut pos = G::start();
    let mut moves = Vec::new();
    for _ in 0..plies {
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        pos.play(moves[rng.below(moves.len())]);
    }
    pos
}

/// The Minimax values of every root move, from the side to move.
fn root_move_values<G: Game, E: Evaluator<G>>(
    pos: &G,
    eval: &E,
    depth: u32,
) -> Vec<(G::Move, Score)> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let mut child = pos.clone();
            child.play(mv);
            let r = Reference::Negamax.search(&child, eval, depth - 1, ReferenceOptions::default());
            // One ply further from the root: distances shift by one.
            let v = -r.value;
            let v = if v.is_decisive() { v.from_tt(1) } else { v };
            (mv, v)
        })
        .collect()
}

/// Checks every algorithm against Minimax on one position.
pub fn check_all<G: Game, E: Evaluator<G>>(
    pos: &G,
    eval: &E,
    depth: u32,
) -> Result<(), TestCaseError> {
    if pos.outcome().is_some() {
        return Ok(());
    }
    let opts = ReferenceOptions::default();
    let minimax = Reference::Minimax.search(pos, eval, depth, opts);
    let best_moves: Vec<G::Move> = root_move_values(pos, eval, depth)
        .into_iter()
        .filter(|&(_, v)| v == minimax.value)
        .map(|(m, _)| m)
        .collect();
    if best_moves.is_empty() {
        return Err(TestCaseError::fail(format!(
            "no root move reaches the minimax value {}",
            minimax.value
        )));
    }
    let text = pos.to_text();
    for algo in Reference::ALL {
        let r = algo.search(pos, eval, depth, opts);
        if r.value != minimax.value {
            return Err(TestCaseError::fail(format!(
                "{text} d{depth}: {} {} != minimax {}",
                algo.name(),
                r.value,
                minimax.value
            )));
        }
        if !r.best.is_some_and(|m| best_moves.contains(&m)) {
            return Err(TestCaseError::fail(format!(
                "{text} d{depth}: {} chose {:?}, not a minimax-best move",
                algo.name(),
                r.best
            )));
        }
        if r.stats.nodes > minimax.stats.nodes {
            return Err(TestCaseError::fail(format!(
                "{text} d{depth}: {} visited more nodes than minimax",
                algo.name()
            )));
        }
        if matches!(algo, Reference::Negamax | Reference::TwoPhase) {
            same_tree(&r, &minimax)
                .map_err(|e| TestCaseError::fail(format!("{text} d{depth}: {e}")))?;
        }
    }
    for (name, config) in exact_configs() {
        let mut s = Searcher::new(eval.clone(), config);
        let r = s.search(pos, &Limits::depth(depth), |_| {});
        if r.value != minimax.value {
            return Err(TestCaseError::fail(format!(
                "{text} d{depth}: {name} {} != minimax {}",
                r.value, minimax.value
            )));
        }
        if !r.best.is_some_and(|m| best_moves.contains(&m)) {
            return Err(TestCaseError::fail(format!(
                "{text} d{depth}: {name} chose {:?}, not a minimax-best move",
                r.best
            )));
        }
    }
    Ok(())
}

/// Whether `r` searched the tree Minimax searched for `minimax`: the same value, counters and
/// principal variation.
fn same_tree<M: Eq + std::fmt::Debug>(
    r: &duel_search::Report<M>,
    minimax: &duel_search::Report<M>,
) -> Result<(), String> {
    if (r.value, r.stats, &r.pv) == (minimax.value, minimax.stats, &minimax.pv) {
        Ok(())
    } else {
        Err(format!(
            "{} {} {:?} {:?} != minimax {} {:?} {:?}",
            r.algorithm, r.value, r.stats, r.pv, minimax.value, minimax.stats, minimax.pv
        ))
    }
}

/// The games the random tests leave out, too wide for many cases: a few positions each.
#[test]
fn two_phase_builds_the_minimax_tree_in_gomoku_and_xiangqi() {
    fn check<G: Game, E: Evaluator<G>>(pos: &G, eval: &E, depth: u32) {
        let opts = ReferenceOptions::default();
        let minimax = Reference::Minimax.search(pos, eval, depth, opts);
        let r = Reference::TwoPhase.search(pos, eval, depth, opts);
        if let Err(e) = same_tree(&r, &minimax) {
            panic!("{} d{depth}: {e}", pos.to_text());
        }
    }
    for seed in 0..3 {
        let pos: duel_gomoku::Gomoku = random_position(seed, 2 * seed as usize + 1);
        check(&pos, &duel_gomoku::Patterns::default(), 2);
        let pos: duel_xiangqi::Xiangqi = random_position(seed, 10 * seed as usize);
        check(&pos, &duel_xiangqi::Material, 2);
    }
    // White to move, and Black's five at the last ply: finished games among the leaves.
    let pos = duel_gomoku::Gomoku::from_text("e8 d8 f8 a1 g8 a3 h8").unwrap();
    check(&pos, &duel_gomoku::Patterns::default(), 2);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn tictactoe_all_algorithms_agree(seed in any::<u64>(), plies in 0usize..7, depth in 1u32..6) {
        let pos: TicTacToe = random_position(seed, plies);
        check_all(&pos, &OpenLines, depth)?;
    }

    #[test]
    fn connect4_all_algorithms_agree(seed in any::<u64>(), plies in 0usize..30, depth in 1u32..5) {
        let pos: Connect4 = random_position(seed, plies);
        // The exact hook would answer near the end of the game where Minimax sees a horizon.
        let eval = Threats::heuristic_only();
        check_all(&pos, &eval, depth)?;
    }
}

proptest! {
    // Chess's and Othello's trees are wide: fewer cases and shallower depths keep the test
    // quick, still covering captures, checks, mates, promotions and passes at the horizon.
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn chess_all_algorithms_agree(seed in any::<u64>(), plies in 0usize..80, depth in 1u32..4) {
        let pos: Chess = random_position(seed, plies);
        check_all(&pos, &Pst, depth)?;
    }

    #[test]
    fn othello_all_algorithms_agree(seed in any::<u64>(), plies in 0usize..60, depth in 1u32..6) {
        let pos: Othello = random_position(seed, plies);
        check_all(&pos, &Pattern::default(), depth)?;
    }
}

/// MultiPV: with k lines asked for, the engine reports the k best root moves with each one's
/// exact minimax value (the multiset of the k best values), best first, the first line being
/// the ordinary result.
fn check_multipv<G: Game, E: Evaluator<G>>(
    pos: &G,
    eval: &E,
    depth: u32,
    k: usize,
) -> Result<(), TestCaseError> {
    if pos.outcome().is_some() {
        return Ok(());
    }
    let mut want: Vec<Score> = root_move_values(pos, eval, depth)
        .into_iter()
        .map(|(_, v)| v)
        .collect();
    want.sort_by_key(|&v| std::cmp::Reverse(v));
    let config = SearchConfig {
        multipv: k,
        ..exact_configs()[0].1.clone()
    };
    let mut s = Searcher::new(eval.clone(), config);
    let r = s.search(pos, &Limits::depth(depth), |_| {});
    let got: Vec<Score> = r.lines.iter().map(|l| l.0).collect();
    let k = k.min(want.len());
    let expect_lines = if k > 1 { k } else { 0 };
    if got.len() != expect_lines || (k > 1 && got[..] != want[..k]) {
        return Err(TestCaseError::fail(format!(
            "{}: lines {got:?}, want the best {k} of {want:?}",
            pos.to_text()
        )));
    }
    if k > 1 && (r.lines[0].0 != r.value || r.lines[0].1 != r.pv) {
        return Err(TestCaseError::fail(format!(
            "{}: first line is not the result",
            pos.to_text()
        )));
    }
    let mut firsts: Vec<_> = r.lines.iter().map(|l| l.1[0]).collect();
    firsts.sort_by_key(|m| format!("{m:?}"));
    firsts.dedup();
    if firsts.len() != r.lines.len() {
        return Err(TestCaseError::fail(format!(
            "{}: a root move appears twice",
            pos.to_text()
        )));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    #[test]
    fn tictactoe_multipv(seed in any::<u64>(), plies in 0usize..6, depth in 1u32..6, k in 1usize..10) {
        let pos: TicTacToe = random_position(seed, plies);
        check_multipv(&pos, &OpenLines, depth, k)?;
    }

    #[test]
    fn connect4_multipv(seed in any::<u64>(), plies in 0usize..30, depth in 1u32..5, k in 1usize..8) {
        let pos: Connect4 = random_position(seed, plies);
        check_multipv(&pos, &Threats::heuristic_only(), depth, k)?;
    }
}

/// `searchmoves`: restricted to a subset of the root moves (chosen by the bits of `mask`), the
/// engine returns the best value among them, a move among them, and MultiPV lines only from
/// them; an empty subset means the whole root.
fn check_search_among<G: Game, E: Evaluator<G>>(
    pos: &G,
    eval: &E,
    depth: u32,
    mask: u32,
    k: usize,
) -> Result<(), TestCaseError> {
    if pos.outcome().is_some() {
        return Ok(());
    }
    let values = root_move_values(pos, eval, depth);
    let mut among: Vec<G::Move> = values
        .iter()
        .enumerate()
        .filter(|(i, _)| mask >> (i % 32) & 1 == 1)
        .map(|(_, (m, _))| *m)
        .collect();
    if among.is_empty() {
        among = values.iter().map(|(m, _)| *m).collect();
    }
    let want = values
        .iter()
        .filter(|(m, _)| among.contains(m))
        .map(|(_, v)| *v)
        .max()
        .expect("a non-empty subset");
    let config = SearchConfig {
        multipv: k,
        ..exact_configs()[0].1.clone()
    };
    let mut s = Searcher::new(eval.clone(), config);
    let r = s.search_among(pos, &Limits::depth(depth), &among, |_| {});
    let text = pos.to_text();
    if r.value != want {
        return Err(TestCaseError::fail(format!(
            "{text} d{depth}: value {:?}, want {want:?}",
            r.value
        )));
    }
    if !r.best.is_some_and(|m| among.contains(&m)) {
        return Err(TestCaseError::fail(format!(
            "{text}: best {:?} outside {among:?}",
            r.best
        )));
    }
    let expect_lines = if k.min(among.len()) > 1 {
        k.min(among.len())
    } else {
        0
    };
    if r.lines.len() != expect_lines || r.lines.iter().any(|l| !among.contains(&l.1[0])) {
        return Err(TestCaseError::fail(format!(
            "{text}: lines {:?} for {among:?}",
            r.lines
        )));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    #[test]
    fn tictactoe_search_among(seed in any::<u64>(), plies in 0usize..6, depth in 1u32..5, mask in any::<u32>(), k in 1usize..4) {
        let pos: TicTacToe = random_position(seed, plies);
        check_search_among(&pos, &OpenLines, depth, mask, k)?;
    }

    #[test]
    fn connect4_search_among(seed in any::<u64>(), plies in 0usize..30, depth in 1u32..5, mask in any::<u32>(), k in 1usize..4) {
        let pos: Connect4 = random_position(seed, plies);
        check_search_among(&pos, &Threats::heuristic_only(), depth, mask, k)?;
    }
}

/// Positions of Pons' easy end-game set, with their exact scores: the engine search with
/// default options (and with two threads) finds the proven value.
#[test]
fn engine_proves_connect4_endgames() {
    let data = include_str!("../../../../data/connect4/Test_L3_R1");
    for line in data.lines().step_by(50) {
        let (moves, score) = line.split_once(' ').unwrap();
        let pos = Connect4::from_text(moves).unwrap();
        let want = duel_connect4::pons_to_score(&pos, score.parse().unwrap());
        for threads in [1, 2] {
            let config = SearchConfig {
                threads,
                tt_mb: 4,
                ..SearchConfig::default()
            };
            let mut s = Searcher::new(Threats::heuristic_only(), config);
            let r = s.search(&pos, &Limits::default(), |_| {});
            assert_eq!(r.value, want, "{moves} with {threads} thread(s)");
            let mut legal = Vec::new();
            pos.generate_moves(&mut legal);
            assert!(r.best.is_some_and(|m| legal.contains(&m)));
        }
    }
}

#[test]
fn engine_solves_tictactoe_from_every_opening() {
    // Default configuration (deeper TT entries, quiescence, aspiration): the game value is
    // still exact once the search reaches the end of the game.
    for first in 0..9u8 {
        let mut pos = TicTacToe::start();
        pos.play(first);
        let reference =
            Reference::AlphaBetaSoft.search(&pos, &OpenLines, 9, ReferenceOptions::default());
        let mut s = Searcher::new(OpenLines, SearchConfig::default());
        let r = s.search(&pos, &Limits::default(), |_| {});
        assert_eq!(r.value, reference.value, "after {}", first + 1);
    }
}

/// A depth past the ply limit is held to it: the search ends, by the end of the game where the
/// configuration can see it, and one search straight at that depth, without iterative
/// deepening, keeps its depth arithmetic (reductions, extensions) in range.
#[test]
fn a_depth_past_the_ply_limit_is_held_to_it() {
    let pos = TicTacToe::start();
    let mut s = Searcher::new(OpenLines, SearchConfig::default());
    let r = s.search(&pos, &Limits::depth(u32::MAX), |_| {});
    assert_eq!(r.value, Score::DRAW);
    assert!(r.depth <= 10, "went on to depth {}", r.depth);
    // Four empty cells: one search straight to the end is cheap.
    let pos = TicTacToe::from_text("51928").unwrap();
    let exact = Reference::Minimax.search(&pos, &OpenLines, 9, ReferenceOptions::default());
    let config = SearchConfig {
        iterative: false,
        profile: SearchProfile {
            lmr: true,
            futility: 100,
            late_move_pruning: true,
            ..SearchProfile::NONE
        },
        ..SearchConfig::default()
    };
    let r = Searcher::new(OpenLines, config).search(&pos, &Limits::depth(u32::MAX), |_| {});
    assert_eq!(
        (r.value, r.depth),
        (exact.value, Score::MAX_PLY as u32 - 10)
    );
}

#[test]
fn search_without_limits_stops_when_the_tree_is_exhausted() {
    let mut s = Searcher::new(OpenLines, SearchConfig::default());
    let mut depths = Vec::new();
    let r = s.search(&TicTacToe::start(), &Limits::default(), |it| {
        depths.push(it.depth)
    });
    assert_eq!(r.value, Score::DRAW);
    assert!(r.depth <= 10, "went on to depth {}", r.depth);
    assert_eq!(depths, (1..=r.depth).collect::<Vec<_>>());
}

#[test]
fn lazy_smp_two_threads_returns_the_proven_value() {
    // X to move after 1. centre, 2. edge: X wins (a known result); and the empty board: draw.
    for (text, want_win) in [("52", true), ("", false)] {
        let pos = TicTacToe::from_text(text).unwrap();
        let exact =
            Reference::AlphaBetaSoft.search(&pos, &OpenLines, 9, ReferenceOptions::default());
        assert_eq!(exact.value.is_win(), want_win);
        let mut s = Searcher::new(
            OpenLines,
            SearchConfig {
                threads: 2,
                ..SearchConfig::default()
            },
        );
        let r = s.search(&pos, &Limits::default(), |_| {});
        assert_eq!(r.value, exact.value, "position '{text}'");
        let mut legal = Vec::new();
        pos.generate_moves(&mut legal);
        assert!(r.best.is_some_and(|m| legal.contains(&m)));
    }
}

#[test]
fn node_limit_is_deterministic() {
    let pos = TicTacToe::from_text("1").unwrap();
    let run = || {
        let mut s = Searcher::new(OpenLines, SearchConfig::default());
        let r = s.search(&pos, &Limits::nodes(500), |_| {});
        (r.stats.nodes, r.best, r.value, r.depth)
    };
    let a = run();
    assert_eq!(a, run());
    assert!(a.0 <= 500 + 1, "node limit overshot: {}", a.0);
}

#[test]
fn stop_flag_stops_a_search() {
    let mut s = Searcher::new(OpenLines, SearchConfig::default());
    let flag = s.stop_flag();
    // Set once the second iteration ends: the search asked for nine plies stops at two, with
    // the move of the last iteration it finished.
    let mut completed = Vec::new();
    let r = s.search(&TicTacToe::start(), &Limits::depth(9), |it| {
        completed.push(it.depth);
        if it.depth == 2 {
            flag.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    });
    assert_eq!(completed, [1, 2]);
    assert_eq!(r.depth, 2);
    assert!(r.best.is_some());
    // Without the flag the same search goes the whole way.
    let r = Searcher::new(OpenLines, SearchConfig::default()).search(
        &TicTacToe::start(),
        &Limits::depth(9),
        |_| {},
    );
    assert_eq!(r.depth, 9);
}

#[test]
fn a_stop_set_before_a_search_is_cleared_by_it() {
    let mut s = Searcher::new(OpenLines, SearchConfig::default());
    s.stop_flag()
        .store(true, std::sync::atomic::Ordering::Relaxed);
    // The flag is cleared at the start (a stop meant for the search before), so it runs.
    let r = s.search(&TicTacToe::start(), &Limits::depth(3), |_| {});
    assert_eq!(r.depth, 3);
}

#[test]
fn a_search_leaves_the_stop_flag_as_it_found_it() {
    let mut s = Searcher::new(
        OpenLines,
        SearchConfig {
            threads: 2,
            ..SearchConfig::default()
        },
    );
    let flag = s.stop_flag();
    s.search(&TicTacToe::start(), &Limits::nodes(300), |_| {});
    assert!(!flag.load(std::sync::atomic::Ordering::Relaxed));
}
