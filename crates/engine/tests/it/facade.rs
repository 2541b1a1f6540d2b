//! The facade as a front end drives it: games opened by name, positions and moves with typed
//! errors, searches, solves within limits, comparisons, trees, perft and the bench.

use duel_core::solve::SolveGoal;
use duel_engine::{
    evaluators, games, open, parse_reference, Algorithm, Distance, EngineError, GameInfo, Limits,
    Outcome, Reference, Score, SearchConfig, Session, Side, SolveError, SolveLimits, SolveProgress,
    SolveStep, SolveStop, Unfinished,
};

/// Every evaluator says what its scores count (issue 70: no score said its unit).
#[test]
fn every_evaluator_names_its_unit() {
    for g in games().iter().map(|g| g.name) {
        for e in evaluators(g).unwrap() {
            let unit = open(g, Some(e)).unwrap().score_unit();
            assert!(!unit.contains("own scale"), "{g} {e}: {unit}");
        }
    }
}

#[test]
fn dispatch_by_name() {
    for g in games().iter().map(|g| g.name) {
        let s = open(g, None).unwrap();
        assert_eq!(s.game(), g);
        assert_eq!(s.evaluator(), evaluators(g).unwrap()[0]);
        assert!(!s.legal_moves().is_empty());
    }
    assert_eq!(open("Tic-Tac-Toe", None).unwrap().game(), "tictactoe");
    for e in evaluators("chess").unwrap() {
        assert_eq!(open("chess", Some(e)).unwrap().evaluator(), *e);
    }
    assert_eq!(evaluators("chess").unwrap()[0], "net");
}

/// Each ending against a bare king that can be forced is mated within the fifty-move rule
/// by both chess evaluators at 20,000 nodes a move, the defender searching as hard. The
/// first is the king, rook and bishop that the net drew against Stockfish by the
/// fifty-move rule (docs/BENCHMARKS.md), from the position where that game's last capture
/// had left it; bishop and knight is the longest of them (at most 33 moves).
#[test]
fn bare_kings_are_mated_within_fifty_moves() {
    // (position, the side that mates: First is White)
    let endings = [
        ("2B5/1K6/3R4/8/8/8/5k2/8 b - - 0 130", Side::First),
        ("8/8/8/4k3/8/8/8/4K2R w - - 0 1", Side::First),
        ("8/8/8/3k4/8/8/8/4K1Q1 w - - 0 1", Side::First),
        ("8/8/8/3k4/8/8/8/2B1KB2 w - - 0 1", Side::First),
        ("8/8/8/4k3/8/8/8/2B1KN2 w - - 0 1", Side::First),
        ("8/8/3k4/8/8/8/8/2b1K1n1 b - - 0 1", Side::Second),
    ];
    for eval in ["net", "strong"] {
        for (fen, winner) in endings {
            let mut s = open("chess", Some(eval)).unwrap();
            s.set_position(fen, &[]).unwrap();
            while s.outcome().is_none() {
                let r = s.search(&Limits::nodes(20_000), &mut |_| {}).unwrap();
                let Some(mv) = r.best else {
                    panic!("{eval} {fen}: no move at {} ({r:?})", s.position())
                };
                s.play(&mv).unwrap();
            }
            assert_eq!(
                s.winner(),
                Some(winner),
                "{eval} from {fen}: {:?} at {} after {} plies",
                s.outcome(),
                s.position(),
                s.moves_played()
            );
        }
    }
}

/// The solver's line is legal, ends the game, and ends it with the winner and margin it
/// claims (FFO #1: Black +18). With the exact switch off, the midgame search answers.
#[test]
fn othello_quick_solve_line_reaches_its_result() {
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let mut s = open("othello", None).unwrap();
    s.set_position(ffo1, &[]).unwrap();
    let r = s.search(&Limits::depth(1), &mut |_| {}).unwrap();
    assert_eq!((r.algorithm, r.margin), ("solver", Some(18)));
    assert_eq!(r.value, Score::win_in(r.pv.len() as i32));
    for mv in &r.pv {
        s.play(mv).unwrap();
    }
    assert_eq!(s.winner(), Some(Side::First));
    let mut s = open("othello", None).unwrap();
    s.set_position(ffo1, &[]).unwrap();
    s.set_config(SearchConfig {
        exact_hook: false,
        ..s.config().clone()
    })
    .unwrap();
    let r = s.search(&Limits::depth(1), &mut |_| {}).unwrap();
    assert_eq!((r.algorithm, r.margin, r.depth), ("pvs", None, 1));
}

/// Within its reach the game's solver gives the margin and the best move (FFO #1: g8,
/// +18), also with the quick solve off; beyond it, or in a game without such a solver,
/// nothing; a stop flag already set, or a deadline past, ends a long solve before it
/// proves anything.
#[test]
fn othello_solves_near_the_end_within_a_reach() {
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let mut s = open("othello", None).unwrap();
    s.set_position(ffo1, &[]).unwrap();
    s.set_quick_solve(false);
    assert!(
        s.solve_near_end(13, SolveGoal::Exact, None).is_none(),
        "14 empty squares"
    );
    let r = s
        .solve_near_end(14, SolveGoal::Exact, None)
        .unwrap()
        .unwrap();
    assert_eq!((r.algorithm, r.margin), ("solver", Some(18)));
    assert_eq!((r.best.as_deref(), r.pv.len()), (Some("g8"), 1));
    // Again, from the table the first solve left.
    assert_eq!(
        s.solve_near_end(20, SolveGoal::Exact, None)
            .unwrap()
            .unwrap()
            .margin,
        Some(18)
    );
    let r = s.search(&Limits::depth(1), &mut |_| {}).unwrap();
    assert_eq!((r.algorithm, r.depth), ("pvs", 1));
    // FFO #45, 24 empty squares: far more nodes than the solver runs before it first looks.
    let ffo45 = "---XXXX-X-XXXO--XXOXOO--XXXOXO--XXOXXO---OXXXOO-O-OOOO------OO-- X";
    s.set_position(ffo45, &[]).unwrap();
    s.stop_flag()
        .store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(s
        .solve_near_end(24, SolveGoal::Exact, None)
        .unwrap()
        .is_err());
    // And a deadline already past, with the flag clear.
    s.stop_flag()
        .store(false, std::sync::atomic::Ordering::Relaxed);
    let past = Some(std::time::Instant::now());
    assert!(s
        .solve_near_end(24, SolveGoal::Exact, past)
        .unwrap()
        .is_err());
    assert!(open("tictactoe", None)
        .unwrap()
        .solve_near_end(9, SolveGoal::Exact, None)
        .is_none());
}

#[test]
fn unknown_names_list_the_known_ones() {
    let e = open("chess960", None).err().unwrap();
    assert!(matches!(e, EngineError::UnknownGame { .. }));
    let msg = e.to_string();
    assert!(
        msg.contains("chess960") && msg.contains("tictactoe"),
        "{msg}"
    );
    let e = open("tictactoe", Some("material")).err().unwrap();
    let msg = e.to_string();
    assert!(
        msg.contains("material") && msg.contains("open-lines"),
        "{msg}"
    );
    let e = Algorithm::parse("bogo").unwrap_err().to_string();
    assert!(
        e.contains("bogo") && e.contains("minimax") && e.contains("mtdf"),
        "{e}"
    );
    assert!(parse_reference("pvs").is_err());
    assert_eq!(
        parse_reference("alphabeta-hard").unwrap(),
        Reference::AlphaBetaHard
    );
}

#[test]
fn positions_and_moves_with_typed_errors() {
    let mut s = open("tictactoe", None).unwrap();
    assert!(matches!(
        s.set_position("55", &[]),
        Err(EngineError::Position(_))
    ));
    let e = s.set_position("5", &["1", "1"]).unwrap_err();
    assert!(matches!(e, EngineError::MoveList { index: 2, .. }), "{e:?}");
    assert!(e.to_string().contains("move 2"), "{e}");
    s.set_position("5", &["1"]).unwrap();
    assert_eq!(s.position(), "51");
    assert!(matches!(
        s.play("x"),
        Err(EngineError::Move(duel_core::MoveError::Syntax { .. }))
    ));
    assert!(matches!(
        s.play("5"),
        Err(EngineError::Move(duel_core::MoveError::Illegal { .. }))
    ));
    assert_eq!(s.play(" 9 ").unwrap(), "9");
    assert_eq!(s.moves_played(), 1);
    assert_eq!(s.undo().as_deref(), Some("9"));
    assert_eq!(s.undo(), None, "undo stops at the position set");
    assert_eq!(s.legal_moves().len(), 7);
}

#[test]
fn finished_games_are_refused_where_a_move_is_needed() {
    let mut s = open("tictactoe", None).unwrap();
    s.set_position("14253", &[]).unwrap();
    assert_eq!(s.winner(), Some(Side::First));
    let e = s.search(&Limits::default(), &mut |_| {}).unwrap_err();
    assert!(matches!(e, EngineError::GameOver(Outcome::Loss)), "{e:?}");
    assert!(s.legal_moves().is_empty());
    let sol = s.solve(&SolveLimits::default(), &mut |_| {}).unwrap();
    assert!(sol.value.is_loss() && sol.moves.is_empty());
}

#[test]
fn tictactoe_is_solved_as_a_draw_and_centre_is_best_at_depth_two() {
    let s = open("tictactoe", None).unwrap();
    let sol = s.solve(&SolveLimits::default(), &mut |_| {}).unwrap();
    assert_eq!(sol.value, Score::DRAW);
    assert_eq!(sol.moves.len(), 9);
    assert_eq!(sol.best_moves().len(), 9, "every first move draws");
    let rows = s.compare(2, &Algorithm::ALL).unwrap();
    for row in rows.iter().filter(|r| r.algorithm.is_exact()) {
        assert_eq!(row.report.value, Score(1), "{}", row.algorithm.name());
        assert_eq!(
            row.report.best.as_deref(),
            Some("5"),
            "{}",
            row.algorithm.name()
        );
    }
    let nb = rows
        .iter()
        .find(|r| r.algorithm == Algorithm::NodeBudget)
        .unwrap();
    let ab = rows
        .iter()
        .find(|r| r.algorithm == Algorithm::Reference(Reference::AlphaBetaSoft))
        .unwrap();
    assert_eq!(nb.budget, Some(ab.report.stats.nodes));
}

#[test]
fn solve_gives_distances() {
    let mut s = open("tictactoe", None).unwrap();
    s.set_position("1425", &[]).unwrap(); // X: 1 2, O: 4 5; X to move wins at 3
    let sol = s.solve(&SolveLimits::default(), &mut |_| {}).unwrap();
    assert_eq!(sol.value, Score::win_in(1));
    assert_eq!(sol.best_moves(), vec!["3"]);
}

/// A node limit stops each game's solver: the moves solved before the stop keep their
/// exact values, the move cut short has bounds that hold its value, and the same limit
/// stops at the same place every time.
#[test]
fn node_limit_stops_the_solvers_with_what_they_found() {
    let cases = [
        // data/connect4/Test_L1_R2: "335662333565 -2".
        ("connect4", "335662333565", 60_000),
        // FFO #27 (20 empties).
        (
            "othello",
            "--XO-O----OOOO--OOXOXXO-OOOOXXOOOOOXXOX-OXOXXXXX--XXXX----X-O-X- X",
            3_000_000,
        ),
    ];
    for (game, position, nodes) in cases {
        let mut s = open(game, None).unwrap();
        s.set_position(position, &[]).unwrap();
        let whole = s.solve(&SolveLimits::default(), &mut |_| {}).unwrap();
        let limits = SolveLimits {
            nodes: Some(nodes),
            ..SolveLimits::default()
        };
        let stop = |s: &dyn Session| match s.solve(&limits, &mut |_| {}) {
            Err(EngineError::Solve(SolveError::Unfinished(u))) => *u,
            other => panic!("{game}: not stopped: {other:?}"),
        };
        let u = stop(s.as_ref());
        let again = stop(s.as_ref());
        assert_eq!(
            Unfinished {
                time: u.time,
                ..again
            },
            u,
            "{game}: not reproducible"
        );
        assert_eq!(u.stop, SolveStop::Nodes(nodes));
        assert!(
            u.nodes >= nodes && u.nodes < nodes + 10_000,
            "{game}: {}",
            u.nodes
        );
        assert!(!u.solved.is_empty(), "{game}: nothing solved");
        assert_eq!(u.solved[..], whole.moves[..u.solved.len()], "{game}");
        let current = u.current.clone().expect("a move cut short");
        let value = whole.moves[u.solved.len()].margin.unwrap();
        assert!(
            current.lower.is_none_or(|l| l <= value),
            "{game}: {current:?}"
        );
        assert!(
            current.upper.is_none_or(|h| h >= value),
            "{game}: {current:?}"
        );
        assert_eq!(u.solved.len() + 1 + u.untried, whole.moves.len());
        assert!(u.at_least.is_some_and(|l| l <= whole.margin.unwrap()));
    }
}

/// Without a limit, a position too far from the end is refused at once; with one, the
/// solve starts, and the progress it reports comes in order.
#[test]
fn far_positions_need_a_limit_and_report_progress() {
    let s = open("othello", None).unwrap();
    let e = s.solve(&SolveLimits::default(), &mut |_| {}).unwrap_err();
    assert!(
        matches!(
            e,
            EngineError::Solve(SolveError::TooFarFromEnd {
                distance: Distance::EmptySquares { count: 60, .. },
                ..
            })
        ),
        "{e:?}"
    );
    let limits = SolveLimits {
        nodes: Some(200_000),
        ..SolveLimits::default()
    };
    let mut plan = None;
    let mut steps = Vec::new();
    let e = s
        .solve(&limits, &mut |p| match p {
            SolveProgress::Plan { moves, .. } => plan = Some(*moves),
            SolveProgress::Move(m) => steps.push((m.index, m.step, m.search.nodes)),
        })
        .unwrap_err();
    assert!(
        matches!(e, EngineError::Solve(SolveError::Unfinished(_))),
        "{e:?}"
    );
    assert_eq!(plan, Some(4));
    assert_eq!(
        steps.first().map(|s| (s.0, s.1)),
        Some((0, SolveStep::Started))
    );
    assert!(steps.windows(2).all(|w| w[0].2 <= w[1].2), "{steps:?}");
}

#[test]
fn connect4_solves_with_pons_scores_and_algorithms_agree() {
    let mut s = open("c4", None).unwrap();
    // data/connect4/Test_L1_R1: "243335424257 12".
    s.set_position("243335424257", &[]).unwrap();
    let sol = s.solve(&SolveLimits::default(), &mut |_| {}).unwrap();
    assert_eq!(sol.margin, Some(12));
    assert_eq!(sol.value, Score::win_in(7));
    assert_eq!(sol.best_moves(), vec!["6"]);
    s.set_position("4453", &[]).unwrap();
    let rows = s.compare(3, &Algorithm::ALL).unwrap();
    let exact: Vec<Score> = rows
        .iter()
        .filter(|r| r.algorithm.is_exact())
        .map(|r| r.report.value)
        .collect();
    assert!(exact.iter().all(|v| *v == exact[0]), "{exact:?}");
    assert!(matches!(s.play("8"), Err(EngineError::Move(_))));
}

#[test]
fn tree_is_capped() {
    let s = open("tictactoe", None).unwrap();
    let e = s.tree(Reference::Minimax, 9, 100_000).unwrap_err();
    // Refused at the cap, not after the whole tree: even a depth no search could finish.
    let s4 = open("connect4", None).unwrap();
    assert!(matches!(
        s4.tree(Reference::Minimax, 40, 1000),
        Err(EngineError::TreeTooLarge { cap: 1000 })
    ));
    assert!(
        matches!(e, EngineError::TreeTooLarge { cap: 100_000 }),
        "{e:?}"
    );
    let (r, t) = s.tree(Reference::AlphaBetaSoft, 2, 100_000).unwrap();
    assert_eq!(t.visited() as u64, r.stats.nodes);
    let (r, t) = s.tree(Reference::TwoPhase, 2, 100_000).unwrap();
    assert_eq!(
        (t.visited(), r.stats.nodes, r.algorithm),
        (82, 82, "two-phase")
    );
    assert!(matches!(
        s.tree(Reference::Minimax, 0, 10),
        Err(EngineError::ZeroDepth)
    ));
}

/// A depth is a number anyone can send (`duel serve`): tic-tac-toe ends by ply 9, so at
/// depth u32::MAX every comparison row, the recorded tree and the Minimax count are what
/// depth 9 gives, found as quickly and without allocating by the number; the engine rows,
/// which iterate, end with the same value.
#[test]
fn the_largest_depth_searches_to_the_end_of_the_game() {
    let mut s = open("tictactoe", None).unwrap();
    let deepest = s.compare(u32::MAX, &Algorithm::ALL).unwrap();
    let nine = s.compare(9, &Algorithm::ALL).unwrap();
    for (row, at9) in deepest.iter().zip(&nine) {
        let name = row.algorithm.name();
        let (r, r9) = (&row.report, &at9.report);
        if row.algorithm.is_exact() {
            assert_eq!(r.value, Score::DRAW, "{name}");
        }
        if matches!(
            row.algorithm,
            Algorithm::Reference(_) | Algorithm::NodeBudget
        ) {
            assert_eq!((r.stats, &r.pv), (r9.stats, &r9.pv), "{name}");
        }
    }
    assert_eq!(s.minimax_nodes(u32::MAX, 1_000_000), Some(549_946));
    assert_eq!(s.minimax_nodes(u32::MAX, 1000), None);
    assert!(matches!(
        s.tree(Reference::Minimax, u32::MAX, 1000),
        Err(EngineError::TreeTooLarge { cap: 1000 })
    ));
    s.set_position("51928", &[]).unwrap();
    for algo in [Reference::Minimax, Reference::AlphaBetaSoft] {
        let (r, t) = s.tree(algo, u32::MAX, 1000).unwrap();
        let (r9, t9) = s.tree(algo, 9, 1000).unwrap();
        assert_eq!(
            (r.value, r.stats.nodes, &t),
            (r9.value, r9.stats.nodes, &t9)
        );
    }
}

/// A session opened to read a position makes no transposition table: its first search
/// does, or a size given to it.
#[test]
fn a_session_makes_its_table_when_it_first_searches() {
    let mut s = open("chess", None).unwrap();
    s.set_position("", &["e2e4"]).unwrap();
    assert!(!s.legal_moves().is_empty());
    assert_eq!(s.probe("", &[]).unwrap(), None);
    s.new_game();
    assert_eq!((s.table_mb(), s.hashfull()), (None, 0));
    s.search(&Limits::depth(2), &mut |_| {}).unwrap();
    assert_eq!(s.table_mb(), Some(s.config().tt_mb));
    let mut s = open("chess", None).unwrap();
    let config = SearchConfig {
        tt_mb: 2,
        ..s.config().clone()
    };
    s.set_config(config).unwrap();
    assert_eq!(s.table_mb(), Some(2));
}

#[test]
fn perft_and_divide() {
    let s = open("tictactoe", None).unwrap();
    assert_eq!(s.perft(9), 127_872);
    let go = std::sync::atomic::AtomicBool::new(false);
    let d = s.perft_divide(2, &go).unwrap();
    assert_eq!(d.len(), 9);
    assert!(d.iter().all(|(_, n)| *n == 8));
    let stopped = std::sync::atomic::AtomicBool::new(true);
    assert_eq!(s.perft_divide(9, &stopped), None);
}

/// The interruptible count plays the plies above its chunks itself: it must count as each
/// game's own perft does, deep enough that those plies exist (a finished Othello game
/// counts one leaf, chess's published tables ignore repetitions, passes are plies).
#[test]
fn interruptible_perft_counts_as_the_games_own() {
    let go = std::sync::atomic::AtomicBool::new(false);
    let cases = [
        (
            "chess",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            5,
        ),
        // Repetitions within reach: rooks and kings shuffling.
        ("chess", "4k3/8/8/8/8/8/8/R3K2R w - - 99 80", 6),
        // FFO #1, 14 empties: passes and finished games before the horizon.
        (
            "othello",
            "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
            8,
        ),
        ("connect4", "4453", 7),
        ("tictactoe", "", 9),
    ];
    for (game, position, depth) in cases {
        let mut s = open(game, None).unwrap();
        s.set_position(position, &[]).unwrap();
        let divided: u64 = s
            .perft_divide(depth, &go)
            .unwrap()
            .iter()
            .map(|r| r.1)
            .sum();
        assert_eq!(divided, s.perft(depth), "{game} {position} depth {depth}");
    }
}

#[test]
fn bench_is_deterministic() {
    let s = open("tictactoe", None).unwrap();
    let a = s.bench();
    let b = s.bench();
    assert!(!a.stopped);
    assert_eq!(a.nodes(), b.nodes());
    assert!(a.nodes() > 0);
    assert_eq!(
        a.entries.len(),
        <duel_tictactoe::TicTacToe as GameInfo>::BENCH.len()
    );
}

/// An evaluator renamed keeps its old name as an alias (Othello's `pattern`, now `patterns`
/// as Gomoku's), so commands and match specs written before still work.
#[test]
fn a_renamed_evaluator_answers_to_its_old_name() {
    for name in ["patterns", "pattern"] {
        let s = open("othello", Some(name)).unwrap();
        assert_eq!(s.evaluator(), "patterns");
    }
    assert!(open("othello", Some("patternz")).is_err());
}
