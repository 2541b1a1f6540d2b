//! An xboard (CECP) engine as a player: it keeps the game itself, so moves are sent in force
//! mode as they are played and `go` makes it move for the side to move.

use std::time::{Duration, Instant};

use duel_core::GameInfo;
use duel_protocol::xboard::{Command, Reply};
use duel_search::Limits;

use super::process::{probe_answer, Heard, Process};
use super::{Answer, Player, ProgramSpec, Thought, Turn, Value};
use crate::{ArenaError, TimeControl};

/// How long an engine that never says `feature done=1` (protocol version 1) is given to
/// declare its features.
const FEATURE_WAIT: Duration = Duration::from_secs(2);

/// xboard's name for standard chess, the game `new` sets up.
const STANDARD: &str = "normal";

/// A running xboard engine.
pub struct XboardClient {
    p: Process,
    /// Moves go as `usermove M` rather than bare.
    usermove: bool,
    /// `ping N` is answered by `pong N` (the xboard `isready`).
    ping: bool,
    /// `setboard FEN` is understood.
    setboard: bool,
    /// How many moves of the game the engine already has.
    synced: usize,
    /// The games it plays (`feature variants="normal,xiangqi,..."`).
    variants: Vec<String>,
}

impl XboardClient {
    /// Starts the engine: `xboard`, `protover 2`, then the features until `done=1` (or a
    /// pause, for version 1 engines), then the options.
    pub fn start(spec: &ProgramSpec) -> Result<XboardClient, ArenaError> {
        let mut e = XboardClient {
            p: Process::start(&spec.command)?,
            usermove: false,
            ping: false,
            setboard: false,
            synced: 0,
            variants: Vec::new(),
        };
        e.p.send(&Command::Xboard)?;
        e.p.send(&Command::Protover(2))?;
        let deadline = Instant::now() + FEATURE_WAIT;
        let mut announced = Vec::new();
        'features: while let Some(line) = e.p.line_before(deadline, "")? {
            let Ok(Reply::Features(features)) = Reply::parse(&line) else {
                continue;
            };
            let mut done = false;
            for (k, v) in features {
                match k.as_str() {
                    "myname" => e.p.name = v.clone(),
                    "usermove" => e.usermove = v == "1",
                    "ping" => e.ping = v == "1",
                    "setboard" => e.setboard = v == "1",
                    "variants" => {
                        e.variants = v.split(',').map(|s| s.trim().to_string()).collect();
                    }
                    "done" => done = v == "1",
                    // `option="Name -type ..."`: the name runs to the first ` -`.
                    "option" => announced.push(v.split(" -").next().unwrap_or("").to_string()),
                    _ => {}
                }
                // Accepting is only a courtesy: engines work without it.
                if k != "done" {
                    e.p.send(&Command::Accepted(k))?;
                }
            }
            if done {
                break 'features;
            }
        }
        e.p.check_options(&spec.options, &announced)?;
        e.p.send_all(spec.options.iter().map(|(name, value)| Command::Option {
            name: name.clone(),
            value: value.clone(),
        }))?;
        Ok(e)
    }

    /// `new`, then `variant NAME` for a game other than xboard's standard chess (`normal`,
    /// what `new` sets up), if the engine plays it.
    fn new_board<G: GameInfo>(&mut self) -> Result<(), ArenaError> {
        self.p.send(&Command::New)?;
        let variant = G::XBOARD_VARIANT;
        if variant == STANDARD {
            return Ok(());
        }
        if !self.variants.iter().any(|v| v == variant) {
            return Err(self.p.unable(format!(
                "it does not list {variant} among its variants ({})",
                match self.variants.is_empty() {
                    true => "it declares none".to_string(),
                    false => self.variants.join(", "),
                }
            )));
        }
        self.p.send(&Command::Variant(variant.into()))
    }

    /// Waits for `pong` to a `ping`; a refusal of the game's set-up on the way (`variant`,
    /// `setboard`, or Sjaak II's `tellusererror` for a FEN it cannot read) is an error, since
    /// the engine would go on playing another position.
    fn ready(&mut self) -> Result<(), ArenaError> {
        // Without ping there is nothing to wait on; the engine reads its input in order.
        if !self.ping {
            return Ok(());
        }
        let mut refused = None;
        self.p.ask(&Command::Ping(1), |l| match Reply::parse(l) {
            Ok(Reply::Pong(1)) => true,
            Ok(Reply::Refused(line))
                if line.starts_with("tellusererror")
                    || line.contains("setboard")
                    || line.contains("variant") =>
            {
                refused = Some(line);
                true
            }
            _ => false,
        })?;
        match refused {
            Some(line) => Err(self
                .p
                .unable(format!("it refused the game's set-up: {line}"))),
            None => Ok(()),
        }
    }

    /// Reads the engine's thinking until its move, its resignation or `deadline`. A refusal
    /// naming one of the moves just `sent` breaks the protocol ([`ArenaError::Garbage`]): the
    /// engine's board is no longer the game's (a move it reads otherwise, or a game it set up
    /// otherwise), so no move of its can be trusted.
    fn answer(&mut self, deadline: Instant, sent: &[String]) -> Result<Answer, ArenaError> {
        let mut thought = Thought::default();
        self.p.answer(deadline, |line| match Reply::parse(line) {
            Ok(Reply::Refused(r))
                if sent
                    .iter()
                    .any(|m| r.split_whitespace().next_back() == Some(m.as_str())) =>
            {
                Heard::Garbage(format!(
                    "broke the protocol: it refused a move of the game: {r}"
                ))
            }
            Ok(Reply::Move(m)) => Heard::Answer(Answer::Move(m, thought)),
            Ok(Reply::Resign) => Heard::Answer(Answer::Resign),
            Ok(Reply::Thinking { depth, score, .. }) => {
                thought = Thought {
                    depth: Some(depth),
                    value: Some(Value::Cp(score)),
                };
                Heard::Nothing
            }
            _ => Heard::Nothing,
        })
    }

    /// The engine's move in `pos` within `limits` (`sd`, `st`; no node limit), from a new
    /// game set up by `setboard`, as `duel suite --engine` asks.
    pub fn probe<G: GameInfo>(
        &mut self,
        pos: &G,
        limits: &Limits,
        patience: Duration,
    ) -> Result<(Answer, Duration), ArenaError> {
        if limits.nodes.is_some() {
            return Err(self
                .p
                .unable("an xboard engine cannot be limited by nodes; use a time or a depth"));
        }
        if !self.setboard {
            return Err(self.p.unable(
                "the engine does not declare `feature setboard=1`, so it cannot be given a \
                 position",
            ));
        }
        self.new_board::<G>()?;
        self.p.send_all([Command::Force, Command::Post])?;
        self.p.send(&Command::SetBoard(pos.to_text()))?;
        if let Some(d) = limits.depth {
            self.p.send(&Command::Depth(d))?;
        }
        if let Some(t) = limits.time {
            self.p.send(&Command::MoveTime(t))?;
        }
        self.ready()?;
        self.p.send(&Command::Go)?;
        let (answer, time) = probe_answer(
            self,
            patience,
            |e| e.p.send(&Command::MoveNow),
            |e, deadline| e.answer(deadline, &[]),
        )?;
        // It played its move on its own board: out of the game before the next position.
        self.p.send(&Command::Force)?;
        Ok((answer, time))
    }
}

impl<G: GameInfo> Player<G> for XboardClient {
    fn name(&self) -> &str {
        &self.p.name
    }

    fn new_game(&mut self, start: &G, tc: TimeControl) -> Result<(), ArenaError> {
        if tc.nodes.is_some() {
            return Err(self
                .p
                .unable("an xboard engine cannot be limited by nodes; use a time control"));
        }
        let fen = start.to_text();
        let other_start = fen != G::start().to_text();
        if other_start && !self.setboard {
            return Err(self.p.unable(format!(
                "an xboard engine without the setboard feature cannot start from {fen}"
            )));
        }
        self.synced = 0;
        self.new_board::<G>()?;
        let clock = match tc.movetime {
            Some(t) => Command::MoveTime(t),
            None => Command::Level {
                moves: 0,
                base: tc.base,
                increment: tc.increment,
            },
        };
        self.p
            .send_all([Command::Force, Command::Easy, Command::Post, clock])?;
        if let Some(d) = tc.depth {
            self.p.send(&Command::Depth(d))?;
        }
        if other_start {
            self.p.send(&Command::SetBoard(fen))?;
        }
        self.ready()
    }

    fn think(&mut self, turn: &Turn<'_, G>) -> Result<Answer, ArenaError> {
        self.p.send(&Command::Force)?;
        let texts = turn.move_texts();
        let sent = &texts[self.synced.min(texts.len())..];
        for m in sent {
            let c = if self.usermove {
                Command::UserMove(m.clone())
            } else {
                Command::Move(m.clone())
            };
            self.p.send(&c)?;
        }
        let me = turn.mover();
        let cs = |d: Duration| (d.as_millis() / 10) as u64;
        self.p.send(&Command::Time(cs(turn.clocks[me])))?;
        self.p.send(&Command::Otim(cs(turn.clocks[1 - me])))?;
        self.p.send(&Command::Go)?;
        // It now has every move and will add its own.
        self.synced = texts.len() + 1;
        self.answer(turn.deadline, sent)
    }

    fn interrupt(&mut self) -> Result<(), ArenaError> {
        self.p.send(&Command::Force)?;
        self.ready()
    }
}
