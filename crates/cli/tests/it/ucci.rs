//! `duel ucci` against the real binary: UCCI's handshake, options, `banmoves`, its clock in
//! milliseconds or seconds, `stop` and `quit` answers, `probe`, and bad lines answered with
//! `info message` while the engine goes on.

use std::time::Duration;

use crate::transcript::{Engine, AT_ONCE, PATIENCE};

/// The game the UCCI tests play: every UCCI command works for any registered game, and chess
/// moves read as UCCI's coordinates read.
const GAME: &str = "chess";

fn ucci() -> Engine {
    let mut e = Engine::start(&["ucci", "--game", GAME]);
    e.send("ucci");
    e.within(PATIENCE, "ucciok", |l| l == "ucciok");
    e
}

fn best(lines: &[String]) -> String {
    let last = lines.last().expect("an answer");
    last.strip_prefix("bestmove ")
        .unwrap_or_else(|| panic!("{lines:?}"))
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn handshake_declares_ucci_options() {
    let mut e = Engine::start(&["ucci", "--game", GAME]);
    e.send("ucci");
    let lines = e.within(PATIENCE, "ucciok", |l| l == "ucciok");
    assert!(lines[0].starts_with("id name duel"), "{lines:?}");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = format!("option threads type spin min 1 max {cores} default 1");
    for option in [
        "option hashsize type spin min 1 max ",
        threads.as_str(),
        "option ponder type check default false",
        "option usemillisec type check default true",
        "option newgame type button",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(option)),
            "{option}: {lines:?}"
        );
    }
    e.send("quit");
    let bye = e.within(AT_ONCE, "bye", |l| l == "bye");
    assert_eq!(bye, ["bye"]);
    e.exits_within(AT_ONCE, "quit");
}

#[test]
fn a_search_reports_in_ucci_words_and_stop_without_one_says_nobestmove() {
    let mut e = ucci();
    e.send("stop");
    assert_eq!(
        e.within(AT_ONCE, "nobestmove", |l| l == "nobestmove"),
        ["nobestmove"]
    );
    e.send("setoption newgame");
    e.send("position startpos moves e2e4");
    e.send("go depth 4");
    let lines = e.within(PATIENCE, "bestmove", |l| l.starts_with("bestmove"));
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 4, "{lines:?}");
    for l in &infos {
        let words: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(
            (words[0], words[3], words[5], words[7], words[9]),
            ("info", "score", "time", "nodes", "pv"),
            "{l}"
        );
    }
    // The table knows the root it searched.
    e.send("probe startpos moves e2e4");
    let pop = e.within(AT_ONCE, "pophash", |l| l.starts_with("pophash"));
    assert!(
        pop[0].starts_with(&format!("pophash bestmove {}", best(&lines))),
        "{pop:?}"
    );
    assert!(e.close());
}

#[test]
fn banned_moves_are_not_played() {
    let mut e = ucci();
    // Every move of the start but a3 banned: a3 it is.
    e.send("position startpos");
    e.send(
        "banmoves b2b3 c2c3 d2d3 e2e3 f2f3 g2g3 h2h3 a2a4 b2b4 c2c4 d2d4 e2e4 f2f4 g2g4 h2h4 \
         b1a3 b1c3 g1f3 g1h3",
    );
    e.send("go depth 3");
    let lines = e.within(PATIENCE, "bestmove", |l| l.starts_with("bestmove"));
    assert_eq!(best(&lines), "a2a3", "{lines:?}");
    // A new position forgets the bans.
    e.send("position startpos");
    e.send("banmoves a2a3");
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.within(PATIENCE, "bestmove", |l| l.starts_with("bestmove"));
    assert_ne!(best(&lines), "a2a3");
    assert!(e.close());
}

#[test]
fn the_clock_is_in_milliseconds_or_in_seconds() {
    let mut e = ucci();
    e.send("position startpos");
    e.send("go time 300 increment 0");
    let start = std::time::Instant::now();
    e.within(PATIENCE, "bestmove", |l| l.starts_with("bestmove"));
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    // The same number in seconds is a long game: the move comes at a second or more.
    e.send("setoption usemillisec false");
    e.send("go time 300 movestogo 100");
    let start = std::time::Instant::now();
    e.within(PATIENCE, "bestmove", |l| l.starts_with("bestmove"));
    assert!(
        start.elapsed() >= Duration::from_millis(900),
        "{:?}",
        start.elapsed()
    );
    assert!(e.close());
}

#[test]
fn bad_lines_get_an_info_message_and_the_engine_goes_on() {
    let mut e = ucci();
    for (line, words) in [
        ("uci", "unknown command 'uci'"),
        ("go depth x", "'x' is not a valid number"),
        ("go movetime 100", "unknown parameter 'movetime'"),
        ("position fen", "the FEN is missing"),
        ("position fen 8/8/8 w", "position refused"),
        ("position startpos moves e2e5", "position refused"),
        ("setoption hashsize lots", "hashsize"),
        ("setoption usemillisec maybe", "usemillisec"),
        ("setoption colour red", "colour"),
        ("probe fen x", "probe refused"),
    ] {
        e.send(line);
        let got = e.within(AT_ONCE, line, |l| l.starts_with("info message"));
        assert!(got[0].contains(words), "{line}: {got:?}");
    }
    e.send("isready");
    e.within(AT_ONCE, "readyok", |l| l == "readyok");
    e.send("position startpos");
    e.send("go depth 2");
    let lines = e.within(PATIENCE, "bestmove", |l| l.starts_with("bestmove"));
    assert!(!best(&lines).is_empty());
    assert!(e.close());
}

/// An ICCS move: a file a-i and a rank 0-9, twice.
fn is_iccs(mv: &str) -> bool {
    let b = mv.as_bytes();
    b.len() == 4
        && (b'a'..=b'i').contains(&b[0])
        && b[1].is_ascii_digit()
        && (b'a'..=b'i').contains(&b[2])
        && b[3].is_ascii_digit()
}

#[test]
fn xiangqi_is_the_default_game_in_iccs_coordinates() {
    let mut e = Engine::start(&["ucci"]);
    e.send("ucci");
    e.within(PATIENCE, "ucciok", |l| l == "ucciok");
    // ElephantEye's start: the FEN may end after the side to move.
    e.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w moves h2e2");
    e.send("go depth 4");
    let lines = e.within(PATIENCE, "bestmove", |l| l.starts_with("bestmove"));
    let mv = best(&lines);
    assert!(is_iccs(&mv), "{lines:?}");
    // A Black move: its piece stands on ranks 5-9.
    let from_rank = mv.as_bytes()[1] - b'0';
    assert!(from_rank >= 5, "{mv} is not Black's");
    for l in lines.iter().filter(|l| l.starts_with("info depth")) {
        let pv: Vec<&str> = l.split(" pv ").nth(1).unwrap().split(' ').collect();
        assert!(pv.iter().all(|m| is_iccs(m)), "{l}");
    }
    e.send("position startpos moves h2e2 h9g7 h0g2 i9h9 i0h0 h9h0");
    let got = e.within(AT_ONCE, "refusal", |l| l.starts_with("info message"));
    assert!(got[0].contains("position refused"), "{got:?}");
    assert!(e.close());
}

/// After `banmoves` and a refused `position`, `go` answers `nobestmove`: issue 70 found the
/// banned move played for the position before the refused one.
#[test]
fn go_after_a_refused_position_answers_nobestmove() {
    let mut e = Engine::start(&["ucci"]);
    e.send("ucci");
    e.within(PATIENCE, "ucciok", |l| l == "ucciok");
    e.send("position startpos moves h2e2");
    e.send("banmoves h9g7");
    e.send("position startpos moves h2e2 h9h9");
    e.within(AT_ONCE, "refusal", |l| l.starts_with("info message"));
    e.send("go depth 2");
    let got = e.within(PATIENCE, "nobestmove", |l| {
        l.starts_with("nobestmove") || l.starts_with("bestmove")
    });
    assert_eq!(got.last().unwrap(), "nobestmove", "{got:?}");
    e.send("position startpos moves h2e2");
    e.send("go depth 2");
    let lines = e.within(PATIENCE, "bestmove", |l| l.starts_with("bestmove"));
    assert!(!best(&lines).is_empty());
    assert!(e.close());
}
