//! How a game ends: by the game's own rules ([`duel_core::Game::outcome`], with its reason
//! from [`GameInfo::end_reason`]), or drawn when it runs past [`MAX_PLIES`]. The other ends,
//! a move after the flag, an illegal move and a resignation, are judged where the move comes
//! in ([`crate::play_game`]).

use duel_core::{GameInfo, Outcome, Side};
use serde::{Deserialize, Serialize};

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

/// The result and its reason if the game is over at `pos` after `plies` plies.
pub fn judge<G: GameInfo>(pos: &G, plies: usize) -> Option<(GameResult, String)> {
    if let Some(o) = pos.outcome() {
        let mover = pos.side_to_move();
        let result = match o {
            Outcome::Loss => GameResult::win_for(mover.other()),
            Outcome::Win => GameResult::win_for(mover),
            Outcome::Draw => GameResult::Draw,
        };
        return Some((result, pos.end_reason().to_string()));
    }
    (plies >= MAX_PLIES).then(|| (GameResult::Draw, format!("{MAX_PLIES} plies")))
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
            judge(&pos, 4),
            Some((GameResult::SecondWins, "checkmate".into()))
        );
        let mut ttt = duel_tictactoe::TicTacToe::start();
        for m in ["1", "4", "2", "5", "3"] {
            ttt.play(ttt.parse_move(m).unwrap());
        }
        assert_eq!(judge(&ttt, 5), Some((GameResult::FirstWins, "win".into())));
        assert_eq!(
            judge(&duel_chess::Chess::start(), MAX_PLIES),
            Some((GameResult::Draw, "600 plies".into()))
        );
        assert_eq!(GameResult::FirstWins.half_points(1), 0);
        assert_eq!(GameResult::SecondWins.half_points(1), 2);
    }
}
