//! `duel match`: a short match against itself (the UCI side of the arena), against an xboard
//! engine when one is installed, and the refusals of bad flags.

mod common;

use common::duel;

/// Runs a two-game match against `second` (with `extra` flags); checks the report and the PGN
/// file.
fn two_games(second: &str, protocol: &str, extra: &[&str]) {
    // One directory per call: the tests of this file run side by side.
    let dir = std::env::temp_dir().join(format!(
        "duel-match-{}-{protocol}{}",
        std::process::id(),
        extra.concat()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    let _ = std::fs::remove_file(&pgn);
    let mut args = vec![
        "match",
        "--second",
        second,
        "--second-protocol",
        protocol,
        "--games",
        "2",
        "--tc",
        "2+0.05",
        "--pgn",
        pgn.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (out, err, ok) = duel(&args);
    assert!(ok, "{out}\n{err}");
    let games: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{out}");
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("result: "), "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Event ").count(), 2, "{text}");
    if extra.contains(&"--chess960") {
        assert_eq!(text.matches("[Variant \"Chess960\"]").count(), 2, "{text}");
        let fens: Vec<&str> = text.lines().filter(|l| l.starts_with("[FEN ")).collect();
        assert!(fens.len() == 2 && fens[0] == fens[1], "{text}");
    }
    // Both games start from the same opening, colours swapped.
    let whites: Vec<&str> = text.lines().filter(|l| l.starts_with("[White ")).collect();
    let blacks: Vec<&str> = text.lines().filter(|l| l.starts_with("[Black ")).collect();
    assert_eq!(whites[0][7..], blacks[1][7..], "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_short_match_against_itself() {
    let me = format!("{} uci", env!("CARGO_BIN_EXE_duel"));
    two_games(&me, "uci", &[]);
    // By nodes per move: no clock, so the same games every time.
    two_games(&me, "uci", &["--nodes", "3000"]);
}

/// Chess960: both games from the same Chess960 start (named in the PGN), every move of them
/// legal there in Chess960 notation.
#[test]
fn a_short_chess960_match_against_itself() {
    let me = format!("{} uci", env!("CARGO_BIN_EXE_duel"));
    two_games(
        &me,
        "uci",
        &["--chess960", "--nodes", "3000", "--seed", "5"],
    );
    let (out, err, ok) = duel(&[
        "match",
        "--second",
        &me,
        "--games",
        "2",
        "--nodes",
        "2000",
        "--chess960",
    ]);
    assert!(ok && out.contains("Chess960 openings"), "{out}\n{err}");
    // An xboard engine is refused before any game.
    let (_, err, ok) = duel(&[
        "match",
        "--second",
        &me,
        "--second-protocol",
        "xboard",
        "--chess960",
    ]);
    assert!(!ok && err.contains("xboard"), "{err}");
}

#[test]
fn a_short_match_against_an_xboard_engine() {
    let fairymax = ["/usr/games/fairymax", "/usr/bin/fairymax"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists());
    let Some(fairymax) = fairymax else {
        eprintln!("skipped: fairymax is not installed (scripts/install-engines.sh installs it)");
        return;
    };
    two_games(fairymax, "xboard", &[]);
    // An xboard engine has no node limit to obey.
    let (_, err, ok) = duel(&[
        "match",
        "--second",
        fairymax,
        "--second-protocol",
        "xboard",
        "--nodes",
        "1000",
    ]);
    assert!(!ok && err.contains("nodes"), "{err}");
}

/// Time odds: the first engine plays on its own control, the second on --tc. A wrapper logs
/// what the first engine is told: each `go` gives both sides' clocks and increments from the
/// two controls, whichever colour it has, and the PGN names each side's control.
#[cfg(unix)]
#[test]
fn time_odds_give_each_engine_its_own_clock() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("duel-match-odds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (log, pgn, wrap) = (dir.join("in.log"), dir.join("g.pgn"), dir.join("wrap.sh"));
    let script = format!(
        "#!/bin/sh\ntee -a '{}' | '{}' uci\n",
        log.display(),
        env!("CARGO_BIN_EXE_duel")
    );
    std::fs::write(&wrap, script).unwrap();
    std::fs::set_permissions(&wrap, std::fs::Permissions::from_mode(0o755)).unwrap();
    let me = format!("{} uci", env!("CARGO_BIN_EXE_duel"));
    let (out, err, ok) = duel(&[
        "match",
        "--first",
        wrap.to_str().unwrap(),
        "--second",
        &me,
        "--games",
        "2",
        "--tc",
        "2+0.05",
        "--first-tc",
        "4+0.2",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("4+0.2 against 2+0.05"), "{out}");
    let text = std::fs::read_to_string(&log).unwrap();
    let goes: Vec<&str> = text.lines().filter(|l| l.starts_with("go ")).collect();
    // Game 1, white after the 8-ply opening: both clocks untouched.
    assert_eq!(
        goes[0], "go wtime 4000 btime 2000 winc 200 binc 50",
        "{text}"
    );
    // Every move of game 1 as white, of game 2 as black: its own increment on its side.
    let (white, black): (Vec<&str>, Vec<&str>) =
        goes.iter().partition(|g| g.ends_with("winc 200 binc 50"));
    assert!(!white.is_empty() && !black.is_empty(), "{text}");
    assert!(
        black.iter().all(|g| g.ends_with("winc 50 binc 200")),
        "{text}"
    );
    let games = std::fs::read_to_string(&pgn).unwrap();
    for tag in [
        "[WhiteTimeControl \"4+0.2\"]",
        "[BlackTimeControl \"2+0.05\"]",
        "[WhiteTimeControl \"2+0.05\"]",
        "[BlackTimeControl \"4+0.2\"]",
    ] {
        assert_eq!(games.matches(tag).count(), 1, "{tag}: {games}");
    }
    assert!(!games.contains("[TimeControl "), "{games}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_flags_are_refused() {
    for (args, says) in [
        (
            &["match", "--second", "no-such-engine-here", "--games", "2"][..],
            "no-such-engine-here",
        ),
        (
            &["match", "--second", "x", "--second-protocol", "telnet"][..],
            "telnet",
        ),
        (&["match", "--second", "x", "--tc", "0+1"][..], "0+1"),
        (&["match", "--second", "x", "--tc", "fast"][..], "fast"),
        (
            &["match", "--second", "x", "--second-option", "Hash"][..],
            "NAME=VALUE",
        ),
        (&["match", "--second", "x", "--games", "0"][..], "games"),
        (&["match", "--second", "x", "--nodes", "0"][..], "nodes"),
        (
            &["match", "--second", "x", "--first-tc", "fast"][..],
            "fast",
        ),
        (
            &[
                "match",
                "--second",
                "x",
                "--first-tc",
                "20+0.2",
                "--nodes",
                "100",
            ][..],
            "--nodes",
        ),
        (&["match", "--second", "   "][..], "empty"),
    ] {
        let (_, err, ok) = duel(args);
        assert!(!ok, "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
