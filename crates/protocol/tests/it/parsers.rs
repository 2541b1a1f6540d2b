//! The stable-toolchain twin of fuzz/fuzz_targets/protocol_lines.rs: known lines with random
//! edits through every parser, which must not panic, and every value read must print as a
//! line that reads back to it (each `Display`'s promise).

use duel_protocol::{gomocup, nboard, ucci, uci, xboard};
use proptest::prelude::*;

/// Lines of each kind, taken from the protocol docs and the malformed-input corpora.
const LINES: &[&str] = &[
    "uci",
    "position startpos moves e2e4 e7e5",
    "position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 moves c7c5",
    "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 20",
    "go depth 5 nodes 1000 searchmoves e2e4 d2d4",
    "setoption name Hash value 16",
    "setoption name EvalFile value /tmp/a b.nnue",
    "info depth 5 seldepth 7 multipv 1 score cp 23 nodes 1000 nps 5000 time 200 pv e2e4 e7e5",
    "info score mate -3 lowerbound string hello",
    "bestmove e2e4 ponder e7e5",
    "option name Hash type spin default 16 min 1 max 1024",
    "id name duel",
    "go time 1000 opptime 1000 increment 10",
    "banmoves h2e2",
    "nobestmove",
    "set game (;GM[Othello]B[f5];)",
    "set depth 12",
    "move F5/1.5/0.2",
    "hint 3",
    "=== F5/1.5/0.2",
    "search F5 0.5 0 4",
    "nodestats 100 0.5",
    "START 15",
    "RECTSTART 20,15",
    "TURN 7,7",
    "INFO timeout_turn 1000",
    "BOARD",
    "7,7,1",
    "DONE",
    "MESSAGE hello",
    "7,7",
    "move e2e4",
    "5 23 100 1000 e2e4 e7e5",
    "feature myname=\"x\" done=1",
];

/// A known line with a few characters replaced, inserted or removed.
fn line() -> impl Strategy<Value = String> {
    let edit = (any::<prop::sample::Index>(), 0..3u8, any::<char>());
    (
        prop::sample::select(LINES),
        prop::collection::vec(edit, 0..4),
    )
        .prop_map(|(line, edits)| {
            let mut chars: Vec<char> = line.chars().collect();
            for (at, kind, c) in edits {
                let i = at.index(chars.len() + 1);
                match kind {
                    0 if i < chars.len() => chars[i] = c,
                    1 => chars.insert(i, c),
                    _ if i < chars.len() => {
                        chars.remove(i);
                    }
                    _ => {}
                }
            }
            chars.into_iter().collect()
        })
}

macro_rules! round_trip {
    ($parse:path, $line:expr) => {
        if let Ok(value) = $parse($line) {
            let printed = value.to_string();
            prop_assert_eq!(
                $parse(&printed),
                Ok(value),
                "'{}' printed as '{}'",
                $line,
                printed
            );
        }
    };
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_line_read_prints_back_to_itself(line in line()) {
        round_trip!(uci::parse, &line);
        round_trip!(uci::Reply::parse, &line);
        round_trip!(ucci::parse, &line);
        round_trip!(ucci::Reply::parse, &line);
        round_trip!(nboard::parse, &line);
        round_trip!(nboard::Reply::parse, &line);
        round_trip!(gomocup::parse, &line);
        round_trip!(gomocup::Reply::parse, &line);
        let _ = xboard::Reply::parse(&line);
    }

    #[test]
    fn gomocup_blocks_print_back_to_themselves(lines in prop::collection::vec(line(), 0..8)) {
        let feed = |text: &str| {
            let mut reader = gomocup::Reader::new();
            text.lines().filter_map(|l| reader.feed(l)).collect::<Vec<_>>()
        };
        for command in feed(&lines.join("\n")).into_iter().flatten() {
            let printed = command.to_string();
            prop_assert_eq!(feed(&printed), vec![Ok(command)], "printed as '{}'", printed);
        }
    }
}
