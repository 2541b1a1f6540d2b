use std::fmt::Debug;
use std::hash::Hash;

use crate::{MoveError, PositionError};

/// The two players. `First` moves first from the start position (X, Red, Black in Othello and
/// Gomoku, White in chess, Red in xiangqi). Minimax calls `First` MAX.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// The player who moves first from the start position (MAX in the textbook minimax).
    First,
    /// The other player (MIN).
    Second,
}

impl Side {
    /// The other side.
    pub const fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// +1 for `First`, -1 for `Second`: turns a side-to-move value into MAX's view and back.
    pub const fn sign(self) -> i32 {
        match self {
            Side::First => 1,
            Side::Second => -1,
        }
    }
}

/// How a finished game ended, seen from the side to move (who, by definition, cannot move on).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move has won (rare: Othello disc counts, a stalemate rule that wins).
    Win,
    /// The side to move has lost (the usual case: the opponent just completed a line or mated).
    Loss,
    /// Neither side won.
    Draw,
}

impl Outcome {
    /// The same outcome seen from the other side.
    pub const fn flip(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
        }
    }
}

/// The rules of a two-player, zero-sum, perfect-information game: what the search needs and
/// nothing more. Knowledge (evaluation, ordering hints, quiescence) lives in an
/// [`Evaluator`](crate::Evaluator) so one game can carry several.
///
/// Contract, checked by [`conformance`](crate::conformance) for every game:
/// - `generate_moves` yields an empty list exactly when `outcome` is `Some`;
/// - `play(m)` then `undo(m)` restores the position and its hash;
/// - `hash` (kept incrementally) equals `hash_from_scratch`;
/// - `parse_move(format_move(m)) == m` and `from_text(to_text())` gives the same position.
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// A move. Passes (Othello) are moves too.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// The game's name as the command line spells it (`tictactoe`, `connect4`, ...).
    const NAME: &'static str;

    /// True if the game can end by a rule that looks at earlier positions (chess: repetition;
    /// xiangqi: its repetition rulings), which the position text does not carry: a position
    /// read back from its text may then still be playable where the original had ended.
    const OUTCOME_NEEDS_HISTORY: bool = false;

    /// The size of the range of [`Game::move_index`]: history tables have this many slots.
    const MOVE_INDICES: usize = 4096;

    /// A dense index in `0..MOVE_INDICES` for a move, the same wherever the move is played
    /// (a cell, a column, a from-to pair). History and counter-move tables are indexed by it.
    /// The default hashes the move with a fixed-key hasher, so it is deterministic but may
    /// share slots; a game overrides it with its natural numbering.
    fn move_index(mv: Self::Move) -> usize {
        use std::hash::{BuildHasher, BuildHasherDefault};
        let h =
            BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default().hash_one(mv);
        (h % Self::MOVE_INDICES as u64) as usize
    }

    /// The size of the range of [`Game::piece_move_index`].
    const PIECE_MOVE_INDICES: usize = Self::MOVE_INDICES;

    /// A dense index in `0..PIECE_MOVE_INDICES` for a move by what it does, read in the
    /// position before it is played (chess: the moving piece and its colour, and the
    /// to-square). Continuation history, which scores a move by the move before it, is indexed
    /// by pairs of these, so the range must be small enough to square. The default is
    /// [`Game::move_index`].
    fn piece_move_index(&self, mv: Self::Move) -> usize {
        Self::move_index(mv)
    }

    /// The start position.
    fn start() -> Self;

    /// Whose turn it is.
    fn side_to_move(&self) -> Side;

    /// Moves played since the position was set up (from text or the start).
    fn ply(&self) -> u32;

    /// Clears `moves` and fills it with every legal move, in a fixed order (determinism).
    /// Empty if and only if the game is over.
    fn generate_moves(&self, moves: &mut Vec<Self::Move>);

    /// Plays a legal move.
    fn play(&mut self, mv: Self::Move);

    /// Takes back `mv`, which must be the last move played.
    fn undo(&mut self, mv: Self::Move);

    /// `None` while the game goes on; otherwise how it ended, from the side to move.
    fn outcome(&self) -> Option<Outcome>;

    /// The 64-bit Zobrist hash, kept incrementally.
    fn hash(&self) -> u64;

    /// The same hash computed from nothing but the position (tests compare the two).
    fn hash_from_scratch(&self) -> u64;

    /// The move in the game's standard notation, `self` being the position before it.
    fn format_move(&self, mv: Self::Move) -> String;

    /// Reads a move in the game's notation: syntax first, then legality in this position.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// The position in the game's standard text form.
    fn to_text(&self) -> String;

    /// Reads a position in the game's standard text form.
    fn from_text(text: &str) -> Result<Self, PositionError>;

    /// Called by a search on its own copy of the root position before it starts. Games whose
    /// draw rules depend on history (chess repetitions) mark the root here; the default does
    /// nothing. A game may also leave its draw rules to the arbiter at the marked root (chess
    /// does): a position such a rule has drawn then still has its moves there, for an engine
    /// asked to move in it, and is over again one ply in.
    fn begin_search(&mut self) {}

    /// A copy of this position as a search sees it at its root ([`Game::begin_search`]): where
    /// the moves a search may play, and the lines it reports, are read.
    fn search_root(&self) -> Self {
        let mut root = self.clone();
        root.begin_search();
        root
    }

    /// Passes the turn without moving, for null-move pruning. Returns `false` (and changes
    /// nothing) where the game does not allow it; only then must `undo_null` not be called.
    fn play_null(&mut self) -> bool {
        false
    }

    /// Takes back a null move made by a `play_null` that returned `true`.
    fn undo_null(&mut self) {}

    /// Plies left before a counting draw rule ends the game unless a move resets its count
    /// (chess: the fifty-move rule, 100 less the half-move clock; xiangqi: 120 plies without a
    /// capture), or `None` (the default) where the game has none. A position's hash leaves
    /// the count out, so a value the search stored for it under one count may be wrong under
    /// another: near the end of the count, and for a win or loss further away than it, the
    /// search takes no value from its transposition table.
    fn plies_to_count_draw(&self) -> Option<u32> {
        None
    }

    /// A key of the part of the position that changes slowly and that an evaluator's errors
    /// follow (chess: the pawns), for correction history: the search learns, per key, how far
    /// the static value tends to be from what searching finds, and corrects by it. `None` (the
    /// default): the game has no such part.
    fn structure_key(&self) -> Option<u64> {
        None
    }
}
