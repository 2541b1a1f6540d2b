//! `duel match`: a short match against itself (the UCI side of the arena), against an xboard
//! engine when one is installed, and the refusals of bad flags.

use crate::common::duel;

/// Runs a two-game match against `second` (with `extra` flags); checks the report and the PGN
/// file.
fn two_games(second: &str, protocol: &str, extra: &[&str]) {
    // One directory per call: the tests of this file run side by side.
    let dir = std::env::temp_dir().join(format!(
        "duel-match-{}-{protocol}{}",
        std::process::id(),
        extra.concat().replace(['/', '.'], "_")
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
    assert!(out.lines().any(|l| l.starts_with("result: ")), "{out}");
    // One pair: its line counts it once.
    let pairs = out.lines().last().unwrap();
    assert!(
        pairs.starts_with("pairs by the first engine's points"),
        "{out}"
    );
    let counts: u32 = pairs
        .rsplit(": ")
        .next()
        .unwrap()
        .split(' ')
        .map(|c| c.parse::<u32>().unwrap())
        .sum();
    assert_eq!(counts, 1, "{out}");
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

/// A book of one won endgame (queen and rook against the king): games on the clock end in a
/// few moves, where a random opening would play a middlegame of a hundred plies for seconds.
/// One file per test (`name`): the tests of this file run side by side.
pub(crate) fn endgame_book(name: &str) -> String {
    let book = scratch(name).join("kqr-k.epd");
    std::fs::write(&book, "8/8/3k4/8/8/8/8/R3K2Q w - -\n").unwrap();
    book.to_str().unwrap().to_string()
}

#[test]
fn a_short_match_against_itself() {
    let me = format!("{} uci", env!("CARGO_BIN_EXE_duel"));
    two_games(&me, "uci", &["--openings", &endgame_book("itself")]);
    // By nodes per move: no clock, so the same games every time.
    two_games(&me, "uci", &["--nodes", "3000"]);
    let _ = std::fs::remove_dir_all(scratch("itself"));
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
    let (out, err, ok) = against_itself(&["--games", "2", "--nodes", "2000", "--chess960"]);
    assert!(ok && out.contains("1 Chess960 opening of"), "{out}\n{err}");
    // An xboard engine is refused before any game.
    let (_, err, ok) = against_itself(&["--second-protocol", "xboard", "--chess960"]);
    assert!(!ok && err.contains("xboard"), "{err}");
}

#[test]
fn a_short_match_against_an_xboard_engine() {
    let fairymax =
        crate::common::other_engine("fairymax", &["/usr/games/fairymax", "/usr/bin/fairymax"]);
    let Some(fairymax) = fairymax else { return };
    two_games(fairymax, "xboard", &[]);
    // Another start reaches an xboard engine by setboard: Fairy-Max declares `setboard=0`,
    // so it is refused by name; Phalanx has it.
    let dir = scratch("xboard-fen");
    let epd = dir.join("o.epd");
    std::fs::write(
        &epd,
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -\n",
    )
    .unwrap();
    let epd = epd.to_str().unwrap();
    let refused = |extra: &[&str], says: &str| {
        let mut args = vec!["match", "--second", fairymax, "--second-protocol", "xboard"];
        args.extend_from_slice(extra);
        let (_, err, ok) = duel(&args);
        assert!(!ok && err.contains(says), "{extra:?}: {err}");
    };
    refused(
        &["--games", "1", "--tc", "2+0.05", "--openings", epd],
        "setboard",
    );
    if let Some(phalanx) = crate::common::other_engine("phalanx", &["/usr/games/phalanx"]) {
        two_games(phalanx, "xboard", &["--openings", epd]);
    }
    let _ = std::fs::remove_dir_all(&dir);
    // An xboard engine has no node limit to obey.
    refused(&["--nodes", "1000"], "nodes");
}

/// Time odds: the first engine plays on its own control, the second on --tc. A wrapper logs
/// what the first engine is told: each `go` gives both sides' clocks and increments from the
/// two controls, whichever colour it has, and the PGN names each side's control.
#[cfg(unix)]
#[test]
fn time_odds_give_each_engine_its_own_clock() {
    let dir = scratch("odds");
    let (wrap, log) = logged(&dir, "uci");
    let pgn = dir.join("g.pgn");
    let me = format!("{} uci", env!("CARGO_BIN_EXE_duel"));
    let book = endgame_book("odds-book");
    let (out, err, ok) = duel(&[
        "match",
        "--openings",
        &book,
        "--first",
        &wrap,
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
    // Game 1, white from the book's position: both clocks untouched.
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
    let _ = std::fs::remove_dir_all(scratch("odds-book"));
}

/// `duel match` against this duel with `args` after `--second`.
fn against_itself(args: &[&str]) -> (String, String, bool) {
    let me = format!("{} uci", env!("CARGO_BIN_EXE_duel"));
    let mut all = vec!["match", "--second", &me];
    all.extend_from_slice(args);
    duel(&all)
}

/// A scratch directory of this test process.
pub(crate) fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("duel-match-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The games of a PGN file in round order, without the times of the moves (which differ from
/// run to run) and with the text's line breaks evened out.
fn games_by_round(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut games: Vec<(usize, String)> = text
        .split("[Event ")
        .skip(1)
        .map(|g| {
            let round = g.split("[Round \"").nth(1).unwrap();
            let round = round[..round.find('"').unwrap()].parse().unwrap();
            let words: Vec<&str> = g
                .split_whitespace()
                .filter(|w| !(w.ends_with("s}") && w.starts_with(|c: char| c.is_ascii_digit())))
                .collect();
            (round, words.join(" "))
        })
        .collect();
    games.sort();
    games.into_iter().map(|(_, g)| g).collect()
}

/// At a node limit each game is a function of its opening and colours, so two games at a
/// time must play the very games one at a time does, only finishing in another order.
#[test]
fn concurrent_games_are_the_games_played_one_at_a_time() {
    let dir = scratch("concurrency");
    let mut played = Vec::new();
    for concurrency in ["1", "2"] {
        let pgn = dir.join(format!("c{concurrency}.pgn"));
        let _ = std::fs::remove_file(&pgn);
        let (out, err, ok) = against_itself(&[
            "--games",
            "4",
            "--nodes",
            "3000",
            "--seed",
            "3",
            "--concurrency",
            concurrency,
            "--pgn",
            pgn.to_str().unwrap(),
        ]);
        assert!(ok, "{out}\n{err}");
        assert_eq!(out.lines().filter(|l| l.starts_with("game ")).count(), 4);
        let result = out.lines().last().unwrap().to_string();
        played.push((games_by_round(&pgn), result));
    }
    assert_eq!(played[0].0.len(), 4);
    assert_eq!(played[0], played[1]);
    // The same engine on both sides, at a node limit, plays the same game from an opening
    // whichever copy has White: each pair of games gives the first engine exactly one point.
    assert_eq!(
        played[0].1,
        "pairs by the first engine's points (0, 0.5, 1, 1.5, 2): 0 0 2 0 0"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A test between hypotheses a hundred Elo apart, on an engine against itself, decides for
/// H0 once there is a win, a draw and a loss, and no game is played after that.
#[test]
fn a_sequential_test_stops_the_match_when_it_decides() {
    let (out, err, ok) = against_itself(&[
        "--games",
        "40",
        "--nodes",
        "2000",
        "--seed",
        "3",
        "--sprt",
        "100,200,0.4,0.4",
    ]);
    assert!(ok, "{out}\n{err}");
    let verdict = out.lines().last().unwrap();
    let after: usize = verdict
        .strip_prefix("SPRT: H0 accepted after ")
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    let games = out.lines().filter(|l| l.starts_with("game ")).count();
    assert!(after < 40 && games == after, "{out}");
    let result = out.lines().find(|l| l.starts_with("result: ")).unwrap();
    assert!(!result.contains(" 0-") && !result.contains("-0 "), "{out}");
}

/// Openings from an EPD file start each game from its position (a FEN tag in the PGN); from
/// a PGN file, each game starts with its moves.
#[test]
fn openings_come_from_epd_and_pgn_files() {
    let dir = scratch("openings");
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1";
    let epd = dir.join("o.epd");
    std::fs::write(
        &epd,
        format!("# one position\n{} id \"x\";\n", &fen[..fen.len() - 4]),
    )
    .unwrap();
    let book = dir.join("o.pgn");
    std::fs::write(&book, "[Event \"b\"]\n\n1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 *\n").unwrap();
    // The two games of a one-opening match from `file`, with `extra` flags.
    let play = |file: &std::path::Path, extra: &[&str]| {
        let pgn = dir.join("games.pgn");
        let _ = std::fs::remove_file(&pgn);
        let mut args = vec![
            "--games",
            "2",
            "--nodes",
            "2000",
            "--pgn",
            pgn.to_str().unwrap(),
        ];
        args.extend_from_slice(&["--openings", file.to_str().unwrap()]);
        args.extend_from_slice(extra);
        let (out, err, ok) = against_itself(&args);
        assert!(ok, "{out}\n{err}");
        assert!(out.contains("1 opening from"), "{out}");
        let games = games_by_round(&pgn);
        assert_eq!(games.len(), 2);
        games
    };
    for (file, check) in [
        (&epd, format!("[FEN \"{fen}\"]")),
        (&book, "1. d4 Nf6 2. c4 e6 3. Nc3 Bb4".to_string()),
    ] {
        let games = play(file, &[]);
        assert!(
            games.iter().all(|g| g.contains(&check)),
            "{check}: {games:?}"
        );
    }
    // --opening-plies caps what is taken from a book's game: the engines' own moves, which
    // carry their values as comments, start at the third ply.
    for g in play(&book, &["--opening-plies", "2"]) {
        let moves = &g[g.find("1. d4 Nf6 2. ").unwrap()..];
        let third = moves.split_whitespace().nth(5).unwrap();
        assert!(third.starts_with('{'), "{g}");
    }
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
        (&["match", "--second", "x", "--sprt", "5,0"][..], "ELO1"),
        (
            &["match", "--second", "x", "--sprt", "0,5,1,1"][..],
            "ALPHA",
        ),
        (
            &["match", "--second", "x", "--concurrency", "0"][..],
            "concurrency",
        ),
        (
            &["match", "--second", "x", "--openings", "/no/such/book.epd"][..],
            "/no/such/book.epd",
        ),
    ] {
        let (_, err, ok) = duel(args);
        assert!(!ok, "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // A book with a bad line or an illegal move is refused by its place in the file.
    let dir = scratch("bad-books");
    for (name, text, says) in [
        (
            "a.epd",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nnot a position\n",
            "line 2",
        ),
        (
            "b.pgn",
            "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 Ke7 2. Qh5 Kd6 3. Ke3 *\n",
            "game 2",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let (_, err, ok) = duel(&[
            "match",
            "--second",
            "x",
            "--openings",
            path.to_str().unwrap(),
        ]);
        assert!(
            !ok && err.contains(name) && err.contains(says),
            "{name}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Othello between two evaluators in process at a node limit: the same games whatever way
/// the match is split, so the shards' result files merge into the whole match's report.
#[test]
fn shards_merge_into_the_whole_match() {
    let dir = scratch("shards");
    let file = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "match",
            "--game",
            "othello",
            "--first",
            "duel:eval=pattern",
            "--second",
            "duel:eval=textbook",
            "--nodes",
            "300",
            "--seed",
            "5",
        ];
        args.extend_from_slice(extra);
        if !args.contains(&"--games") {
            args.extend_from_slice(&["--games", "10"]);
        }
        let (out, err, ok) = duel(&args);
        assert!(ok, "{args:?}: {out}\n{err}");
        out
    };
    let whole = run(&["--results", &file("whole.json")]);
    assert_eq!(whole.lines().filter(|l| l.starts_with("game ")).count(), 10);
    let mut shards = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let out = run(&["--shard", &shard, "--results", &file(&format!("s{k}.json"))]);
        assert!(out.contains(&format!("shard {k}/3")), "{out}");
        shards.push(file(&format!("s{k}.json")));
    }
    let merged = |files: &[String]| {
        let mut args = vec!["match-merge"];
        args.extend(files.iter().map(String::as_str));
        let (out, err, ok) = duel(&args);
        assert!(ok, "{out}\n{err}");
        out
    };
    // One run one game at a time prints its games in order, as the merge does.
    assert_eq!(merged(&shards), whole);
    assert_eq!(merged(&[file("whole.json")]), whole);
    // Files of another match, or not every shard, are refused by name.
    run(&[
        "--shard",
        "1/3",
        "--games",
        "12",
        "--results",
        &file("other.json"),
    ]);
    for (files, says) in [
        (
            vec![shards[0].clone(), file("other.json")],
            "games is 12, not 10",
        ),
        (
            vec![shards[0].clone(), shards[1].clone()],
            "shard 3/3 is missing",
        ),
        (vec![shards[0].clone(), shards[0].clone()], "also in"),
        (vec![file("nothing.json")], "nothing.json"),
    ] {
        let mut args = vec!["match-merge"];
        args.extend(files.iter().map(String::as_str));
        let (_, err, ok) = duel(&args);
        assert!(!ok && err.contains(says), "{files:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Othello against an NBoard engine (this duel's `duel nboard`), the record kept as GGF.
#[test]
fn othello_against_an_nboard_engine() {
    let dir = scratch("nboard");
    let ggf = dir.join("games.ggf");
    let me = format!("{} nboard", env!("CARGO_BIN_EXE_duel"));
    let (out, err, ok) = duel(&[
        "match",
        "--game",
        "othello",
        "--first",
        "duel:eval=pattern",
        "--second",
        &me,
        "--depth",
        "2",
        "--games",
        "2",
        "--pgn",
        ggf.to_str().unwrap(),
    ]);
    assert!(ok, "{out}\n{err}");
    assert_eq!(out.lines().filter(|l| l.starts_with("game ")).count(), 2);
    let text = std::fs::read_to_string(&ggf).unwrap();
    assert_eq!(text.matches("(;GM[Othello]").count(), 2, "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An NBoard engine that answers with an empty value, as NTest does a forced move
/// (`=== B7//0.00`), plays on; one whose answer does not read loses the game at once, its line
/// named, instead of leaving it waiting out the hour a depth-limited game allows, and the
/// match goes on.
#[cfg(unix)]
#[test]
fn nboard_answers_with_an_empty_or_a_bad_value() {
    let dir = scratch("nboard-answers");
    let rewritten = |name: &str, to: &str| {
        let body = format!(
            "'{}' nboard | sed -u 's#^=== \\([^/]*\\)/[^/]*/#=== \\1/{to}/#'",
            env!("CARGO_BIN_EXE_duel")
        );
        script(&dir, name, &body)
    };
    let two_games = |engine: &str| {
        duel(&[
            "match",
            "--game",
            "othello",
            "--second",
            engine,
            "--second-protocol",
            "nboard",
            "--depth",
            "2",
            "--games",
            "2",
        ])
    };
    let (out, err, ok) = two_games(&rewritten("empty.sh", ""));
    assert!(ok, "{out}\n{err}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("game ")).count(),
        2,
        "{out}"
    );
    let (out, err, ok) = two_games(&rewritten("bad.sh", "x"));
    assert!(ok, "{out}\n{err}");
    assert_eq!(
        out.matches(" sent garbage: an unreadable answer '=== ")
            .count(),
        2,
        "{out}"
    );
    assert!(
        out.contains("faults of the second engine: 0 losses on time, 0 illegal moves, 0 crashes, 2 garbage answers"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Gomoku against a Gomocup brain (this duel's `duel gomocup`) on a clock, renju on 20x20,
/// the record kept as each game's move list; a node limit is refused for the brain by name.
#[test]
fn gomoku_against_a_gomocup_brain() {
    let dir = scratch("gomocup");
    let record = dir.join("games.txt");
    let me = format!("{} gomocup", env!("CARGO_BIN_EXE_duel"));
    let (out, err, ok) = duel(&[
        "match",
        "--game",
        "gomoku:renju:20",
        "--first",
        "duel:eval=textbook",
        "--second",
        &me,
        // Generous for a debug build beside the other tests on two cores: a loss on time
        // here is the load's, and the long matches (scripts/long-matches.sh) count those.
        "--tc",
        "2+0.1",
        "--opening-plies",
        "4",
        "--games",
        "2",
        "--pgn",
        record.to_str().unwrap(),
    ]);
    assert!(ok, "{out}\n{err}");
    let games: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{out}");
    assert!(!out.contains("illegal") && !out.contains("time"), "{out}");
    let text = std::fs::read_to_string(&record).unwrap();
    assert_eq!(text.matches("renju:20 ").count(), 2, "{text}");
    // Piskvork's opening list, centred on the board; a line falling off it is skipped.
    let book = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/gomoku/openings-piskvork.txt"
    );
    let (out, err, ok) = duel(&[
        "match",
        "--game",
        "gomoku",
        "--first",
        "duel:eval=textbook,nodes=300",
        "--second",
        "duel:nodes=300",
        "--openings",
        book,
        "--games",
        "4",
    ]);
    assert!(ok, "{out}\n{err}");
    assert!(
        out.contains("openings from") && out.contains("game 4:"),
        "{out}"
    );
    let (_, err, ok) = duel(&[
        "match", "--game", "gomoku", "--second", &me, "--nodes", "100", "--games", "2",
    ]);
    assert!(!ok && err.contains("nodes"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A shell script `name` in `dir` whose body is `body`: its path.
#[cfg(unix)]
pub(crate) fn script(dir: &std::path::Path, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_str().unwrap().to_string()
}

/// A script that runs `duel SUBCOMMAND`, logging what it is told: (the script, the log).
#[cfg(unix)]
fn logged(dir: &std::path::Path, subcommand: &str) -> (String, std::path::PathBuf) {
    let log = dir.join("in.log");
    let body = format!(
        "tee -a '{}' | '{}' {subcommand}",
        log.display(),
        env!("CARGO_BIN_EXE_duel")
    );
    (script(dir, "wrap.sh", &body), log)
}

/// A time per move over UCI is `go movetime`, whoever is to move.
#[cfg(unix)]
#[test]
fn a_time_per_move_is_go_movetime() {
    let dir = scratch("uci-movetime");
    let (wrap, log) = logged(&dir, "uci");
    let book = endgame_book("uci-movetime-book");
    let (out, err, ok) = against_itself(&[
        "--first",
        &wrap,
        "--tc",
        "0.05/move",
        "--games",
        "2",
        "--openings",
        &book,
    ]);
    assert!(ok && out.contains("at 0.05/move"), "{out}\n{err}");
    let told = std::fs::read_to_string(&log).unwrap();
    let goes: Vec<&str> = told.lines().filter(|l| l.starts_with("go ")).collect();
    assert!(
        goes.len() >= 2 && goes.iter().all(|g| *g == "go movetime 50"),
        "{told}"
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(scratch("uci-movetime-book"));
}

/// A time per move (`--tc 0.1/move`), as Gomocup tournaments play: the brain is told the
/// turn's limit and no game limit, never a clock to share out. The book's line leaves Black an
/// open three to make a four of, so that each game is three moves and each side moves.
#[cfg(unix)]
#[test]
fn a_time_per_move_is_the_turn_limit_of_a_gomocup_brain() {
    let dir = scratch("movetime");
    let (wrap, log) = logged(&dir, "gomocup");
    let book = dir.join("book.txt");
    std::fs::write(&book, "h8 a1 i8 a2 j8 a3\n").unwrap();
    let book = book.to_str().unwrap();
    let two_games = |brain: &str, tc: &str| {
        duel(&[
            "match",
            "--game",
            "gomoku",
            "--first",
            brain,
            "--first-protocol",
            "gomocup",
            "--second",
            "duel:nodes=300",
            "--tc",
            tc,
            "--openings",
            book,
            "--games",
            "2",
        ])
    };
    let (out, err, ok) = two_games(&wrap, "0.1/move");
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("2 games at 0.1/move"), "{out}");
    assert!(
        out.contains("five in a row") && !out.contains("on time"),
        "{out}"
    );
    let told = std::fs::read_to_string(&log).unwrap();
    assert!(told.contains("INFO timeout_match 0"), "{told}");
    let turns = told
        .lines()
        .filter(|l| *l == "INFO timeout_turn 100")
        .count();
    assert_eq!(turns, 3, "{told}");
    assert!(!told.contains("time_left"), "{told}");
    // A brain that complains (`ERROR`) before each of its moves, as Rapfi does of an `INFO`
    // it reads while its search is ending: the complaint is not its move.
    let body = format!(
        "'{}' gomocup | sed -u 's/^\\([0-9]*,[0-9]*\\)$/ERROR Unknown command: X\\n\\1/'",
        env!("CARGO_BIN_EXE_duel")
    );
    let grumbler = script(&dir, "grumbler.sh", &body);
    let (out, err, ok) = two_games(&grumbler, "0.2/move");
    assert!(ok, "{out}\n{err}");
    assert_eq!(out.matches("(five in a row)").count(), 2, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// What is wrong with the new flags is said by name.
/// An option the engine did not announce is refused, naming those it did (issue 70: a typo
/// was dropped without a word and the match played with the default); a program that does
/// not exist is said once, with what to do; `duel` as a program is this binary, so the
/// README's `--second "duel uci"` runs from a fresh clone.
#[test]
fn outside_programs_are_checked_and_duel_is_this_binary() {
    let (out, err, ok) = duel(&[
        "match",
        "--second",
        "duel uci",
        "--second-option",
        "Evaluatr=strong",
        "--games",
        "2",
        "--nodes",
        "500",
    ]);
    assert!(!ok && !out.contains("result:"), "{out}");
    for says in ["has no option 'Evaluatr'", "Evaluator", "Hash"] {
        assert!(err.contains(says), "{err}");
    }
    let (_, err, ok) = duel(&["match", "--second", "no-such-engine-here", "--games", "2"]);
    assert!(
        !ok && err.contains("no such program") && err.contains("give its path"),
        "{err}"
    );
    assert_eq!(err.matches("No such file").count(), 1, "{err}");
    let (out, err, ok) = duel(&[
        "match",
        "--second",
        "duel uci",
        "--second-option",
        "evaluator=material",
        "--games",
        "2",
        "--nodes",
        "500",
        "--seed",
        "3",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("duel uci vs duel uci: 2 games"), "{out}");
    assert!(out.contains("1 opening of 8 plies"), "{out}");
    assert!(out.contains("result:"), "{out}");
}

#[test]
fn bad_players_games_and_shards_are_refused() {
    let me = format!("{} nboard", env!("CARGO_BIN_EXE_duel"));
    for (args, says) in [
        (&["match", "--game", "go", "--second", "duel"][..], "'go'"),
        (
            &["match", "--second", "duel:speed=9"][..],
            "unknown key 'speed'",
        ),
        (&["match", "--second", "duel:eval=nope"][..], "'nope'"),
        (
            &["match", "--second", "duel", "--second-option", "Hash=1"][..],
            "in the spec",
        ),
        (&["match", "--second", "x", "--shard", "3/2"][..], "3/2"),
        (&["match", "--second", "x", "--shard", "2"][..], "K/N"),
        (
            &[
                "match",
                "--game",
                "othello",
                "--second",
                "duel",
                "--chess960",
            ][..],
            "chess960",
        ),
        (
            &[
                "match",
                "--game",
                "othello",
                "--second",
                "duel",
                "--openings",
                "b.pgn",
            ][..],
            "b.pgn",
        ),
        (
            &[
                "match", "--game", "othello", "--second", &me, "--nodes", "100", "--games", "2",
            ][..],
            "nodes",
        ),
        (&["match-merge"][..], "FILE"),
    ] {
        let (_, err, ok) = duel(args);
        assert!(!ok && err.contains(says), "{args:?}: {err}");
    }
}

/// Xiangqi against a UCCI engine (this duel's `duel ucci`, the game's own protocol, so no
/// `--second-protocol`): times in milliseconds once `usemillisec` is on, a time per move as
/// the whole clock with one move to go, the clocks with `opptime`, a node limit as
/// `go nodes`, the start as a FEN, and games played to the end.
#[cfg(unix)]
#[test]
fn xiangqi_against_a_ucci_engine() {
    let dir = scratch("ucci");
    let (wrap, log) = logged(&dir, "ucci");
    // Two chariots against the bare general: each game is a few moves, won by Red.
    let book = dir.join("rr-k.txt");
    std::fs::write(&book, "3k5/9/9/9/9/9/9/9/9/RR2K4 w - - 0 1\n").unwrap();
    let book = book.to_str().unwrap();
    let two_games = |limit: &[&str]| {
        let mut args = vec![
            "match",
            "--game",
            "xiangqi",
            "--first",
            "duel:nodes=2000",
            "--second",
            &wrap,
            "--games",
            "2",
            "--openings",
            book,
        ];
        args.extend_from_slice(limit);
        let (out, err, ok) = duel(&args);
        assert!(ok, "{out}\n{err}");
        // Red wins each game, by checkmate or stalemate (which loses too).
        assert_eq!(out.matches(": 1-0 (").count(), 2, "{out}");
    };
    two_games(&["--tc", "0.05/move"]);
    two_games(&["--tc", "2+0.05"]);
    two_games(&["--nodes", "2000"]);
    let told = std::fs::read_to_string(&log).unwrap();
    for line in [
        "ucci",
        "setoption usemillisec true",
        "setoption newgame",
        "isready",
        "position fen 3k5/9/9/9/9/9/9/9/9/RR2K4 w - - 0 1",
        "go time 50 movestogo 1",
        "go nodes 2000",
    ] {
        assert!(told.lines().any(|l| l == line), "{line}: {told}");
    }
    assert!(
        told.lines().any(|l| l.starts_with("go time ")
            && l.contains(" increment 50 opptime ")
            && l.ends_with(" oppincrement 50")),
        "{told}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Xiangqi against a UCI engine in Pikafish's dialect (this duel's `duel uci --dialect
/// pikafish`, which announces no `UCI_Variant`): the moves go both ways in the game's own
/// ICCS, ranks from 0, as Pikafish reads and writes them, not shifted as for
/// Fairy-Stockfish.
#[cfg(unix)]
#[test]
fn xiangqi_against_a_uci_engine_in_pikafish_dialect() {
    let dir = scratch("pikafish");
    let (wrap, log) = logged(&dir, "uci --dialect pikafish");
    // Black to move first, then two chariots mate: the engine moves for each side once.
    let book = dir.join("rr-k.txt");
    std::fs::write(&book, "3k5/9/9/9/9/9/9/9/9/RR2K4 b - - 0 1\n").unwrap();
    let (out, err, ok) = duel(&[
        "match",
        "--game",
        "xiangqi",
        "--first",
        &wrap,
        "--first-protocol",
        "uci",
        "--second",
        "duel:nodes=2000",
        "--games",
        "2",
        "--openings",
        book.to_str().unwrap(),
        "--nodes",
        "2000",
    ]);
    assert!(ok, "{out}\n{err}");
    // Red wins each game.
    assert_eq!(out.matches(": 1-0 (").count(), 2, "{out}");
    let told = std::fs::read_to_string(&log).unwrap();
    assert!(!told.contains("UCI_Variant"), "{told}");
    // Black's general starts on d9 (d10 in Fairy-Stockfish's count), and the engine, Red in
    // one game, is told its move so.
    let start = "position fen 3k5/9/9/9/9/9/9/9/9/RR2K4 b - - 0 1";
    assert!(told.lines().any(|l| l == start), "{told}");
    assert!(
        told.lines()
            .any(|l| l.starts_with(&format!("{start} moves d9"))),
        "{told}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Xiangqi against an xboard engine: `variant xiangqi` after `new`, when the engine lists it;
/// one that does not is refused by name before a game starts. Sjaak II plays two games when
/// it is installed.
#[cfg(unix)]
#[test]
fn xiangqi_against_an_xboard_engine() {
    let dir = scratch("xboard-xiangqi");
    let chess_only = script(
        &dir,
        "chess-only.sh",
        "echo 'feature variants=\"normal,suicide\" done=1'; cat >/dev/null",
    );
    let (_, err, ok) = duel(&[
        "match",
        "--game",
        "xiangqi",
        "--second",
        &chess_only,
        "--second-protocol",
        "xboard",
        "--games",
        "2",
        "--tc",
        "1+0.01",
    ]);
    assert!(
        !ok && err.contains("does not list xiangqi among its variants (normal, suicide)"),
        "{err}"
    );
    // An engine that refuses every move it is sent loses the game, the refusal named, rather
    // than play on against a board that is not the game's; the match goes on.
    let refuser = script(
        &dir,
        "refuser.sh",
        "echo 'feature ping=1 variants=\"xiangqi\" done=1'
while read -r l; do
  case \"$l\" in
    ping*) echo \"pong ${l#ping }\" ;;
    [a-i][0-9][a-i][0-9]) echo \"Illegal move: $l\" ;;
    go) echo 'move h9g7' ;;
  esac
done",
    );
    let (out, err, ok) = duel(&[
        "match",
        "--game",
        "xiangqi",
        "--first",
        "duel:nodes=500",
        "--second",
        &refuser,
        "--second-protocol",
        "xboard",
        "--games",
        "2",
        "--tc",
        "1+0.01",
    ]);
    assert!(ok, "{out}\n{err}");
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
    // Each game has an opening's moves for it to refuse.
    assert!(
        lines.len() == 2
            && lines.iter().all(|l| l
                .contains(" broke the protocol: it refused a move of the game: Illegal move: ")),
        "{out}"
    );
    assert!(out.contains("faults of the second engine: 0 losses on time, 0 illegal moves, 0 crashes, 2 garbage answers"), "{out}");
    let Some(sjaakii) = crate::common::other_engine("sjaakii", &["/usr/games/sjaakii"]) else {
        return;
    };
    let pgn = dir.join("games.pgn");
    let (out, err, ok) = duel(&[
        "match",
        "--game",
        "xiangqi",
        "--second",
        sjaakii,
        "--second-protocol",
        "xboard",
        "--games",
        "2",
        "--tc",
        "2+0.05",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "{out}\n{err}");
    assert_eq!(out.lines().filter(|l| l.starts_with("game ")).count(), 2);
    assert!(!out.contains("illegal"), "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Variant \"xiangqi\"]").count(), 2, "{text}");
    // Sjaak II reads horses and elephants only as H and E: a FEN with N and B (the
    // Fairy-Stockfish form duel writes) is refused, and so is the match, by name.
    let book = dir.join("one.txt");
    std::fs::write(
        &book,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAB1R w - - 0 1\n",
    )
    .unwrap();
    let (_, err, ok) = duel(&[
        "match",
        "--game",
        "xiangqi",
        "--second",
        sjaakii,
        "--second-protocol",
        "xboard",
        "--games",
        "2",
        "--tc",
        "1+0.01",
        "--openings",
        book.to_str().unwrap(),
    ]);
    assert!(
        !ok && err.contains("refused the game's set-up: tellusererror"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game with no record format of its own (tic-tac-toe, Gomoku) is recorded under PGN's
/// tags all the same: the players under the game's side names, the result, why it ended.
#[test]
fn records_of_games_without_a_format_name_the_players() {
    let dir = scratch("plain-records");
    let path = dir.join("games.txt");
    let (out, err, ok) = duel(&[
        "match",
        "--game",
        "tictactoe",
        "--first",
        "duel",
        "--second",
        "duel:eval=open-lines",
        "--games",
        "2",
        "--depth",
        "9",
        "--pgn",
        path.to_str().unwrap(),
    ]);
    assert!(ok, "{out}{err}");
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.matches("[Event \"duel match\"]").count(), 2, "{text}");
    for tag in [
        "[X \"duel\"]",
        "[O \"duel:eval=open-lines\"]",
        "[Result \"1/2-1/2\"]",
        "[Termination \"the board is full\"]",
    ] {
        assert!(text.contains(tag), "{tag} in {text}");
    }
    // The moves follow the tags, without a stray space, and end with the result.
    assert!(
        text.lines()
            .any(|l| l.ends_with(" 1/2-1/2") && !l.starts_with(' ')),
        "{text}"
    );
}
