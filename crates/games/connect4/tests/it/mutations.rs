//! The conformance kit catches a broken game: Connect Four with one deliberate fault each (an
//! undo that forgets, a hash that drifts, a finished game that still moves, a move that reads
//! back as another, a text that loses a move, a ply that stops counting) fails
//! `check_game` with the fault's own message, and the same wrapper without a fault passes.
//! A kit that let any of these through would let a game's real bug through too.

use duel_connect4::{Column, Connect4};
use duel_core::conformance::check_game;
use duel_core::{Game, MoveError, Outcome, PositionError, Side};

const NONE: u8 = 0;
const UNDO: u8 = 1;
const HASH: u8 = 2;
const MOVES_AFTER_END: u8 = 3;
const PARSE: u8 = 4;
const TEXT: u8 = 5;
const PLY: u8 = 6;

/// Connect Four with fault `F`, which strikes from the fifth ply on (so that the kit must look
/// past the start to find it).
#[derive(Clone, Debug)]
struct Mutant<const F: u8>(Connect4);

impl<const F: u8> Mutant<F> {
    fn struck(&self) -> bool {
        self.0.ply() >= 5
    }
}

impl<const F: u8> Game for Mutant<F> {
    type Move = Column;
    const NAME: &'static str = "connect4-mutant";
    const MOVE_INDICES: usize = Connect4::MOVE_INDICES;

    fn move_index(mv: Column) -> usize {
        Connect4::move_index(mv)
    }
    fn start() -> Self {
        Mutant(Connect4::start())
    }
    fn side_to_move(&self) -> Side {
        self.0.side_to_move()
    }
    fn ply(&self) -> u32 {
        if F == PLY && self.struck() {
            5
        } else {
            self.0.ply()
        }
    }
    fn generate_moves(&self, moves: &mut Vec<Column>) {
        self.0.generate_moves(moves);
        if F == MOVES_AFTER_END && moves.is_empty() && self.0.outcome() == Some(Outcome::Loss) {
            // A column with room left, as if the win had not ended the game.
            moves.extend((0..7).find(|&c| self.0.can_play(c)));
        }
    }
    fn play(&mut self, mv: Column) {
        self.0.play(mv)
    }
    fn undo(&mut self, mv: Column) {
        if !(F == UNDO && self.struck() && mv == 3) {
            self.0.undo(mv)
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn hash(&self) -> u64 {
        let drift = F == HASH && self.struck() && self.0.to_text().contains('4');
        self.0.hash() ^ u64::from(drift)
    }
    fn hash_from_scratch(&self) -> u64 {
        self.0.hash_from_scratch()
    }
    fn format_move(&self, mv: Column) -> String {
        self.0.format_move(mv)
    }
    fn parse_move(&self, text: &str) -> Result<Column, MoveError> {
        let mv = self.0.parse_move(text)?;
        Ok(if F == PARSE && self.struck() && mv == 6 {
            0
        } else {
            mv
        })
    }
    fn to_text(&self) -> String {
        let mut text = self.0.to_text();
        if F == TEXT && self.struck() {
            text.pop();
        }
        text
    }
    fn from_text(text: &str) -> Result<Self, PositionError> {
        Connect4::from_text(text).map(Mutant)
    }
}

fn failure<const F: u8>() -> String {
    check_game(&Mutant::<F>::start(), 50, 1).expect_err("the kit must catch the fault")
}

#[test]
fn the_wrapper_without_a_fault_passes() {
    check_game(&Mutant::<NONE>::start(), 50, 1).unwrap();
}

#[test]
fn each_fault_fails_the_kit_with_its_own_message() {
    for (fault, says) in [
        (failure::<UNDO>(), "did not restore the position"),
        (failure::<HASH>(), "incremental hash != hash from scratch"),
        (
            failure::<MOVES_AFTER_END>(),
            "finished game has legal moves",
        ),
        (failure::<PARSE>(), "parses as 0, not 6"),
        (failure::<TEXT>(), "text round trip"),
        (failure::<PLY>(), "side to move or ply did not advance"),
    ] {
        assert!(fault.contains(says), "expected '{says}', got: {fault}");
    }
}
