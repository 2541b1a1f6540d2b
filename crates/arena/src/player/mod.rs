//! The players of a match: duel in process ([`duel::DuelPlayer`], any evaluator and search
//! options, no subprocess), and engines as child processes spoken to over UCI, xboard (CECP)
//! UCCI, NBoard or Gomocup ([`uci`], [`xboard`], [`ucci`], [`nboard`], [`gomocup`]), every line out a typed command of
//! `duel-protocol` and every line in read as its typed reply. All of them are a [`Player`].

pub mod duel;
pub mod gomocup;
pub mod nboard;
mod process;
pub mod ucci;
pub mod uci;
pub mod xboard;

use std::time::{Duration, Instant};

use duel_core::{Game, GameInfo, MoveError};

use crate::{ArenaError, SpecError, TimeControl};

pub use duel::{DuelPlayer, DuelSpec};

/// Someone who plays games of `G`: told when a game starts, asked for a move at each turn.
pub trait Player<G: GameInfo>: Send {
    /// The name for the record (`id name`, `feature myname`, `set myname`, or the command).
    fn name(&self) -> &str;
    /// A new game from `start`, on control `tc` (the player's own).
    fn new_game(&mut self, start: &G, tc: TimeControl) -> Result<(), ArenaError>;
    /// The player's answer at `turn`; [`Answer::Late`] when `turn.deadline` passed first.
    fn think(&mut self, turn: &Turn<'_, G>) -> Result<Answer, ArenaError>;
    /// After a late answer: stop the search, so that its move does not arrive in the next
    /// game. An error says the player did not settle (no answer to the stop within the
    /// handshake's wait), and it is made anew before its next game.
    fn interrupt(&mut self) -> Result<(), ArenaError> {
        Ok(())
    }
}

/// Makes a player: each game runner (one per `--concurrency`) makes its own pair, and makes
/// one again after it lost a game by crashing, hanging or answering garbage.
pub type Maker<'a, G> = dyn Fn() -> Result<Box<dyn Player<G>>, ArenaError> + Sync + 'a;

/// What a player is given at its turn.
#[derive(Debug)]
pub struct Turn<'a, G: Game> {
    /// Where the game started.
    pub start: &'a G,
    /// The moves from there.
    pub moves: &'a [G::Move],
    /// The position now (with its history, for the rules that need it).
    pub pos: &'a G,
    /// Time left on the clocks, the first player's first.
    pub clocks: [Duration; 2],
    /// The controls, the first player's first.
    pub controls: [TimeControl; 2],
    /// The time each move took, as the clocks charged it (zero for an opening's moves).
    pub times: &'a [Duration],
    /// When the mover's flag falls.
    pub deadline: Instant,
}

impl<G: Game> Turn<'_, G> {
    /// The moves from the start as text.
    pub fn move_texts(&self) -> Vec<String> {
        let mut p = self.start.clone();
        self.moves
            .iter()
            .map(|&m| {
                let t = p.format_move(m);
                p.play(m);
                t
            })
            .collect()
    }

    /// The mover: 0 for the first player, 1 for the second.
    pub fn mover(&self) -> usize {
        self.pos.side_to_move() as usize
    }
}

/// What a player answered when asked to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// A move, as text, and what the player last said about its search.
    Move(String, Thought),
    /// The player resigned.
    Resign,
    /// Nothing before the flag fell.
    Late,
}

/// A player's value of a position, from its own side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value {
    /// Centipawns (hundredths of the game's unit: centi-discs in Othello).
    Cp(i32),
    /// Mate in this many moves (negative: the player is mated).
    Mate(i32),
}

/// The last depth and value a player reported while thinking on a move, for the record.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Thought {
    /// The depth of the value.
    pub depth: Option<u32>,
    /// The value.
    pub value: Option<Value>,
}

impl Thought {
    /// The record's comment for a move that took `used`, as cutechess writes it:
    /// `+0.35/12 0.531s`, `-M3/20 0.102s`, or only the time when the player said nothing.
    pub fn note(&self, used: Duration) -> String {
        let time = format!("{:.3}s", used.as_secs_f64());
        let value = match self.value {
            None => return time,
            Some(Value::Cp(cp)) => format!("{:+.2}", f64::from(cp) / 100.0),
            Some(Value::Mate(m)) if m > 0 => format!("+M{m}"),
            // unsigned_abs: an engine may print any i32, i32::MIN too.
            Some(Value::Mate(m)) => format!("-M{}", m.unsigned_abs()),
        };
        match self.depth {
            Some(d) => format!("{value}/{d} {time}"),
            None => format!("{value} {time}"),
        }
    }
}

/// The `position` of UCI and UCCI for `start` and `moves`: `startpos` when `start` is the
/// game's start, else its FEN.
fn position_of<G: GameInfo>(start: &G, moves: Vec<String>) -> duel_protocol::uci::Position {
    use duel_protocol::uci::{Position, Start};
    let fen = start.to_text();
    let start = if fen == G::start().to_text() {
        Start::StartPos
    } else {
        Start::Fen(fen)
    };
    Position { start, moves }
}

/// A move as a player wrote it: the game's notation (in either case, as engines write
/// promotions and Othello squares both ways), or as the game shows moves to people (SAN in
/// chess, which xboard engines may send: Phalanx castles as `O-O`), check marks aside.
pub fn read_move<G: GameInfo>(pos: &G, text: &str) -> Result<G::Move, MoveError> {
    let first = match pos.parse_move(text) {
        Ok(m) => return Ok(m),
        Err(e) => e,
    };
    for other in [text.to_ascii_lowercase(), text.to_ascii_uppercase()] {
        if let Ok(m) = pos.parse_move(&other) {
            return Ok(m);
        }
    }
    let bare = |t: &str| t.trim_end_matches(['+', '#', '!', '?']).to_string();
    let wanted = bare(text);
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves
        .into_iter()
        .find(|&m| bare(&pos.display_move(m)) == wanted)
        .ok_or(first)
}

/// The protocol an engine speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// UCI: the position and the clocks are sent with every move.
    Uci,
    /// xboard/CECP version 2: the engine keeps the game itself; moves are sent in force mode
    /// and `go` makes it move for the side to move.
    Xboard,
    /// NBoard (Othello): the game so far as GGF, then `go`.
    Nboard,
    /// Gomocup (Gomoku): `TURN` with the opponent's move, or the whole `BOARD`.
    Gomocup,
    /// UCCI (xiangqi): as UCI, in ElephantEye's words.
    Ucci,
}

impl Protocol {
    /// `uci`, `xboard` (also `cecp`, `winboard`), `ucci`, `nboard` or `gomocup` (also
    /// `piskvork`).
    pub fn parse(text: &str) -> Result<Protocol, SpecError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "uci" => Ok(Protocol::Uci),
            "xboard" | "cecp" | "winboard" => Ok(Protocol::Xboard),
            "nboard" => Ok(Protocol::Nboard),
            "gomocup" | "piskvork" => Ok(Protocol::Gomocup),
            "ucci" => Ok(Protocol::Ucci),
            other => Err(SpecError::new(
                "unknown engine protocol",
                other,
                "expected uci, xboard, ucci, nboard or gomocup",
            )),
        }
    }

    /// The protocol a game's GUIs speak that the arena speaks too: the first of `names`
    /// ([`GameInfo::PROTOCOLS`]) it knows.
    pub fn of_game(names: &[&str]) -> Option<Protocol> {
        names.iter().find_map(|n| Protocol::parse(n).ok())
    }
}

/// How to start an outside engine program and what to tell it first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgramSpec {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// Options sent after the handshake: `setoption name K value V` in UCI, `option K=V` in
    /// xboard.
    pub options: Vec<(String, String)>,
    /// The protocol it speaks.
    pub protocol: Protocol,
}

/// Starts the program `spec` describes, as a player of `G`, through the client of its protocol.
pub fn start_program<G: GameInfo>(spec: &ProgramSpec) -> Result<Box<dyn Player<G>>, ArenaError> {
    Ok(match spec.protocol {
        Protocol::Uci => Box::new(uci::UciClient::start(spec)?),
        Protocol::Xboard => Box::new(xboard::XboardClient::start(spec)?),
        Protocol::Nboard => Box::new(nboard::NboardClient::start(spec)?),
        Protocol::Gomocup => Box::new(gomocup::GomocupClient::start(spec)?),
        Protocol::Ucci => Box::new(ucci::UcciClient::start(spec)?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use duel_chess::Chess;

    #[test]
    fn moves_are_read_in_any_spelling() {
        let pos = Chess::start();
        let text = |m| pos.format_move(m);
        assert_eq!(text(read_move(&pos, "e2e4").unwrap()), "e2e4");
        assert_eq!(text(read_move(&pos, "Nf3").unwrap()), "g1f3");
        assert!(read_move(&pos, "e2e5").is_err());
        let o = duel_othello::Othello::start();
        let f5 = read_move(&o, "F5").unwrap();
        assert_eq!(read_move(&o, "f5").unwrap(), f5);
    }

    #[test]
    fn protocols_by_name() {
        assert_eq!(Protocol::parse("CECP"), Ok(Protocol::Xboard));
        assert_eq!(Protocol::parse("nboard"), Ok(Protocol::Nboard));
        let e = Protocol::parse("telnet").unwrap_err().to_string();
        assert!(e.contains("'telnet'"), "{e}");
        assert_eq!(Protocol::of_game(&["uci"]), Some(Protocol::Uci));
        assert_eq!(Protocol::of_game(&["ucci", "uci"]), Some(Protocol::Ucci));
        assert_eq!(Protocol::of_game(&[]), None);
    }
}
