//! GGF game records, as NBoard sends them with `set game`.

use std::time::Duration;

use duel_core::{Game, RecordClock, Side, SplitMix64};
use duel_othello::{parse_ggf, read_ggf, to_ggf, Move, Othello};

/// A game in which black has to pass at move 9, written the way NBoard writes records:
/// evaluations and times after the squares, capitals, `PA` for the pass.
const WITH_PASS: &str = "(;GM[Othello]PC[NBoard]DT[2024-03-01 10:00:00 GMT]PB[duel]PW[human]\
RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]\
B[D3//0.12]W[C3]B[F5/1.50/0.2]W[D2]B[D1]W[E1]B[B2]W[C1]B[PA]W[A3]B[A1];)";

const AFTER_PASS_GAME: &str = "X-OOO----X-O----O-XX-------XX------XXX-------------------------- O";

fn replay(start: &Othello, moves: &[Move]) -> Othello {
    let mut pos = start.clone();
    for &mv in moves {
        pos.play(mv);
    }
    pos
}

#[test]
fn nboard_record_with_a_pass() {
    let (start, moves) = parse_ggf(WITH_PASS).unwrap();
    assert_eq!(start, Othello::start());
    let text: Vec<String> = moves.iter().map(Move::to_string).collect();
    assert_eq!(
        text,
        ["d3", "c3", "f5", "d2", "d1", "e1", "b2", "c1", "PA", "a3", "a1"]
    );
    assert_eq!(replay(&start, &moves).to_text(), AFTER_PASS_GAME);
}

#[test]
fn an_unrecorded_forced_pass_is_added() {
    let without = WITH_PASS.replace("B[PA]", "");
    let (start, moves) = parse_ggf(&without).unwrap();
    assert_eq!(moves, parse_ggf(WITH_PASS).unwrap().1);
    assert_eq!(replay(&start, &moves).to_text(), AFTER_PASS_GAME);
}

#[test]
fn written_records_read_back() {
    let (start, moves) = parse_ggf(WITH_PASS).unwrap();
    let written = to_ggf(&start, &moves);
    assert!(written.starts_with("(;GM[Othello]"), "{written}");
    assert!(written
        .contains("BO[8 ---------------------------O*------*O--------------------------- *]"));
    assert!(written.contains("B[D3]W[C3]") && written.contains("B[PA]W[A3]B[A1];)"));
    assert!(written.contains("RE[?]"));
    assert_eq!(parse_ggf(&written).unwrap(), (start, moves));
}

#[test]
fn records_from_other_positions_and_finished_games() {
    let mut rng = SplitMix64::new(4);
    let mut list = Vec::new();
    for case in crate::common::ffo("ffo-1-39.txt", 1, 39).iter().step_by(3) {
        // Play the position out at random and write the whole game.
        let mut pos = case.pos.clone();
        let mut moves = Vec::new();
        loop {
            pos.generate_moves(&mut list);
            if list.is_empty() {
                break;
            }
            let mv = list[rng.below(list.len())];
            pos.play(mv);
            moves.push(mv);
        }
        let written = to_ggf(&case.pos, &moves);
        let black_score = pos.final_score() * pos.side_to_move().sign();
        assert!(
            written.contains(&format!("RE[{black_score:+}]")),
            "{written}"
        );
        let (start, back) = parse_ggf(&written).unwrap();
        assert_eq!(start, case.pos, "#{}", case.id);
        assert_eq!(back, moves, "#{}", case.id);
    }
}

#[test]
fn board_rows_may_be_spaced_and_white_may_start() {
    let rows = "-------- -------- -------- ---O*--- ---*O--- -------- -------- --------";
    let (start, moves) = parse_ggf(&format!("(;GM[othello]BO[8 {rows} O]W[D6];)")).unwrap();
    assert_eq!(start.side_char(), 'O');
    assert_eq!(moves, [Move::parse("d6").unwrap()]);
    // No BO: the standard start.
    let (start, moves) = parse_ggf("(;GM[Othello]B[f5];)").unwrap();
    assert_eq!((start, moves.len()), (Othello::start(), 1));
}

#[test]
fn bad_records_say_what_is_wrong() {
    let reason = |text: &str| parse_ggf(text).unwrap_err().reason;
    assert!(reason("GM[Othello]").contains("starts with '(;'"));
    assert!(reason("(;GM[Chess];)").contains("not an Othello game"));
    assert!(reason("(;GM[Othello]BO[10 - *];)").contains("only 8x8"));
    assert!(reason("(;GM[Othello]BO[8 ---- *];)").contains("has 4 squares"));
    assert!(reason("(;GM[Othello]B[F5;)").contains("missing ']'"));
    assert!(reason("(;GM[Othello]3[x];)").contains("expected a property name"));
    assert!(reason("(;GM[Othello]B;)").contains("has no '[value]'"));
    let r = reason("(;GM[Othello]B[Z9];)");
    assert!(
        r.contains("move 1 B[Z9]") && r.contains("expected a square"),
        "{r}"
    );
    let r = reason("(;GM[Othello]B[A1];)");
    assert!(
        r.contains("move 1 B[A1]") && r.contains("flips nothing"),
        "{r}"
    );
    let r = reason("(;GM[Othello]B[F5]B[F4];)");
    assert!(r.contains("move 2 B[F4]: it is white's turn"), "{r}");
}

fn secs(s: f64) -> Duration {
    Duration::from_secs_f64(s)
}

#[test]
fn clocks_and_move_times() {
    let g = read_ggf(WITH_PASS).unwrap();
    let five = Some(RecordClock {
        base: secs(300.0),
        increment: Duration::ZERO,
    });
    assert_eq!(g.clocks, [five, five]);
    assert_eq!(g.times[0], Some(secs(0.12)));
    assert_eq!(g.times[1], None);
    assert_eq!(g.times[2], Some(secs(0.2)));
    assert!(g.ignored.is_empty());
    // Black moved d3, f5, d1, b2, PA, a1: 0.32 s recorded; white's moves have no times, and
    // a time found elsewhere (the engine's own) counts for those.
    assert_eq!(g.time_left(Side::First, |_| None), Some(secs(300.0 - 0.32)));
    assert_eq!(
        g.time_left(Side::Second, |_| Some(secs(1.0))),
        Some(secs(295.0))
    );
    // Separate clocks, with increments: each move adds its side's increment.
    let tb = WITH_PASS.replace("TI[5:00]", "TB[1:00/2]TW[0:10/0.5/1:00]");
    let g = read_ggf(&tb).unwrap();
    assert_eq!(g.time_left(Side::First, |_| None), Some(secs(72.0 - 0.32)));
    assert_eq!(g.time_left(Side::Second, |_| None), Some(secs(12.5)));
    // Spent beyond the clock: nothing left, never an overflow.
    let late = WITH_PASS.replace("B[D3//0.12]", "B[D3//400]");
    let g = read_ggf(&late).unwrap();
    assert_eq!(g.time_left(Side::First, |_| None), Some(Duration::ZERO));
}

#[test]
fn odd_clocks_and_times_are_ignored_and_named() {
    let odd = WITH_PASS
        .replace("TI[5:00]", "TI[five minutes]")
        .replace("B[D3//0.12]", "B[D3//-1]")
        .replace("B[F5/1.50/0.2]", "B[F5/1.50/NaN]");
    let g = read_ggf(&odd).unwrap();
    assert_eq!(g.clocks, [None, None]);
    assert_eq!((g.times[0], g.times[2]), (None, None));
    assert_eq!(g.ignored.len(), 3, "{:?}", g.ignored);
    assert!(g.ignored[0].contains("TI[five minutes]"), "{:?}", g.ignored);
    assert_eq!(g.moves, parse_ggf(WITH_PASS).unwrap().1);
    // No clock at all, as `to_ggf` writes it.
    let g = read_ggf(&to_ggf(&Othello::start(), &[])).unwrap();
    assert_eq!((g.clocks, g.ignored.len()), ([None, None], 0));
}

#[test]
fn timed_records_read_back() {
    let mut g = read_ggf(WITH_PASS).unwrap();
    g.clocks = [
        Some(RecordClock {
            base: secs(2.0),
            increment: secs(0.02),
        }),
        Some(RecordClock {
            base: secs(90.0),
            increment: Duration::ZERO,
        }),
    ];
    g.times = (0..g.moves.len())
        .map(|i| Some(Duration::from_millis(7 * i as u64)))
        .collect();
    let text = g.to_text();
    assert!(text.contains("TB[2/0.02]TW[1:30]"), "{text}");
    assert!(text.contains("W[C3//0.007]"), "{text}");
    assert_eq!(read_ggf(&text).unwrap(), g);
    g.clocks[1] = g.clocks[0];
    assert!(g.to_text().contains("TI[2/0.02]"));
}

/// Found by fuzz/fuzz_targets/ggf.rs: times were read as floats, so `0.203` became a hair
/// under 203 ms and was written back as `0.202`, and digits finer than the millisecond GGF
/// is written in were kept; both are now rounded to the millisecond.
#[test]
fn times_are_read_to_the_millisecond() {
    let g = read_ggf("(;GM[Othello]TI[56:47:24.4444444]B[F5//0.203];)").unwrap();
    assert_eq!(g.times, vec![Some(Duration::from_millis(203))]);
    assert_eq!(
        g.clocks[0].map(|c| c.base),
        Some(Duration::from_millis(204_444_444))
    );
    let back = read_ggf(&g.to_text()).unwrap();
    assert_eq!((back.times, back.clocks), (g.times, g.clocks));
}
