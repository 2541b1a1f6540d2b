//! The registry: every game duel plays, listed once. Everything else about a game comes from
//! its own crate through [`GameInfo`]; adding a game is its crate, the workspace member, and
//! one line in [`REGISTRY`].

use std::path::Path;

use duel_core::{Evaluator, EvaluatorVisitor, GameInfo};

use crate::{EngineError, GameSession, Session};

/// Lists the games once: [`REGISTRY`] and [`with_game`] both come from this list.
macro_rules! registry {
    ($($game:ty),* $(,)?) => {
        /// The games, in the order the help lists them.
        static REGISTRY: &[GameEntry] = &[$(GameEntry::of::<$game>()),*];

        /// Hands `visitor` the type of the game `name` names, for code that is generic over
        /// the game as a whole rather than over a session (`duel match`'s players and
        /// openings).
        pub fn with_game<V: GameVisitor>(name: &str, visitor: V) -> Result<V::Output, EngineError> {
            let entry = game(name)?;
            $(
                if entry.name == <$game as duel_core::Game>::NAME {
                    return Ok(visitor.visit::<$game>());
                }
            )*
            unreachable!("every entry of REGISTRY comes from the same list")
        }
    };
}

registry!(
    duel_tictactoe::TicTacToe,
    duel_connect4::Connect4,
    duel_othello::Othello,
    duel_chess::Chess,
    duel_gomoku::Gomoku,
    duel_xiangqi::Xiangqi,
);

/// Builds something generic over a game chosen at run time: see [`with_game`].
pub trait GameVisitor {
    /// What is built.
    type Output;
    /// Builds it for game `G`.
    fn visit<G: GameInfo>(self) -> Self::Output;
}

/// One registered game: its [`GameInfo`] as values, and how to open a session on it.
#[derive(Debug, Clone, Copy)]
pub struct GameEntry {
    /// The name the command line uses (`Game::NAME`).
    pub name: &'static str,
    /// The name for people.
    pub title: &'static str,
    /// Other spellings accepted.
    pub aliases: &'static [&'static str],
    /// How moves and positions are written.
    pub notation: &'static str,
    /// What may follow the name after `:`; empty where the game has no variants.
    pub variants: &'static str,
    /// The engine protocols its GUIs speak.
    pub protocols: &'static [&'static str],
    /// The evaluators, the default first.
    pub evaluators: &'static [&'static str],
    /// Other names of evaluators, `(alias, name)` (`GameInfo::EVALUATOR_ALIASES`).
    pub evaluator_aliases: &'static [(&'static str, &'static str)],
    /// How many numbered starts the game has (chess: Chess960's 960).
    pub numbered_starts: u32,
    numbered_start: fn(u32) -> Option<String>,
    open: Opener,
}

/// Opens a session with a known evaluator name and an optional weights file.
type Opener = fn(&'static str, Option<&Path>) -> Result<Box<dyn Session>, EngineError>;

impl GameEntry {
    /// The entry of game `G`.
    pub const fn of<G: GameInfo>() -> GameEntry {
        GameEntry {
            name: G::NAME,
            title: G::TITLE,
            aliases: G::ALIASES,
            notation: G::NOTATION,
            variants: G::VARIANTS,
            protocols: G::PROTOCOLS,
            evaluators: G::EVALUATORS,
            evaluator_aliases: G::EVALUATOR_ALIASES,
            numbered_starts: G::NUMBERED_STARTS,
            numbered_start: |n| G::numbered_start(n).map(|pos| pos.to_text()),
            open: open_game::<G>,
        }
    }

    /// The position text of start number `n` (`GameInfo::numbered_start`), None out of
    /// range.
    pub fn numbered_start(&self, n: u32) -> Option<String> {
        (self.numbered_start)(n)
    }

    /// Whether `name` names this game: its name or an alias, in any case, `-` and `_`
    /// ignored (`Tic-Tac-Toe`, `connect_four`), a variant after `:` aside.
    fn answers_to(&self, name: &str) -> bool {
        let name = split_variant(name).0;
        let n: String = name
            .trim()
            .to_ascii_lowercase()
            .chars()
            .filter(|c| *c != '-' && *c != '_')
            .collect();
        n == self.name || self.aliases.contains(&n.as_str())
    }
}

/// Makes the session for an evaluator whose type only the game knows.
struct ToSession;

impl<G: GameInfo> EvaluatorVisitor<G> for ToSession {
    type Output = Box<dyn Session>;

    fn visit<E: Evaluator<G>>(self, eval: E) -> Box<dyn Session> {
        Box::new(GameSession::<G, E>::new(eval))
    }
}

/// Where the run-time choice of game and evaluator meets generic code: every search below
/// this is monomorphised for `G` and the evaluator.
fn open_game<G: GameInfo>(
    eval: &'static str,
    file: Option<&Path>,
) -> Result<Box<dyn Session>, EngineError> {
    Ok(G::with_evaluator(eval, file, ToSession)?)
}

/// A game name split at its first `:` into the game and the variant (`gomoku:renju:20` is
/// `gomoku` and `renju:20`).
pub fn split_variant(name: &str) -> (&str, Option<&str>) {
    match name.split_once(':') {
        Some((game, spec)) => (game, Some(spec.trim())),
        None => (name, None),
    }
}

/// Every registered game.
pub fn games() -> &'static [GameEntry] {
    REGISTRY
}

/// The game `name` names (its name or an alias, in any case; a variant after `:` aside).
pub fn game(name: &str) -> Result<&'static GameEntry, EngineError> {
    REGISTRY
        .iter()
        .find(|g| g.answers_to(name))
        .ok_or_else(|| EngineError::UnknownGame {
            name: name.to_string(),
            known: REGISTRY
                .iter()
                .map(|g| g.name)
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// The canonical name of a game, accepting its aliases (`ttt`, `c4`, `reversi`) in any case.
pub fn game_name(name: &str) -> Result<&'static str, EngineError> {
    Ok(game(name)?.name)
}

/// The evaluators a game has, the default first.
pub fn evaluators(game_name: &str) -> Result<&'static [&'static str], EngineError> {
    Ok(game(game_name)?.evaluators)
}

/// Opens a session on `game` at its start position, with the evaluator named `eval` (the game's
/// default when None). A variant in the name (`gomoku:renju:20`) is the session's variant.
pub fn open(game: &str, eval: Option<&str>) -> Result<Box<dyn Session>, EngineError> {
    open_with(game, eval, None)
}

/// [`open`], with the evaluator's weights read from `file` instead of the built-in ones: a net
/// trained with `duel-train chess-nnue` for chess's `net`, played without rebuilding duel.
pub fn open_with(
    game_name: &str,
    eval: Option<&str>,
    file: Option<&Path>,
) -> Result<Box<dyn Session>, EngineError> {
    let entry = game(game_name)?;
    let eval = match eval {
        None => entry.evaluators[0],
        Some(e) => {
            let e = e.trim().to_ascii_lowercase();
            let named = entry
                .evaluator_aliases
                .iter()
                .find(|a| a.0 == e)
                .map_or(e.as_str(), |a| a.1);
            match entry.evaluators.iter().find(|k| **k == named) {
                Some(known) => known,
                None => {
                    return Err(duel_core::EvaluatorError::Unknown {
                        game: entry.name,
                        name: e,
                        known: entry.evaluators.join(", "),
                    }
                    .into())
                }
            }
        }
    };
    let mut session = (entry.open)(eval, file)?;
    if let Some(spec) = split_variant(game_name).1 {
        session.set_variant(spec).map_err(|e| match e {
            EngineError::Position(p) => EngineError::Variant {
                name: game_name.to_string(),
                game: entry.name,
                reason: p.reason,
            },
            other => other,
        })?;
    }
    Ok(session)
}
