//! Every protocol's line parsers: the GUI's commands (UCI, UCCI, NBoard, Gomocup, with
//! Gomocup's `BOARD` blocks through its `Reader`) and the engine's replies (the same and
//! xboard). Input: a byte choosing the parser, then the text, one line or several. Each
//! `Display` promises to print what parses back to the same value: checked for every value
//! read.
#![no_main]

use duel_protocol::{gomocup, nboard, ucci, uci, xboard};
use libfuzzer_sys::fuzz_target;

/// `parse(line)`, and where it gives a value, the same value from its printed form.
macro_rules! round_trip {
    ($parse:path, $text:expr) => {
        for line in $text.lines() {
            if let Ok(value) = $parse(line) {
                let printed = value.to_string();
                assert_eq!(
                    $parse(&printed),
                    Ok(value),
                    "'{line}' printed as '{printed}'"
                );
            }
        }
    };
}

/// The commands a Gomocup reader gives for `text`'s lines, as one line arrives at a time.
fn gomocup_commands(text: &str) -> Vec<Result<gomocup::Command, duel_protocol::ParseError>> {
    let mut reader = gomocup::Reader::new();
    text.lines().filter_map(|line| reader.feed(line)).collect()
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    match which % 9 {
        0 => round_trip!(uci::parse, text),
        1 => round_trip!(uci::Reply::parse, text),
        2 => round_trip!(ucci::parse, text),
        3 => round_trip!(ucci::Reply::parse, text),
        4 => round_trip!(nboard::parse, text),
        5 => round_trip!(nboard::Reply::parse, text),
        6 => {
            round_trip!(gomocup::parse, text);
            for command in gomocup_commands(text).into_iter().flatten() {
                let printed = command.to_string();
                assert_eq!(
                    gomocup_commands(&printed),
                    [Ok(command)],
                    "printed as '{printed}'"
                );
            }
        }
        7 => round_trip!(gomocup::Reply::parse, text),
        _ => {
            // xboard replies have no `Display` (duel only reads them): no panic is the check.
            for line in text.lines() {
                let _ = xboard::Reply::parse(line);
            }
        }
    }
});
