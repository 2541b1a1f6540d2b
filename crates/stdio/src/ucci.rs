//! The UCCI loop (`duel ucci`, xiangqi GUIs and ElephantEye's adapters): UCCI's lines from
//! [`duel_protocol::ucci`] become the UCI loop's commands, and the UCI loop, told its dialect,
//! writes its replies in UCCI's words ([`replies`]). So UCCI has the same search thread, the same
//! answers while it runs, and the same time manager as UCI, and differs only where UCCI does:
//!
//! - options are set without `name`/`value` (`setoption hashsize 64`); each UCI option is
//!   announced under its name lower-cased without spaces (`Hash` as `hashsize` as UCCI names
//!   it, `MultiPV` as `multipv`); check values may be `on`/`off` as well as `true`/`false`;
//!   `setoption newgame` clears the table;
//! - times are milliseconds, or seconds after `setoption usemillisec false`; `time`,
//!   `increment` and `movestogo` are the engine's own clock (the opponent's is not needed);
//! - `banmoves` excludes moves from the next search (the GUI's ruling on a repetition), until
//!   the next `position`; a move the position does not have is named and dropped;
//! - `stop` with no search answers `nobestmove`, a finished game's `go` too; `quit` answers
//!   `bye`;
//! - `probe` answers `pophash` with what the transposition table holds;
//! - `go draw` and `ponderhit draw` (a draw offer) are read and declined: duel never offers or
//!   accepts a draw, so no `bestmove` carries `draw` or `resign`.
//! - scores are centipawns, a mate as ±(30000 − plies), as duel's own scores run.

use std::io::{Read, Write};
use std::sync::Arc;

use duel_protocol::ucci::{self as proto, OptionKind, Reply};
use duel_protocol::uci::{self, Command, Go, Reply as UciReply, Score as UciScore};
use duel_protocol::ParseError;

use crate::io::{lines, output, send};
use crate::uci::{Dialect, Uci, UciOptions};
use duel_engine::{EngineError, Score};

/// The loop's settings: the engine's name and the game (xiangqi is what UCCI GUIs load).
pub type UcciOptions = UciOptions;

/// A UCI option's name as UCCI writes names: lower case, no spaces.
fn ucci_name(uci_name: &str) -> String {
    let n: String = uci_name
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    // UCCI's own word for the table's size.
    if n == "hash" {
        "hashsize".into()
    } else {
        n
    }
}

/// The UCI loop's `reply` in UCCI's words (none, one or several lines).
pub(crate) fn replies(reply: UciReply) -> Vec<Reply> {
    match reply {
        UciReply::IdName(n) => vec![Reply::Id {
            key: "name",
            value: n,
        }],
        UciReply::IdAuthor(a) => vec![Reply::Id {
            key: "author",
            value: a,
        }],
        UciReply::Option { name, kind } => {
            let kind = match kind {
                uci::OptionKind::Check { default } => OptionKind::Check(default),
                uci::OptionKind::Spin { default, min, max } => {
                    OptionKind::Spin { min, max, default }
                }
                uci::OptionKind::Combo { default, vars } => OptionKind::Combo { vars, default },
                uci::OptionKind::String { default } => OptionKind::String(default),
                uci::OptionKind::Button => OptionKind::Button,
            };
            vec![Reply::Option {
                name: ucci_name(&name),
                kind,
            }]
        }
        UciReply::UciOk => vec![
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
        UciReply::ReadyOk => vec![Reply::ReadyOk],
        UciReply::InfoString(s) => vec![Reply::Message(s)],
        // UCCI has one line per iteration: the first principal variation.
        UciReply::Info(info) if info.multipv.unwrap_or(1) == 1 => {
            let score = match info.score {
                Some(UciScore::Cp(v)) => v,
                Some(UciScore::Mate(n)) if n > 0 => Score::win_in(2 * n - 1).0,
                Some(UciScore::Mate(n)) => Score::loss_in(-2 * n).0,
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
        UciReply::Info(_) => Vec::new(),
        UciReply::BestMove {
            mv: Some(mv),
            ponder,
        } => vec![Reply::BestMove {
            mv,
            ponder,
            draw: false,
            resign: false,
        }],
        UciReply::BestMove { mv: None, .. } => vec![Reply::NoBestMove],
    }
}

/// A check value as UCCI GUIs write it (`on`, `off`, `true`, `false`) in UCI's form.
fn check(value: Option<&str>) -> Option<String> {
    value.map(|v| match v.trim().to_ascii_lowercase().as_str() {
        "on" | "true" => "true".into(),
        "off" | "false" => "false".into(),
        other => other.to_string(),
    })
}

/// The UCCI session's own state around the UCI loop.
struct Ucci {
    uci: Uci,
    /// Times in milliseconds (`usemillisec`, on by default), else seconds.
    millis: bool,
    /// `banmoves` since the last `position`.
    banned: Vec<String>,
}

impl Ucci {
    fn say(&self, reply: Reply) {
        send(self.uci.out(), reply);
    }

    /// Handles one line; false ends the session.
    fn handle(&mut self, cmd: proto::Command) -> bool {
        match cmd {
            proto::Command::Ucci => self.uci.handle(Command::Uci),
            proto::Command::IsReady => self.uci.handle(Command::IsReady),
            proto::Command::SetOption { name, value } => self.set_option(&name, value),
            proto::Command::Position(p) => {
                self.banned.clear();
                self.uci.handle(Command::Position(p))
            }
            proto::Command::BanMoves(moves) => {
                self.ban(moves);
                true
            }
            proto::Command::Go(go) => self.go(go),
            proto::Command::PonderHit(_) => self.uci.handle(Command::PonderHit),
            proto::Command::Stop => {
                self.uci.reclaim();
                if self.uci.running.is_none() {
                    self.say(Reply::NoBestMove);
                    true
                } else {
                    self.uci.handle(Command::Stop)
                }
            }
            proto::Command::Probe(p) => {
                self.probe(&p);
                true
            }
            proto::Command::Quit => {
                self.uci.finish(true);
                self.say(Reply::Bye);
                false
            }
        }
    }

    fn set_option(&mut self, name: &str, value: Option<String>) -> bool {
        let key = name.to_ascii_lowercase();
        match key.as_str() {
            "usemillisec" => {
                if let Some(on) = self.check_option(&key, value.as_deref()) {
                    self.millis = on;
                }
            }
            "newgame" => return self.uci.handle(Command::UciNewGame),
            "debug" => {
                if let Some(on) = self.check_option(&key, value.as_deref()) {
                    return self.uci.handle(Command::Debug(on));
                }
            }
            // GUI settings that change nothing here: taken without a word, but a value that is
            // no check value is refused as any other option's is.
            "batch" | "usebook" => {
                self.check_option(&key, value.as_deref());
            }
            "bookfiles" => {}
            _ => {
                // The UCI loop knows the options by their UCCI names too; a check option's
                // value may be `on` or `off` here.
                let is_check = self.uci.options().into_iter().any(|o| {
                    matches!(o, UciReply::Option { name: n, kind: uci::OptionKind::Check { .. } }
                        if ucci_name(&n) == key)
                });
                let value = if is_check {
                    check(value.as_deref())
                } else {
                    value
                };
                return self.uci.handle(Command::SetOption {
                    name: name.to_string(),
                    value,
                });
            }
        }
        true
    }

    fn go(&mut self, g: proto::Go) -> bool {
        let scale = |t: u64| -> i64 {
            let ms = if self.millis {
                t
            } else {
                t.saturating_mul(1000)
            };
            ms.min(i64::MAX as u64) as i64
        };
        let mut go = Go {
            ponder: g.ponder,
            depth: g.depth,
            nodes: g.nodes,
            infinite: g.infinite,
            movestogo: g.movestogo,
            ..Go::default()
        };
        // UCCI's clock is the engine's own: given as both, the UCI loop takes the side to
        // move's.
        if let Some(t) = g.time {
            go.wtime = Some(scale(t));
            go.btime = Some(scale(t));
        }
        if let Some(i) = g.increment {
            go.winc = Some(scale(i));
            go.binc = Some(scale(i));
        }
        if !self.banned.is_empty() {
            let Some(session) = self.uci.session("go") else {
                return true;
            };
            let legal = session.legal_moves();
            let mut banned = Vec::new();
            let mut dropped = Vec::new();
            for m in &self.banned {
                match session.parse_search_move(m) {
                    Ok(mv) => banned.push(mv),
                    Err(e) => dropped.push((m.clone(), e)),
                }
            }
            go.searchmoves = legal.into_iter().filter(|m| !banned.contains(m)).collect();
            // Moves banned while a search ran, when the position they were for was not there
            // to check them (see `Ucci::ban`): named once, here.
            self.banned.retain(|m| !dropped.iter().any(|(d, _)| d == m));
            for (m, e) in dropped {
                self.uci.error(format!("banmoves: '{m}' dropped ({e})"));
            }
            if go.searchmoves.is_empty() {
                self.uci
                    .error("every legal move is banned (banmoves): no move to give");
                self.say(Reply::NoBestMove);
                return true;
            }
        }
        self.uci.handle(Command::Go(go))
    }

    /// A check option's value (`on`, `off`, `true` or `false`), or None with the refusal said.
    fn check_option(&self, name: &str, value: Option<&str>) -> Option<bool> {
        match check(value).as_deref() {
            Some("true") => Some(true),
            Some("false") => Some(false),
            _ => {
                self.uci.error(format!(
                    "option '{name}' takes on, off, true or false, not '{}'",
                    value.unwrap_or_default()
                ));
                None
            }
        }
    }

    /// `banmoves`: the moves are kept for the searches until the next `position`. Moves the
    /// position does not have are named and dropped at once, as `searchmoves` drops them in
    /// UCI: a ban that matches no move would otherwise be lost without a word. While a
    /// search runs, the position may yet change (a `position` is kept until it ends), so the
    /// moves are checked at the next `go`.
    fn ban(&mut self, moves: Vec<String>) {
        self.uci.reclaim();
        let session = match (&self.uci.running, &self.uci.session) {
            (None, Some(session)) => session,
            _ => {
                self.banned = moves;
                return;
            }
        };
        let mut kept = Vec::new();
        for m in moves {
            match session.parse_search_move(&m) {
                Ok(_) => kept.push(m),
                Err(e) => self.uci.error(format!("banmoves: '{m}' dropped ({e})")),
            }
        }
        self.banned = kept;
    }

    fn probe(&mut self, p: &uci::Position) {
        let Some(session) = self.uci.session("probe") else {
            return;
        };
        let text = match &p.start {
            uci::Start::StartPos => "",
            uci::Start::Fen(f) => f.as_str(),
        };
        let moves: Vec<&str> = p.moves.iter().map(String::as_str).collect();
        match session.probe(text, &moves) {
            Ok(found) => {
                let (mut lower, mut upper, mut best) = (None, None, None);
                if let Some(t) = found {
                    use duel_engine::Bound;
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
                self.say(Reply::PopHash { best, lower, upper });
            }
            Err(e) => self.uci.error(format!("probe refused ({e})")),
        }
    }
}

/// Runs the UCCI protocol on `input` and `output` until `quit` or the end of the input.
pub fn run(
    input: impl Read + Send + 'static,
    output_stream: impl Write + Send + 'static,
    opts: UcciOptions,
) -> Result<(), EngineError> {
    let out = output(output_stream);
    let mut ucci = Ucci {
        uci: Uci::new(opts, Arc::clone(&out), Dialect::Ucci)?,
        millis: true,
        banned: Vec::new(),
    };
    for line in lines(input) {
        match proto::parse(&line) {
            Ok(cmd) => {
                if !ucci.handle(cmd) {
                    return Ok(());
                }
            }
            Err(ParseError::Empty) => {}
            Err(e) => ucci.uci.error(e),
        }
    }
    let endless = ucci.uci.endless();
    ucci.uci.finish(endless);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_scores_in_ucci_words() {
        assert_eq!(ucci_name("Hash"), "hashsize");
        assert_eq!(ucci_name("Move Overhead"), "moveoverhead");
        assert_eq!(ucci_name("MultiPV"), "multipv");
        let info = |score| {
            replies(UciReply::Info(uci::Info {
                depth: Some(3),
                score: Some(score),
                pv: vec!["h2e2".into()],
                ..uci::Info::default()
            }))[0]
                .to_string()
        };
        assert_eq!(
            info(UciScore::Cp(25)),
            "info depth 3 score 25 time 0 nodes 0 pv h2e2"
        );
        assert!(info(UciScore::Mate(2)).contains("score 29997"));
        assert!(info(UciScore::Mate(-1)).contains("score -29998"));
        assert_eq!(
            replies(UciReply::BestMove {
                mv: None,
                ponder: None
            }),
            vec![Reply::NoBestMove]
        );
    }
}
