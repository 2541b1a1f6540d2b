//! `duel match` against engines that fail: scripted fakes that are this duel (`duel uci`) up
//! to their second move and then sleep past the flag, play an illegal move, answer garbage or
//! crash, and one that resigns over xboard (UCI has no resignation). Each loses its games by
//! the fault, named in the record, the match goes on, and the report counts the faults; a
//! `--pgn` file that cannot be written is refused by name.
#![cfg(unix)]

use std::path::{Path, PathBuf};

use crate::common::duel;
use crate::matches::{endgame_book, scratch, script};

/// A UCI engine named `name`: this duel, whose second `bestmove` and every one after go
/// through the shell command `fault` (which may change the line `l`, or end the script), and
/// which logs each start: (the script, the log of starts). Only the lines out are changed, so
/// the engine searches and settles as duel does.
fn faulty(dir: &Path, name: &str, fault: &str) -> (String, PathBuf) {
    let log = dir.join(format!("{name}.starts"));
    let body = format!(
        "echo started >> '{log}'
'{duel}' uci | while IFS= read -r l; do
  case \"$l\" in
    'id name'*) l='id name {name}' ;;
    bestmove*) n=$((n + 1)); if [ \"$n\" -ge 2 ]; then {fault}; fi ;;
  esac
  printf '%s\\n' \"$l\"
done",
        log = log.display(),
        duel = env!("CARGO_BIN_EXE_duel"),
    );
    (script(dir, &format!("{name}.sh"), &body), log)
}

/// Two games (`extra` flags, by default 2000 nodes a move) of this duel over UCI against
/// `second` from the won endgame of `book`, saved to `pgn`: (stdout, stderr, success).
fn two_games(second: &str, book: &str, pgn: &Path, extra: &[&str]) -> (String, String, bool) {
    let _ = std::fs::remove_file(pgn);
    let mut args = vec![
        "match",
        "--second",
        second,
        "--games",
        "2",
        "--openings",
        book,
        "--pgn",
        pgn.to_str().unwrap(),
    ];
    if extra.is_empty() {
        args.extend_from_slice(&["--nodes", "2000"]);
    }
    args.extend_from_slice(extra);
    duel(&args)
}

/// Each game of a PGN file in round order: (its tags by name, its moves and comments).
fn games(pgn: &Path) -> Vec<(Vec<(String, String)>, String)> {
    let text = std::fs::read_to_string(pgn).unwrap();
    let mut games: Vec<_> = text
        .split("[Event ")
        .skip(1)
        .map(|g| {
            let g = format!("[Event {g}");
            let mut tags = Vec::new();
            let mut moves = String::new();
            for line in g.lines() {
                match line.strip_prefix('[').and_then(|l| l.split_once(" \"")) {
                    Some((k, v)) => tags.push((k.to_string(), v.trim_end_matches("\"]").into())),
                    None => moves.push_str(&format!("{line} ")),
                }
            }
            (tags, moves)
        })
        .collect();
    games.sort_by_key(|(tags, _)| tag(tags, "Round").parse::<u32>().unwrap());
    games
}

fn tag<'a>(tags: &'a [(String, String)], name: &str) -> &'a str {
    tags.iter()
        .find(|(k, _)| k == name)
        .map_or("", |(_, v)| v.as_str())
}

/// The report's lines that start with `game `.
fn game_lines(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.starts_with("game ")).collect()
}

/// Checks a two-game match the second engine lost both games of by `fault` (the reason
/// starting `says`), White in game 1 winning and Black in game 2, both records kept, and
/// the report's count of the faults: `counts` of the second engine (on time, illegal moves,
/// crashes, garbage), none of the first.
fn lost_both(out: &str, pgn: &Path, says: &str, counts: &str) {
    let lines = game_lines(out);
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with(&format!("game 1: 1-0 ({says}")),
        "{out}"
    );
    assert!(
        lines[1].starts_with(&format!("game 2: 0-1 ({says}")),
        "{out}"
    );
    let games = games(pgn);
    assert_eq!(games.len(), 2, "{out}");
    for ((tags, moves), result) in games.iter().zip(["1-0", "0-1"]) {
        assert_eq!(tag(tags, "Result"), result, "{tags:?}");
        let reason = tag(tags, "Termination");
        assert!(reason.starts_with(says), "{reason}");
        // The reason also closes the moves, as the record's last comment.
        assert!(moves.contains(&format!("{{{reason}}} {result}")), "{moves}");
    }
    assert!(
        out.lines()
            .any(|l| l == format!("faults of the second engine: {counts}")),
        "{out}"
    );
    assert!(!out.contains("faults of the first engine"), "{out}");
}

/// How many times a fake was started.
fn starts(log: &Path) -> usize {
    std::fs::read_to_string(log).unwrap().lines().count()
}

/// An engine that dies in the middle of a game loses it as a crash, and a new one plays the
/// next game; one that cannot be started again ends the match, named, with the game it lost
/// kept.
#[test]
fn an_engine_that_crashes_loses_and_is_started_again() {
    let dir = scratch("faults-crash");
    let book = endgame_book("faults-crash-book");
    let pgn = dir.join("games.pgn");
    // SIGKILL of the script, whose relay ends with it: the engine's output closes.
    let (crasher, log) = faulty(&dir, "Crasher", "kill -9 $$; exit 1");
    let (out, err, ok) = two_games(&crasher, &book, &pgn, &[]);
    assert!(ok, "{out}\n{err}");
    lost_both(
        &out,
        &pgn,
        "Crasher crashed: the engine exited during a search",
        "0 losses on time, 0 illegal moves, 2 crashes, 0 garbage answers",
    );
    // Made anew for game 2, not after it: the match has no game 3.
    assert_eq!(starts(&log), 2);
    // One that starts once only: a second start fails in the handshake.
    let again = dir.join("again");
    std::fs::create_dir_all(&again).unwrap();
    let (crasher, log) = faulty(&again, "Crasher", "kill -9 $$; exit 1");
    let once = script(
        &again,
        "once.sh",
        &format!("[ -e '{}' ] && exit 3\nexec '{crasher}'", log.display()),
    );
    let (out, err, ok) = two_games(&once, &book, &pgn, &[]);
    assert!(!ok, "{out}\n{err}");
    // It is gone before the handshake ends, or before it starts (a broken pipe).
    assert!(
        err.contains(&format!(
            "Crasher failed in a game and could not be started again for game 2: {once}: "
        )),
        "{err}"
    );
    assert_eq!(game_lines(&out).len(), 1, "{out}");
    assert_eq!(games(&pgn).len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(scratch("faults-crash-book"));
}

/// A move the rules refuse loses the game; the engine is sound otherwise and plays on.
#[test]
fn an_illegal_move_loses() {
    let dir = scratch("faults-illegal");
    let book = endgame_book("faults-illegal-book");
    let pgn = dir.join("games.pgn");
    // No knight in the book's endgame: b1c3 is never a move there.
    let (blunderer, log) = faulty(&dir, "Blunderer", "l='bestmove b1c3'");
    let (out, err, ok) = two_games(&blunderer, &book, &pgn, &[]);
    assert!(ok, "{out}\n{err}");
    lost_both(
        &out,
        &pgn,
        "Blunderer played an illegal move: 'b1c3' is not legal here",
        "0 losses on time, 2 illegal moves, 0 crashes, 0 garbage answers",
    );
    assert_eq!(starts(&log), 1);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(scratch("faults-illegal-book"));
}

/// A `bestmove` without a move is garbage: the game is lost and the engine started again.
/// Bytes that are not text instead of `bestmove` are lines UCI lets pass, so the engine
/// loses on time, and is not taken for dead.
#[test]
fn garbage_instead_of_a_move_loses() {
    let dir = scratch("faults-garbage");
    let book = endgame_book("faults-garbage-book");
    let pgn = dir.join("games.pgn");
    let (babbler, log) = faulty(&dir, "Babbler", "l='bestmove'");
    let (out, err, ok) = two_games(&babbler, &book, &pgn, &[]);
    assert!(ok, "{out}\n{err}");
    lost_both(
        &out,
        &pgn,
        "Babbler sent garbage: an unreadable answer 'bestmove': ",
        "0 losses on time, 0 illegal moves, 0 crashes, 2 garbage answers",
    );
    assert_eq!(starts(&log), 2);
    let (mumbler, log) = faulty(&dir, "Mumbler", "l=$(printf '\\377\\376 \\001')");
    let (out, err, ok) = two_games(&mumbler, &book, &pgn, &["--tc", "0.5+0.05"]);
    assert!(ok, "{out}\n{err}");
    lost_both(
        &out,
        &pgn,
        "Mumbler lost on time: no move in the ",
        "2 losses on time, 0 illegal moves, 0 crashes, 0 garbage answers",
    );
    assert_eq!(starts(&log), 1);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(scratch("faults-garbage-book"));
}

/// An engine that sleeps past its flag loses on time with what was left on its clock, and
/// that is the control's arithmetic on the times the record gives its moves: the base, plus
/// an increment per move made, less the moves' times. It settles when told to stop, so it
/// plays the next game without a restart.
#[test]
fn an_engine_that_sleeps_past_the_flag_loses_on_time() {
    let dir = scratch("faults-flag");
    let book = endgame_book("faults-flag-book");
    let pgn = dir.join("games.pgn");
    let (sleeper, log) = faulty(&dir, "Sleeper", "sleep 1");
    let (out, err, ok) = two_games(&sleeper, &book, &pgn, &["--tc", "0.5+0.05"]);
    assert!(ok, "{out}\n{err}");
    lost_both(
        &out,
        &pgn,
        "Sleeper lost on time: no move in the ",
        "2 losses on time, 0 illegal moves, 0 crashes, 0 garbage answers",
    );
    assert_eq!(starts(&log), 1);
    for (round, (tags, moves)) in games(&pgn).iter().enumerate() {
        assert_eq!(tag(tags, "TimeControl"), "0.5+0.05");
        let left: f64 = tag(tags, "Termination")
            .strip_prefix("Sleeper lost on time: no move in the ")
            .and_then(|r| r.strip_suffix("s left"))
            .and_then(|t| t.parse().ok())
            .unwrap_or_else(|| panic!("{tags:?}"));
        // Each move's time closes its comment; White moves first from the book.
        let times: Vec<f64> = moves
            .split('{')
            .skip(1)
            .filter_map(|c| c.split('}').next()?.rsplit(' ').next()?.strip_suffix('s'))
            .filter_map(|t| t.parse().ok())
            .collect();
        // Game 1: Black's first move, then the flag at its second. Game 2: White's first.
        let own: Vec<f64> = match round {
            0 => times.iter().copied().skip(1).step_by(2).collect(),
            _ => Vec::new(),
        };
        assert_eq!(own.len(), 1 - round, "{moves}");
        let expected = 0.5 + 0.05 * own.len() as f64 - own.iter().sum::<f64>();
        // The record and the reason round to the millisecond.
        assert!(
            (left - expected).abs() <= 0.0015 && left < 1.0,
            "{left} against {expected}: {moves}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(scratch("faults-flag-book"));
}

/// A resignation (here over xboard) loses the game and is no fault.
#[test]
fn a_resignation_loses_and_is_no_fault() {
    let dir = scratch("faults-resign");
    let book = endgame_book("faults-resign-book");
    let pgn = dir.join("games.pgn");
    let quitter = script(
        &dir,
        "quitter.sh",
        "echo 'feature myname=\"Quitter\" setboard=1 done=1'
while read -r l; do
  case \"$l\" in go) echo resign ;; esac
done",
    );
    let (out, err, ok) = two_games(
        &quitter,
        &book,
        &pgn,
        &["--second-protocol", "xboard", "--tc", "1+0.01"],
    );
    assert!(ok, "{out}\n{err}");
    let lines = game_lines(&out);
    assert!(
        lines.len() == 2
            && lines[0].starts_with("game 1: 1-0 (Quitter resigned)")
            && lines[1].starts_with("game 2: 0-1 (Quitter resigned)"),
        "{out}"
    );
    assert!(!out.contains("faults of"), "{out}");
    let games = games(&pgn);
    assert!(games
        .iter()
        .all(|(t, _)| tag(t, "Termination") == "Quitter resigned"));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(scratch("faults-resign-book"));
}

/// A `--pgn` path that cannot be appended to is refused by name before any game (a
/// directory, a path in a missing folder, one in a read-only folder); a full disk stops the
/// match at the first record it cannot take, whose text goes to standard error.
#[test]
fn a_record_file_that_cannot_be_written_is_refused() {
    let dir = scratch("faults-pgn");
    let missing = dir.join("no").join("such").join("games.pgn");
    let read_only = dir.join("read-only");
    std::fs::create_dir_all(&read_only).unwrap();
    let mut refused = vec![dir.clone(), missing];
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::Permissions::from_mode(0o555);
        std::fs::set_permissions(&read_only, mode).unwrap();
        // Root writes anywhere: there the folder refuses nothing to test.
        match std::fs::File::create(read_only.join("probe")) {
            Ok(_) => eprintln!("skipped: a read-only folder does not stop this user"),
            Err(_) => refused.push(read_only.join("games.pgn")),
        }
    }
    for path in &refused {
        let (out, err, ok) = duel(&[
            "match",
            "--second",
            "duel",
            "--game",
            "tictactoe",
            "--games",
            "2",
            "--pgn",
            path.to_str().unwrap(),
        ]);
        assert!(!ok && !out.contains("game 1"), "{path:?}: {out}");
        assert!(
            err.contains(&format!(
                "cannot open {} to append the games: ",
                path.display()
            )),
            "{err}"
        );
    }
    if Path::new("/dev/full").exists() {
        let (out, err, ok) = duel(&[
            "match",
            "--second",
            "duel",
            "--game",
            "tictactoe",
            "--games",
            "4",
            "--pgn",
            "/dev/full",
        ]);
        assert!(!ok && game_lines(&out).len() == 1, "{out}\n{err}");
        assert!(
            err.contains("cannot append game 1 to /dev/full: ")
                && err.contains("its record:\n")
                && err.contains("No space left"),
            "{err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each game's record is in the file as soon as its line is reported: a match killed after
/// game 1 keeps it whole.
#[test]
fn records_are_kept_as_games_end() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let dir = scratch("faults-kept");
    let pgn = dir.join("games.pgn");
    let me = format!("{} uci", env!("CARGO_BIN_EXE_duel"));
    let book = endgame_book("faults-kept-book");
    let mut child = Command::new(env!("CARGO_BIN_EXE_duel"))
        .args([
            "match",
            "--second",
            &me,
            "--games",
            "40",
            "--nodes",
            "2000",
            "--openings",
            &book,
            "--pgn",
            pgn.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = BufReader::new(child.stdout.take().unwrap());
    let first = out
        .lines()
        .map(Result::unwrap)
        .find(|l| l.starts_with("game "));
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(first.is_some());
    let games = games(&pgn);
    assert!(!games.is_empty() && games.len() < 40, "{}", games.len());
    for (tags, moves) in &games {
        let result = tag(tags, "Result");
        assert!(moves.trim_end().ends_with(result), "{tags:?} {moves}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(scratch("faults-kept-book"));
}
