//! The exact solver against the FFO scores and best moves, and against plain minimax.

use duel_core::{Game, SplitMix64};
use duel_othello::solver::solve_all_moves;
use duel_othello::{Move, Othello, Solver};

/// Plain negamax to the end of the game: the oracle for small positions.
fn minimax(pos: &mut Othello) -> i32 {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    if moves.is_empty() {
        return pos.final_score();
    }
    let mut best = i32::MIN;
    for mv in moves {
        pos.play(mv);
        best = best.max(-minimax(pos));
        pos.undo(mv);
    }
    best
}

fn check_ffo(file: &str, first: u32, last: u32) {
    let mut solver = Solver::new(20);
    for case in crate::common::ffo(file, first, last) {
        let s = solver.solve(&case.pos);
        assert_eq!(s.score, case.score, "FFO #{} score", case.id);
        let mv = s.best_move.expect("FFO positions are not finished");
        assert!(
            case.best.contains(&mv),
            "FFO #{}: {mv} is not among the best moves {:?}",
            case.id,
            case.best
        );
        // The move really reaches the score.
        let mut child = case.pos.clone();
        child.play(mv);
        assert_eq!(
            -solver.solve(&child).score,
            case.score,
            "FFO #{} after {mv}",
            case.id
        );
    }
}

#[test]
fn ffo_1_to_19() {
    check_ffo("ffo-1-39.txt", 1, 19);
}

/// From 18 empties `solve` guesses the value and searches a window around it, and from 20 it
/// runs ProbCut passes first, whose bounds the table must not lend to the exact pass: it must
/// agree with one full-window search and with the file.
#[test]
fn guessed_window_agrees_with_full_window() {
    let mut solver = Solver::new(20);
    // #23-#24 (18-19 empties) take the guessed window alone; #27, #29 (20) and #39 (26) the
    // ProbCut passes too.
    let cases = [(23, 24), (27, 27), (29, 29), (39, 39)]
        .into_iter()
        .flat_map(|(a, b)| crate::common::ffo("ffo-1-39.txt", a, b));
    for case in cases {
        let empties = case.pos.empties().count_ones();
        assert!(empties >= duel_othello::solver::GUESS_MIN_EMPTIES);
        assert!(
            (18..20).contains(&empties) || empties >= duel_othello::solver::PROBCUT_ID_MIN_EMPTIES
        );
        let guessed = solver.solve(&case.pos);
        solver.clear();
        let full = solver.solve_window(&case.pos, -64, 64);
        assert_eq!((guessed.score, full.score), (case.score, case.score));
        assert!(case.best.contains(&guessed.best_move.unwrap()));
    }
}

/// About 4 s with the test profile's optimisation (it was 20 s before the ProbCut passes and the
/// cheaper stability cut-off, and ignored).
#[test]
fn ffo_20_to_39() {
    check_ffo("ffo-1-39.txt", 20, 39);
}

/// About 4 s too.
#[test]
fn ffo_40_to_44() {
    check_ffo("ffo-40-59.txt", 40, 44);
}

/// Random positions with up to 10 empties, passes and early ends included: the solver's score
/// is minimax's, its move reaches it, and a window returns a bound on the right side.
#[test]
fn agrees_with_minimax_near_the_end() {
    let mut rng = SplitMix64::new(9);
    let mut solver = Solver::new(16);
    let mut moves = Vec::new();
    let mut positions = Vec::new();
    for game in 0..300 {
        let mut pos = Othello::start();
        let stop = 1 + game % 10;
        while pos.empties().count_ones() > stop && !pos.is_over() {
            pos.generate_moves(&mut moves);
            pos.play(moves[rng.below(moves.len())]);
        }
        positions.push(pos);
    }
    let mut passes = 0;
    for pos in positions {
        let exact = minimax(&mut pos.clone());
        let s = solver.solve(&pos);
        assert_eq!(s.score, exact, "{}", pos.to_text());
        match s.best_move {
            None => assert!(pos.is_over()),
            Some(mv) => {
                passes += usize::from(mv.is_pass());
                let mut child = pos.clone();
                child.play(mv);
                assert_eq!(-minimax(&mut child), exact, "{} {mv}", pos.to_text());
            }
        }
        for (alpha, beta) in [(-64, exact), (exact, 64), (exact - 2, exact + 2), (-1, 1)] {
            let b = solver.solve_window(&pos, alpha, beta).score;
            if exact <= alpha {
                assert!(b <= alpha && b >= exact, "fail low {b} {exact}");
            } else if exact >= beta {
                assert!(b >= beta && b <= exact, "fail high {b} {exact}");
            } else {
                assert_eq!(b, exact);
            }
        }
    }
    assert!(passes > 0, "the sample should include a forced pass");
}

#[test]
fn finished_and_forced_positions() {
    let mut solver = Solver::new(10);
    let over = Othello::from_text(&format!("X{} O", "-".repeat(63))).unwrap();
    let s = solver.solve(&over);
    assert_eq!((s.score, s.best_move), (-64, None));
    // X must pass; O takes c1 and everything: O ends with 3 discs to none, 61 empties its own.
    let forced = Othello::from_text(&format!("OX{} X", "-".repeat(62))).unwrap();
    let s = solver.solve(&forced);
    assert_eq!((s.score, s.best_move), (-64, Some(Move::PASS)));
}

#[test]
fn every_move_valued() {
    let case = &crate::common::ffo("ffo-1-39.txt", 4, 4)[0];
    let mut solver = Solver::new(18);
    let all = solve_all_moves(&mut solver, &case.pos);
    let best: Vec<Move> = all
        .iter()
        .filter(|(_, v)| *v == case.score)
        .map(|(m, _)| *m)
        .collect();
    let mut want = case.best.clone();
    want.sort();
    assert_eq!(best, want, "FFO #4 lists every best move");
    assert!(all.windows(2).all(|w| w[0].1 >= w[1].1));
}

/// Any evaluation can order the moves, shared behind an `Arc`; the scores never depend on it.
#[test]
fn pluggable_estimate_gives_the_same_scores() {
    use std::sync::Arc;

    use duel_othello::solver::RoughEstimate;
    use duel_othello::Estimate;

    /// An estimate that knows nothing: the order comes from mobility and parity alone.
    struct Flat;
    impl Estimate for Flat {
        fn estimate(&self, _p: u64, _o: u64) -> i32 {
            0
        }
    }

    let shared: Arc<dyn Estimate> = Arc::new(RoughEstimate);
    let mut rough = Solver::with_estimate(16, shared);
    let mut flat = Solver::with_estimate(16, Flat);
    for case in crate::common::ffo("ffo-1-39.txt", 1, 8) {
        assert_eq!(rough.solve(&case.pos).score, case.score, "FFO #{}", case.id);
        assert_eq!(flat.solve(&case.pos).score, case.score, "FFO #{}", case.id);
    }
}

// ------------------------------------------------------------------ limits

/// A node limit stops a solve in each of its stages with bounds that hold the score; the same
/// limit stops at the same place every time; and the solver that went through every stop,
/// its table kept, still finds the exact score.
#[test]
fn node_limit_stops_every_stage_with_sound_bounds() {
    use duel_othello::solver::{SolveBudget, Stage};

    let case = &crate::common::ffo("ffo-1-39.txt", 27, 27)[0];
    let mut fresh = Solver::new(18);
    let full = fresh.solve(&case.pos);
    assert_eq!(full.score, case.score);
    let mut kept = Solver::new(18);
    let mut stages = Vec::new();
    for tenth in 1..10 {
        let limit = full.nodes * tenth / 10;
        let limits = SolveBudget {
            nodes: Some(limit),
            ..SolveBudget::default()
        };
        let run = || {
            let mut stage = None;
            let stopped = Solver::new(18)
                .solve_limited(&case.pos, &limits, &mut |p| stage = Some(p.stage))
                .expect_err("stopped by the limit");
            (stopped, stage)
        };
        let (stopped, stage) = run();
        assert_eq!(run().0, stopped, "the same limit stops at the same place");
        // The last empties are not counted against the limit one by one.
        assert!(
            stopped.nodes >= limit && stopped.nodes < limit + 5_000,
            "{stopped:?}"
        );
        assert!(stopped.lower.is_none_or(|l| l <= case.score), "{stopped:?}");
        assert!(stopped.upper.is_none_or(|u| u >= case.score), "{stopped:?}");
        stages.push(stage);
        let _ = kept.solve_limited(&case.pos, &limits, &mut |_| {});
    }
    assert!(stages.contains(&Some(Stage::Exact)), "{stages:?}");
    assert!(
        stages
            .iter()
            .any(|s| matches!(s, Some(Stage::ProbCut { .. }))),
        "{stages:?}"
    );
    let after = kept.solve(&case.pos);
    assert_eq!(after.score, case.score);
    assert!(case.best.contains(&after.best_move.unwrap()));
}

/// A stop flag set from the start stops a solve at the first look at the limits, and
/// `solve_window` after it is exact again.
#[test]
fn stop_flag_stops_at_once() {
    use std::sync::atomic::AtomicBool;

    use duel_othello::solver::{SolveBudget, CHECK_EVERY};

    let case = &crate::common::ffo("ffo-1-39.txt", 27, 27)[0];
    let flag = AtomicBool::new(true);
    let limits = SolveBudget {
        stop: Some(&flag),
        ..SolveBudget::default()
    };
    let mut solver = Solver::new(16);
    let stopped = solver
        .solve_limited(&case.pos, &limits, &mut |_| {})
        .unwrap_err();
    assert!(stopped.nodes < CHECK_EVERY + 5_000, "{stopped:?}");
    assert_eq!(solver.solve_window(&case.pos, -64, 64).score, case.score);
}

/// Without limits, `solve_limited` is `solve`: the same score, move and nodes; the exact
/// stage's reports narrow bounds that hold the score.
#[test]
fn unlimited_solve_is_unchanged_and_reports_each_window() {
    use duel_othello::solver::{Progress, SolveBudget, Stage};

    for case in crate::common::ffo("ffo-1-39.txt", 20, 29) {
        let want = Solver::new(18).solve(&case.pos);
        let mut reports: Vec<Progress> = Vec::new();
        let got = Solver::new(18)
            .solve_limited(&case.pos, &SolveBudget::default(), &mut |p| {
                reports.push(*p)
            })
            .unwrap();
        assert_eq!(got, want, "FFO #{}", case.id);
        let exact: Vec<&Progress> = reports
            .iter()
            .filter(|p| p.stage == Stage::Exact && p.window.is_none())
            .collect();
        for p in &exact {
            assert!(p.lower.is_none_or(|l| l <= want.score), "{p:?}");
            assert!(p.upper.is_none_or(|u| u >= want.score), "{p:?}");
        }
        // From 18 empties the stages report; the last report proves the score.
        if case.pos.empties().count_ones() >= duel_othello::solver::GUESS_MIN_EMPTIES {
            let last = exact.last().expect("an exact window");
            assert_eq!(
                (last.lower, last.upper),
                (Some(want.score), Some(want.score))
            );
        }
    }
}

/// Win/loss/draw solving: the sign of the exact value, a bound on the right side of it (the
/// draw exact), and in a won or drawn position a move that keeps it. Checked on FFO #1–#24
/// (14 to 19 empties: both sides of the guessed window) and on random positions near the end,
/// against the exact solve.
#[test]
fn outcome_solving_proves_the_winner_and_a_move_that_keeps_it() {
    use duel_core::solve::SolveGoal;
    let mut exact = Solver::new(20);
    let mut outcome = Solver::new(20);
    let mut positions: Vec<Othello> = crate::common::ffo("ffo-1-39.txt", 1, 24)
        .into_iter()
        .map(|c| c.pos)
        .collect();
    let mut rng = SplitMix64::new(21);
    let mut moves = Vec::new();
    for game in 0..200 {
        let mut pos = Othello::start();
        let stop = 2 + game % 12;
        while pos.empties().count_ones() > stop && !pos.is_over() {
            pos.generate_moves(&mut moves);
            pos.play(moves[rng.below(moves.len())]);
        }
        positions.push(pos);
    }
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    for pos in positions {
        let want = exact.solve(&pos).score;
        let got = outcome
            .solve_goal(&pos, SolveGoal::Outcome, &Default::default(), &mut |_| {})
            .expect("no limits");
        let text = pos.to_text();
        assert_eq!(got.score.signum(), want.signum(), "{text}: {want}");
        match want.signum() {
            1 => assert!((1..=want).contains(&got.score), "{text}: {}", got.score),
            -1 => assert!((want..=-1).contains(&got.score), "{text}: {}", got.score),
            _ => assert_eq!(got.score, 0, "{text}"),
        }
        match (want.signum(), got.best_move) {
            (_, None) => assert!(pos.is_over(), "{text}"),
            (-1, Some(_)) => losses += 1,
            (s, Some(mv)) => {
                let mut child = pos.clone();
                child.play(mv);
                assert_eq!((-exact.solve(&child).score).signum(), s, "{text} {mv}");
                if s > 0 {
                    wins += 1;
                } else {
                    draws += 1;
                }
            }
        }
    }
    assert!(
        wins > 20 && losses > 20 && draws > 3,
        "{wins} {losses} {draws}"
    );
    // The point of it: less work away from a draw (FFO #23, +4: 638k nodes against 366k).
    let ffo23 = &crate::common::ffo("ffo-1-39.txt", 23, 23)[0].pos;
    let full = Solver::new(20).solve(ffo23).nodes;
    let wld = Solver::new(20)
        .solve_goal(ffo23, SolveGoal::Outcome, &Default::default(), &mut |_| {})
        .expect("no limits")
        .nodes;
    assert!(wld * 3 < full * 2, "{wld} against {full}");
}

/// Two threads give the one-thread values, with a move that reaches them, exactly and for
/// the winner alone (FFO #13–#30: 16 to 20 empties, where the threads share the work, the
/// ProbCut passes included); a flag set while they run stops both, the table stays sound,
/// and a node limit keeps the solve on one thread (the same nodes as one thread).
#[test]
fn two_threads_agree_with_one_and_stop() {
    use std::sync::atomic::{AtomicBool, Ordering};

    use duel_core::solve::SolveGoal;
    use duel_othello::solver::SolveBudget;

    let mut one = Solver::new(18);
    let mut two = Solver::new(18);
    two.set_threads(2);
    assert_eq!(two.threads(), 2);
    for case in crate::common::ffo("ffo-1-39.txt", 13, 30) {
        let s = two.solve(&case.pos);
        assert_eq!(s.score, case.score, "FFO #{}", case.id);
        let mut child = case.pos.clone();
        child.play(s.best_move.expect("not over"));
        assert_eq!(-one.solve(&child).score, case.score, "FFO #{}", case.id);
        let w = two
            .solve_goal(
                &case.pos,
                SolveGoal::Outcome,
                &SolveBudget::default(),
                &mut |_| {},
            )
            .unwrap();
        assert_eq!(w.score.signum(), case.score.signum(), "FFO #{}", case.id);
    }
    // FFO #45 (24 empties) runs for seconds: stopped from another thread while both search.
    let ffo45 = &crate::common::ffo("ffo-40-59.txt", 45, 45)[0];
    let flag = AtomicBool::new(false);
    let limits = SolveBudget {
        stop: Some(&flag),
        ..SolveBudget::default()
    };
    two.clear();
    let stopped = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(100));
            flag.store(true, Ordering::Relaxed);
        });
        two.solve_limited(&ffo45.pos, &limits, &mut |_| {})
    });
    assert!(stopped.is_err(), "{stopped:?}");
    let case = &crate::common::ffo("ffo-1-39.txt", 27, 27)[0];
    assert_eq!(two.solve(&case.pos).score, case.score);
    let limited = |solver: &mut Solver| {
        solver.clear();
        let l = SolveBudget {
            nodes: Some(1 << 40),
            ..SolveBudget::default()
        };
        solver.solve_limited(&case.pos, &l, &mut |_| {}).unwrap()
    };
    assert_eq!(limited(&mut two), limited(&mut one));
}
