//! Transcripts of `duel uci`, run against the real binary: the handshake, searches under each
//! kind of limit, `stop`/`ponderhit`/`isready` during a search, castling notation, mates and
//! finished games, the extensions (`go perft`, `d`, `eval`, `bench`), and malformed input that
//! must leave the engine usable.

use std::time::Duration;

use duel_chess::Chess;
use duel_core::Game;
use duel_xiangqi::Xiangqi;

use crate::common::{duel, duel_with_input};
use crate::transcript::{Engine, AT_ONCE};

impl Engine {
    fn uci() -> Engine {
        Engine::start(&["uci"])
    }

    /// Sends `uci` and asserts that the handshake has the line `option`.
    fn declares(&mut self, option: &str) {
        self.send("uci");
        let lines = self.until(|l| l == "uciok");
        assert!(lines.iter().any(|l| l == option), "{option}: {lines:?}");
    }

    /// The lines of a search, up to and including `bestmove`.
    fn search(&mut self, go: &str) -> Vec<String> {
        self.send(go);
        self.until(|l| l.starts_with("bestmove"))
    }

    /// Sends `stop`; the move of the `bestmove` that answers it.
    fn stop(&mut self) -> String {
        self.send("stop");
        let lines = self.until(|l| l.starts_with("bestmove"));
        bestmove(lines.last().unwrap()).0
    }

    /// Asserts that no `bestmove` arrives within `wait`.
    fn no_bestmove_for(&mut self, wait: Duration) {
        let early = self.quiet_for(wait);
        assert!(
            !early.iter().any(|l| l.starts_with("bestmove")),
            "{early:?}"
        );
    }

    fn ready(&mut self) {
        self.send("isready");
        self.until(|l| l == "readyok");
    }
}

/// The move of a `bestmove` line, and the ponder move if any.
fn bestmove(line: &str) -> (String, Option<String>) {
    let w: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(w[0], "bestmove", "{line}");
    let ponder = match w.get(2) {
        Some(&"ponder") => Some(w[3].to_string()),
        None => None,
        Some(x) => panic!("unexpected '{x}' in {line}"),
    };
    (w[1].to_string(), ponder)
}

/// The value after `key` in an info line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let w: Vec<&str> = line.split_whitespace().collect();
    w.iter()
        .position(|x| *x == key)
        .and_then(|i| w.get(i + 1).copied())
}

/// The position after `moves` from `fen` (empty: the start).
fn position(fen: &str, moves: &[&str]) -> Chess {
    let mut pos = if fen.is_empty() {
        Chess::start()
    } else {
        Chess::from_text(fen).unwrap()
    };
    for m in moves {
        let mv = pos.parse_move(m).unwrap();
        pos.play(mv);
    }
    pos
}

/// Asserts that `line` is a legal line of moves from `pos`.
fn assert_legal_line(pos: &Chess, line: &[&str]) {
    let mut p = pos.clone();
    for m in line {
        let mv = p
            .parse_move(m)
            .unwrap_or_else(|e| panic!("{m} in {line:?}: {e}"));
        p.play(mv);
    }
}

fn infos(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info") && !l.starts_with("info string"))
        .collect()
}

#[test]
fn handshake_declares_the_options() {
    let mut e = Engine::uci();
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    assert!(lines[0].starts_with("id name duel"), "{lines:?}");
    assert!(lines[1].starts_with("id author "), "{lines:?}");
    for option in [
        "option name Hash type spin default 16 min 1 max ",
        "option name Threads type spin default 1 min 1 max ",
        "option name MultiPV type spin default 1 min 1 max ",
        "option name Move Overhead type spin default ",
        "option name Ponder type check default false",
        "option name Clear Hash type button",
        "option name Evaluator type combo default net var net var strong var pst var material",
        "option name EvalFile type string default <built-in>",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(option)),
            "{option}: {lines:?}"
        );
    }
    e.ready();
    assert!(e.close());
}

#[test]
fn a_depth_search_reports_every_iteration_and_a_legal_move() {
    let mut e = Engine::uci();
    e.send("uci");
    e.until(|l| l == "uciok");
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 c7c5 g1f3");
    let lines = e.search("go depth 6");
    let pos = position("", &["e2e4", "c7c5", "g1f3"]);
    let infos = infos(&lines);
    let depths: Vec<u32> = infos
        .iter()
        .map(|l| field(l, "depth").unwrap().parse().unwrap())
        .collect();
    assert_eq!(depths, (1..=6).collect::<Vec<_>>(), "{lines:?}");
    for l in &infos {
        for key in ["seldepth", "nodes", "nps", "hashfull", "time"] {
            let v = field(l, key).unwrap_or_else(|| panic!("{key} in {l}"));
            assert!(v.parse::<u64>().is_ok(), "{key} in {l}");
        }
        assert_eq!(field(l, "score"), Some("cp"), "{l}");
        let pv: Vec<&str> = l.split(" pv ").nth(1).unwrap().split(' ').collect();
        assert_legal_line(&pos, &pv);
    }
    let (mv, ponder) = bestmove(lines.last().unwrap());
    let last_pv: Vec<&str> = infos
        .last()
        .unwrap()
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split(' ')
        .collect();
    assert_eq!(mv, last_pv[0], "the move is the last line's first");
    if let Some(p) = ponder {
        assert_eq!(p, last_pv[1]);
    }
    assert!(e.close());
}

#[test]
fn node_limit_is_deterministic() {
    let run = || {
        let mut e = Engine::uci();
        e.send("position startpos moves d2d4 d7d5 c2c4");
        let lines = e.search("go nodes 20000");
        let last = infos(&lines).last().unwrap().to_string();
        let best = lines.last().unwrap().clone();
        // The time-dependent fields aside, the last iteration and the move are the same.
        (field(&last, "depth").unwrap().to_string(), best)
    };
    assert_eq!(run(), run());
}

/// The move played heads the last `info` line, and `ponder` is that line's second move, as
/// with Stockfish (issue 70: under fastchess 19 `bestmove`s differed from the last line, a
/// move from an unfinished iteration played with no line shown). A search stopped inside an
/// iteration that had found its move says that iteration's line, `lowerbound`.
#[test]
fn the_move_played_heads_the_last_line() {
    let mut partial = 0;
    for nodes in [100_000, 200_000, 600_000] {
        let mut e = Engine::uci();
        e.send("position startpos");
        let lines = e.search(&format!("go nodes {nodes}"));
        let last = infos(&lines).last().unwrap().to_string();
        let pv: Vec<&str> = last.split(" pv ").nth(1).unwrap().split(' ').collect();
        let (mv, ponder) = bestmove(lines.last().unwrap());
        assert_eq!(pv[0], mv, "{last} / {}", lines.last().unwrap());
        assert_eq!(ponder.as_deref(), pv.get(1).copied(), "{last}");
        partial += usize::from(last.contains(" lowerbound "));
        assert!(e.close());
    }
    // These node counts end inside an iteration that found its move (at 100,000: depth 11,
    // whose line differs from depth 10's after the first move).
    assert!(partial > 0, "no search stopped inside a fruitful iteration");
}

#[test]
fn castling_is_written_king_two_squares_and_read_both_ways() {
    let mut e = Engine::uci();
    let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    e.send(&format!("position fen {fen}"));
    e.send("go perft 1");
    let lines = e.until(|l| l.starts_with("Nodes searched"));
    let moves: Vec<&str> = lines
        .iter()
        .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
        .filter_map(|l| l.split(':').next())
        .collect();
    assert!(
        moves.contains(&"e1g1") && moves.contains(&"e1c1"),
        "{moves:?}"
    );
    assert!(
        !moves.contains(&"e1h1") && !moves.contains(&"e1a1"),
        "{moves:?}"
    );
    // 16 pawn moves, 5 rook moves, 2 king steps and the 2 castlings.
    assert_eq!(lines.last().unwrap(), "Nodes searched: 25");
    // King-takes-rook (cozy-chess, Chess960 GUIs) and king-two-squares give the same position.
    for castle in ["e1h1", "e1g1"] {
        e.send(&format!("position fen {fen} moves {castle}"));
        e.send("d");
        let lines = e.until(|l| l.starts_with("Fen: "));
        assert_eq!(
            lines.last().unwrap(),
            "Fen: r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1"
        );
    }
    assert!(e.close());
}

/// `UCI_Chess960`: castling out and in as the king taking its rook, the position's FEN in any
/// castling-field form, the switch kept across an evaluator change, bad values and the
/// two-square form refused by name.
#[test]
fn chess960_castles_king_takes_rook() {
    let mut e = Engine::uci();
    e.declares("option name UCI_Chess960 type check default false");
    // Scharnagl's table (data/chess/chess960-perft.txt): 37 moves, one a long castling with
    // the rook on d1, which the king's two-square form would write e1c1.
    let fen = "1qnrkbbr/1pppppp1/p1n4p/8/P7/1P1N1P2/2PPP1PP/QN1RKBBR w HDhd - 0 9";
    let perft_moves = |e: &mut Engine| -> Vec<String> {
        e.send(&format!("position fen {fen}"));
        e.send("go perft 1");
        let lines = e.until(|l| l.starts_with("Nodes searched"));
        assert_eq!(lines.last().unwrap(), "Nodes searched: 37");
        lines
            .iter()
            .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
            .filter_map(|l| l.split(':').next().map(str::to_string))
            .collect()
    };
    let standard = perft_moves(&mut e);
    assert!(standard.contains(&"e1c1".to_string()), "{standard:?}");
    e.send("setoption name UCI_Chess960 value true");
    let moves = perft_moves(&mut e);
    assert!(
        moves.contains(&"e1d1".to_string()) && !moves.contains(&"e1c1".to_string()),
        "{moves:?}"
    );
    // X-FEN and Shredder-FEN name the same position; after castling the FEN says so.
    for rights in ["HDhd", "KQkq"] {
        let fen = fen.replace("HDhd", rights);
        e.send(&format!("position fen {fen} moves e1d1"));
        e.send("d");
        let lines = e.until(|l| l.starts_with("Fen: "));
        assert_eq!(
            lines.last().unwrap(),
            "Fen: 1qnrkbbr/1pppppp1/p1n4p/8/P7/1P1N1P2/2PPP1PP/QNKR1BBR b kq - 1 9"
        );
    }
    // The two-square form is refused, naming the right one; the position is kept.
    e.send(&format!("position fen {fen} moves e1c1"));
    let said = e.until(|l| l.starts_with("info string"));
    assert!(said.last().unwrap().contains("e1d1"), "{said:?}");
    // A search answers in the same notation, and so does a new evaluator.
    e.send("setoption name Evaluator value strong");
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6");
    e.send("go perft 1");
    let lines = e.until(|l| l.starts_with("Nodes searched"));
    assert!(lines.iter().any(|l| l.starts_with("e1h1:")), "{lines:?}");
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1 f8c5");
    let lines = e.search("go depth 4");
    let (mv, _) = bestmove(lines.last().unwrap());
    let mut pos = position(
        "",
        &[
            "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1h1", "f8c5",
        ],
    );
    pos.set_chess960(true);
    assert!(pos.parse_move(&mv).is_ok(), "{mv}");
    e.send("setoption name UCI_Chess960 value maybe");
    let said = e.until(|l| l.starts_with("info string"));
    assert!(said.last().unwrap().contains("UCI_Chess960"), "{said:?}");
    e.send("setoption name UCI_Chess960 value false");
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6");
    e.send("go perft 1");
    let lines = e.until(|l| l.starts_with("Nodes searched"));
    assert!(lines.iter().any(|l| l.starts_with("e1g1:")), "{lines:?}");
    e.ready();
    assert!(e.close());
}

#[test]
fn perft_extension_matches_the_published_count() {
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go perft 4");
    let lines = e.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 197281");
    let divide = lines
        .iter()
        .filter(|l| l.contains(": ") && !l.starts_with("Nodes"));
    assert_eq!(divide.count(), 20);
    assert!(e.close());
}

#[test]
fn mates_are_scored_in_moves_and_found() {
    let mut e = Engine::uci();
    // White mates in one (Ra8#).
    e.send("position fen 6k1/5ppp/8/8/8/8/8/R6K w - - 0 1");
    let lines = e.search("go depth 4");
    assert_eq!(bestmove(lines.last().unwrap()).0, "a1a8");
    let last = infos(&lines).last().unwrap().to_string();
    assert!(last.contains("score mate 1 "), "{last}");
    // Black to move is mated in one whatever it does (1...Kb8 2.Rh8#).
    e.send("position fen k7/8/1K6/8/8/8/7R/8 b - - 0 1");
    let lines = e.search("go depth 4");
    let last = infos(&lines).last().unwrap().to_string();
    assert!(last.contains("score mate -1 "), "{last}");
    // `go mate 2` on a king and rook mate in two (1.Kb6 Kb8 2.Rh8#, among others); no mate
    // in one exists (Rh8+ Ka7).
    e.send("position fen k7/8/2K5/8/8/8/8/7R w - - 0 1");
    let lines = e.search("go mate 2");
    let last = infos(&lines).last().unwrap().to_string();
    assert!(last.contains("score mate 2 "), "{last}");
    assert!(e.close());
}

#[test]
fn finished_games_answer_bestmove_none() {
    let mut e = Engine::uci();
    // Fool's mate: white is checkmated.
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    let lines = e.search("go wtime 1000 btime 1000");
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    assert!(
        lines.iter().any(|l| l.contains("score mate 0")),
        "{lines:?}"
    );
    // Stalemate: a draw.
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    let lines = e.search("go depth 3");
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    assert!(lines.iter().any(|l| l.contains("score cp 0")), "{lines:?}");
    assert!(e.close());
}

/// A position only a draw rule has ended (threefold repetition, the fifty-move rule, bare
/// kings) still gets a legal move, as from Stockfish: the GUI declares such draws, and one
/// that asks anyway would take `bestmove (none)` for a forfeit.
#[test]
fn drawn_by_rule_positions_still_get_a_move() {
    let mut e = Engine::uci();
    for position in [
        "startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8",
        "fen 4k3/8/8/8/8/8/4P3/4K3 w - - 100 80",
        "fen 8/8/8/8/8/8/8/KB5k w - - 0 1",
    ] {
        e.send(&format!("position {position}"));
        let lines = e.search("go depth 4");
        let last = lines.last().unwrap();
        let mv = last
            .strip_prefix("bestmove ")
            .and_then(|r| r.split_whitespace().next())
            .unwrap();
        assert_ne!(mv, "(none)", "{position}: {lines:?}");
        if position.contains("4P3") {
            // Only a pawn move resets the count: every other move draws at once.
            assert!(["e2e3", "e2e4"].contains(&mv), "{position}: {mv}");
        }
        let info = infos(&lines).last().unwrap().to_string();
        assert!(info.contains(&format!(" pv {mv}")), "{position}: {info}");
    }
    // `searchmoves` there names moves the root still has.
    e.send("position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    let lines = e.search("go depth 3 searchmoves a2a3");
    assert_eq!(bestmove(lines.last().unwrap()).0, "a2a3", "{lines:?}");
    // Bare kings: whatever is played, the value is a draw.
    e.send("position fen 8/8/8/8/8/8/8/K6k w - - 0 1");
    let lines = e.search("go depth 3");
    assert!(
        lines.last().unwrap().starts_with("bestmove a1"),
        "{lines:?}"
    );
    assert!(
        infos(&lines).last().unwrap().contains("score cp 0 "),
        "{lines:?}"
    );
    assert!(e.close());
}

#[test]
fn infinite_search_answers_only_after_stop() {
    let mut e = Engine::uci();
    e.send("position startpos moves e2e4");
    e.send("go infinite");
    e.no_bestmove_for(Duration::from_millis(300));
    // `isready` is answered during the search, without stopping it.
    e.send("isready");
    let lines = e.until(|l| l == "readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    // Commands that need the engine are refused, not queued behind a search that never ends.
    e.send("go depth 1");
    e.until(|l| l.starts_with("info string error") && l.contains("stop"));
    assert_legal_line(&position("", &["e2e4"]), &[&e.stop()]);
    // Exactly one bestmove, and the engine goes on.
    e.ready();
    let answers = e.seen.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(answers, 1);
    let lines = e.search("go depth 2");
    assert!(lines.last().unwrap().starts_with("bestmove"));
    assert!(e.close());
}

#[test]
fn an_infinite_search_that_ends_by_itself_still_waits_for_stop() {
    let mut e = Engine::uci();
    // Mate in one is proven at once; the answer must still wait for `stop`.
    e.send("position fen 6k1/5ppp/8/8/8/8/8/R6K w - - 0 1");
    e.send("go infinite depth 3");
    e.no_bestmove_for(Duration::from_millis(300));
    assert_eq!(e.stop(), "a1a8");
    assert!(e.close());
}

#[test]
fn pondering_waits_for_ponderhit_then_moves() {
    let mut e = Engine::uci();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 60000 btime 60000 winc 0 binc 0");
    e.no_bestmove_for(Duration::from_millis(300));
    e.send("ponderhit");
    let lines = e.until(|l| l.starts_with("bestmove"));
    let (mv, _) = bestmove(lines.last().unwrap());
    assert_legal_line(&position("", &["e2e4", "e7e5"]), &[&mv]);
    // A ponder miss: the GUI stops the ponder search and starts the real one.
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go ponder wtime 60000 btime 60000");
    e.quiet_for(Duration::from_millis(100));
    e.stop();
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    let lines = e.search("go movetime 200");
    let (mv, _) = bestmove(lines.last().unwrap());
    assert_legal_line(&position("", &["e2e4", "e7e5", "g1f3", "b8c6"]), &[&mv]);
    assert!(e.close());
}

#[test]
fn clock_and_movetime_searches_answer() {
    let mut e = Engine::uci();
    e.send("position startpos");
    for go in [
        "go movetime 100",
        "go wtime 500 btime 500 winc 5 binc 5",
        "go wtime 30000 btime 30000 movestogo 40",
        // A GUI whose clock is already over still gets a move.
        "go wtime -20 btime 1000",
    ] {
        let lines = e.search(go);
        let (mv, _) = bestmove(lines.last().unwrap());
        assert_legal_line(&Chess::start(), &[&mv]);
    }
    // Only the other side's clock: said, and answered at once as with no time left, not
    // searched until a `stop` that a GUI so confused may never send.
    let lines = e.search("go btime 60000 binc 1000");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error") && l.contains("not wtime")),
        "{lines:?}"
    );
    let (mv, _) = bestmove(lines.last().unwrap());
    assert_legal_line(&Chess::start(), &[&mv]);
    assert!(e.close());
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let mut e = Engine::uci();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos moves e2e4 e7e5");
    let lines = e.search("go depth 4");
    let last: Vec<&String> = infos(&lines)
        .into_iter()
        .filter(|l| field(l, "depth") == Some("4"))
        .collect();
    assert_eq!(last.len(), 3, "{lines:?}");
    let mut firsts = Vec::new();
    let mut scores = Vec::new();
    for (i, l) in last.iter().enumerate() {
        assert_eq!(field(l, "multipv"), Some((i + 1).to_string().as_str()));
        firsts.push(l.split(" pv ").nth(1).unwrap().split(' ').next().unwrap());
        scores.push(field(l, "cp").unwrap().parse::<i32>().unwrap());
    }
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "{last:?}");
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert!(e.close());
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut e = Engine::uci();
    e.send("position startpos");
    let lines = e.search("go depth 4 searchmoves a2a3 h2h3");
    let (mv, _) = bestmove(lines.last().unwrap());
    assert!(mv == "a2a3" || mv == "h2h3", "{mv}");
    assert!(e.close());
}

/// The number after `name` in the last `info` line of `lines` that has it.
fn last_info(lines: &[String], name: &str) -> u64 {
    (lines.iter().rev())
        .find_map(|l| {
            let mut words = l.split_whitespace().skip_while(|w| *w != name);
            words.next()?;
            words.next()?.parse().ok()
        })
        .unwrap_or_else(|| panic!("no {name} in {lines:?}"))
}

/// Each option changes what it names: the table's size how full a search leaves it, Clear
/// Hash empties it, Move Overhead shortens a timed search, and Evaluator swaps the
/// evaluation. (Threads has no effect a test can count on: with the shared table, two threads
/// reached depth 9 in fewer nodes than one on a loaded machine.)
#[test]
fn options_take_effect() {
    let search_with = |options: &[&str], go: &str| {
        let mut e = Engine::uci();
        for o in options {
            e.send(&format!("setoption name {o}"));
        }
        e.send("position startpos");
        let lines = e.search(go);
        assert!(e.close());
        lines
    };
    // Hash: the same search fills a 1 MiB table more than a 64 MiB one.
    let small = last_info(&search_with(&["Hash value 1"], "go depth 9"), "hashfull");
    let large = last_info(&search_with(&["Hash value 64"], "go depth 9"), "hashfull");
    assert!(
        small > large,
        "hashfull {small} at 1 MiB, {large} at 64 MiB"
    );

    // Clear Hash: after it, a one-ply search finds an empty table.
    let mut e = Engine::uci();
    e.send("setoption name Hash value 1");
    e.send("position startpos");
    assert!(last_info(&e.search("go depth 9"), "hashfull") > 0);
    e.send("setoption name Clear Hash");
    assert_eq!(last_info(&e.search("go depth 1"), "hashfull"), 0);
    assert!(e.close());

    // Move Overhead: kept back from a fixed time, so 900 of 1000 ms leaves about 100 (the
    // wall time from `go` to `bestmove`, in milliseconds).
    let spent = |overhead: &str| {
        let mut e = Engine::uci();
        e.send(&format!("setoption name move overhead value {overhead}"));
        e.send("position startpos");
        e.send("isready");
        e.until(|l| l == "readyok");
        let start = std::time::Instant::now();
        e.search("go movetime 1000");
        let took = start.elapsed().as_millis();
        assert!(e.close());
        took
    };
    let (short, full) = (spent("900"), spent("0"));
    assert!(
        short < 500 && full >= 800,
        "{short} ms with 900 kept back, {full} ms with none"
    );

    // Evaluator: the static value names the evaluator chosen, and the search still plays.
    let mut e = Engine::uci();
    e.send("setoption name Evaluator value material");
    e.send("position startpos moves e2e4");
    e.send("eval");
    let lines = e.until(|l| l.starts_with("Static evaluation"));
    assert!(lines.last().unwrap().contains("material"), "{lines:?}");
    let lines = e.search("go depth 5");
    let (mv, _) = bestmove(lines.last().unwrap());
    assert_legal_line(&position("", &["e2e4"]), &[&mv]);
    assert!(
        !e.seen.iter().any(|l| l.starts_with("info string")),
        "{:?}",
        e.seen
    );
    assert!(e.close());
}

fn static_eval(e: &mut Engine) -> i32 {
    e.send("eval");
    let lines = e.until(|l| l.starts_with("Static evaluation"));
    let line = lines.last().unwrap();
    assert!(line.contains("(net evaluator"), "{line}");
    line["Static evaluation: ".len()..]
        .split_whitespace()
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{line}"))
}

/// `EvalFile` swaps the net the evaluator `net` reads; a file that is missing or not a net is
/// named, and the last good net stays.
#[test]
fn eval_file_loads_a_net_and_names_a_bad_one() {
    let dir = std::env::temp_dir().join(format!("duel-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The shipped net with the output bias of its last bucket, which a full board uses, raised
    // by 100 cp (QA·QB/CP_SCALE per centipawn).
    let mut bytes = duel_chess::nnue::Network::shipped().to_bytes();
    let at = bytes.len() - 4;
    let bias = i32::from_le_bytes(bytes[at..].try_into().unwrap());
    let per_cp = duel_chess::nnue::QA * duel_chess::nnue::QB / duel_chess::nnue::CP_SCALE;
    bytes[at..].copy_from_slice(&(bias + 100 * per_cp).to_le_bytes());
    let raised = dir.join("raised.nnue");
    std::fs::write(&raised, &bytes).unwrap();
    let junk = dir.join("junk.nnue");
    std::fs::write(&junk, b"not a net").unwrap();

    let mut e = Engine::uci();
    e.send("setoption name Evaluator value net");
    e.send("position startpos moves e2e4 c7c5");
    let built_in = static_eval(&mut e);
    e.send(&format!(
        "setoption name EvalFile value {}",
        raised.display()
    ));
    let with_file = static_eval(&mut e);
    // One division rounds toward zero, so the shift may lose a centipawn.
    assert!(
        (99..=101).contains(&(with_file - built_in)),
        "{built_in} then {with_file}"
    );
    for (file, says) in [
        (dir.join("missing.nnue"), "missing.nnue"),
        (junk, "not a duel net file"),
    ] {
        e.send(&format!("setoption name EvalFile value {}", file.display()));
        let got = e.until(|l| l.starts_with("info string error"));
        assert!(got.last().unwrap().contains(says), "{got:?}");
        assert_eq!(static_eval(&mut e), with_file);
    }
    // The file is kept across a change of evaluator, and <built-in> goes back.
    e.send("setoption name Evaluator value strong");
    e.send("setoption name Evaluator value net");
    assert_eq!(static_eval(&mut e), with_file);
    e.send("setoption name EvalFile value <built-in>");
    assert_eq!(static_eval(&mut e), built_in);
    assert!(e.close());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn malformed_input_is_reported_and_the_engine_stays_usable() {
    let mut e = Engine::uci();
    let bad = [
        ("frobnicate", "unknown command"),
        ("position fen 8/8/8 w - - 0 1", "position"),
        ("position startpos moves e2e4 e2e4", "position refused"),
        ("position startpos moves e2e5", "position refused"),
        ("position sideways", "position"),
        ("go depth x", "go"),
        ("setoption name Hash value -1", "Hash"),
        ("setoption name Hash value 1000000", "Hash"),
        ("setoption name Threads value two", "Threads"),
        ("setoption name Ponder value maybe", "Ponder"),
        ("setoption name Evaluator value oracle", "oracle"),
        ("setoption name NoSuchOption value 1", "NoSuchOption"),
        ("setoption value 3", "setoption"),
        ("bench 99 fast", "bench"),
    ];
    e.send("position startpos moves d2d4");
    for (line, says) in bad {
        e.send(line);
        let got = e.until(|l| l.starts_with("info string error"));
        let err = got.last().unwrap();
        assert!(err.contains(says), "'{line}' answered '{err}'");
        if line.starts_with("bench") {
            e.until(|l| l.starts_with("Nodes/second"));
        }
    }
    e.send_bytes(b"go \xff\xfe depth\n");
    e.ready();
    // The refused positions left the last good one in the session, but the GUI meant
    // another: `go` answers the null move, with the reason, and searches nothing.
    e.send("d");
    let lines = e.until(|l| l.starts_with("Fen: "));
    assert_eq!(
        lines.last().unwrap(),
        "Fen: rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1"
    );
    let lines = e.search("go depth 3");
    assert_eq!(lines.last().unwrap(), "bestmove 0000", "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("no position to search")),
        "{lines:?}"
    );
    // An accepted position ends that.
    e.send("position startpos moves d2d4");
    let lines = e.search("go depth 3");
    let (mv, _) = bestmove(lines.last().unwrap());
    assert_legal_line(&position("", &["d2d4"]), &[&mv]);
    assert!(e.close());
}

/// The short FEN Fairy-Stockfish and `duel ucci` accept, the board and the side to move
/// alone, is read with no castling rights and no en passant square (issue 70).
#[test]
fn a_short_fen_is_accepted() {
    let mut e = Engine::uci();
    e.send("position fen r3k3/8/8/8/8/8/8/4K2R b");
    let lines = e.search("go depth 3");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    let (mv, _) = bestmove(lines.last().unwrap());
    // No castling rights: Black's king may not castle long even with its rook at a8.
    assert_ne!(mv, "e8c8");
    assert_legal_line(&position("r3k3/8/8/8/8/8/8/4K2R b - - 0 1", &[]), &[&mv]);
    e.send("d");
    let lines = e.until(|l| l.starts_with("Fen: "));
    assert_eq!(
        lines.last().unwrap(),
        "Fen: r3k3/8/8/8/8/8/8/4K2R b - - 0 1"
    );
    assert!(e.close());
}

/// A refused `position` is never answered with a move for the position before it: issue 70
/// found `position ... b` (Black to move in a FEN whose side is malformed) answered with a
/// White move.
#[test]
fn go_after_a_refused_position_plays_no_move() {
    let mut e = Engine::uci();
    e.send("position startpos moves e2e4");
    e.send("position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR x KQkq - 0 1");
    let lines = e.search("go depth 2");
    assert_eq!(lines.last().unwrap(), "bestmove 0000", "{lines:?}");
    e.send("position startpos moves e2e4 e7e9");
    let lines = e.search("go movetime 50");
    assert_eq!(lines.last().unwrap(), "bestmove 0000", "{lines:?}");
    e.send("position startpos moves e2e4");
    let lines = e.search("go depth 2");
    let (mv, _) = bestmove(lines.last().unwrap());
    assert_legal_line(&position("", &["e2e4"]), &[&mv]);
    assert!(e.close());
}

/// A search that has answered is over: the next `position` is checked at once, as with no
/// search before it, so its refusal is said even when another `position` follows at once
/// (it was kept unseen, and then replaced, until the next command took the session back).
#[test]
fn a_position_after_an_answer_is_refused_at_once() {
    let mut e = Engine::uci();
    e.send("position startpos moves e2e4");
    e.search("go depth 2");
    e.send("position startpos moves e2e4 e7e5 e1g1");
    e.send("position startpos moves e2e4 e7e5");
    let lines = e.until(|l| l.starts_with("info string error"));
    assert!(
        lines.last().unwrap().contains("'e1g1' is not legal"),
        "{lines:?}"
    );
    let lines = e.search("go depth 2");
    let (mv, _) = bestmove(lines.last().unwrap());
    assert_legal_line(&position("", &["e2e4", "e7e5"]), &[&mv]);
    assert!(e.close());
}

#[test]
fn bench_prints_the_signature() {
    let mut e = Engine::uci();
    e.send("bench");
    let lines = e.until(|l| l.starts_with("Nodes/second"));
    let nodes = lines
        .iter()
        .find_map(|l| l.strip_prefix("Nodes searched  : "))
        .expect("a node count");
    assert!(nodes.parse::<u64>().unwrap() > 0);
    assert!(e.close());
}

#[test]
fn quit_and_end_of_input_end_a_running_search() {
    let mut e = Engine::uci();
    e.send("go infinite");
    e.quiet_for(Duration::from_millis(100));
    e.send("quit");
    assert!(e.close());
    // End of input during an infinite search: stopped, answered, exited.
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go infinite");
    e.quiet_for(Duration::from_millis(100));
    drop(e.stdin.take());
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(lines.last().unwrap().starts_with("bestmove "));
    assert!(e.close());
}

#[test]
fn a_position_sent_during_a_search_is_used_by_the_next() {
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go infinite");
    e.quiet_for(Duration::from_millis(50));
    e.send("position fen 6k1/5ppp/8/8/8/8/8/R6K w - - 0 1");
    // The stopped search was on the start position.
    assert_legal_line(&Chess::start(), &[&e.stop()]);
    let lines = e.search("go depth 2");
    assert_eq!(bestmove(lines.last().unwrap()).0, "a1a8");
    assert!(e.close());
}

#[test]
fn a_game_against_itself_on_the_clock() {
    // Ten moves a side at 1+0.01, the clock kept here: each answer is a legal move, and no
    // search is refused or silent.
    let mut e = Engine::uci();
    e.send("ucinewgame");
    let mut moves: Vec<String> = Vec::new();
    let mut pos = Chess::start();
    for _ in 0..20 {
        if pos.outcome().is_some() {
            break;
        }
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let lines = e.search("go wtime 1000 btime 1000 winc 10 binc 10");
        let (mv, _) = bestmove(lines.last().unwrap());
        let m = pos
            .parse_move(&mv)
            .unwrap_or_else(|err| panic!("{mv}: {err}"));
        pos.play(m);
        moves.push(mv);
    }
    assert!(!e.seen.iter().any(|l| l.starts_with("info string")));
    assert!(e.close());
}

/// The first command of issue 40's reproducer: a second `go` during a bare `go` left the engine
/// deaf for good. Every kind of search refuses every command that needs the engine at once,
/// and `isready`, `stop` and `quit` are obeyed at once after them.
#[test]
fn commands_during_any_search_are_refused_at_once() {
    let searches = [
        "go",
        "go movetime 5000",
        "go wtime 300000 btime 300000",
        "go depth 30",
        "go infinite",
        "go ponder wtime 300000 btime 300000",
    ];
    let commands = [
        "go depth 3",
        "setoption name Hash value 32",
        "ucinewgame",
        "d",
        "eval",
        "go perft 3",
        "bench",
    ];
    for go in searches {
        let mut e = Engine::uci();
        e.send("position startpos");
        e.send(go);
        e.quiet_for(Duration::from_millis(50));
        for command in commands {
            e.send(command);
            let lines = e.within(AT_ONCE, command, |l| l.starts_with("info string error"));
            let refusal = lines.last().unwrap();
            assert!(
                refusal.contains("ignored: a search is running; send stop first"),
                "{go} / {command}: {refusal}"
            );
        }
        e.send("isready");
        e.within(AT_ONCE, "isready", |l| l == "readyok");
        e.send("stop");
        let lines = e.within(AT_ONCE, "stop", |l| l.starts_with("bestmove"));
        assert_legal_line(&Chess::start(), &[&bestmove(lines.last().unwrap()).0]);
        // The refused commands were not done: no board, no count, no bench after the stop.
        e.ready();
        assert!(
            !e.seen
                .iter()
                .any(|l| l.starts_with("Fen:") || l.starts_with("Nodes searched")),
            "{go}: {:?}",
            e.seen
        );
        e.send("quit");
        e.exits_within(AT_ONCE, "quit");
    }
}

/// Issue 40's reproducers as they were sent.
#[test]
fn the_deaf_loop_reproducers() {
    let mut e = Engine::uci();
    for line in ["uci", "position startpos", "go", "go depth 3", "isready"] {
        e.send(line);
    }
    e.within(Duration::from_secs(5), "isready after go, go", |l| {
        l == "readyok"
    });
    e.send("stop");
    e.within(AT_ONCE, "stop", |l| l.starts_with("bestmove"));
    e.send("quit");
    e.exits_within(AT_ONCE, "quit");

    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go movetime 5000");
    e.send("ucinewgame");
    e.send("isready");
    e.within(AT_ONCE, "isready during go movetime", |l| l == "readyok");
    e.send("quit");
    e.exits_within(AT_ONCE, "quit during go movetime");

    // A bare `go` has no end of its own: `quit` ends it.
    let mut e = Engine::uci();
    e.send("go");
    e.quiet_for(Duration::from_millis(50));
    e.send("quit");
    e.exits_within(AT_ONCE, "quit during go");
}

/// Starts `command`, then sends `isready` and `stop`: each must be answered at once, the stop
/// by an `info string` saying `says`.
fn stopped_at_once(e: &mut Engine, command: &str, says: &str) {
    e.send(command);
    e.quiet_for(Duration::from_millis(50));
    e.send("isready");
    e.within(AT_ONCE, command, |l| l == "readyok");
    e.send("stop");
    let lines = e.within(AT_ONCE, command, |l| l.starts_with("info string"));
    assert!(lines.last().unwrap().contains(says), "{lines:?}");
}

/// `go perft` and `bench` run like a search: `isready` is answered and `stop` and `quit` obeyed
/// while they count.
#[test]
fn perft_and_bench_can_be_stopped() {
    let mut e = Engine::uci();
    e.send("position startpos");
    stopped_at_once(&mut e, "go perft 7", "perft 7 stopped");
    // The engine is whole: a shallow count is exact.
    e.send("go perft 3");
    let lines = e.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 8902");
    stopped_at_once(&mut e, "bench", "bench stopped");
    e.send("go perft 6");
    e.send("quit");
    e.exits_within(AT_ONCE, "quit during perft");
}

/// A table the machine cannot give is refused by name and the old one kept; the engine plays on.
#[test]
fn an_impossible_hash_is_refused_and_the_engine_plays_on() {
    let mut e = Engine::uci();
    e.declares("option name Hash type spin default 16 min 1 max 33554432");
    e.send("setoption name Hash value 33554432");
    let lines = e.within(Duration::from_secs(5), "Hash", |l| {
        l.starts_with("info string error")
    });
    let err = lines.last().unwrap();
    assert!(
        err.contains("Hash") && err.contains("cannot be allocated") && err.contains("16 MiB"),
        "{err}"
    );
    e.send("position startpos");
    let lines = e.search("go depth 4");
    assert_legal_line(&Chess::start(), &[&bestmove(lines.last().unwrap()).0]);
    assert!(e.close());
}

/// Threads is offered up to the cores the engine may use; more is capped there and said so (a
/// GUI's setting from a larger machine still gets every core), none is refused.
#[test]
fn threads_beyond_the_cores_are_capped_with_a_message() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut e = Engine::uci();
    e.declares(&format!(
        "option name Threads type spin default 1 min 1 max {cores}"
    ));
    for asked in [cores + 1, 1000] {
        e.send(&format!("setoption name Threads value {asked}"));
        let lines = e.until(|l| l.starts_with("info string"));
        assert_eq!(
            lines.last().unwrap(),
            &format!(
                "info string option 'Threads': {asked} is more than the {cores} cores this \
                 engine may use; {cores} threads"
            )
        );
    }
    e.send("setoption name Threads value 0");
    let lines = e.until(|l| l.starts_with("info string"));
    assert_eq!(
        lines.last().unwrap(),
        &format!("info string error: option 'Threads' takes an integer from 1 to {cores}, not '0'")
    );
    // Up to the cores, nothing is said.
    e.send(&format!("setoption name Threads value {cores}"));
    e.send("isready");
    assert_eq!(e.until(|l| l == "readyok"), ["readyok"]);
    e.send("position startpos");
    let lines = e.search("go depth 4");
    assert_legal_line(&Chess::start(), &[&bestmove(lines.last().unwrap()).0]);
    assert!(e.close());
}

/// A limit of nothing is read as the least search, said so, and still answered with a move;
/// searchmoves the position does not have are named and dropped.
#[test]
fn empty_limits_and_illegal_searchmoves_still_give_a_move() {
    let mut e = Engine::uci();
    e.send("position startpos");
    for go in ["go depth 0", "go nodes 0"] {
        let lines = e.search(go);
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string") && l.contains("searching to depth 1")),
            "{go}: {lines:?}"
        );
        assert_eq!(infos(&lines).len(), 1, "{go}: one iteration: {lines:?}");
        assert_legal_line(&Chess::start(), &[&bestmove(lines.last().unwrap()).0]);
    }
    let lines = e.search("go depth 3 searchmoves e2e5");
    assert!(
        lines.iter().any(|l| l.contains("'e2e5' dropped")),
        "{lines:?}"
    );
    assert_legal_line(&Chess::start(), &[&bestmove(lines.last().unwrap()).0]);
    let lines = e.search("go depth 3 searchmoves e2e5 a2a3");
    assert_eq!(bestmove(lines.last().unwrap()).0, "a2a3");
    assert!(e.close());
}

#[test]
fn uci_variant_switches_the_game_as_fairy_stockfish_does() {
    let mut e = Engine::uci();
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name UCI_Variant type combo default chess var ")),
        "{lines:?}"
    );
    e.send("setoption name UCI_Variant value go");
    let got = e.within(AT_ONCE, "the refusal", |l| l.starts_with("info string"));
    assert!(got[0].contains("unknown game 'go'"), "{got:?}");
    e.send("setoption name UCI_Variant value connect4");
    e.send("position startpos moves 4 4");
    let lines = e.search("go depth 3");
    let (mv, _) = bestmove(lines.last().unwrap());
    assert!(("1"..="7").contains(&mv.as_str()), "{lines:?}");
    assert!(e.close());
}

#[test]
fn xiangqi_over_uci_numbers_ranks_from_one_as_fairy_stockfish() {
    let mut e = Engine::uci();
    e.send("uci");
    e.until(|l| l == "uciok");
    e.send("setoption name UCI_Variant value xiangqi");
    // h3e3 is ICCS's h2e2: the central cannon.
    e.send("position startpos moves h3e3");
    let lines = e.search("go depth 4");
    let (mv, _) = bestmove(lines.last().unwrap());
    let ranks: Vec<u32> = mv
        .split(|c: char| c.is_ascii_lowercase())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(ranks.len(), 2, "{mv}");
    // Black moves: from ranks 6-10 in UCI's count.
    assert!((6..=10).contains(&ranks[0]), "{mv}: {lines:?}");
    // ICCS's h2e2 read as UCI is rank 2 to rank 2: the horse's square, not the cannon's.
    e.send("position startpos moves h2e2");
    let got = e.within(AT_ONCE, "refusal", |l| l.starts_with("info string error"));
    assert!(got[0].contains("position refused"), "{got:?}");
    assert!(e.close());
}

/// Asserts that `line` (ICCS moves) is legal in xiangqi after `moves` from the start.
fn assert_legal_xiangqi(moves: &[&str], line: &[&str]) {
    let mut pos = Xiangqi::start();
    for m in moves.iter().chain(line) {
        let mv = pos
            .parse_move(m)
            .unwrap_or_else(|e| panic!("{m} after {moves:?} in {line:?}: {e}"));
        pos.play(mv);
    }
}

/// `--dialect pikafish`: xiangqi as Pikafish speaks UCI, so that duel runs where Pikafish
/// does. ICCS moves (ranks from 0) both ways, Pikafish's FEN, no `UCI_Variant`, and
/// `bestmove (none)` when there is no move, where the default dialect would count ranks
/// from 1 and answer a refused position with `0000`.
#[test]
fn xiangqi_in_pikafish_dialect_counts_ranks_from_zero() {
    let mut e = Engine::start(&["uci", "--dialect", "pikafish"]);
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    assert!(
        lines.iter().any(|l| l.starts_with("option name Hash ")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("UCI_Variant")),
        "{lines:?}"
    );
    e.send("setoption name UCI_Variant value chess");
    let got = e.within(AT_ONCE, "the refusal", |l| l.starts_with("info string"));
    assert!(got[0].contains("no such option 'UCI_Variant'"), "{got:?}");
    e.send("position startpos moves h2e2");
    let lines = e.search("go depth 4");
    let (mv, ponder) = bestmove(lines.last().unwrap());
    assert_legal_xiangqi(&["h2e2"], &[&mv]);
    // The line the GUI shows is ICCS too, from the same position.
    let last = infos(&lines).last().unwrap().to_string();
    let pv: Vec<&str> = last.split(" pv ").nth(1).unwrap().split(' ').collect();
    assert_eq!(pv[0], mv, "{last}");
    assert_legal_xiangqi(&["h2e2"], &pv);
    assert_eq!(ponder.as_deref(), pv.get(1).copied(), "{last}");
    // Pikafish's start as a FEN, with moves and `searchmoves` in ICCS.
    e.send(
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 \
         moves h2e2 h9g7",
    );
    let lines = e.search("go nodes 3000 searchmoves h0g2 b0c2");
    let (mv, _) = bestmove(lines.last().unwrap());
    assert!(mv == "h0g2" || mv == "b0c2", "{lines:?}");
    // Fairy-Stockfish's count is not Pikafish's: h3e3 moves nothing from the start.
    e.send("position startpos moves h3e3");
    let got = e.within(AT_ONCE, "refusal", |l| l.starts_with("info string error"));
    assert!(got[0].contains("position refused"), "{got:?}");
    let lines = e.search("go depth 3");
    assert_eq!(lines.last().unwrap(), "bestmove (none)", "{lines:?}");
    // Black is mated: Pikafish's answer, a mate in 0 and no move.
    e.send("position fen R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1");
    let lines = e.search("go depth 3");
    assert_eq!(lines, ["info depth 0 score mate 0", "bestmove (none)"]);
    assert!(e.close());
}

/// The dialect's game is xiangqi unless another is named, and a dialect duel does not speak
/// is refused on the command line.
#[test]
fn the_dialect_chooses_the_default_game_and_unknown_ones_are_refused() {
    let out = duel_with_input(
        &["uci", "--dialect", "pikafish"],
        "position startpos\nd\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        "{text}"
    );
    let out = duel_with_input(
        &["uci", "--dialect", "pikafish", "--game", "connect4"],
        "position startpos moves 4\ngo depth 2\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().any(|l| l.starts_with("bestmove ")), "{text}");
    let (_, err, ok) = duel(&["uci", "--dialect", "elephanteye"]);
    assert!(
        !ok && err.contains("unknown UCI dialect 'elephanteye'"),
        "{err}"
    );
}
