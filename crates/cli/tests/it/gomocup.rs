//! `duel gomocup` and `pbrain-duel`, run as a Gomocup manager runs a brain: well-formed
//! sessions, every kind of malformed line (each answered `ERROR`, `UNKNOWN` or, for `INFO`,
//! `MESSAGE`, and the brain goes on), time limits kept, and `END` obeyed during a search.

use std::time::{Duration, Instant};

use crate::transcript::{Engine, AT_ONCE};
use duel_core::Game;
use duel_gomoku::Gomoku;

/// A brain with quick moves.
fn brain() -> Engine {
    let mut e = Engine::start(&["gomocup", "--hash", "4"]);
    e.send("INFO timeout_turn 300");
    e
}

/// The next answer that is not a MESSAGE or DEBUG line.
fn answer(e: &mut Engine) -> String {
    e.until(|l| !l.starts_with("MESSAGE") && !l.starts_with("DEBUG"))
        .pop()
        .unwrap()
}

/// Reads `x,y`.
fn xy(text: &str) -> (u8, u8) {
    let (x, y) = text
        .split_once(',')
        .unwrap_or_else(|| panic!("'{text}' is not x,y"));
    (x.trim().parse().unwrap(), y.trim().parse().unwrap())
}

#[test]
fn a_game_against_itself_is_legal_to_the_end() {
    // Two brains, each told the other's moves, play a whole game; every move is checked by
    // the rules crate, which also says when the game is over.
    let mut a = brain();
    let mut b = brain();
    for e in [&mut a, &mut b] {
        e.send("INFO timeout_turn 100");
        e.send("START 15");
        assert_eq!(answer(e), "OK");
    }
    let mut pos = Gomoku::start();
    a.send("BEGIN");
    let mut mover = 0;
    let mut last;
    loop {
        let e = if mover == 0 { &mut a } else { &mut b };
        last = answer(e);
        let (x, y) = xy(&last);
        let mv = pos.parse_move(&format!("{x},{y}")).expect("a legal move");
        pos.play(mv);
        if pos.outcome().is_some() {
            break;
        }
        mover = 1 - mover;
        let e = if mover == 0 { &mut a } else { &mut b };
        e.send(&format!("TURN {last}"));
    }
    assert!(pos.moves_played().len() >= 9, "{pos:?}");
    for mut e in [a, b] {
        e.send("END");
        e.exits_within(AT_ONCE, "END");
    }
}

#[test]
fn board_about_takeback_play_and_restart() {
    let mut e = brain();
    e.send("ABOUT");
    let about = answer(&mut e);
    assert!(about.starts_with("name=\"duel\""), "{about}");
    e.send("RECTSTART 20,15");
    assert_eq!(answer(&mut e), "OK");
    // Own stones (1) and the opponent's (2): two each, so the brain is Black, to move; its
    // open three along y = 5 must be made four or better, but any legal answer will do here.
    e.send("BOARD");
    for line in ["10,5,1", "9,9,2", "11,5,1", "9,10,2", "DONE"] {
        e.send(line);
    }
    let (x, y) = xy(&answer(&mut e));
    assert!(x < 20 && y < 15);
    e.send(&format!("TAKEBACK {x},{y}"));
    assert_eq!(answer(&mut e), "OK");
    e.send("TAKEBACK 3,3");
    let refused = answer(&mut e);
    assert!(
        refused.starts_with("ERROR") && refused.contains("9,10"),
        "{refused}"
    );
    e.send("PLAY 12,5");
    assert_eq!(answer(&mut e), "12,5");
    e.send("RESTART");
    assert_eq!(answer(&mut e), "OK");
    e.send("BEGIN");
    let (x, y) = xy(&answer(&mut e));
    assert!(x < 20 && y < 15);
    e.send("END");
    e.exits_within(AT_ONCE, "END");
}

#[test]
fn a_four_is_completed_and_a_four_is_blocked() {
    let mut e = brain();
    e.send("START 15");
    answer(&mut e);
    // Black (the brain, to move) has four in a row from 3,3 to 6,3, open at 7,3.
    e.send("BOARD");
    for line in [
        "2,3,2", "3,3,1", "8,8,2", "4,3,1", "9,9,2", "5,3,1", "10,8,2", "6,3,1",
    ] {
        e.send(line);
    }
    e.send("12,12,2");
    e.send("DONE");
    let lines = e.until(|l| !l.starts_with("MESSAGE") && !l.starts_with("DEBUG"));
    assert_eq!(lines.last().unwrap(), "7,3");
    // The search's lines in Rapfi's layout, as pygomo and Yixin Board read them
    // (`depth D-S ev V n N n/ms R tm T pv ...`), the points counted from the top as the
    // protocol counts them: 7,3 is h4.
    let message = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("MESSAGE depth"))
        .unwrap();
    let words: Vec<&str> = message.split_whitespace().collect();
    assert_eq!(
        [words[1], words[3], words[5], words[7], words[9], words[11]],
        ["depth", "ev", "n", "n/ms", "tm", "pv"],
        "{message}"
    );
    let (depth, seldepth) = words[2].split_once('-').unwrap();
    assert!(
        depth.parse::<u32>().unwrap() <= seldepth.parse::<u32>().unwrap(),
        "{message}"
    );
    assert!(
        words[6].parse::<u64>().is_ok() && words[8].parse::<u64>().is_ok(),
        "{message}"
    );
    assert_eq!(words[12], "h4", "{message}");
    // The other way round: White (the brain) must block Black's four at 7,3.
    e.send("RESTART");
    answer(&mut e);
    e.send("BOARD");
    for line in [
        "2,3,1", "3,3,2", "8,8,1", "4,3,2", "9,9,1", "5,3,2", "6,3,2", "DONE",
    ] {
        e.send(line);
    }
    assert_eq!(answer(&mut e), "7,3");
}

#[test]
fn renju_is_played_when_info_rule_says_so() {
    let mut e = brain();
    e.send("START 15");
    answer(&mut e);
    e.send("INFO rule 4");
    // Black, to move, has the double three at 7,7 (7,5 7,6 and 5,7 6,7): forbidden in renju.
    // Its only other winning tries are elsewhere; whatever it plays must not be 7,7.
    e.send("BOARD");
    for line in [
        "7,5,1", "0,0,2", "7,6,1", "14,0,2", "5,7,1", "0,14,2", "6,7,1", "14,14,2",
    ] {
        e.send(line);
    }
    e.send("DONE");
    let reply = answer(&mut e);
    assert_ne!(reply, "7,7", "a forbidden point played");
    xy(&reply);
    // Told to play the forbidden point, it refuses with the reason.
    e.send(&format!("TAKEBACK {reply}"));
    assert_eq!(answer(&mut e), "OK");
    e.send("PLAY 7,7");
    let refused = answer(&mut e);
    assert!(
        refused.starts_with("ERROR") && refused.contains("forbidden"),
        "{refused}"
    );
    e.send("INFO rule 9");
    let said = e.until(|l| l.starts_with("MESSAGE INFO")).pop().unwrap();
    assert!(
        said.starts_with("MESSAGE") && said.contains("renju"),
        "{said}"
    );
}

#[test]
fn malformed_lines_are_answered_and_the_brain_goes_on() {
    let mut e = brain();
    // Before any START.
    for (line, says) in [
        ("BEGIN", "ERROR"),
        ("TURN 7,7", "ERROR"),
        ("RESTART", "ERROR"),
    ] {
        e.send(line);
        let got = answer(&mut e);
        assert!(
            got.starts_with(says) && got.contains("START"),
            "{line}: {got}"
        );
    }
    e.send("START 15");
    assert_eq!(answer(&mut e), "OK");
    for (line, says, words) in [
        ("START 4", "ERROR", "size"),
        ("START 23", "ERROR", "size"),
        ("START", "ERROR", "START"),
        ("START x", "ERROR", "x"),
        ("RECTSTART 15", "ERROR", "RECTSTART"),
        ("RECTSTART 30,10", "ERROR", "size"),
        ("TURN 15,3", "ERROR", "off the 15x15 board"),
        ("TURN -1,3", "ERROR", "-1"),
        ("TURN 7", "ERROR", "7"),
        ("TURN a,b", "ERROR", "a,b"),
        ("TURN 99999999999999999999,1", "ERROR", "TURN"),
        ("TAKEBACK 1,1", "ERROR", "empty"),
        ("PLAY 20,20", "ERROR", "off"),
        ("DONE", "ERROR", "DONE"),
        ("FLY 1,2", "UNKNOWN", "FLY"),
        ("YXSEARCHDEFEND", "UNKNOWN", "YXSEARCHDEFEND"),
        ("YXNBEST -1", "ERROR", "negative"),
        ("INFO timeout_turn x", "MESSAGE", "timeout_turn"),
        ("INFO rule 5", "MESSAGE", "rule"),
    ] {
        e.send(line);
        let got = e.until(|l| !l.starts_with("DEBUG")).pop().unwrap();
        assert!(got.starts_with(says), "{line}: {got}");
        assert!(got.contains(words), "{line}: {got}");
    }
    // A bad stone inside BOARD: one ERROR after DONE, and the brain is still in step.
    e.send("BOARD");
    e.send("7,7,1");
    e.send("7,7,2");
    e.send("8,8,9");
    e.send("DONE");
    let got = answer(&mut e);
    assert!(got.starts_with("ERROR"), "{got}");
    // An occupied point, then the game goes on with a legal move.
    e.send("TURN 7,7");
    let first = answer(&mut e);
    e.send(&format!("TURN {first}"));
    let got = answer(&mut e);
    assert!(
        got.starts_with("ERROR") && got.contains("is taken"),
        "{got}"
    );
    e.send("TURN 0,0");
    let (x, y) = xy(&answer(&mut e));
    assert!(x < 15 && y < 15);
    // Bytes that are not UTF-8, CR line endings, lower case.
    e.send_bytes(b"\xff\xfe\r\n");
    let got = answer(&mut e);
    assert!(got.starts_with("UNKNOWN"), "{got}");
    e.send_bytes(b"about\r");
    let got = answer(&mut e);
    assert!(got.starts_with("name="), "{got}");
    e.send("END");
    e.exits_within(AT_ONCE, "END");
}

#[test]
fn the_turn_time_is_kept_and_end_stops_a_search() {
    let mut e = Engine::start(&["gomocup", "--hash", "4"]);
    e.send("START 20");
    answer(&mut e);
    e.send("INFO timeout_turn 1000");
    let t0 = Instant::now();
    e.send("BEGIN");
    xy(&answer(&mut e));
    assert!(
        t0.elapsed() < Duration::from_millis(1000 + 800),
        "{:?}",
        t0.elapsed()
    );
    // A long turn, interrupted by END.
    e.send("INFO timeout_turn 60000");
    e.send("TURN 3,3");
    std::thread::sleep(Duration::from_millis(200));
    e.send("END");
    e.exits_within(AT_ONCE, "END during a search");
}

/// Yixin's `STOP` (which Rapfi answers): a search stops at once and answers its move; a
/// `STOP` with nothing running is ignored, with no `UNKNOWN` to put the manager out of step
/// (issue 70: it was answered `UNKNOWN` after the move, 2 s later).
#[test]
fn stop_ends_a_search_with_its_move() {
    let mut e = Engine::start(&["gomocup", "--hash", "4"]);
    e.send("START 15");
    answer(&mut e);
    e.send("INFO timeout_turn 60000");
    e.send("TURN 7,7");
    std::thread::sleep(Duration::from_millis(200));
    let t0 = Instant::now();
    e.send("STOP");
    xy(&answer(&mut e));
    assert!(
        t0.elapsed() < Duration::from_millis(1500),
        "{:?}",
        t0.elapsed()
    );
    e.send("STOP");
    e.send("ABOUT");
    let about = answer(&mut e);
    assert!(about.starts_with("name="), "{about}");
    assert!(e.close());
}

#[test]
fn swap2_is_answered_in_each_of_its_three_forms() {
    let mut e = brain();
    e.send("START 15");
    answer(&mut e);
    e.send("SWAP2BOARD");
    e.send("DONE");
    let three: Vec<(u8, u8)> = answer(&mut e).split_whitespace().map(xy).collect();
    assert_eq!(three.len(), 3);
    for stones in [
        &["7,7", "8,7", "9,9"][..],
        &["7,7", "8,7", "9,9", "8,8", "8,6"][..],
    ] {
        e.send("SWAP2BOARD");
        for s in stones {
            e.send(s);
        }
        e.send("DONE");
        let got = answer(&mut e);
        assert!(got == "SWAP" || xy(&got).0 < 15, "{got}");
    }
}

#[test]
fn started_as_pbrain_duel_it_is_a_gomocup_brain() {
    let dir = std::env::temp_dir().join(format!("duel-pbrain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let link = dir.join("pbrain-duel");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_duel"), &link).unwrap();
    let mut e = Engine::start_program(link.to_str().unwrap(), &[]);
    e.send("START 20");
    assert_eq!(answer(&mut e), "OK");
    e.send("END");
    e.exits_within(AT_ONCE, "END");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Sends a block: its word, its lines, `DONE`.
fn block(e: &mut Engine, word: &str, lines: &[&str]) {
    e.send(word);
    for line in lines {
        e.send(line);
    }
    e.send("DONE");
}

/// Sends `ABOUT` and returns every line before its answer: what the commands sent before it
/// said, if anything.
fn said_before_about(e: &mut Engine) -> Vec<String> {
    e.send("ABOUT");
    let mut lines = e.until(|l| l.starts_with("name=\""));
    lines.pop();
    lines
}

/// A `MESSAGE` line of a search: (depth, multipv, nodes, first point of its line as `x,y`).
fn iteration(line: &str) -> (u32, u32, u64, (u8, u8)) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let after = |key: &str| {
        let i = words
            .iter()
            .position(|w| *w == key)
            .unwrap_or_else(|| panic!("{key}: {line}"));
        words[i + 1]
    };
    let depth = after("depth").split('-').next().unwrap().parse().unwrap();
    let multipv = match words.contains(&"multipv") {
        true => after("multipv").parse().unwrap(),
        false => 1,
    };
    let nodes = after("n").parse().unwrap();
    // Letters are columns from 0, numbers rows from 1: `h8` is 7,7.
    let first = after("pv");
    let x = first.as_bytes()[0] - b'a';
    let y = first[1..].parse::<u8>().unwrap() - 1;
    (depth, multipv, nodes, (x, y))
}

/// Yixin Board's extensions as Rapfi answers them: `YXBOARD` sets a position and answers
/// nothing, `YXNBEST n` searches n lines and plays the best, `YXBLOCK` keeps points out of
/// the searches, `YXHASHCLEAR`, `YXSHOWHASHUSAGE` and `YXSHOWINFO` say what they did, and bad
/// arguments or a missing board get `ERROR`.
#[test]
fn yixin_board_extensions() {
    let mut e = brain();
    e.send("YXNBEST 2");
    assert!(answer(&mut e).starts_with("ERROR no board yet"));
    e.send("START 15");
    assert_eq!(answer(&mut e), "OK");
    // A node limit: the same lines on every run.
    e.send("INFO max_node 4000");
    e.send("INFO timeout_turn 60000");
    let stones = ["7,7,1", "8,8,2", "8,7,1", "6,8,2"];
    block(&mut e, "YXBOARD", &stones);
    assert_eq!(said_before_about(&mut e), Vec::<String>::new());
    // The best point of one line (three lines share the node limit: they may pick another).
    e.send("YXNBEST 1");
    let single = xy(&answer(&mut e));
    block(&mut e, "YXBOARD", &stones);
    e.send("YXHASHCLEAR");
    assert_eq!(
        said_before_about(&mut e),
        ["MESSAGE the transposition table is cleared"]
    );
    e.send("YXNBEST 3");
    let lines = e.until(|l| !l.starts_with("MESSAGE"));
    let (mv, messages) = lines.split_last().unwrap();
    let mv = xy(mv);
    let mut found: Vec<_> = messages.iter().map(|l| iteration(&l[8..])).collect();
    // The move played heads the last best line shown.
    let best = found.iter().rev().find(|f| f.1 == 1).unwrap();
    assert_eq!(best.3, mv, "{messages:?}");
    // Each iteration writes three lines, multipv 1 to 3, with three different first points
    // (and one line more when the node limit cut an iteration that found a better move).
    if found.len() % 3 == 1 {
        found.pop();
    }
    assert!(found.len() >= 3 && found.len() % 3 == 0, "{messages:?}");
    for it in found.chunks(3) {
        assert_eq!(
            it.iter().map(|f| f.1).collect::<Vec<_>>(),
            [1, 2, 3],
            "{messages:?}"
        );
        assert!(
            it.iter().all(|f| f.0 == it[0].0 && f.2 == it[0].2),
            "{messages:?}"
        );
        assert!(it[0].3 != it[1].3 && it[1].3 != it[2].3 && it[0].3 != it[2].3);
    }
    let last = &found[found.len() - 3];
    assert!(last.2 > 0 && last.2 <= 4000, "{messages:?}");
    // The move is played, as after TURN: it can be taken back.
    e.send(&format!("TAKEBACK {},{}", mv.0, mv.1));
    assert_eq!(answer(&mut e), "OK");
    // Blocked, the best point is not played; unblocked, it may be again.
    block(&mut e, "YXBLOCK", &[&format!("{},{}", mv.0, mv.1), "20,20"]);
    let refused = answer(&mut e);
    assert!(
        refused.starts_with("ERROR YXBLOCK: 20,20 off the 15x15 board"),
        "{refused}"
    );
    block(&mut e, "YXBOARD", &stones);
    e.send("YXNBEST 1");
    let other = xy(&answer(&mut e));
    assert_ne!(other, mv);
    e.send("YXBLOCKRESET");
    block(&mut e, "YXBOARD", &stones);
    e.send("YXHASHCLEAR");
    e.send("YXSHOWHASHUSAGE");
    assert_eq!(
        said_before_about(&mut e),
        [
            "MESSAGE the transposition table is cleared",
            "MESSAGE the transposition table is 0.0% full"
        ]
    );
    e.send("YXNBEST 1");
    assert_eq!(
        xy(&answer(&mut e)),
        single,
        "unblocked, the best point again"
    );
    e.send("YXSHOWINFO");
    let info = said_before_about(&mut e);
    assert!(info[0].starts_with("MESSAGE duel "), "{info:?}");
    assert!(
        info[1]
            .strip_prefix("MESSAGE INFO MAX_THREAD_NUM ")
            .is_some_and(|n| n.parse::<u32>().is_ok_and(|n| n >= 1)),
        "{info:?}"
    );
    // Bad arguments, and Yixin commands duel does not answer.
    for (line, says) in [
        (
            "YXNBEST",
            "ERROR bad argument for 'YXNBEST': YXNBEST needs the number of moves",
        ),
        (
            "YXNBEST 0",
            "ERROR bad argument for 'YXNBEST': YXNBEST 0: at least 1 move",
        ),
        (
            "YXNBEST two",
            "ERROR bad argument for 'YXNBEST': 'two' is not a number",
        ),
        ("YXBALANCEONE 10", "UNKNOWN unknown command 'YXBALANCEONE'"),
    ] {
        e.send(line);
        assert_eq!(answer(&mut e), says);
    }
    block(&mut e, "YXBOARD", &["7,7,1", "7,7,2"]);
    let refused = answer(&mut e);
    assert!(refused.starts_with("ERROR YXBOARD, stone 2: "), "{refused}");
    assert!(e.close());
}

/// `YXSHOWFORBID`: renju's forbidden points when Black is to move, two digits per
/// coordinate; none under other rules or for White.
#[test]
fn forbidden_points_as_yixin_board_reads_them() {
    let mut e = brain();
    e.send("START 15");
    answer(&mut e);
    // Black's 6,7 7,7 and 8,5 8,6: 8,7 would make two open threes.
    let stones = [
        "6,7,1", "0,0,2", "7,7,1", "2,0,2", "8,5,1", "4,0,2", "8,6,1", "6,0,2",
    ];
    block(&mut e, "YXBOARD", &stones);
    e.send("YXSHOWFORBID");
    assert_eq!(answer(&mut e), "FORBID .", "freestyle forbids nothing");
    e.send("INFO rule 4");
    e.send("RESTART");
    answer(&mut e);
    block(&mut e, "YXBOARD", &stones);
    e.send("YXSHOWFORBID");
    assert_eq!(answer(&mut e), "FORBID 0807.");
    // White to move (the brain's stones are White's): Black's points are not asked for.
    let white_to_move = [
        "6,7,2", "0,0,1", "7,7,2", "2,0,1", "8,5,2", "4,0,1", "8,6,2",
    ];
    block(&mut e, "YXBOARD", &white_to_move);
    e.send("YXSHOWFORBID");
    assert_eq!(answer(&mut e), "FORBID .");
    // Black to move may not play there.
    block(&mut e, "YXBOARD", &stones);
    e.send("PLAY 8,7");
    let refused = answer(&mut e);
    assert!(refused.contains("double three"), "{refused}");
    assert!(e.close());
}

/// Yixin's `YXSTOP`, as `STOP`, ends a `YXNBEST` at once with its move.
#[test]
fn yxstop_ends_an_nbest_search() {
    let mut e = Engine::start(&["gomocup", "--hash", "4"]);
    e.send("START 15");
    answer(&mut e);
    e.send("INFO timeout_turn 60000");
    block(&mut e, "YXBOARD", &["7,7,2"]);
    e.send("YXNBEST 4");
    std::thread::sleep(Duration::from_millis(200));
    let t0 = Instant::now();
    e.send("YXSTOP");
    let lines = e.until(|l| !l.starts_with("MESSAGE"));
    assert!(t0.elapsed() < AT_ONCE, "{:?}", t0.elapsed());
    // The move heads the last best line shown, however the STOP cut the iteration.
    let (mv, messages) = lines.split_last().unwrap();
    let best = messages
        .iter()
        .rev()
        .map(|l| iteration(&l[8..]))
        .find(|f| f.1 == 1)
        .unwrap();
    assert_eq!(best.3, xy(mv), "{lines:?}");
    e.send("YXSTOP");
    assert_eq!(said_before_about(&mut e), Vec::<String>::new());
    assert!(e.close());
}

/// The move a brain plays heads the last line it showed, even when its limit cut an
/// iteration short after that iteration had found a better move: Yixin Board and pygomo show
/// that line as the move's.
#[test]
fn the_move_played_heads_the_last_line_shown() {
    let mut a = brain();
    let mut b = brain();
    for e in [&mut a, &mut b] {
        e.send("START 15");
        assert_eq!(answer(e), "OK");
        e.send("INFO max_node 3000");
        e.send("INFO timeout_turn 30000");
    }
    let mut pos = Gomoku::start();
    a.send("BEGIN");
    for ply in 0..40 {
        let e = if ply % 2 == 0 { &mut a } else { &mut b };
        let lines = e.until(|l| !l.starts_with("MESSAGE"));
        let (mv, messages) = lines.split_last().unwrap();
        let last = messages
            .last()
            .unwrap_or_else(|| panic!("no MESSAGE: {lines:?}"));
        assert_eq!(iteration(&last[8..]).3, xy(mv), "ply {ply}: {lines:?}");
        pos.play(pos.parse_move(mv).unwrap());
        if pos.outcome().is_some() {
            break;
        }
        let other = if ply % 2 == 0 { &mut b } else { &mut a };
        other.send(&format!("TURN {mv}"));
    }
    assert!(a.close() && b.close());
}
