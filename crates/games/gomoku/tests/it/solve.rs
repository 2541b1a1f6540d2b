//! The threat-space solver (`duel_gomoku::vcf`): hand-made VCFs and VCTs, a counter-four, a
//! renju forbidden block, and the boards of `data/gomoku/vcf-puzzles.txt`. Every line found is
//! replayed with the rules: the attacker's moves legal, each VCF reply the one forced block,
//! the line ending in the attacker's five.

use std::time::Instant;

use crate::common::{load, move_list, setup};
use duel_core::solve::{SolveError, SolveLimits};
use duel_core::{Game, GameInfo, Outcome, Side};
use duel_gomoku::{solve_threats, Cell, Gomoku, ThreatKind, ThreatLimits, ThreatStop, ThreatWin};

/// The empty cells where `side` would make five.
fn fives(pos: &Gomoku, side: Side) -> Vec<Cell> {
    (0..pos.height())
        .flat_map(|y| (0..pos.width()).map(move |x| Cell::new(x, y)))
        .filter(|&c| pos.is_empty(c) && pos.makes_five(c, side))
        .collect()
}

/// Replays `win` from `pos` with the rules and checks it: see the module doc. In a VCF every
/// attacker move but the five is a four.
fn replay(pos: &Gomoku, win: &ThreatWin) {
    let mut p = pos.clone();
    let me = p.side_to_move();
    let text = |p: &Gomoku| {
        let names: Vec<String> = win.line.iter().map(|&c| p.cell_name(c)).collect();
        names.join(" ")
    };
    for (i, &mv) in win.line.iter().enumerate() {
        let attacker = i % 2 == 0;
        assert!(p.is_legal(mv), "{}: move {i} illegal", text(pos));
        if attacker && win.kind == ThreatKind::Vcf && i + 1 < win.line.len() {
            let mut q = p.clone();
            q.play(mv);
            assert!(
                !fives(&q, me).is_empty(),
                "{}: move {i} is no four",
                text(pos)
            );
        }
        if !attacker && win.kind == ThreatKind::Vcf {
            let threats = fives(&p, me);
            if threats.len() == 1 && p.is_legal(threats[0]) {
                assert_eq!(
                    mv,
                    threats[0],
                    "{}: reply {i} not the forced block",
                    text(pos)
                );
            }
        }
        p.play(mv);
    }
    assert_eq!(p.outcome(), Some(Outcome::Loss), "{}: no five", text(pos));
    assert_eq!(
        p.side_to_move(),
        me.other(),
        "{}: the defender won",
        text(pos)
    );
}

fn limits(vct_depth: u32, vcf_depth: Option<u32>) -> ThreatLimits<'static> {
    ThreatLimits {
        nodes: Some(2_000_000),
        vct_depth: Some(vct_depth),
        vcf_depth,
        ..ThreatLimits::default()
    }
}

/// The VCF of `pos` (checked by replay), or a panic.
fn vcf(pos: &Gomoku) -> ThreatWin {
    let r = solve_threats(pos, &limits(0, None));
    let win = r.win.unwrap_or_else(|e| panic!("{pos:?}: no VCF ({e:?})"));
    assert_eq!(win.kind, ThreatKind::Vcf);
    replay(pos, &win);
    win
}

fn names(pos: &Gomoku, line: &[Cell]) -> Vec<String> {
    line.iter().map(|&c| pos.cell_name(c)).collect()
}

/// Far stones that make no line, to even the counts.
const PAD_WHITE: &str = "a1 c1 e1 g1 a3 c3";

#[test]
fn a_four_three_is_a_vcf() {
    // Row 8 e8 f8 g8 closed by d8; column h h6 h7: h8 is a four and a three.
    let pos = setup("", "e8 f8 g8 h6 h7", &format!("d8 {}", &PAD_WHITE[..11]));
    let win = vcf(&pos);
    assert_eq!(names(&pos, &win.line)[..2], ["h8", "i8"]);
}

#[test]
fn a_double_four_wins_at_once() {
    let pos = setup(
        "",
        "e8 f8 g8 h5 h6 h7",
        &format!("d8 h4 {}", &PAD_WHITE[..11]),
    );
    let win = vcf(&pos);
    assert_eq!(names(&pos, &win.line)[0], "h8");
    assert_eq!(win.line.len(), 3, "the four, a block, the five");
}

#[test]
fn three_fours_in_a_row() {
    // g5 (column g, g9 closed) then h5 (row 5, d5 closed) then h8: a double four on row 8
    // (d8 closed) and column h (h4 and h10 closed); the other White stones close diagonals.
    // No two fours do it.
    let pos = setup(
        "",
        "e8 f8 g8 g6 g7 h6 h7 e5 f5 o15",
        "d8 g9 h4 h10 d5 e4 j9 e9 j4 f6",
    );
    let short = solve_threats(&pos, &limits(0, Some(2)));
    assert_eq!(
        short.win.map(|w| names(&pos, &w.line)),
        Err(ThreatStop::Exhausted)
    );
    let win = vcf(&pos);
    assert!(win.line.len() >= 7, "{:?}", names(&pos, &win.line));
}

#[test]
fn a_counter_four_refutes_the_four_three() {
    // As the four-three, but White's forced block i8 makes a four i5-i8 (i4 Black): Black
    // must block i9, which is no four.
    let pos = setup("", "e8 f8 g8 h6 h7 i4", "d8 i5 i6 i7 a1 c1");
    let r = solve_threats(&pos, &limits(0, None));
    assert_eq!(r.win, Err(ThreatStop::Exhausted));
}

#[test]
fn renju_a_four_whose_block_is_forbidden_wins_for_white() {
    // White e5 f6 g7; i9 leaves h8 the one block, a double three for Black.
    let black = "f8 g8 h6 h7 d4";
    let white = "e5 f6 g7 o1";
    let pos = setup("renju", black, white);
    assert!(pos.forbidden(pos.parse_cell("h8").unwrap()).is_some());
    let win = vcf(&pos);
    assert_eq!(names(&pos, &win.line)[0], "i9");
    assert_eq!(win.line.len(), 3);
    let free = setup("", black, white);
    assert_eq!(
        solve_threats(&free, &limits(0, None)).win,
        Err(ThreatStop::Exhausted),
        "Black blocks h8 in freestyle"
    );
}

#[test]
fn a_double_three_is_a_vct_not_a_vcf() {
    let pos = setup("", "f8 g8 h6 h7", "a1 c1 e1 o15");
    assert_eq!(
        solve_threats(&pos, &limits(0, None)).win,
        Err(ThreatStop::Exhausted)
    );
    let win = solve_threats(&pos, &limits(3, None)).win.unwrap();
    assert_eq!(win.kind, ThreatKind::Vct);
    replay(&pos, &win);
}

#[test]
fn a_vct_survives_a_counter_four() {
    // The double three of h8, and White's a1 b1 c1 against the edge: d1 is a four White may
    // answer with (Black blocks e1), and the threes still win.
    let pos = setup("", "f8 g8 h6 h7 o15", "a1 b1 c1 a3 c3");
    let win = solve_threats(&pos, &limits(3, None)).win.unwrap();
    assert_eq!(win.kind, ThreatKind::Vct);
    replay(&pos, &win);
    assert!(
        names(&pos, &win.line).contains(&"d1".to_string()),
        "the longest defence is the counter-four: {:?}",
        names(&pos, &win.line)
    );
}

#[test]
fn solve_reports_the_win_and_its_kind() {
    let pos = setup("", "e8 f8 g8 h6 h7", &format!("d8 {}", &PAD_WHITE[..11]));
    let mut lines = Vec::new();
    let sol = pos
        .solve(&SolveLimits::default(), &mut |p| {
            lines.push(format!("{p:?}"))
        })
        .unwrap();
    assert!(sol.value.is_win());
    assert_eq!(sol.best_moves(), ["h8"]);
    assert!(sol.method.starts_with("VCF"));
    assert!(
        lines.iter().any(|l| l.contains("h8 by VCF: h8 i8")),
        "{lines:?}"
    );
    // Nothing to find on the empty board: no value claimed.
    let start = Gomoku::start();
    assert!(matches!(
        start.solve(&SolveLimits::default(), &mut |_| {}),
        Err(SolveError::NotSolvable { .. })
    ));
}

#[test]
fn quick_solve_gives_a_vcf_and_nothing_else() {
    assert_eq!(Gomoku::start().quick_solve(), None);
    let pos = Gomoku::from_text(&move_list(&load()[0], "renju")).unwrap();
    let q = pos.quick_solve().expect("puzzle 0's VCF");
    assert!(q.value.is_win());
    assert_eq!(q.value.plies_to_end(), Some(q.line.len() as i32));
    replay(
        &pos,
        &ThreatWin {
            kind: ThreatKind::Vcf,
            line: q.line,
        },
    );
    // A VCT is not looked for.
    let double_three = setup("", "f8 g8 h6 h7", "a1 c1 e1 o15");
    assert_eq!(double_three.quick_solve(), None);
}

/// Solves puzzle `i` under the rule `spec` and replays the line; returns the time taken.
fn solve_puzzle(i: usize, spec: &str) -> f64 {
    let p = &load()[i];
    let pos = Gomoku::from_text(&move_list(p, spec)).unwrap();
    let start = Instant::now();
    let r = solve_threats(&pos, &limits(0, None));
    let secs = start.elapsed().as_secs_f64();
    let win = r
        .win
        .unwrap_or_else(|e| panic!("{}: no VCF ({e:?}, {} nodes)", p.title, r.nodes));
    replay(&pos, &win);
    println!(
        "{}: {} by {}, {} plies, {} nodes, {:.1} ms",
        p.title,
        names(&pos, &win.line)[0],
        win.kind.name(),
        win.line.len(),
        r.nodes,
        secs * 1e3
    );
    secs
}

/// Puzzles 0 to 7 have VCFs under renju.
#[test]
fn the_puzzles_have_vcfs_under_renju() {
    for i in 0..8 {
        solve_puzzle(i, "renju");
    }
}

/// The deep puzzles (8, 9) have VCFs under freestyle, ending in what would be a Black
/// overline under renju; under renju there is none (a plain search of fours agrees, to 25
/// fours, and so does Rapfi, which finds no VCF there either: a longer win in 8, none in 9).
#[test]
fn the_deep_puzzles_have_vcfs_under_freestyle_only() {
    for i in [8, 9] {
        solve_puzzle(i, "");
        let pos = Gomoku::from_text(&move_list(&load()[i], "renju")).unwrap();
        assert_eq!(
            solve_threats(&pos, &limits(0, None)).win,
            Err(ThreatStop::Exhausted)
        );
    }
}

/// The figures of the report: each puzzle's time (as [`solve_puzzle`] prints), the VCF's
/// speed where it searches in vain (the deep puzzles under renju), and the cost of the probe
/// before a search on the bench positions. `cargo test --release -- --ignored --nocapture`.
#[test]
#[ignore]
fn timings() {
    for i in 0..10 {
        solve_puzzle(i, if i < 8 { "renju" } else { "" });
    }
    let renju = |i: usize| Gomoku::from_text(&move_list(&load()[i], "renju")).unwrap();
    let vcf_only = ThreatLimits {
        vct_depth: Some(0),
        ..ThreatLimits::default()
    };
    timed("puzzle 8 renju, VCF", &renju(8), &vcf_only);
    timed("puzzle 9 renju, VCF", &renju(9), &vcf_only);
    let vct = ThreatLimits {
        nodes: Some(2_000_000),
        ..ThreatLimits::default()
    };
    timed("puzzle 8 renju, VCT", &renju(8), &vct);
    for text in Gomoku::BENCH {
        let pos = Gomoku::from_text(text).unwrap();
        let start = Instant::now();
        let q = pos.quick_solve();
        println!(
            "quick_solve '{text}': {:?}, {:.2} ms",
            q.map(|q| q.line.len()),
            start.elapsed().as_secs_f64() * 1e3
        );
    }
}

/// Runs and prints one threat search, with its speed.
fn timed(label: &str, pos: &Gomoku, limits: &ThreatLimits<'_>) {
    let start = Instant::now();
    let r = solve_threats(pos, limits);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{label}: {:?}, {} nodes, {:.1} ms, {:.0} nodes/s",
        r.win.map(|w| names(pos, &w.line)),
        r.nodes,
        secs * 1e3,
        r.nodes as f64 / secs
    );
}
