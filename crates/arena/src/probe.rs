//! Another engine asked for its move in one position after another, as `duel suite --engine`
//! does: each position a new game, nothing kept from the last.

use std::time::Duration;

use duel_core::GameInfo;
use duel_search::Limits;

use crate::player::ucci::UcciClient;
use crate::player::uci::UciClient;
use crate::player::xboard::XboardClient;
use crate::player::{read_move, Answer, ProgramSpec, Protocol};
use crate::ArenaError;

/// How long past its time limit, or past this long with only a depth or node limit, an engine
/// may search a position before it is told to move now.
const PROBE_GRACE: Duration = Duration::from_secs(5);
const PROBE_UNTIMED: Duration = Duration::from_secs(600);

/// An engine's choice in one position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The move in the game's notation, or None if the engine resigned instead.
    pub best: Option<String>,
    /// The depth of the last value it reported, if it reported one.
    pub depth: Option<u32>,
    /// Time from the search command to the answer.
    pub time: Duration,
}

enum Client {
    Uci(UciClient),
    Xboard(XboardClient),
    Ucci(UcciClient),
}

/// A UCI, UCCI or xboard engine asked for its move in single positions.
pub struct Analyst(Client);

impl Analyst {
    /// Starts the engine and sends its options.
    pub fn start(spec: &ProgramSpec) -> Result<Analyst, ArenaError> {
        Ok(Analyst(match spec.protocol {
            Protocol::Uci => Client::Uci(UciClient::start(spec)?),
            Protocol::Xboard => Client::Xboard(XboardClient::start(spec)?),
            Protocol::Ucci => Client::Ucci(UcciClient::start(spec)?),
            Protocol::Nboard | Protocol::Gomocup => {
                return Err(ArenaError::Unable {
                    engine: spec.command.join(" "),
                    reason: "only UCI, UCCI and xboard engines are asked about single \
                             positions here (chess and xiangqi suites)"
                        .into(),
                })
            }
        }))
    }

    /// The name the engine gave (`id name`, `feature myname`), or its command line.
    pub fn name<G: GameInfo>(&self) -> &str {
        match &self.0 {
            Client::Uci(e) => crate::Player::<G>::name(e),
            Client::Xboard(e) => crate::Player::<G>::name(e),
            Client::Ucci(e) => crate::Player::<G>::name(e),
        }
    }

    /// The engine's move in `pos` within `limits` (UCI `go depth`, `nodes`, `movetime`;
    /// xboard `sd`, `st`, and no node limit).
    pub fn choose<G: GameInfo>(&mut self, pos: &G, limits: &Limits) -> Result<Choice, ArenaError> {
        let patience = limits.time.map_or(PROBE_UNTIMED, |t| t + PROBE_GRACE);
        let (answer, time) = match &mut self.0 {
            Client::Uci(e) => e.probe(pos, limits, patience)?,
            Client::Xboard(e) => e.probe(pos, limits, patience)?,
            Client::Ucci(e) => e.probe(pos, limits, patience)?,
        };
        let engine = self.name::<G>().to_string();
        let (best, depth) = match answer {
            Answer::Move(text, thought) => {
                let mv = read_move(pos, &text).map_err(|source| ArenaError::IllegalProbe {
                    engine,
                    mv: text.clone(),
                    position: pos.to_text(),
                    source: Box::new(source),
                })?;
                (Some(pos.format_move(mv)), thought.depth)
            }
            Answer::Resign => (None, None),
            Answer::Late => {
                return Err(ArenaError::Unable {
                    engine,
                    reason: format!("no move in {} even when told to move", pos.to_text()),
                })
            }
        };
        Ok(Choice { best, depth, time })
    }
}
