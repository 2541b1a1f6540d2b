//! Transcripts of `duel nboard` (the NBoard protocol, Othello), run against the real binary:
//! well-formed sessions, malformed lines, a game whose last move is a pass, commands sent
//! while the engine thinks, and games on the clock.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::transcript::{Engine, AT_ONCE, PATIENCE};

use duel_core::{Game, RecordClock, SplitMix64};
use duel_othello::{to_ggf, GgfGame, Move, Othello};

/// Runs a session; returns stdout lines (nodestats dropped) and the exit success.
fn session(input: &str) -> (Vec<String>, bool) {
    session_with(input, &[])
}

fn session_with(input: &str, args: &[&str]) -> (Vec<String>, bool) {
    let args: Vec<&str> = ["nboard", "--hash", "1"]
        .into_iter()
        .chain(args.iter().copied())
        .collect();
    let out = crate::common::duel_with_input(&args, input);
    let lines = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("nodestats"))
        .map(str::to_string)
        .collect();
    (lines, out.status.success())
}

const START_GGF: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

/// The position NBoard means by START_GGF, built with the rules crate.
fn start_position() -> Othello {
    let mut pos = Othello::start();
    for mv in ["f5", "f6", "d3", "c5", "e6", "f7", "e7", "f4"] {
        let m = pos.parse_move(mv).unwrap();
        pos.play(m);
    }
    pos
}

fn is_legal(pos: &Othello, text: &str) -> bool {
    pos.parse_move(text).is_ok()
}

#[test]
fn a_well_formed_session() {
    let input = format!("nboard 2\nset depth 4\nset game {START_GGF}\nping 1\ngo\nhint 2\nlearn\n");
    let (lines, ok) = session(&input);
    assert!(ok);
    assert_eq!(lines[0], "set myname duel");
    assert_eq!(lines[1], "pong 1");
    let pos = start_position();
    let best = lines
        .iter()
        .find(|l| l.starts_with("=== "))
        .expect("an answer to go");
    // === MOVE/EVAL/TIME
    let mv = best[4..].split('/').next().unwrap();
    assert!(is_legal(&pos, mv), "{best}");
    assert_eq!(best[4..].split('/').count(), 3, "{best}");
    let hints: Vec<&String> = lines.iter().filter(|l| l.starts_with("search ")).collect();
    assert_eq!(hints.len(), 2, "{lines:?}");
    let evals: Vec<f64> = hints
        .iter()
        .map(|h| h.split(' ').nth(2).unwrap().parse().unwrap())
        .collect();
    assert!(evals[0] >= evals[1], "best hint first: {hints:?}");
    for h in hints {
        assert!(is_legal(&pos, &h[7..9]), "{h}");
    }
    // `learn` needs no search: it is answered at once, while the hint still runs.
    assert!(lines.iter().any(|l| l == "learned"), "{lines:?}");
    // Every go and hint ends with a status line that clears the GUI's status.
    assert!(
        lines.iter().filter(|l| *l == "status").count() >= 2,
        "{lines:?}"
    );
}

#[test]
fn moves_change_the_position_and_go_does_not() {
    // After go the engine must still be at the same position: a move legal there is accepted.
    let input = format!("nboard 2\nset depth 2\nset game {START_GGF}\ngo\nmove d6\nhint 1\n");
    let (lines, _) = session(&input);
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    let mut pos = start_position();
    let d6 = pos.parse_move("d6").unwrap();
    pos.play(d6);
    let hint = lines.iter().find(|l| l.starts_with("search ")).unwrap();
    assert!(is_legal(&pos, &hint[7..9]), "{hint} after d6");
}

#[test]
fn malformed_lines_get_a_status_and_the_engine_goes_on() {
    let input = format!(
        "nboard 2\nfly away\nset depth x\nset depth 0\nhint\nset game (;GM[Othello]BO[8 garbage];)\nset game {START_GGF}\nmove z9\nmove a1\nping 7\n"
    );
    let (lines, ok) = session(&input);
    assert!(ok);
    let errors: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("status error:"))
        .collect();
    assert_eq!(errors.len(), 7, "{lines:?}");
    assert!(errors[0].contains("unknown command 'fly'"));
    assert!(errors[1].contains("'x' is not a valid number"));
    assert!(errors.iter().any(|e| e.contains("set game refused")));
    assert!(errors.iter().any(|e| e.contains("'z9'")));
    assert!(errors.iter().any(|e| e.contains("a1")));
    assert_eq!(
        lines.last().unwrap(),
        "pong 7",
        "the loop survived: {lines:?}"
    );
}

/// After a refused `set game` or `move`, the game held is not the GUI's: `go`, `hint` and
/// `analyze` search nothing and say why, until a game is accepted (issue 70: every loop
/// answered for the position before).
#[test]
fn nothing_is_searched_after_a_refused_game_or_move() {
    let input = format!(
        "nboard 2\nset depth 2\nset game {START_GGF}\nmove a1\ngo\nhint 1\n\
         set game (;GM[Othello]BO[8 garbage];)\ngo\nset game {START_GGF}\ngo\nping 1\n"
    );
    let (lines, ok) = session(&input);
    assert!(ok);
    let held: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains("no position to search"))
        .collect();
    assert_eq!(held.len(), 3, "{lines:?}");
    assert!(held[0].contains("go") && held[0].contains("move refused"));
    assert!(held[2].contains("set game refused"), "{held:?}");
    // Only the game accepted at last is answered, with a move legal in it.
    let moves: Vec<&String> = lines.iter().filter(|l| l.starts_with("=== ")).collect();
    assert_eq!(moves.len(), 1, "{lines:?}");
    assert!(!lines.iter().any(|l| l.starts_with("search ")), "{lines:?}");
    assert!(is_legal(&start_position(), &moves[0][4..6]), "{moves:?}");
}

/// A random game played until the side to move has to pass; returns it cut right after the
/// pass, so the GUI's last move is `PA`.
fn game_ending_in_a_pass() -> (Othello, Vec<Move>) {
    for seed in 0..10_000 {
        let mut rng = SplitMix64::new(seed);
        let mut pos = Othello::start();
        let mut moves = Vec::new();
        let mut list = Vec::new();
        loop {
            pos.generate_moves(&mut list);
            if list.is_empty() {
                break;
            }
            let mv = list[rng.below(list.len())];
            pos.play(mv);
            moves.push(mv);
            if mv.to_string().eq_ignore_ascii_case("pa") && pos.outcome().is_none() {
                return (pos, moves);
            }
        }
    }
    panic!("no random game with a pass in 10,000 tries");
}

#[test]
fn a_game_whose_last_move_is_a_pass() {
    let (pos, moves) = game_ending_in_a_pass();
    let ggf = to_ggf(&Othello::start(), &moves);
    let input = format!("nboard 2\nset depth 3\nset game {ggf}\ngo\n");
    let (lines, _) = session(&input);
    assert!(
        !lines.iter().any(|l| l.contains("error")),
        "{ggf}\n{lines:?}"
    );
    let best = lines
        .iter()
        .find(|l| l.starts_with("=== "))
        .expect("an answer");
    let mv = best[4..].split('/').next().unwrap();
    assert!(is_legal(&pos, mv), "{mv} in {}", pos.to_text());
    // The same game sent move by move, the pass as `move PA`, reaches the same position.
    let mut input = String::from("nboard 2\nset depth 3\n");
    input.push_str(&format!("set game {}\n", to_ggf(&Othello::start(), &[])));
    for m in &moves {
        input.push_str(&format!("move {}\n", m.to_string().to_uppercase()));
    }
    input.push_str("go\n");
    let (lines, _) = session(&input);
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    let best = lines
        .iter()
        .find(|l| l.starts_with("=== "))
        .expect("an answer");
    assert!(
        is_legal(&pos, best[4..].split('/').next().unwrap()),
        "{best}"
    );
}

#[test]
fn endgames_are_solved_exactly() {
    // FFO #1 (data/othello): black to move, best g8, score +18.
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let pos = Othello::from_text(ffo1).unwrap();
    let ggf = to_ggf(&pos, &[]);
    let input = format!("nboard 2\nset depth 4\nset game {ggf}\ngo\n");
    let empties = ffo1.chars().filter(|&c| c == '-').count().to_string();
    let (lines, _) = session_with(&input, &["--solve-empties", &empties]);
    let best = lines
        .iter()
        .find(|l| l.starts_with("=== "))
        .expect("an answer");
    let parts: Vec<&str> = best[4..].split('/').collect();
    assert_eq!(parts[0].to_ascii_lowercase(), "g8", "{best}");
    assert_eq!(parts[1].parse::<f64>().unwrap(), 18.0, "{best}");
}

/// The move (lower case) and the value in discs of the session's answer to `go`.
fn go_answer(input: &str, args: &[&str]) -> (String, f64) {
    let (lines, _) = session_with(input, args);
    let best = lines
        .into_iter()
        .find(|l| l.starts_with("=== "))
        .expect("an answer");
    let parts: Vec<String> = best[4..].split('/').map(str::to_string).collect();
    (
        parts[0].to_ascii_lowercase(),
        parts[1].parse::<f64>().unwrap(),
    )
}

/// On the clock the solve reaches further than `--solve-empties`: FFO #23 has 18 empty
/// squares, four more than a reach of 14, and half a second (half of `--time 1s`) is
/// expected to solve it (`duel_othello::solve_reach`).
#[test]
fn on_the_clock_endgames_are_solved_from_further() {
    let ffo23 = "--O-------OOX---OOOXXXO-OOOOXOXXXXXOOXOXXXXXXOOXX-XXXXOX--XXXX-- X";
    let ggf = to_ggf(&Othello::from_text(ffo23).unwrap(), &[]);
    let input = format!("nboard 2\nset game {ggf}\ngo\n");
    let answer = |args: &[&str]| go_answer(&input, args);
    assert_eq!(
        answer(&["--solve-empties", "14", "--time", "1s"]),
        ("a2".to_string(), 4.0)
    );
    let (_, searched) = answer(&["--solve-empties", "14"]);
    assert!(
        searched.fract() != 0.0,
        "the depth search's value {searched} is no disc count"
    );
}

/// One square beyond the exact solve, `go` proves only who wins and plays a move that keeps
/// the win: FFO #23 (18 empty squares, +4) with `--solve-empties 17` answers a whole number
/// of discs between +1 and +4 and a winning move; two squares beyond, it searches.
#[test]
fn one_square_further_the_winner_is_proven() {
    let ffo23 = "--O-------OOX---OOOXXXO-OOOOXOXXXXXOOXOXXXXXXOOXX-XXXXOX--XXXX-- X";
    let pos = Othello::from_text(ffo23).unwrap();
    let input = format!(
        "nboard 2\nset depth 4\nset game {}\ngo\n",
        to_ggf(&pos, &[])
    );
    let answer = |reach: &str| go_answer(&input, &["--solve-empties", reach]);
    let (mv, value) = answer("17");
    assert!(
        value.fract() == 0.0 && (1.0..=4.0).contains(&value),
        "{mv} {value}"
    );
    let mut child = pos.clone();
    child.play(pos.parse_move(&mv).unwrap());
    assert!(
        duel_othello::Solver::new(20).solve(&child).score < 0,
        "{mv} wins"
    );
    let (_, searched) = answer("16");
    assert!(searched.fract() != 0.0, "{searched}: a search's value");
}

#[test]
fn ping_interrupts_a_running_search() {
    // Depth 60 from the opening would run for hours; ping must stop it and still answer.
    let input = format!("nboard 2\nset depth 60\nset game {START_GGF}\ngo\nping 5\n");
    let (lines, ok) = session_with(&input, &["--solve-empties", "0"]);
    assert!(ok);
    let best = lines
        .iter()
        .position(|l| l.starts_with("=== "))
        .expect("go still answers");
    let pong = lines.iter().position(|l| l == "pong 5").expect("pong");
    // The answer to go comes before the pong: NBoard knows it belongs to the old position.
    assert!(best < pong, "{lines:?}");
    assert!(is_legal(
        &start_position(),
        lines[best][4..].split('/').next().unwrap()
    ));
}

#[test]
fn a_line_of_invalid_utf8_does_not_end_the_session() {
    let mut input = b"nboard 2\n".to_vec();
    input.extend_from_slice(b"\xff\xfe garbage\n");
    input.extend_from_slice(b"ping 9\n");
    // Raw bytes: a &str could not carry them.
    let mut child = Command::new(env!("CARGO_BIN_EXE_duel"))
        .args(["nboard", "--hash", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("duel runs");
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("status error: unknown command"), "{text}");
    assert!(
        text.lines().any(|l| l == "pong 9"),
        "the loop went on: {text}"
    );
}

/// An engine thinking on a `go` at depth 20, which takes it minutes.
fn thinking() -> Engine {
    let mut e = Engine::start(&["nboard"]);
    for line in [
        "nboard 2",
        "set depth 20",
        &format!("set game {START_GGF}"),
        "go",
    ] {
        e.send(line);
    }
    e.within(AT_ONCE, "status", |l| l.starts_with("status duel is"));
    e
}

/// Issue 40's NBoard reproducers: during a deep `go`, every command is answered or done at once
/// and `ping` answered after it; `quit` obeyed at once even after a `hint`.
#[test]
fn commands_during_a_search_are_answered_at_once() {
    let mut e = thinking();
    // Applied at once, without ending the search: it goes on for the next ping to stop.
    e.send("set depth 5");
    e.send("learn");
    e.within(AT_ONCE, "learn", |l| l == "learned");
    // A new position, a move, a new request: each ends the work on the old one.
    let commands = [
        format!("set game {START_GGF}"),
        "move c4".to_string(),
        "go".to_string(),
        "hint 3".to_string(),
        "analyze".to_string(),
    ];
    for (n, command) in commands.iter().enumerate() {
        e.send(command);
        e.send(&format!("ping {n}"));
        let pong = format!("pong {n}");
        e.within(AT_ONCE, command, |l| l == pong);
    }
    e.send("quit");
    e.exits_within(AT_ONCE, "quit after analyze");

    let mut e = thinking();
    e.send("hint 4");
    e.send("quit");
    e.exits_within(AT_ONCE, "quit after hint");
}

/// After a stopped `go`, the engine still plays a legal move for the position it is given.
#[test]
fn a_stopped_search_leaves_the_engine_whole() {
    let mut e = thinking();
    e.send("ping 1");
    e.within(AT_ONCE, "ping", |l| l == "pong 1");
    e.send("set depth 3");
    e.send("move c4");
    e.send("go");
    let lines = e.until(|l| l.starts_with("=== "));
    let mut pos = start_position();
    pos.play(pos.parse_move("c4").unwrap());
    let answer = lines.last().unwrap();
    assert!(is_legal(&pos, &answer[4..6]), "{answer}");
    e.send("quit");
    e.exits_within(AT_ONCE, "quit");
}

/// A table the machine cannot give is refused at the start, by name, with a failure exit.
#[test]
fn an_impossible_hash_is_refused_at_the_start() {
    let out = Command::new(env!("CARGO_BIN_EXE_duel"))
        .args(["nboard", "--hash", "33554432"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot be allocated"), "{err}");
}

/// An exact solve also ends at `ping`: FFO #45, 24 empty squares, takes seconds to solve with
/// `--solve-empties 24`.
#[test]
fn ping_stops_an_exact_solve() {
    let pos =
        Othello::from_text("---XXXX-X-XXXO--XXOXOO--XXXOXO--XXOXXO---OXXXOO-O-OOOO------OO-- X")
            .unwrap();
    let mut e = Engine::start(&["nboard", "--solve-empties", "24"]);
    e.send("nboard 2");
    e.send(&format!("set game {}", to_ggf(&pos, &[])));
    e.send("go");
    e.within(AT_ONCE, "status", |l| l.starts_with("status duel is"));
    e.send("ping 1");
    let lines = e.within(AT_ONCE, "ping during a solve", |l| l == "pong 1");
    // Stopped before it proved anything, it still answers with a legal move.
    let answer = lines
        .iter()
        .find(|l| l.starts_with("=== "))
        .expect("an answer");
    assert!(is_legal(&pos, &answer[4..6]), "{answer}");
    e.send("quit");
    e.exits_within(AT_ONCE, "quit");
}

/// A whole game on a small clock, the test as the GUI: before each move the game goes out
/// with its clock (`TI[1/0.01]`) and the time every move took as the test measured it, pipes
/// included, and the engine plays both sides. No move may take more than its side has left.
fn play_on_the_clock(args: &[&str], send_clock: bool) {
    let clock = RecordClock {
        base: Duration::from_secs(1),
        increment: Duration::from_millis(10),
    };
    let mut args = args.to_vec();
    args.extend(["--hash", "1"]);
    let mut e = Engine::start(&args);
    e.send("nboard 2");
    // Started, as a GUI or the arena waits for it before the game.
    e.send("ping 0");
    e.within(PATIENCE, "ping", |l| l == "pong 0");
    let mut game = GgfGame::new(Othello::start(), Vec::new());
    if send_clock {
        game.clocks = [Some(clock); 2];
    }
    let mut pos = Othello::start();
    let mut left = [clock.base; 2];
    while !pos.is_over() {
        let side = pos.side_to_move() as usize;
        e.send(&format!("set game {}", game.to_text()));
        let t0 = Instant::now();
        e.send("go");
        let lines = e.within(PATIENCE, "go", |l| l.starts_with("=== "));
        let used = t0.elapsed();
        assert!(
            used <= left[side],
            "move {} took {used:?} with {:?} left",
            game.moves.len() + 1,
            left[side]
        );
        left[side] = left[side] - used + clock.increment;
        let answer = &lines.last().unwrap()[4..];
        let mv = pos
            .parse_move(answer.split('/').next().unwrap())
            .unwrap_or_else(|e| panic!("{answer}: {e}"));
        pos.play(mv);
        game.moves.push(mv);
        game.times.push(Some(used));
    }
    e.send("quit");
    e.exits_within(AT_ONCE, "quit");
}

/// `--tc`: the engine keeps its own clock, from its own times, when the GUI sends none.
#[test]
fn a_game_on_the_engines_own_clock_is_never_lost_on_time() {
    play_on_the_clock(&["nboard", "--tc", "1+0.01"], false);
}

/// The GUI's clock (`TI`) replaces `--tc`'s: an hour on the command line, a second in the game.
#[test]
fn a_game_on_the_guis_clock_is_never_lost_on_time() {
    play_on_the_clock(&["nboard", "--tc", "3600+0"], true);
}

/// Under a depth, the game's clock guards: a search to depth 30 from the start would take
/// minutes, and with half a second left the engine answers well within it.
#[test]
fn a_depth_search_stops_at_the_games_clock() {
    let mut game = GgfGame::new(Othello::start(), Vec::new());
    game.clocks = [Some(RecordClock {
        base: Duration::from_millis(500),
        increment: Duration::ZERO,
    }); 2];
    let mut e = Engine::start(&["nboard", "--hash", "1"]);
    e.send("nboard 2");
    e.send("set depth 30");
    e.send(&format!("set game {}", game.to_text()));
    let t0 = Instant::now();
    e.send("go");
    let lines = e.within(PATIENCE, "go", |l| l.starts_with("=== "));
    assert!(t0.elapsed() < Duration::from_millis(500), "{lines:?}");
    assert!(is_legal(&Othello::start(), &lines.last().unwrap()[4..6]));
    e.send("quit");
    e.exits_within(AT_ONCE, "quit");
}

/// `--time`: every move takes about its time, never more than it and the pipes; `set depth`
/// then says it sets only the depth of hints and analysis.
#[test]
fn a_time_per_move() {
    let mut e = Engine::start(&["nboard", "--hash", "1", "--time", "300ms"]);
    e.send("nboard 2");
    e.send("set depth 2");
    e.within(AT_ONCE, "set depth", |l| {
        l == "status depth 2 for hint and analyze; go is timed by the command line"
    });
    e.send(&format!("set game {START_GGF}"));
    let t0 = Instant::now();
    e.send("go");
    let lines = e.within(PATIENCE, "go", |l| l.starts_with("=== "));
    let used = t0.elapsed();
    let answer = lines.last().unwrap();
    let seconds: f64 = answer.rsplit('/').next().unwrap().parse().unwrap();
    // Most of the time is used (the search does not end by itself this far from the end),
    // and no more than it.
    assert!((0.15..=0.3).contains(&seconds), "{answer}");
    assert!(used < Duration::from_secs(2), "{used:?}");
    assert!(is_legal(&start_position(), &answer[4..6]), "{answer}");
    e.send("quit");
    e.exits_within(AT_ONCE, "quit");
}

/// A clock or a move time that is not one is named in a status line and left out; the game
/// and its moves stand.
#[test]
fn odd_clocks_and_move_times_are_named_and_ignored() {
    let ggf = START_GGF
        .replace("TI[15:00]", "TI[soon]")
        .replace("B[F5]", "B[F5//-3]");
    let input = format!("nboard 2\nset depth 2\nset game {ggf}\nmove c4//x\ngo\nping 1\n");
    let (lines, ok) = session_with(&input, &["--tc", "5+0.1"]);
    assert!(ok);
    for expected in [
        "status error: set game: TI[soon] ignored: 'soon' is not a time ([[days.]hours:]minutes:seconds)",
        "status error: set game: the time of move 1 ignored: '-3' is not a time in seconds",
        "status error: move: time ignored: 'x' is not a time in seconds",
    ] {
        assert!(lines.iter().any(|l| l == expected), "{expected}: {lines:?}");
    }
    let mut pos = start_position();
    pos.play(pos.parse_move("c4").unwrap());
    let best = lines.iter().find(|l| l.starts_with("=== ")).unwrap();
    assert!(is_legal(&pos, &best[4..6]), "{best}");
}

/// Bad time options are refused at the start, naming the option, with a failure exit.
#[test]
fn bad_time_options_are_refused() {
    for (args, says) in [
        (&["--tc", "0+1"][..], "the base time must be above zero"),
        (&["--tc", "fast"], "'fast' is not a number of seconds"),
        (&["--time", "2"], "time unit needed"),
        (&["--time", "0s"], "must be more than zero"),
        (&["--time", "1s", "--tc", "1+1"], "cannot be used with"),
        (&["--move-overhead", "99999"], "--move-overhead"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_duel"))
            .arg("nboard")
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// `--selectivity` takes Edax's levels: 100 searches without Multi-ProbCut, which at the same
/// depth takes more nodes than the default 87, and the same move list both ways is legal; a
/// level Edax does not have is refused by name before the loop starts.
#[test]
fn selectivity_levels_change_the_search() {
    let input = format!("nboard 2\nset depth 9\nset game {START_GGF}\ngo\n");
    let nodes = |level: &str| {
        let args = ["nboard", "--hash", "1", "--selectivity", level];
        let out = crate::common::duel_with_input(&args, &input);
        assert!(out.status.success(), "{level}");
        let text = String::from_utf8(out.stdout).unwrap();
        let best = text
            .lines()
            .find(|l| l.starts_with("=== "))
            .expect("an answer");
        assert!(is_legal(
            &start_position(),
            best[4..].split('/').next().unwrap()
        ));
        text.lines()
            .filter_map(|l| l.strip_prefix("nodestats "))
            .filter_map(|l| l.split(' ').next()?.parse::<u64>().ok())
            .max()
            .expect("node counts")
    };
    let (with, without) = (nodes("87"), nodes("100"));
    assert!(
        with * 4 < without * 3,
        "{with} nodes with ProbCut, {without} without"
    );
    assert_eq!(nodes("87%"), with, "the per cent sign is read");
    let (_, err, ok) = crate::common::duel(&["nboard", "--selectivity", "90"]);
    assert!(
        !ok && err.contains("'90' is not a selectivity level"),
        "{err}"
    );
}

/// `--threads 2`: the midgame search (Lazy SMP) and the solver share the work and answer as
/// one thread does where the answer is proven (FFO #23: a2, +4); 0 threads is refused.
#[test]
fn two_threads_answer_as_one() {
    let ffo23 = "--O-------OOX---OOOXXXO-OOOOXOXXXXXOOXOXXXXXXOOXX-XXXXOX--XXXX-- X";
    let ggf = to_ggf(&Othello::from_text(ffo23).unwrap(), &[]);
    let input = format!("nboard 2\nset depth 4\nset game {ggf}\ngo\n");
    let args = ["--threads", "2", "--solve-empties", "18"];
    assert_eq!(go_answer(&input, &args), ("a2".to_string(), 4.0));
    let input = format!("nboard 2\nset depth 6\nset game {START_GGF}\ngo\n");
    let (mv, _) = go_answer(&input, &["--threads", "2"]);
    assert!(is_legal(&start_position(), &mv), "{mv}");
    let (_, err, ok) = crate::common::duel(&["nboard", "--threads", "0"]);
    assert!(!ok && err.contains("--threads"), "{err}");
}

/// A game of `plies` moves from the start, each the first legal one, as NBoard sends it.
fn first_moves_ggf(plies: usize) -> (String, Vec<Othello>) {
    let mut pos = Othello::start();
    let mut moves = Vec::new();
    let mut seen = vec![pos.clone()];
    for _ in 0..plies {
        let mut legal = Vec::new();
        pos.generate_moves(&mut legal);
        pos.play(legal[0]);
        moves.push(legal[0]);
        seen.push(pos.clone());
    }
    (to_ggf(&Othello::start(), &moves), seen)
}

#[test]
fn learn_writes_a_book_that_go_and_hint_then_play_from() {
    let dir = std::env::temp_dir().join(format!("duel-nboard-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("learned.book");
    let _ = std::fs::remove_file(&file);
    let path = file.to_str().unwrap();
    let (ggf, positions) = first_moves_ggf(12);
    // No `quit`: the end of the input lets the learning finish.
    let (lines, ok) = session_with(
        &format!("nboard 2\nset depth 3\nset game {ggf}\nlearn\n"),
        &["--book", path],
    );
    assert!(ok, "{lines:?}");
    assert!(lines[1].contains("is new"), "{lines:?}");
    assert!(lines.iter().any(|l| l == "learned"), "{lines:?}");
    // The last status, which NBoard leaves on its status bar, says what learning did.
    assert_eq!(
        lines
            .iter()
            .rfind(|l| l.starts_with("status"))
            .map(String::as_str),
        Some("status learned: 13 new positions, 13 in all"),
        "{lines:?}"
    );
    let bytes = std::fs::read(&file).unwrap();
    let book = duel_othello::book::Book::from_bytes(&bytes).unwrap();
    assert_eq!(book.len(), 13);
    assert!(positions.iter().all(|p| book.contains(p)));

    // A new session with the book: go answers from it at once, and hint shows its moves.
    let mid = &positions[6];
    let mid_ggf = to_ggf(mid, &[]);
    let (lines, ok) = session_with(
        &format!("nboard 2\nset depth 3\nset game {mid_ggf}\ngo\nhint 2\n"),
        &["--book", path],
    );
    assert!(ok);
    assert!(lines[1].ends_with(", 13 positions"), "{lines:?}");
    let expected = book.best(mid).unwrap();
    let best = lines.iter().find(|l| l.starts_with("=== ")).unwrap();
    assert_eq!(
        best,
        &format!("=== {}/{:.2}/0.0", expected.mv, f64::from(expected.value)),
        "{lines:?}"
    );
    let hints: Vec<_> = lines
        .iter()
        .filter(|l| l.starts_with("book ") || l.starts_with("search "))
        .collect();
    assert_eq!(hints.len(), 2, "{lines:?}");
    assert!(
        hints[0].starts_with(&format!("book {}", expected.mv)),
        "{hints:?}"
    );

    // A file that is not a book is refused by name, with a failing exit.
    std::fs::write(&file, b"not a book").unwrap();
    let out = crate::common::duel_with_input(&["nboard", "--book", path], "nboard 2\n");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("learned.book") && err.contains("DUELBOOK"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_built_in_book_answers_the_start_and_learn_without_a_book_says_so() {
    let start = to_ggf(&Othello::start(), &[]);
    let (lines, ok) = session_with(
        &format!("nboard 2\nset depth 2\nset game {start}\ngo\nhint 4\n"),
        &["--book"],
    );
    assert!(ok);
    assert!(lines[1].starts_with("status book: built in, "), "{lines:?}");
    let best = lines.iter().find(|l| l.starts_with("=== ")).unwrap();
    assert!(is_legal(&Othello::start(), &best[4..6]), "{best}");
    // The four first moves are one under the symmetries: all four from the book, equal.
    let book: Vec<_> = lines.iter().filter(|l| l.starts_with("book ")).collect();
    assert_eq!(book.len(), 4, "{lines:?}");
    let evals: Vec<&str> = book.iter().map(|l| l.split(' ').nth(2).unwrap()).collect();
    assert!(evals.iter().all(|e| *e == evals[0]), "{book:?}");

    let (lines, _) = session(&format!("nboard 2\nset game {start}\nlearn\n"));
    assert!(
        lines.iter().any(|l| l.contains("no book to learn into")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l == "learned"), "{lines:?}");
}
