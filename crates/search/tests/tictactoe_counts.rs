//! Every figure of data/tictactoe/counts.txt, reproduced by the reference algorithms and perft.

use duel_core::{perft, Game, Score};
use duel_search::reference::{node_budget, Reference, ReferenceOptions};
use duel_search::tree::Tree;
use duel_tictactoe::{OpenLines, TicTacToe};

const COUNTS: &str = include_str!("../../../data/tictactoe/counts.txt");

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

/// Counts finished games by walking the tree: the leaves of the full minimax tree are exactly
/// the finished games.
#[test]
fn finished_games_and_distinct_positions() {
    fn walk(p: &mut TicTacToe, games: &mut [u64; 3], seen: &mut std::collections::HashSet<u64>) {
        seen.insert(p.hash());
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
    let mut seen = std::collections::HashSet::new();
    walk(&mut TicTacToe::start(), &mut games, &mut seen);
    let want = figures("finished games:");
    assert_eq!(games.iter().sum::<u64>(), want[0]);
    assert_eq!(games.to_vec(), want[1..4].to_vec());
    assert_eq!(seen.len() as u64, figures("distinct legal positions:")[0]);
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
