//! What a front end needs of a game beyond its rules: how it is named and shown, its
//! evaluators, its bench positions, its search profile and its solver, and what the arena
//! and the protocols' clients need of it (its openings files, its numbered starts, its
//! names in xboard and Gomocup, its test suites). A game crate implements [`GameInfo`] for
//! its position type; the engine's registry lists the type once, and every front end reads
//! the rest from here, so adding a game touches its own crate and that line.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use crate::solve::{
    QuickSolve, Solution, SolveError, SolveGoal, SolveLimits, SolveProgress, SolverCache,
};
use crate::{
    BoardStyle, BoardView, Evaluator, Game, MoveCells, MoveError, PositionError, SearchProfile,
    Side, SolveBudget, SolverStopped,
};

/// Builds something from an evaluator of game `G` whose type only the game knows: the engine
/// hands one to [`GameInfo::with_evaluator`] and gets back, say, a session monomorphised over
/// that evaluator.
pub trait EvaluatorVisitor<G: Game> {
    /// What is built.
    type Output;
    /// Builds it from `eval`.
    fn visit<E: Evaluator<G>>(self, eval: E) -> Self::Output;
}

/// Why an evaluator could not be made.
#[derive(Debug, Clone, thiserror::Error)]
pub enum EvaluatorError {
    /// The name is not one the game has.
    #[error("unknown evaluator '{name}' for {game} (known evaluators: {known})")]
    Unknown {
        /// The game.
        game: &'static str,
        /// The name as given.
        name: String,
        /// The game's evaluators, comma-separated.
        known: String,
    },
    /// A weights file was given for an evaluator that reads none.
    #[error("the {game} evaluator '{eval}' reads no file")]
    NoFile {
        /// The game.
        game: &'static str,
        /// The evaluator.
        eval: String,
    },
    /// The weights file could not be read or is not one.
    // `reason` is not the error's `source`: the message already says it, and front ends that
    // print the chain of sources would say it twice.
    #[error("evaluator file '{path}': {reason}")]
    File {
        /// The path as given.
        path: String,
        /// Why it was refused: the game's own error (chess: `duel_chess::nnue::NetError`),
        /// which `downcast_ref` recovers.
        reason: Arc<dyn std::error::Error + Send + Sync>,
    },
}

/// Errors are equal when they say the same: a file's reason is compared by its message, as
/// the game's error type is not known here.
impl PartialEq for EvaluatorError {
    fn eq(&self, other: &Self) -> bool {
        use EvaluatorError::*;
        match (self, other) {
            (
                Unknown { game, name, known },
                Unknown {
                    game: g,
                    name: n,
                    known: k,
                },
            ) => (game, name, known) == (g, n, k),
            (NoFile { game, eval }, NoFile { game: g, eval: e }) => (game, eval) == (g, e),
            (File { path, reason }, File { path: p, reason: r }) => {
                path == p && reason.to_string() == r.to_string()
            }
            _ => false,
        }
    }
}

impl Eq for EvaluatorError {}

impl EvaluatorError {
    /// `name` is not one of `G`'s evaluators.
    pub fn unknown<G: GameInfo>(name: &str) -> Self {
        EvaluatorError::Unknown {
            game: G::NAME,
            name: name.to_string(),
            known: G::EVALUATORS.join(", "),
        }
    }

    /// The file at `path` was refused for `reason`.
    pub fn file(path: &Path, reason: impl std::error::Error + Send + Sync + 'static) -> Self {
        EvaluatorError::File {
            path: path.display().to_string(),
            reason: Arc::new(reason),
        }
    }

    /// `G`'s evaluator `eval` was given a file, which it does not read.
    pub fn no_file<G: GameInfo>(eval: &str) -> Self {
        EvaluatorError::NoFile {
            game: G::NAME,
            eval: eval.to_string(),
        }
    }
}

/// What is known of a game beyond its moves, for the game's record: who played, the headers
/// the front end writes (a match's round and time control; `duel play`'s date), and, for a
/// finished match game, how it ended.
#[derive(Debug, Clone, Copy, Default)]
pub struct RecordInfo<'a> {
    /// The first and second player's names.
    pub names: [&'a str; 2],
    /// Header pairs in order (PGN tags: `Event`, `Site`, `Date`, `Round`...).
    pub tags: &'a [(&'a str, &'a str)],
    /// A comment after each move (empty: none), as tournament managers write a move's value,
    /// depth and time.
    pub notes: &'a [String],
    /// The result, `1-0`, `0-1` or `1/2-1/2` (the first player's points first); None: read
    /// from the final position (`*` while the game goes on).
    pub result: Option<&'a str>,
    /// Why the game ended, in words, where an arbiter decided it.
    pub termination: Option<&'a str>,
    /// Each player's clock, the first player's first; None for a player with none (a depth,
    /// a node count or a time per move).
    pub clocks: [Option<RecordClock>; 2],
    /// The time each move took (empty, or shorter than the moves: not known for the rest).
    pub times: &'a [Duration],
}

impl RecordInfo<'_> {
    /// PGN's tags for a game whose players sit under `side_tags` (`White`, `Black`; xiangqi's
    /// `Red`, `Black`) and ended with `result`: the Seven Tag Roster first and in its order
    /// (`Event`, `Site`, `Date`, `Round`, the two players, `Result`), each taken from
    /// [`RecordInfo::tags`] where given there, the players otherwise from
    /// [`RecordInfo::names`], and PGN's "unknown" (`?`, `????.??.??`) for the rest; then the
    /// other tags in the order given. Every PGN reader expects the roster, whatever the front
    /// end that wrote the game passed.
    pub fn pgn_tags(&self, side_tags: [&str; 2], result: &str) -> Vec<(String, String)> {
        let given = |k: &str| self.tags.iter().find(|t| t.0 == k).map(|t| t.1);
        let name = |i: usize| match self.names[i] {
            "" => "?",
            n => n,
        };
        let roster = [
            ("Event", given("Event").unwrap_or("?")),
            ("Site", given("Site").unwrap_or("?")),
            ("Date", given("Date").unwrap_or("????.??.??")),
            ("Round", given("Round").unwrap_or("?")),
            (side_tags[0], given(side_tags[0]).unwrap_or(name(0))),
            (side_tags[1], given(side_tags[1]).unwrap_or(name(1))),
            ("Result", result),
        ];
        let mut out: Vec<(String, String)> = roster
            .iter()
            .map(|&(k, v)| (k.to_string(), v.to_string()))
            .collect();
        for &(k, v) in self.tags {
            if !roster.iter().any(|r| r.0 == k) {
                out.push((k.to_string(), v.to_string()));
            }
        }
        out
    }
}

/// A player's game clock, for a record: the time at the start and what is added after each
/// move (GGF's `TI[5:00/2]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordClock {
    /// Time at the start of the game.
    pub base: Duration,
    /// Added after each of the player's moves.
    pub increment: Duration,
}

/// Why an openings file cannot be read, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpeningsError {
    /// A line is neither a position nor a line of moves (nor one of the game's own format).
    #[error("line {line}: {reason}")]
    Line {
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A game of a record file (chess: PGN) cannot be read.
    #[error("game {game} (line {line}): {reason}")]
    Game {
        /// The game, from 1.
        game: usize,
        /// Its first line, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// Nothing in the file.
    #[error("the opening file holds no position or game")]
    Empty,
}

/// A line of an openings file as a format of the game's own reads it (Gomoku: Piskvork's
/// offsets from the centre), for [`read_opening_lines`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpeningLine {
    /// Not a line of the game's own format: read as a position or a line of moves.
    Other,
    /// The moves from the start, in its notation.
    Moves(Vec<String>),
    /// A line of the format that this start cannot hold (a stone off a smaller board).
    Skipped,
    /// A line of the format that is malformed: what is wrong.
    Bad(String),
}

/// One position of a test suite (chess: an EPD line with `bm` or `am`): solved when the move
/// chosen is one of the best moves and none of the moves to avoid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuitePosition {
    /// The name the suite gives it (EPD's `id`), if any.
    pub id: Option<String>,
    /// The position, in the game's text form.
    pub position: String,
    /// The best moves, in the game's notation.
    pub best: Vec<String>,
    /// The moves to avoid, in the game's notation.
    pub avoid: Vec<String>,
}

/// Why a line of a test suite cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SuiteError {
    /// The line is not one of the suite's format: what is wrong.
    #[error("{0}")]
    Malformed(String),
    /// Its position is not one.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// One of its moves is not one in its position.
    #[error("move '{text}'")]
    Move {
        /// The move as written.
        text: String,
        /// Why it is refused.
        source: MoveError,
    },
}

/// A position as a Gomocup brain is told it: the board's size, the rule's number (`INFO
/// rule`) and the stones in the order played from the empty board, as Gomocup's points (`x`
/// from the left, `y` from the top, both from 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GomocupBoard {
    /// Points in a row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Gomocup's number for the rule (`INFO rule`).
    pub rule: u32,
    /// The stones, the first played first.
    pub stones: Vec<(u32, u32)>,
}

/// Everything about a game that is not its rules: see the module doc.
pub trait GameInfo: Game {
    /// The game's name for people (`Connect Four`).
    const TITLE: &'static str;
    /// Other spellings the command line accepts besides [`Game::NAME`] (`c4`), lower case,
    /// without `-` or `_` (which are ignored when names are compared).
    const ALIASES: &'static [&'static str] = &[];
    /// How moves and positions are written, in a sentence or two, for the help.
    const NOTATION: &'static str;
    /// The engine protocols its GUIs speak (`uci`, `nboard`), for `duel games`.
    const PROTOCOLS: &'static [&'static str] = &[];
    /// The evaluators' names, the default first.
    const EVALUATORS: &'static [&'static str];
    /// Other names an evaluator answers to, `(alias, name)`: an evaluator renamed keeps its
    /// old name for the commands and match specs already written with it.
    const EVALUATOR_ALIASES: &'static [(&'static str, &'static str)] = &[];
    /// The bench positions, in the game's text form.
    const BENCH: &'static [&'static str];
    /// The depth every bench position is searched to.
    const BENCH_DEPTH: u32;
    /// The depth `analyze` and `play` search to when the user gives no limit.
    const DEFAULT_DEPTH: u32;
    /// The depth of the search that judges a random match opening balanced (its moves are
    /// kept within reach of the best by a search two plies shallower): about half a second an
    /// opening for chess and most of a second for xiangqi, so minutes for a 1,000-game match.
    const OPENING_DEPTH: u32 = 6;
    /// How far from level, in the default evaluator's units, a balanced opening may be
    /// (chess: 50 centipawns).
    const OPENING_MARGIN: i32 = 50;
    /// The search's selective techniques for this game (see [`SearchProfile`]).
    const SEARCH_PROFILE: SearchProfile = SearchProfile::NONE;
    /// The game's on/off options beyond the search's, by the names GUIs set them with (chess:
    /// `UCI_Chess960`).
    const SWITCHES: &'static [&'static str] = &[];
    /// How much higher UCI numbers ranks than the game's notation: xiangqi's ICCS counts them
    /// from 0, Fairy-Stockfish's UCI from 1 (`h2e2` is `h3e3`), which the UCI loop honours.
    const UCI_RANK_OFFSET: u8 = 0;
    /// The game's name in xboard's `variant` command; chess is `normal`, the game xboard's
    /// `new` sets up. By default the game's name (`xiangqi`).
    const XBOARD_VARIANT: &'static str = <Self as Game>::NAME;
    /// How many numbered starts the game has ([`GameInfo::numbered_start`]); none by default,
    /// chess has Chess960's 960.
    const NUMBERED_STARTS: u32 = 0;

    /// The variants, in a sentence or two for the help: what may follow the name after `:`
    /// (`gomoku:renju:20`). Empty: the game has none.
    const VARIANTS: &'static str = "";

    /// The evaluators that can read their weights from a file instead of the built-in ones.
    const FILE_EVALUATORS: &'static [&'static str] = &[];
    /// The names of the sides, the first player's first (`White`, `Black`).
    const SIDE_NAMES: [&'static str; 2];

    /// The start position of the variant `spec`, the part of a game name after its first `:`
    /// (`renju:20` in `gomoku:renju:20`). By default the game has no variants.
    fn variant(spec: &str) -> Result<Self, PositionError> {
        Err(PositionError::new(
            Self::NAME,
            spec,
            format!("{} has no variants", Self::TITLE),
        ))
    }

    /// Reads a position in the variant whose start position is `start`: a game whose position
    /// text may leave the variant out (Gomoku's bare move list) reads it as in `start`'s
    /// variant. By default the text says everything: [`Game::from_text`].
    fn from_text_in(start: &Self, text: &str) -> Result<Self, PositionError> {
        let _ = start;
        Self::from_text(text)
    }

    /// Builds `visitor`'s output from the evaluator `name`, one of [`GameInfo::EVALUATORS`],
    /// its weights read from `file` where one is given (then `name` is one of
    /// [`GameInfo::FILE_EVALUATORS`]). Call [`GameInfo::with_evaluator`], which checks both.
    fn make_evaluator<V: EvaluatorVisitor<Self>>(
        name: &str,
        file: Option<&Path>,
        visitor: V,
    ) -> Result<V::Output, EvaluatorError>;

    /// [`GameInfo::make_evaluator`], after refusing a name the game does not have and a file
    /// for an evaluator that reads none.
    fn with_evaluator<V: EvaluatorVisitor<Self>>(
        name: &str,
        file: Option<&Path>,
        visitor: V,
    ) -> Result<V::Output, EvaluatorError> {
        let name = Self::EVALUATOR_ALIASES
            .iter()
            .find(|a| a.0 == name)
            .map_or(name, |a| a.1);
        if !Self::EVALUATORS.contains(&name) {
            return Err(EvaluatorError::unknown::<Self>(name));
        }
        if file.is_some() && !Self::FILE_EVALUATORS.contains(&name) {
            return Err(EvaluatorError::no_file::<Self>(name));
        }
        Self::make_evaluator(name, file, visitor)
    }

    /// Turns `name`, one of [`GameInfo::SWITCHES`], on or off for this position; the positions
    /// played from it keep it.
    fn set_switch(&mut self, _name: &str, _on: bool) {}

    /// The board as text, one line per row, each ending in a newline.
    fn diagram(&self) -> String;

    /// The file extension of [`GameInfo::record`]'s format (`pgn`, `ggf`); `txt` for a move
    /// list.
    const RECORD_EXTENSION: &'static str = "txt";

    /// How the browser draws the board and takes moves on it.
    const BOARD_STYLE: BoardStyle;

    /// The board as a grid of cells, for a graphical front end.
    fn board_view(&self) -> BoardView;

    /// The cells of [`GameInfo::board_view`] that `mv`, legal here, touches.
    fn move_cells(&self, mv: Self::Move) -> MoveCells;

    /// Reads a game record in the game's own format (chess: PGN; Othello: GGF; the games
    /// written as move lists: the list): the start position and the moves played from it,
    /// each checked. By default the record is the position text, read as a start with no
    /// moves; a game whose position text is a move list gives its moves, so they can be
    /// taken back. Text that names no variant is read in `start`'s (as
    /// [`GameInfo::from_text_in`]).
    fn read_record(start: &Self, text: &str) -> Result<(Self, Vec<Self::Move>), PositionError> {
        Ok((Self::from_text_in(start, text)?, Vec::new()))
    }

    /// The game's name for a side.
    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => Self::SIDE_NAMES[0],
            Side::Second => Self::SIDE_NAMES[1],
        }
    }

    /// A move as the terminal shows it to people: the game's notation by default, SAN in
    /// chess.
    fn display_move(&self, mv: Self::Move) -> String {
        self.format_move(mv)
    }

    /// The game record of `moves` played from `start`, in the game's standard format (chess:
    /// PGN with `info`'s tags, comments and result; Othello: GGF), or None where the game has
    /// none.
    fn record(_start: &Self, _moves: &[Self::Move], _info: &RecordInfo<'_>) -> Option<String> {
        None
    }

    /// Why a finished game ended, in a few words for a match report (chess: `checkmate`,
    /// `stalemate`, `threefold repetition`...); by default `win` or `draw`.
    fn end_reason(&self) -> &'static str {
        match self.outcome() {
            Some(crate::Outcome::Draw) => "draw",
            _ => "win",
        }
    }

    /// Perft as the game's published tables count it. The default is [`crate::perft`](fn@crate::perft): a
    /// finished game adds nothing beyond its own ply.
    fn perft(&self, depth: u32) -> u64 {
        crate::perft(&mut self.clone(), depth)
    }

    /// Where the game's own solver answers in a moment, its answer: `analyze` and `play` then
    /// give it instead of a depth-limited search. None (the default) means search.
    fn quick_solve(&self) -> Option<QuickSolve<Self::Move>> {
        None
    }

    /// The exact value and a best move by the game's own solver, where the position is at
    /// most `reach` from the end in the game's own measure (Othello: empty squares), the
    /// solver kept in `cache` from one call to the next and stopped by `limits`: what a
    /// protocol loop that sets its own reach (NBoard's `--solve-empties`) asks. Unlike
    /// [`GameInfo::quick_solve`], the line is the best move alone and the value counts no
    /// plies; with [`SolveGoal::Outcome`] only the winner is proven (the margin is a bound,
    /// [`QuickSolve::exact`] says which). None (the default) where the game has no such
    /// solver, the game is over or the position is farther; a limit reached first gives the
    /// bounds proven so far.
    fn solve_near_end(
        &self,
        _reach: u32,
        _goal: SolveGoal,
        _cache: &mut SolverCache,
        _limits: &SolveBudget<'_>,
    ) -> Option<Result<QuickSolve<Self::Move>, SolverStopped>> {
        None
    }

    /// The exact value of the position and of each of its moves, within `limits`, telling
    /// `progress` how it goes; by default the game has no solver.
    fn solve(
        &self,
        _limits: &SolveLimits<'_>,
        _progress: &mut dyn FnMut(&SolveProgress<'_>),
    ) -> Result<Solution, SolveError> {
        Err(SolveError::NotSolvable { game: Self::NAME })
    }

    /// Start number `n`, below [`GameInfo::NUMBERED_STARTS`], as a match draws them (chess:
    /// the Chess960 start of Scharnagl's number `n`, in Chess960 notation); None for a number
    /// out of range, and by default.
    fn numbered_start(_n: u32) -> Option<Self> {
        None
    }

    /// The openings of an openings file's `text`, each a start and the moves from it in the
    /// start's notation, for a match from `start` (its variant's start position, with the
    /// match's switches: chess's `UCI_Chess960` asks for Chess960 notation). By default one
    /// opening a line, a position or a line of moves ([`read_opening_lines`]); chess reads
    /// EPD, FEN or PGN, Gomoku Piskvork's opening lists too. An error names the line or game
    /// and what is wrong with it.
    fn read_openings(start: &Self, text: &str) -> Result<Vec<(Self, Vec<String>)>, OpeningsError> {
        read_opening_lines(start, text, |_| OpeningLine::Other)
    }

    /// One line of a test suite in the game's format (chess: EPD with `bm`, `am` and `id`),
    /// where the game has one; None (the default) where it has none.
    fn read_suite_line(_line: &str) -> Option<Result<SuitePosition, SuiteError>> {
        None
    }

    /// The position as a Gomocup brain is told it, where the game is played over Gomocup;
    /// None (the default) where it is not.
    fn gomocup_board(&self) -> Option<GomocupBoard> {
        None
    }
}

/// Reads an openings file one opening a line, from `start` (blank lines and lines starting
/// with `#` skipped): a line `own` reads in a format of the game's own, else a position in the
/// game's text form, read in `start`'s variant, else a line of moves written together as XOT
/// lists Othello openings (`f5d6c4d3c2b3b4b5`), each move the shortest legal prefix of what
/// is left. What [`GameInfo::read_openings`] does by default, with `own` reading nothing.
pub fn read_opening_lines<G: GameInfo>(
    start: &G,
    text: &str,
    mut own: impl FnMut(&str) -> OpeningLine,
) -> Result<Vec<(G, Vec<String>)>, OpeningsError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |reason: String| OpeningsError::Line {
            line: i + 1,
            reason,
        };
        match own(line) {
            OpeningLine::Moves(moves) => out.push((start.clone(), moves)),
            OpeningLine::Skipped => {}
            OpeningLine::Bad(reason) => return Err(bad(reason)),
            OpeningLine::Other => match G::from_text_in(start, line) {
                Ok(pos) => out.push((pos, Vec::new())),
                Err(e) => match move_line(start, line) {
                    Some(moves) => out.push((start.clone(), moves)),
                    None => return Err(bad(e.reason)),
                },
            },
        }
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty);
    }
    Ok(out)
}

/// A line of moves written together from `start`, each the shortest legal prefix of what is
/// left; None when the line has a space or some part of it is no legal move.
fn move_line<G: Game>(start: &G, line: &str) -> Option<Vec<String>> {
    if line.contains(char::is_whitespace) {
        return None;
    }
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut rest = line;
    while !rest.is_empty() {
        let ends = rest.char_indices().skip(1).map(|(i, _)| i);
        let (text, mv) = ends
            .chain([rest.len()])
            .find_map(|i| pos.parse_move(&rest[..i]).ok().map(|mv| (&rest[..i], mv)))?;
        pos.play(mv);
        moves.push(text.to_string());
        rest = &rest[text.len()..];
    }
    Some(moves)
}

#[cfg(test)]
mod tests {
    use super::RecordInfo;

    fn tags(info: &RecordInfo<'_>, sides: [&str; 2], result: &str) -> Vec<String> {
        info.pgn_tags(sides, result)
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect()
    }

    #[test]
    fn the_seven_tag_roster_whatever_was_given() {
        let bare = RecordInfo::default();
        assert_eq!(
            tags(&bare, ["White", "Black"], "*"),
            [
                "Event=?",
                "Site=?",
                "Date=????.??.??",
                "Round=?",
                "White=?",
                "Black=?",
                "Result=*"
            ]
        );
        let named = RecordInfo {
            names: ["Ann", "Bo"],
            ..RecordInfo::default()
        };
        let t = tags(&named, ["Red", "Black"], "1-0");
        assert_eq!(t[4..], ["Red=Ann", "Black=Bo", "Result=1-0"]);
        // Given tags win over the names and keep the roster's order; the others follow it.
        let given = [
            ("TimeControl", "40/60"),
            ("Black", "Cy"),
            ("Event", "match"),
            ("Round", "3"),
        ];
        let both = RecordInfo {
            names: ["Ann", "Bo"],
            tags: &given,
            ..RecordInfo::default()
        };
        assert_eq!(
            tags(&both, ["White", "Black"], "0-1"),
            [
                "Event=match",
                "Site=?",
                "Date=????.??.??",
                "Round=3",
                "White=Ann",
                "Black=Cy",
                "Result=0-1",
                "TimeControl=40/60"
            ]
        );
    }
}
