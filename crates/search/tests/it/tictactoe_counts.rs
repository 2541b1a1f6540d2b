//! Every figure of data/tictactoe/counts.txt, reproduced by the reference algorithms and perft.

use duel_core::{perft, Game, Score};
use duel_search::reference::{node_budget, Reference, ReferenceOptions};
use duel_search::tree::Tree;
use duel_tictactoe::{OpenLines, TicTacToe};

const COUNTS: &str = include_str!("../../../../data/tictactoe/counts.txt");

/// The numbers after `label` on its line of counts.txt.
fn figures(label: &str) -> Vec<u64> {
    let line = COUNTS
        .lines()
        .find(|l| l.starts_with(label))
        .expect("label in counts.txt");
    line[label.len()..]
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .collect()
}

#[test]
fn perft_by_ply() {
    let want = figures("perft (leaves at ply 0..9):");
    let got: Vec<u64> = (0..=9).map(|d| perft(&mut TicTacToe::start(), d)).collect();
    assert_eq!(got, want);
}

#[test]
fn full_minimax_tree_and_value() {
    let want = figures("full minimax tree, nodes including the root:")[0];
    for algo in [Reference::Minimax, Reference::Negamax, Reference::TwoPhase] {
        let r = algo.search(
            &TicTacToe::start(),
            &OpenLines,
            9,
            ReferenceOptions::default(),
        );
        assert_eq!(r.stats.nodes, want, "{}", algo.name());
        assert_eq!(r.value, Score::DRAW, "{}", algo.name());
    }
}

/// A depth is only a number: past the end of the game (ply 9 at the latest) it costs nothing
/// more, and nothing is allocated by it. Every algorithm at depth u32::MAX searches what it
/// searches at depth 9.
#[test]
fn a_depth_past_the_end_of_the_game_changes_nothing() {
    for algo in Reference::ALL {
        let at = |depth| {
            let r = algo.search(&TicTacToe::start(), &OpenLines, depth, Default::default());
            (r.value, r.stats, r.pv)
        };
        assert_eq!(at(u32::MAX), at(9), "{}", algo.name());
    }
}

/// Counts finished games by walking the tree: the leaves of the full minimax tree are exactly
/// the finished games.
#[test]
fn finished_games_and_distinct_positions() {
    type Seen = std::collections::HashMap<u64, TicTacToe>;
    fn walk(p: &mut TicTacToe, games: &mut [u64; 3], seen: &mut Seen) {
        seen.entry(p.hash()).or_insert_with(|| p.clone());
        let mut moves = Vec::new();
        p.generate_moves(&mut moves);
        if moves.is_empty() {
            let who = if p.has_line(duel_core::Side::First) {
                0
            } else if p.has_line(duel_core::Side::Second) {
                1
            } else {
                2
            };
            games[who] += 1;
        }
        for mv in moves {
            p.play(mv);
            walk(p, games, seen);
            p.undo(mv);
        }
    }
    let mut games = [0; 3];
    let mut seen = Seen::new();
    walk(&mut TicTacToe::start(), &mut games, &mut seen);
    let want = figures("finished games:");
    assert_eq!(games.iter().sum::<u64>(), want[0]);
    assert_eq!(games.to_vec(), want[1..4].to_vec());
    let want = figures("distinct legal positions:");
    assert_eq!(seen.len() as u64, want[0]);
    let finished = seen.values().filter(|p| p.outcome().is_some()).count() as u64;
    assert_eq!((finished, seen.len() as u64 - finished), (want[1], want[2]));
    // Up to the 8 symmetries of the square: keep the smallest image of each board.
    let canonical: std::collections::HashSet<(u16, u16)> = seen
        .values()
        .map(|p| {
            symmetric_min(
                p.stones(duel_core::Side::First),
                p.stones(duel_core::Side::Second),
            )
        })
        .collect();
    assert_eq!(canonical.len() as u64, want[3]);
}

/// The smallest (X, O) pair over the 8 rotations and reflections of the board.
fn symmetric_min(x: u16, o: u16) -> (u16, u16) {
    let map = |s: u16, f: &dyn Fn(usize, usize) -> (usize, usize)| {
        let mut out = 0u16;
        for cell in 0..9 {
            if s & (1 << cell) != 0 {
                let (r, c) = f(cell / 3, cell % 3);
                out |= 1 << (r * 3 + c);
            }
        }
        out
    };
    let transforms: [&dyn Fn(usize, usize) -> (usize, usize); 8] = [
        &|r, c| (r, c),
        &|r, c| (c, 2 - r),
        &|r, c| (2 - r, 2 - c),
        &|r, c| (2 - c, r),
        &|r, c| (r, 2 - c),
        &|r, c| (2 - r, c),
        &|r, c| (c, r),
        &|r, c| (2 - c, 2 - r),
    ];
    transforms
        .iter()
        .map(|f| (map(x, f), map(o, f)))
        .min()
        .expect("eight images")
}

#[test]
fn textbook_alphabeta_node_count() {
    let want =
        figures("full window, counting every node visited including root and finished positions:")
            [0];
    let opts = ReferenceOptions { flat_wins: true };
    for algo in [Reference::AlphaBetaHard, Reference::AlphaBetaSoft] {
        let r = algo.search(&TicTacToe::start(), &OpenLines, 9, opts);
        assert_eq!(r.stats.nodes, want, "{}", algo.name());
        assert_eq!(r.value, Score::DRAW);
    }
}

#[test]
fn alphabeta_visits_fewer_nodes_than_minimax() {
    let m = Reference::Minimax.search(&TicTacToe::start(), &OpenLines, 9, Default::default());
    let a = Reference::AlphaBetaSoft.search(&TicTacToe::start(), &OpenLines, 9, Default::default());
    assert_eq!(m.value, a.value);
    assert!(
        a.stats.nodes * 10 < m.stats.nodes,
        "{} vs {}",
        a.stats.nodes,
        m.stats.nodes
    );
}

/// The texts' depth-2 example from the empty board, backed up with f(p) = open lines for MAX
/// minus open lines for MIN: X's best first move is the centre, worth +1 (after the reply that
/// hurts X most, a corner: 5 open lines for X against 4 for O).
#[test]
fn textbook_depth_two_example() {
    for algo in Reference::ALL {
        let r = algo.search(&TicTacToe::start(), &OpenLines, 2, Default::default());
        assert_eq!(r.value, Score(1), "{}", algo.name());
        assert_eq!(r.best, Some(4), "{}", algo.name());
    }
}

#[test]
fn recorded_tree_matches_the_search() {
    let pos = TicTacToe::from_text("51").unwrap();
    let mut tree = Tree::new(&pos);
    let r =
        Reference::AlphaBetaSoft.search_traced(&pos, &OpenLines, 3, Default::default(), &mut tree);
    let root = tree.finish(r.value);
    assert_eq!(root.visited() as u64, r.stats.nodes);
    fn pruned(n: &duel_search::TreeNode) -> usize {
        usize::from(n.is_pruned()) + n.children.iter().map(pruned).sum::<usize>()
    }
    assert!(
        r.stats.cutoffs > 0 && pruned(&root) > 0,
        "alpha-beta cut nothing at depth 3"
    );
    // The root's value for MAX: X is to move, so it is the search value itself.
    assert_eq!(root.value_for_max(), Some(r.value));
    let best = root.children.iter().filter_map(|c| c.value).max();
    assert_eq!(best, Some(r.value));
}

#[test]
fn node_budget_search() {
    let r = node_budget(&TicTacToe::start(), &OpenLines, 100, Default::default());
    // The budget is shared out, so the tree stays near it and is uneven in depth.
    assert!(
        r.stats.nodes >= 10 && r.stats.nodes <= 100,
        "{}",
        r.stats.nodes
    );
    assert!(r.best.is_some());
    let big = node_budget(
        &TicTacToe::start(),
        &OpenLines,
        2_000_000,
        Default::default(),
    );
    assert_eq!(
        big.value,
        Score::DRAW,
        "a budget above the full tree solves the game"
    );
}

/// A recorder with a cap stops the search near the cap, whatever the depth asked for.
#[test]
fn capped_tree_stops_the_search() {
    let pos = duel_connect4::Connect4::start();
    let eval = duel_connect4::Threats::heuristic_only();
    for depth in [8u32, 20, 40] {
        let mut tree = Tree::with_cap(&pos, 10_000);
        let r = Reference::AlphaBetaSoft.search_traced(
            &pos,
            &eval,
            depth,
            Default::default(),
            &mut tree,
        );
        assert!(tree.exceeded());
        // Past the cap each open node finishes its move loop with leaves only.
        assert!(
            r.stats.nodes <= 10_000 + 7 * depth as u64 + 1,
            "{}",
            r.stats.nodes
        );
    }
    let mut tree = Tree::with_cap(&pos, 10_000);
    Reference::AlphaBetaSoft.search_traced(&pos, &eval, 4, Default::default(), &mut tree);
    assert!(!tree.exceeded());
}
