//! UCCI on standard input and output (`duel ucci`, xiangqi GUIs and ElephantEye's adapters):
//! the UCI family's loop (`family`) in UCCI's words. This module is UCCI's dialect:
//! its lines from [`duel_protocol::ucci`] read into the loop's requests, and what the loop
//! says is written as UCCI writes it. So UCCI has the same search thread, the same answers
//! while it runs, and the same time manager as UCI, and differs only where UCCI does:
//!
//! - options are set without `name`/`value` (`setoption hashsize 64`); each option of the
//!   table is announced under its name lower-cased without spaces, or under its other name
//!   (`Hash` as `hashsize` as UCCI names it, `MultiPV` as `multipv`); check values may be
//!   `on`/`off` as well as `true`/`false`; `setoption newgame` clears the table;
//! - times are milliseconds, or seconds after `setoption usemillisec false`; `time`,
//!   `increment` and `movestogo` are the engine's own clock (the opponent's is not needed);
//! - `banmoves` excludes moves from the next search (the GUI's ruling on a repetition), until
//!   the next `position`; a move the position does not have is named and dropped;
//! - `stop` with no search answers `nobestmove`, a finished game's `go` too; `quit` answers
//!   `bye`;
//! - `probe` answers `pophash` with what the transposition table holds;
//! - `go draw` and `ponderhit draw` (a draw offer) are read and declined: duel never offers or
//!   accepts a draw, so no `bestmove` carries `draw` or `resign`.
//! - scores are centipawns, a mate as ±(30000 − plies), as duel's own scores run;
//! - moves are ICCS, the game's own notation: ranks count from 0.

use std::io::{Read, Write};
use std::time::Duration;

use duel_engine::{Bound, EngineError, Score, TableProbe};
use duel_protocol::ucci::{self as proto, OptionKind, Reply};

use crate::family::{self, squeeze, Dialect, ReadError, Request, Said, Spec};

/// The loop's settings: the engine's name and the game (xiangqi is what UCCI GUIs load).
pub use crate::family::LoopOptions as UcciOptions;

/// UCCI's dialect of the family's loop.
static DIALECT: Dialect = Dialect {
    read,
    write,
    option_name,
    check_word,
    shifts_ranks: false,
    chooses_game: true,
};

/// An option's name as UCCI writes names: its other name where it has one (UCCI's own
/// `hashsize`), else in lower case without spaces.
fn option_name(spec: &Spec) -> String {
    spec.also.map_or_else(|| squeeze(spec.name), str::to_string)
}

/// A check value as UCCI GUIs write it: `on`, `off`, `true` or `false`.
fn check_word(word: &str) -> Option<bool> {
    match word {
        "on" | "true" => Some(true),
        "off" | "false" => Some(false),
        _ => None,
    }
}

/// Reads one UCCI line into what it asks of the loop.
fn read(line: &str) -> Result<Request, ReadError> {
    let command = match proto::parse(line)? {
        proto::Command::Ucci => family::Command::Uci,
        proto::Command::IsReady => family::Command::IsReady,
        proto::Command::SetOption { name, value } => return set_option(name, value),
        proto::Command::Position(p) => family::Command::Position(p),
        proto::Command::BanMoves(moves) => return Ok(Request::Ban(moves)),
        proto::Command::Go(go) => family::Command::Go(uci_go(go)),
        proto::Command::PonderHit(_) => family::Command::PonderHit,
        proto::Command::Stop => family::Command::Stop,
        proto::Command::Probe(p) => return Ok(Request::Probe(p)),
        proto::Command::Quit => family::Command::Quit,
    };
    Ok(Request::Command(command))
}

/// `setoption NAME [VALUE]`: UCCI's own options, or one of the table's for the loop.
fn set_option(name: String, value: Option<String>) -> Result<Request, ReadError> {
    let key = name.to_ascii_lowercase();
    let on = || own_check(&key, value.as_deref());
    Ok(match key.as_str() {
        "usemillisec" => Request::TimeUnit(match on()? {
            true => Duration::from_millis(1),
            false => Duration::from_secs(1),
        }),
        "newgame" => Request::Command(family::Command::UciNewGame),
        "debug" => Request::Command(family::Command::Debug(on()?)),
        // GUI settings that change nothing here: taken without a word, but a value that is
        // no check value is refused as any other option's is.
        "batch" | "usebook" => on().map(|_| Request::Nothing)?,
        "bookfiles" => Request::Nothing,
        _ => Request::Command(family::Command::SetOption { name, value }),
    })
}

/// The value of one of UCCI's own check options.
fn own_check(name: &str, value: Option<&str>) -> Result<bool, ReadError> {
    let word = value.map(|v| v.trim().to_ascii_lowercase());
    word.as_deref()
        .and_then(check_word)
        .ok_or_else(|| ReadError::NotCheck {
            name: name.to_string(),
            value: value.unwrap_or_default().to_string(),
            words: "on, off, true or false",
        })
}

/// UCCI's `go` as the loop's: UCCI's clock is the engine's own, given as both sides' so that
/// the loop takes the side to move's, in the unit `usemillisec` set (the loop applies it).
fn uci_go(g: proto::Go) -> family::Go {
    let time = |t: u64| t.min(i64::MAX as u64) as i64;
    family::Go {
        ponder: g.ponder,
        depth: g.depth,
        nodes: g.nodes,
        infinite: g.infinite,
        movestogo: g.movestogo,
        wtime: g.time.map(time),
        btime: g.time.map(time),
        winc: g.increment.map(time),
        binc: g.increment.map(time),
        ..family::Go::default()
    }
}

/// What the loop says, in UCCI's words (none, one or several lines).
fn write(said: Said) -> Vec<String> {
    let replies = match said {
        Said::Reply(reply) => replies(reply),
        Said::Table(found) => vec![pophash(found)],
        Said::NothingToStop | Said::NoPosition => vec![Reply::NoBestMove],
        Said::Bye => vec![Reply::Bye],
    };
    replies.iter().map(Reply::to_string).collect()
}

/// One of the loop's replies in UCCI's words.
fn replies(reply: family::Reply) -> Vec<Reply> {
    match reply {
        family::Reply::IdName(n) => vec![Reply::Id {
            key: "name",
            value: n,
        }],
        family::Reply::IdAuthor(a) => vec![Reply::Id {
            key: "author",
            value: a,
        }],
        family::Reply::Option { name, kind } => {
            let kind = match kind {
                family::OptionKind::Check { default } => OptionKind::Check(default),
                family::OptionKind::Spin { default, min, max } => {
                    OptionKind::Spin { min, max, default }
                }
                family::OptionKind::Combo { default, vars } => OptionKind::Combo { vars, default },
                family::OptionKind::String { default } => OptionKind::String(default),
                family::OptionKind::Button => OptionKind::Button,
            };
            vec![Reply::Option { name, kind }]
        }
        family::Reply::UciOk => vec![
            Reply::Option {
                name: "usemillisec".into(),
                kind: OptionKind::Check(true),
            },
            Reply::Option {
                name: "newgame".into(),
                kind: OptionKind::Button,
            },
            Reply::UcciOk,
        ],
        family::Reply::ReadyOk => vec![Reply::ReadyOk],
        family::Reply::InfoString(s) => vec![Reply::Message(s)],
        // UCCI has one line per iteration: the first principal variation.
        family::Reply::Info(info) if info.multipv.unwrap_or(1) == 1 => {
            let score = match info.score {
                Some(family::Score::Cp(v)) => v,
                Some(family::Score::Mate(n)) if n > 0 => Score::win_in(2 * n - 1).0,
                Some(family::Score::Mate(n)) => Score::loss_in(-2 * n).0,
                None => 0,
            };
            vec![Reply::Info {
                depth: info.depth.unwrap_or(0),
                score,
                time_ms: info.time.unwrap_or(0),
                nodes: info.nodes.unwrap_or(0),
                pv: info.pv,
            }]
        }
        family::Reply::Info(_) => Vec::new(),
        family::Reply::BestMove {
            mv: Some(mv),
            ponder,
        } => vec![Reply::BestMove {
            mv,
            ponder,
            draw: false,
            resign: false,
        }],
        family::Reply::BestMove { mv: None, .. } => vec![Reply::NoBestMove],
    }
}

/// `pophash`: the table's move and its value as a lower bound, an upper bound or both.
fn pophash(found: Option<TableProbe>) -> Reply {
    let (mut lower, mut upper, mut best) = (None, None, None);
    if let Some(t) = found {
        let v = (t.value.0, t.depth);
        match t.bound {
            Bound::Lower => lower = Some(v),
            Bound::Upper => upper = Some(v),
            Bound::Exact => {
                lower = Some(v);
                upper = Some(v);
            }
        }
        best = t.best;
    }
    Reply::PopHash { best, lower, upper }
}

/// Runs the UCCI protocol on `input` and `output` until `quit` or the end of the input.
pub fn run(
    input: impl Read + Send + 'static,
    output: impl Write + Send + 'static,
    opts: UcciOptions,
) -> Result<(), EngineError> {
    family::run(input, output, opts, &DIALECT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_scores_in_ucci_words() {
        let names: Vec<String> = family::table("chess", &[])
            .iter()
            .map(option_name)
            .collect();
        for name in ["hashsize", "moveoverhead", "multipv"] {
            assert!(names.iter().any(|n| n == name), "{name}: {names:?}");
        }
        let info = |score| {
            write(Said::Reply(family::Reply::Info(family::Info {
                depth: Some(3),
                score: Some(score),
                pv: vec!["h2e2".into()],
                ..family::Info::default()
            })))[0]
                .clone()
        };
        assert_eq!(
            info(family::Score::Cp(25)),
            "info depth 3 score 25 time 0 nodes 0 pv h2e2"
        );
        assert!(info(family::Score::Mate(2)).contains("score 29997"));
        assert!(info(family::Score::Mate(-1)).contains("score -29998"));
        assert_eq!(
            write(Said::Reply(family::Reply::BestMove {
                mv: None,
                ponder: None
            })),
            ["nobestmove"]
        );
    }
}
