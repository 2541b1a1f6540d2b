//! How a game ends: by the game's own rules ([`duel_core::Game::outcome`], with its reason
//! from [`GameInfo::end_reason`]), drawn when it runs past a ply limit ([`MAX_PLIES`] by
//! default), or, when a match asks for it, won by the side both players' values have favoured
//! by a margin for some plies ([`WinRule`], cutechess-cli's `-resign`). The other ends, a
//! resignation and a player's [`Fault`] (a move after the flag, an illegal move, a crash,
//! garbage), are judged where the move comes in ([`crate::play_game`]).

use duel_core::{GameInfo, Outcome, Side};
use serde::{Deserialize, Serialize};

use crate::player::{Thought, Value};

/// Games longer than this are drawn (no pair of players shuffles this long without a draw by
/// the rules unless something is wrong).
pub const MAX_PLIES: usize = 600;

/// How a game ended, from the first player's side (White in chess, Black in Othello).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameResult {
    /// 1-0.
    FirstWins,
    /// 0-1.
    SecondWins,
    /// 1/2-1/2.
    Draw,
}

impl GameResult {
    /// As PGN writes it: `1-0`, `0-1`, `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::FirstWins => "1-0",
            GameResult::SecondWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// A win for `side`.
    pub fn win_for(side: Side) -> GameResult {
        match side {
            Side::First => GameResult::FirstWins,
            Side::Second => GameResult::SecondWins,
        }
    }

    /// The half-points (0, 1, 2) of the match's first player in game `index`, who has the
    /// first side in even games and the second in odd ones.
    pub fn half_points(self, index: usize) -> u8 {
        match (self, index % 2) {
            (GameResult::Draw, _) => 1,
            (GameResult::FirstWins, 0) | (GameResult::SecondWins, 1) => 2,
            _ => 0,
        }
    }
}

/// How a player lost a game by its own doing rather than by the game: the kinds a match
/// counts apart for each player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Fault {
    /// No move before its flag fell.
    Time,
    /// A move the rules refuse, or a text that is no move of the game.
    Illegal,
    /// The engine exited, its input pipe broke, or it stopped answering.
    Crash,
    /// Where its answer was due, a line its protocol cannot read, or a refusal of a move of
    /// the game.
    Garbage,
}

impl Fault {
    /// Every kind, in the order the report lists them.
    pub const ALL: [Fault; 4] = [Fault::Time, Fault::Illegal, Fault::Crash, Fault::Garbage];

    /// The kind in words, for one and for several: `loss on time`, `losses on time`.
    pub fn words(self) -> (&'static str, &'static str) {
        match self {
            Fault::Time => ("loss on time", "losses on time"),
            Fault::Illegal => ("illegal move", "illegal moves"),
            Fault::Crash => ("crash", "crashes"),
            Fault::Garbage => ("garbage answer", "garbage answers"),
        }
    }
}

/// When a match ends its games before the rules do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Adjudication {
    /// A game still going after this many plies (the opening's included) is drawn.
    pub max_plies: usize,
    /// A game is won early by this rule, if given.
    pub win: Option<WinRule>,
}

impl Default for Adjudication {
    fn default() -> Self {
        Adjudication {
            max_plies: MAX_PLIES,
            win: None,
        }
    }
}

/// A game is won by a side once the values the movers report have been above `score` for it
/// (in the players' units, centipawns in chess) for `plies` plies in a row: the rest would
/// only be the conversion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WinRule {
    /// The margin.
    pub score: i32,
    /// Plies in a row.
    pub plies: u32,
}

/// Follows the movers' values for a [`WinRule`].
#[derive(Debug, Clone, Copy, Default)]
pub struct WinWatch {
    /// +1 when the first side has been ahead by the margin, -1 the second, 0 neither.
    ahead: i32,
    plies: u32,
}

impl WinWatch {
    /// Takes in what `mover` thought of its move; the result once `rule` says the game is won.
    pub fn see(&mut self, rule: &WinRule, mover: Side, thought: &Thought) -> Option<GameResult> {
        let own = match thought.value {
            Some(Value::Cp(v)) => v,
            Some(Value::Mate(m)) => m.signum() * duel_core::Score::WIN_VALUE,
            None => 0,
        };
        let first = own * mover.sign();
        let side = if first > rule.score {
            1
        } else if first < -rule.score {
            -1
        } else {
            0
        };
        if side != 0 && side == self.ahead {
            self.plies += 1;
        } else {
            self.ahead = side;
            self.plies = u32::from(side != 0);
        }
        (self.plies >= rule.plies).then(|| {
            GameResult::win_for(if self.ahead > 0 {
                Side::First
            } else {
                Side::Second
            })
        })
    }
}

/// The result and its reason if the game is over at `pos` after `plies` plies (drawn at
/// `max_plies`).
pub fn judge<G: GameInfo>(pos: &G, plies: usize, max_plies: usize) -> Option<(GameResult, String)> {
    if let Some(o) = pos.outcome() {
        let mover = pos.side_to_move();
        let result = match o {
            Outcome::Loss => GameResult::win_for(mover.other()),
            Outcome::Win => GameResult::win_for(mover),
            Outcome::Draw => GameResult::Draw,
        };
        return Some((result, pos.end_reason().to_string()));
    }
    (plies >= max_plies).then(|| (GameResult::Draw, format!("{max_plies} plies")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use duel_core::Game;

    #[test]
    fn games_end_by_their_own_rules() {
        let mut pos = duel_chess::Chess::start();
        for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            pos.play(pos.parse_move(m).unwrap());
        }
        assert_eq!(
            judge(&pos, 4, MAX_PLIES),
            Some((GameResult::SecondWins, "checkmate".into()))
        );
        let mut ttt = duel_tictactoe::TicTacToe::start();
        for m in ["1", "4", "2", "5", "3"] {
            ttt.play(ttt.parse_move(m).unwrap());
        }
        assert_eq!(
            judge(&ttt, 5, MAX_PLIES),
            Some((GameResult::FirstWins, "three in a row".into()))
        );
        assert_eq!(
            judge(&duel_chess::Chess::start(), MAX_PLIES, MAX_PLIES),
            Some((GameResult::Draw, "600 plies".into()))
        );
        assert_eq!(GameResult::FirstWins.half_points(1), 0);
        // Both sides' values favour the second side by the margin for three plies.
        let rule = WinRule {
            score: 1000,
            plies: 3,
        };
        let mut w = WinWatch::default();
        let said = |v| Thought {
            depth: None,
            value: Some(v),
        };
        assert_eq!(w.see(&rule, Side::First, &said(Value::Cp(-1200))), None);
        assert_eq!(w.see(&rule, Side::Second, &said(Value::Cp(1500))), None);
        assert_eq!(
            w.see(&rule, Side::First, &said(Value::Mate(-3))),
            Some(GameResult::SecondWins)
        );
        assert_eq!(GameResult::SecondWins.half_points(1), 2);
    }
}
