//! The malformed-input corpora of issue 46, replayed against the real binary. For each
//! protocol, `tests/data/corpus/PROTOCOL.txt` holds bad and odd lines (its header gives the
//! format), sent in order to one engine, each followed by the protocol's synchronisation
//! command: every bad line must be answered in the protocol's own error form and no odd one,
//! every synchronisation at once, with nothing written that is not the protocol's; after the
//! corpus the engine must still play a legal move, and end cleanly, without a panic. Apart
//! from the corpora, which cannot end the engine: `quit` (Gomocup's `END`) during a search.

use std::path::Path;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use duel_chess::Chess;
use duel_core::Game;
use duel_gomoku::Gomoku;
use duel_othello::Othello;
use duel_xiangqi::Xiangqi;

use crate::transcript::{Engine, AT_ONCE, PATIENCE};

/// What an entry's output must show, besides the synchronisation's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Says {
    /// At least one line in the protocol's error form.
    Error,
    /// No error; at least one informational line.
    Note,
    /// Neither.
    Quiet,
}

/// One entry of a corpus file.
struct Entry {
    /// Where it is: `uci.txt:42`.
    at: String,
    says: Says,
    /// A search answers it with a move.
    moves: bool,
    /// What is sent, the final LF aside.
    bytes: Vec<u8>,
}

/// What the replay needs to know of a protocol: how to start it, synchronise with it, and read
/// its answers.
struct Protocol {
    /// The corpus file, under `tests/data/corpus/`.
    file: &'static str,
    /// `duel`'s arguments.
    args: &'static [&'static str],
    /// Lines sent before the corpus, each with the start of the line that answers it, if any.
    hello: &'static [(&'static str, Option<&'static str>)],
    /// The synchronisation command numbered `n`.
    sync: fn(u64) -> String,
    /// Whether a line answers synchronisation `n`.
    synced: fn(&str, u64) -> bool,
    /// Whether an input line is the synchronisation command itself, which the engine answers
    /// as it answers the test's own.
    is_sync: fn(&str) -> bool,
    /// The error form, for failure messages.
    error_form: &'static str,
    /// The message of a line in the error form.
    error: fn(&str) -> Option<&str>,
    /// The text of an informational line that is no error (nor the search's own progress).
    note: fn(&str) -> Option<&str>,
    /// The moves of a line that ends a search (none for an answer without a move).
    answer: fn(&str) -> Option<Vec<&str>>,
    /// Whether a move is written as the game writes its moves.
    shape: fn(&str) -> bool,
    /// Whether a line is one of the protocol's.
    known: fn(&str) -> bool,
    /// After the corpus: lines that set a position and start a search of it.
    finale: &'static [&'static str],
    /// Whether the move answered is legal in that position (why not, if it is not).
    legal: fn(&str) -> Result<(), String>,
}

/// The bytes of a corpus entry's LINE, its escapes decoded (see the corpus files' header).
fn decode(line: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut bytes = line.bytes().peekable();
    while let Some(b) = bytes.next() {
        if b != b'\\' {
            out.push(b);
            continue;
        }
        match bytes.next() {
            Some(b'\\') => out.push(b'\\'),
            Some(b't') => out.push(b'\t'),
            Some(b'r') => out.push(b'\r'),
            Some(b'n') => out.push(b'\n'),
            Some(b'x') => {
                let hex: Vec<u8> = bytes.by_ref().take(2).collect();
                let byte = std::str::from_utf8(&hex)
                    .ok()
                    .filter(|h| h.len() == 2)
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or("\\x needs two hex digits")?;
                out.push(byte);
            }
            Some(b'*') => {
                let mut n: usize = 0;
                let mut digits = 0;
                while let Some(d) = bytes.next_if(u8::is_ascii_digit) {
                    n = n
                        .checked_mul(10)
                        .and_then(|n| n.checked_add(usize::from(d - b'0')))
                        .ok_or("\\* count too large")?;
                    digits += 1;
                }
                let &last = out.last().ok_or("\\* with no byte before it")?;
                if digits == 0 || n == 0 {
                    return Err("\\* needs a count of at least 1".into());
                }
                out.extend(std::iter::repeat_n(last, n - 1));
            }
            Some(other) => return Err(format!("unknown escape '\\{}'", other as char)),
            None => return Err("a lone '\\' ends the line".into()),
        }
    }
    Ok(out)
}

/// The entries of a corpus file; a malformed one fails the test, naming its line.
fn read_corpus(file: &str) -> Vec<Entry> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/corpus")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut entries = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let at = format!("{file}:{}", i + 1);
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let (expect, line) = raw.split_once('\t').unwrap_or((raw, ""));
        let (says, moves) = match expect.strip_suffix("+move") {
            Some(says) => (says, true),
            None => (expect, false),
        };
        let says = match says {
            "error" => Says::Error,
            "note" => Says::Note,
            "quiet" => Says::Quiet,
            _ => panic!("{at}: '{expect}' is no EXPECT (error, note or quiet, then +move or not)"),
        };
        let bytes = decode(line).unwrap_or_else(|why| panic!("{at}: {why}"));
        entries.push(Entry {
            at,
            says,
            moves,
            bytes,
        });
    }
    entries
}

/// `text` cut short for a failure message (the corpus has lines of 100 kB, and so do some
/// answers, which name what they refuse).
fn short(text: &str) -> String {
    const MOST: usize = 120;
    match text.char_indices().nth(MOST) {
        Some((end, _)) => format!("{}... ({} bytes)", &text[..end], text.len()),
        None => text.to_string(),
    }
}

fn shown(lines: &[String]) -> Vec<String> {
    lines.iter().map(|l| short(l)).collect()
}

/// Reads lines until `count` of them satisfy `done`, all within `limit`; fails naming `at`,
/// with only the lines read here (the whole transcript would be megabytes).
fn read_until(
    e: &mut Engine,
    limit: Duration,
    at: &str,
    count: usize,
    done: impl Fn(&str) -> bool,
) -> Vec<String> {
    let start = Instant::now();
    let mut got = Vec::new();
    let mut hits = 0;
    while hits < count {
        match e.lines.recv_timeout(limit.saturating_sub(start.elapsed())) {
            Ok(line) => {
                hits += usize::from(done(&line));
                got.push(line);
            }
            Err(RecvTimeoutError::Timeout) => {
                panic!("{at}: no answer within {limit:?}; read: {:?}", shown(&got))
            }
            Err(RecvTimeoutError::Disconnected) => panic!(
                "{at}: the engine's output ended ({:?}); read: {:?}",
                e.child.try_wait(),
                shown(&got)
            ),
        }
    }
    got
}

/// Replays `p`'s corpus, then asks for a move and checks it; the engine must then end cleanly
/// at the end of its input.
fn replay(p: &Protocol) {
    let entries = read_corpus(p.file);
    assert!(
        entries.len() >= 60,
        "{}: {} entries, fewer than the 60 issue 46 asks for",
        p.file,
        entries.len()
    );
    let mut e = Engine::start(p.args);
    for (line, answer) in p.hello {
        e.send(line);
        if let Some(answer) = answer {
            read_until(&mut e, PATIENCE, line, 1, |l| l.starts_with(answer));
        }
    }
    for (n, entry) in (1..).zip(&entries) {
        let mut bytes = entry.bytes.clone();
        bytes.push(b'\n');
        e.send_bytes(&bytes);
        let mut got = Vec::new();
        if entry.moves {
            got = read_until(&mut e, PATIENCE, &entry.at, 1, |l| (p.answer)(l).is_some());
        }
        e.send(&(p.sync)(n));
        let own = entry
            .bytes
            .split(|&b| b == b'\n')
            .filter(|l| (p.is_sync)(&String::from_utf8_lossy(l)))
            .count();
        got.extend(read_until(&mut e, AT_ONCE, &entry.at, 1 + own, |l| {
            (p.synced)(l, n)
        }));
        check(p, entry, &got);
    }
    for line in p.finale {
        e.send(line);
    }
    let at = format!("{}, after the corpus", p.file);
    let got = read_until(&mut e, PATIENCE, &at, 1, |l| (p.answer)(l).is_some());
    let answer = (p.answer)(got.last().unwrap()).unwrap();
    let mv = answer
        .first()
        .unwrap_or_else(|| panic!("{at}: no move: {:?}", shown(&got)));
    if let Err(why) = (p.legal)(mv) {
        panic!("{at}: '{mv}' answered {:?}: {why}", p.finale);
    }
    let (status, stderr) = e.close_ended();
    assert!(
        status.success() && !stderr.contains("panicked"),
        "{at}: at the end of the input: {status}; standard error: {stderr}"
    );
}

/// Checks the output `got` of one entry (up to the synchronisation's answer).
fn check(p: &Protocol, entry: &Entry, got: &[String]) {
    let at = &entry.at;
    let sent = short(&String::from_utf8_lossy(&entry.bytes));
    if let Some(l) = got.iter().find(|l| !(p.known)(l)) {
        panic!(
            "{at}: '{sent}' was answered '{}', no line of the protocol; read: {:?}",
            short(l),
            shown(got)
        );
    }
    let errors: Vec<&str> = got.iter().filter_map(|l| (p.error)(l)).collect();
    let notes: Vec<&str> = got.iter().filter_map(|l| (p.note)(l)).collect();
    match entry.says {
        Says::Error => {
            assert!(
                !errors.is_empty(),
                "{at}: '{sent}' must be answered with {}; read: {:?}",
                p.error_form,
                shown(got)
            );
            assert!(
                errors.iter().all(|m| !m.trim().is_empty()),
                "{at}: '{sent}': an error without a message; read: {:?}",
                shown(got)
            );
        }
        Says::Note => assert!(
            errors.is_empty() && !notes.is_empty(),
            "{at}: '{sent}' must be answered with a message and no error; read: {:?}",
            shown(got)
        ),
        Says::Quiet => assert!(
            errors.is_empty() && notes.is_empty(),
            "{at}: '{sent}' must be answered with no error and no message; read: {:?}",
            shown(got)
        ),
    }
    let answers: Vec<Vec<&str>> = got.iter().filter_map(|l| (p.answer)(l)).collect();
    if entry.moves {
        assert!(
            answers
                .iter()
                .all(|moves| !moves.is_empty() && moves.iter().all(|m| (p.shape)(m))),
            "{at}: '{sent}' must be answered with a move; read: {:?}",
            shown(got)
        );
    } else {
        assert!(
            answers.iter().all(Vec::is_empty),
            "{at}: '{sent}' was answered with a move (a search it started?); read: {:?}",
            shown(got)
        );
    }
}

/// The first word of a line.
fn word(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

/// `mv` played after `before` from `pos`: Ok if legal.
fn legal_after<G: Game>(mut pos: G, before: &[&str], mv: &str) -> Result<(), String> {
    for m in before {
        let m = pos.parse_move(m).expect("the test's own moves are legal");
        pos.play(m);
    }
    pos.parse_move(mv).map(|_| ()).map_err(|e| e.to_string())
}

/// The text after `prefix` in `line`, trimmed, if `line` starts with it.
fn after<'a>(line: &'a str, prefix: &str) -> Option<&'a str> {
    line.strip_prefix(prefix).map(str::trim)
}

/// UCI's and UCCI's `bestmove M [ponder P]`.
fn bestmove(line: &str) -> Option<Vec<&str>> {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("bestmove") => Some(words.next().into_iter().collect()),
        _ => None,
    }
}

const UCI: Protocol = Protocol {
    file: "uci.txt",
    args: &["uci"],
    hello: &[("uci", Some("uciok"))],
    sync: |_| "isready".into(),
    synced: |l, _| l == "readyok",
    is_sync: |l| word(l) == "isready",
    error_form: "'info string error: ...'",
    error: |l| after(l, "info string error:"),
    note: |l| after(l, "info string").filter(|_| !l.starts_with("info string error:")),
    answer: bestmove,
    shape: |m| {
        let b = m.as_bytes();
        matches!(b.len(), 4 | 5)
            && (b'a'..=b'h').contains(&b[0])
            && (b'1'..=b'8').contains(&b[1])
            && (b'a'..=b'h').contains(&b[2])
            && (b'1'..=b'8').contains(&b[3])
            && b.get(4).is_none_or(|p| b"qrbn".contains(p))
    },
    known: |l| ["id", "uciok", "readyok", "bestmove", "info", "option"].contains(&word(l)),
    finale: &["position startpos moves e2e4 e7e5", "go depth 2"],
    legal: |mv| legal_after(Chess::start(), &["e2e4", "e7e5"], mv),
};

const UCCI: Protocol = Protocol {
    file: "ucci.txt",
    args: &["ucci"],
    hello: &[("ucci", Some("ucciok"))],
    sync: |_| "isready".into(),
    synced: |l, _| l == "readyok",
    is_sync: |l| word(l) == "isready",
    error_form: "'info message error: ...'",
    error: |l| after(l, "info message error:"),
    note: |l| after(l, "info message").filter(|_| !l.starts_with("info message error:")),
    answer: |l| match l {
        "nobestmove" => Some(Vec::new()),
        _ => bestmove(l),
    },
    shape: |m| {
        let b = m.as_bytes();
        b.len() == 4
            && (b'a'..=b'i').contains(&b[0])
            && b[1].is_ascii_digit()
            && (b'a'..=b'i').contains(&b[2])
            && b[3].is_ascii_digit()
    },
    known: |l| {
        [
            "id",
            "option",
            "ucciok",
            "readyok",
            "info",
            "bestmove",
            "nobestmove",
            "pophash",
        ]
        .contains(&word(l))
    },
    finale: &["position startpos moves h2e2 h9g7", "go depth 2"],
    legal: |mv| legal_after(Xiangqi::start(), &["h2e2", "h9g7"], mv),
};

/// NBoard's `ping` numbers: far from those the corpus sends, so that no `pong` of the corpus
/// is taken for the synchronisation's.
const PING_BASE: u64 = 1_000_000;

/// The status NBoard shows while the engine works ("duel is thinking"): no message.
const WORKING: &str = "duel is ";

const NBOARD: Protocol = Protocol {
    file: "nboard.txt",
    args: &["nboard"],
    hello: &[("nboard 2", Some("set myname")), ("set depth 2", None)],
    sync: |n| format!("ping {}", PING_BASE + n),
    synced: |l, n| l == format!("pong {}", PING_BASE + n),
    // The corpus's pings have numbers of their own.
    is_sync: |_| false,
    error_form: "'status error: ...'",
    error: |l| after(l, "status error:"),
    note: |l| {
        after(l, "status")
            .filter(|s| !s.is_empty() && !s.starts_with("error:") && !s.starts_with(WORKING))
    },
    answer: |l| {
        let best = l.strip_prefix("=== ")?;
        Some(best.split('/').next().into_iter().collect())
    },
    shape: |m| {
        let b = m.to_ascii_lowercase().into_bytes();
        m.eq_ignore_ascii_case("pa")
            || (b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]))
    },
    known: |l| {
        [
            "set",
            "pong",
            "status",
            "nodestats",
            "===",
            "search",
            "learned",
            "analysis",
        ]
        .contains(&word(l))
    },
    finale: &[
        "set game (;GM[Othello]PC[NBoard]SZ[8]RE[?]BO[8 ---------------------------O*------*O\
         --------------------------- *]B[F5];)",
        "go",
    ],
    legal: |mv| legal_after(Othello::start(), &["f5"], mv),
};

/// Gomocup's moves: `x,y`, and `x,y x,y x,y` for a Swap2 opening.
fn gomocup_moves(line: &str) -> Option<Vec<&str>> {
    let points: Vec<&str> = line.split(' ').collect();
    let point = |p: &str| {
        p.split_once(',').is_some_and(|(x, y)| {
            [x, y]
                .iter()
                .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
    };
    points.iter().all(|p| point(p)).then_some(points)
}

const GOMOCUP: Protocol = Protocol {
    file: "gomocup.txt",
    args: &["gomocup", "--hash", "4"],
    hello: &[("INFO timeout_turn 100", None)],
    sync: |_| "ABOUT".into(),
    synced: |l, _| l.starts_with("name=\"duel\""),
    is_sync: |l| word(l).eq_ignore_ascii_case("ABOUT"),
    error_form: "'ERROR ...' or 'UNKNOWN ...'",
    error: |l| match l.split_once(' ').unwrap_or((l, "")) {
        ("ERROR" | "UNKNOWN", message) => Some(message.trim()),
        _ => None,
    },
    // The search's progress is a MESSAGE too: one per iteration, "depth D ev ...".
    note: |l| after(l, "MESSAGE").filter(|m| !m.starts_with("depth ")),
    answer: gomocup_moves,
    shape: |m| m.split(',').all(|n| n.parse::<u32>().is_ok_and(|n| n < 22)),
    known: |l| {
        [
            "OK", "ERROR", "UNKNOWN", "MESSAGE", "DEBUG", "SUGGEST", "SWAP", "FORBID",
        ]
        .contains(&word(l))
            || l.starts_with("name=\"")
            || gomocup_moves(l).is_some()
    },
    finale: &["START 15", "TURN 7,7"],
    legal: |mv| legal_after(Gomoku::start(), &["7,7"], mv),
};

#[test]
fn uci_corpus() {
    replay(&UCI);
}

#[test]
fn ucci_corpus() {
    replay(&UCCI);
}

#[test]
fn nboard_corpus() {
    replay(&NBOARD);
}

#[test]
fn gomocup_corpus() {
    replay(&GOMOCUP);
}

/// The one command a corpus cannot hold, since it ends the engine: `quit` (Gomocup's `END`)
/// during a search ends it at once, with status 0 and no panic, whatever the search was
/// doing.
#[test]
fn quit_during_a_search_ends_the_engine_cleanly() {
    let cases: [(&[&str], &[&str], &str, &str); 4] = [
        (
            &["uci"],
            &["position startpos", "go infinite"],
            "info depth",
            "quit",
        ),
        (
            &["ucci"],
            &["position startpos", "go depth infinite"],
            "info depth",
            "quit",
        ),
        (
            &["nboard"],
            &["nboard 2", "set depth 30", "go"],
            "nodestats",
            "quit",
        ),
        (
            &["gomocup", "--hash", "4"],
            &["INFO timeout_turn 60000", "START 15", "TURN 7,7"],
            "MESSAGE depth",
            "END",
        ),
    ];
    for (args, lines, searching, quit) in cases {
        let mut e = Engine::start(args);
        for line in lines {
            e.send(line);
        }
        let what = format!("duel {}: {quit} during a search", args[0]);
        read_until(&mut e, PATIENCE, &what, 1, |l| l.starts_with(searching));
        e.send(quit);
        let (status, stderr) = e.ends_within(AT_ONCE, &what);
        assert!(
            status.success() && !stderr.contains("panicked"),
            "{what}: {status}; standard error: {stderr}"
        );
    }
}

#[test]
fn corpus_escapes_decode() {
    assert_eq!(
        decode(r"a\*3\x41\t\r\n\\b\xff").unwrap(),
        b"aaaA\t\r\n\\b\xff"
    );
    assert_eq!(decode(r"go depth 1\*4").unwrap(), b"go depth 1111");
    for bad in [r"\*3", r"a\*", r"a\*0", r"\x4", r"\xzz", r"\q", "a\\"] {
        assert!(decode(bad).is_err(), "{bad}");
    }
}
