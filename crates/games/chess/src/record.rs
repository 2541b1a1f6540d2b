//! Game records as users paste them: PGN (tag pairs, then SAN movetext with move numbers,
//! comments, glyphs, variations and a result), a FEN alone, or UCI moves after `startpos` or
//! a FEN as UCI's `position` command gives them. Moves are read under the bare rules: a game
//! goes on past a repetition no one claimed, so the draw rules must not stop the reading.

use std::iter::Peekable;
use std::str::Chars;

use duel_core::{Game, MoveError, PositionError, Side};

use crate::{is_uci_syntax, Chess, Move};

pub(crate) use duel_core::pgn::RESULTS;

/// Why a record was refused: its PGN's form, a tag, or a move.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum RecordError {
    /// A comment without its `}`.
    #[error("a comment '{{' is not closed")]
    UnclosedComment,
    /// A variation without its `)`.
    #[error("a variation '(' is not closed")]
    UnclosedVariation,
    /// A `)` outside any variation.
    #[error("')' closes no variation")]
    StrayParenthesis,
    /// A `}` outside any comment.
    #[error("'}}' closes no comment")]
    StrayBrace,
    /// A `[` without a tag's name after it.
    #[error("a tag '[' without a name")]
    TagWithoutName,
    /// A tag whose value does not begin with a quote.
    #[error("tag {0}: its value is not in quotes")]
    TagNotQuoted(String),
    /// A tag value without its closing quote.
    #[error("tag {0}: its value's quote is not closed")]
    TagQuote(String),
    /// A tag without its `]`.
    #[error("tag {0}: no ']' after its value")]
    TagEnd(String),
    /// A `Variant` tag of another game than chess or Chess960.
    #[error("Variant tag: '{0}' is not played here (standard chess and Chess960 are)")]
    Variant(String),
    /// A `FEN` tag that is no position: why.
    #[error("FEN tag: {0}")]
    FenTag(String),
    /// `SetUp "1"` without a `FEN` tag.
    #[error("the SetUp tag says the game starts from a FEN tag, and there is none")]
    SetUpWithoutFen,
    /// UCI's `position fen` with nothing after `fen`.
    #[error("'fen' without a FEN")]
    NoFen,
    /// A move that is not one where it is played.
    #[error("move {number}{} {word}: {error}", if *.white { "." } else { "..." })]
    Move {
        /// The move number.
        number: u16,
        /// White's move (else Black's).
        white: bool,
        /// The word, without its move number.
        word: String,
        /// Why it is not a move there.
        error: MoveError,
    },
}

/// A piece of PGN as [`Lexer`] hands it on.
#[derive(Debug, PartialEq, Eq)]
enum Token {
    /// A tag pair, `[Name "value"]`, the value unescaped.
    Tag(String, String),
    /// A word of movetext: a move number, a move, a glyph or a result.
    Word(String),
}

/// Splits PGN into [`Token`]s, passing over what says nothing of the moves played: comments
/// (`{...}` and `;` to the end of the line), variations (nested parentheses, with their own
/// comments) and escaped lines (`%` at the start of a line).
struct Lexer<'a> {
    chars: Peekable<Chars<'a>>,
    /// The last character read ends a line (or nothing has been read).
    line_start: bool,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Self {
        Lexer {
            chars: text.chars().peekable(),
            line_start: true,
        }
    }

    /// The next character, if `take` wants it.
    fn bump_if(&mut self, take: impl Fn(char) -> bool) -> Option<char> {
        let c = self.chars.next_if(|&c| take(c))?;
        self.line_start = c == '\n';
        Some(c)
    }

    fn bump(&mut self) -> Option<char> {
        self.bump_if(|_| true)
    }

    fn skip_line(&mut self) {
        while self.bump().is_some_and(|c| c != '\n') {}
    }

    fn skip_comment(&mut self) -> Result<(), RecordError> {
        loop {
            match self.bump() {
                Some('}') => return Ok(()),
                Some(_) => {}
                None => return Err(RecordError::UnclosedComment),
            }
        }
    }

    /// Passes over a variation whose `(` was just read, and the variations inside it.
    fn skip_variation(&mut self) -> Result<(), RecordError> {
        let mut depth = 1;
        while depth > 0 {
            let line_start = self.line_start;
            match self.bump() {
                None => return Err(RecordError::UnclosedVariation),
                Some('(') => depth += 1,
                Some(')') => depth -= 1,
                Some('{') => self.skip_comment()?,
                Some(';') => self.skip_line(),
                Some('%') if line_start => self.skip_line(),
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// The next tag pair or word, None at the end of the text.
    fn next_token(&mut self) -> Result<Option<Token>, RecordError> {
        loop {
            let line_start = self.line_start;
            let Some(c) = self.bump() else {
                return Ok(None);
            };
            match c {
                // A byte-order mark, as editors on Windows save PGN files.
                _ if c.is_whitespace() || c == '\u{feff}' => {}
                '%' if line_start => self.skip_line(),
                ';' => self.skip_line(),
                '{' => self.skip_comment()?,
                '(' => self.skip_variation()?,
                ')' => return Err(RecordError::StrayParenthesis),
                '}' => return Err(RecordError::StrayBrace),
                '[' => return self.tag().map(Some),
                _ => {
                    let mut word = String::from(c);
                    while let Some(c) =
                        self.bump_if(|c| !c.is_whitespace() && !"{}()[];".contains(c))
                    {
                        word.push(c);
                    }
                    return Ok(Some(Token::Word(word)));
                }
            }
        }
    }

    /// A tag pair whose `[` was just read.
    fn tag(&mut self) -> Result<Token, RecordError> {
        let mut name = String::new();
        while let Some(c) = self.bump_if(|c| c.is_ascii_alphanumeric() || c == '_') {
            name.push(c);
        }
        while self.bump_if(char::is_whitespace).is_some() {}
        if name.is_empty() {
            return Err(RecordError::TagWithoutName);
        }
        if self.bump() != Some('"') {
            return Err(RecordError::TagNotQuoted(name));
        }
        let mut value = String::new();
        loop {
            match self.bump() {
                Some('"') => break,
                // PGN escapes a quote or a backslash inside a value with a backslash.
                Some('\\') => value.extend(self.bump()),
                Some(c) => value.push(c),
                None => return Err(RecordError::TagQuote(name)),
            }
        }
        while self.bump_if(char::is_whitespace).is_some() {}
        if self.bump() != Some(']') {
            return Err(RecordError::TagEnd(name));
        }
        Ok(Token::Tag(name, value))
    }
}

/// The game a PGN record holds (the first, if it holds several): the start position (the
/// `FEN` tag's, else the standard start) and the moves played from it, each checked. Moves
/// may be SAN or UCI. A `Variant` tag of Chess960 turns Chess960 notation on
/// ([`Chess::set_chess960`]); any other variant than standard chess is refused. An error
/// names the tag or the move that is wrong.
pub fn read_pgn(text: &str) -> Result<(Chess, Vec<Move>), PositionError> {
    pgn_game(text).map_err(|e| refused(text, e))
}

/// The record refused, with why.
fn refused(text: &str, why: RecordError) -> PositionError {
    PositionError::new(Chess::NAME, text, why.to_string())
}

/// [`read_pgn`]'s game, or why there is none.
fn pgn_game(text: &str) -> Result<(Chess, Vec<Move>), RecordError> {
    let mut lexer = Lexer::new(text);
    let mut tags = Vec::new();
    let mut token = lexer.next_token()?;
    while let Some(Token::Tag(name, value)) = token {
        tags.push((name, value));
        token = lexer.next_token()?;
    }
    let start = start_of(&tags)?;
    let mut game = Replay::new(&start);
    // A tag after the movetext begins the next game.
    while let Some(Token::Word(word)) = token {
        if RESULTS.contains(&word.as_str()) {
            break;
        }
        game.play(&word)?;
        token = lexer.next_token()?;
    }
    Ok((start, game.moves))
}

/// A record in any of the forms the module reads: UCI's `position` arguments (the word
/// `position` optional: `startpos` or `fen` and a FEN, `fen` optional, then `moves` and the
/// moves), else PGN ([`read_pgn`]), which a bare list of moves is too. Chess960 notation is
/// on where `start` has it or the record asks for it.
pub(crate) fn read_record(start: &Chess, text: &str) -> Result<(Chess, Vec<Move>), PositionError> {
    let (mut first, moves) = match uci_position(text) {
        None => read_pgn(text)?,
        Some((fen, words)) => {
            let first = match fen {
                None => Chess::start(),
                Some(f) if f.is_empty() => return Err(refused(text, RecordError::NoFen)),
                Some(f) => Chess::from_text(&f)
                    .map_err(|e| PositionError::new(Chess::NAME, text, e.reason))?,
            };
            let mut game = Replay::new(&first);
            for word in words {
                game.play(word).map_err(|e| refused(text, e))?;
            }
            (first, game.moves)
        }
    };
    if start.is_chess960() {
        first.set_chess960(true);
    }
    Ok((first, moves))
}

/// The start of the game the tags describe.
fn start_of(tags: &[(String, String)]) -> Result<Chess, RecordError> {
    let tag = |name: &str| {
        tags.iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.trim())
    };
    let chess960 = match tag("Variant") {
        None => false,
        Some(v) => match v.to_ascii_lowercase().replace([' ', '-'], "").as_str() {
            // Lichess writes "From Position" for standard chess from a set-up position.
            "" | "standard" | "chess" | "normal" | "fromposition" => false,
            "chess960" | "fischerandom" | "fischerrandom" => true,
            _ => return Err(RecordError::Variant(v.to_string())),
        },
    };
    let mut start = match (tag("FEN"), tag("SetUp")) {
        (Some(fen), _) => Chess::from_text(fen).map_err(|e| RecordError::FenTag(e.reason))?,
        (None, Some("1")) => return Err(RecordError::SetUpWithoutFen),
        (None, _) => Chess::start(),
    };
    start.set_chess960(chess960);
    Ok(start)
}

/// UCI's `position` arguments, if `text` is one: the FEN (None for `startpos`) and the
/// moves' words. None where the text begins otherwise (a PGN).
fn uci_position(text: &str) -> Option<(Option<String>, Vec<&str>)> {
    let mut words = text.split_whitespace().peekable();
    words.next_if_eq(&"position");
    let fen = match words.peek().copied() {
        Some("startpos") => {
            words.next();
            words.next_if_eq(&"moves");
            None
        }
        Some(w) if w == "fen" || looks_like_fen(w) => {
            words.next_if_eq(&"fen");
            let fields: Vec<&str> = words.by_ref().take_while(|&w| w != "moves").collect();
            Some(fields.join(" "))
        }
        _ => return None,
    };
    Some((fen, words.collect()))
}

/// True if `word` could be a FEN's board: ranks of letters and digits between slashes, which
/// no PGN begins with.
fn looks_like_fen(word: &str) -> bool {
    word.contains('/') && word.chars().all(|c| c == '/' || c.is_ascii_alphanumeric())
}

/// The moves of a record, read one word at a time and played from its start.
struct Replay {
    /// The position reached, without its history: the bare rules need none.
    pos: Chess,
    moves: Vec<Move>,
}

impl Replay {
    /// Castling is read both ways (king two squares, or taking its rook) only without
    /// Chess960 notation, which a position from a board has off; the record's own notation
    /// is set on its start.
    fn new(start: &Chess) -> Self {
        Replay {
            pos: Chess::from_board(start.board().clone()),
            moves: Vec::new(),
        }
    }

    /// Plays the move in `word` (SAN or UCI, its move number in front or not); a word that is
    /// only a move number or an annotation is passed over.
    fn play(&mut self, word: &str) -> Result<(), RecordError> {
        let word = without_number(word);
        if word.is_empty() || word.starts_with('$') || word.chars().all(|c| "!?".contains(c)) {
            return Ok(());
        }
        let pos = &self.pos;
        let legal = pos.legal_moves();
        let mv = match pos.san_among(word, &legal) {
            Ok(mv) => Ok(mv),
            Err(_) if is_uci_syntax(word) => pos.parse_move(word),
            Err(e) => Err(e),
        }
        .map_err(|error| RecordError::Move {
            number: pos.board().fullmove_number(),
            white: pos.side_to_move() == Side::First,
            word: word.to_string(),
            error,
        })?;
        let mut board = self.pos.board().clone();
        board.play_unchecked(mv);
        self.pos = Chess::from_board(board);
        self.moves.push(mv);
        Ok(())
    }
}

/// A movetext word without the move number in front of it (`12.`, `12...`, `12.e4`); `0-0`
/// is castling, not a number.
fn without_number(word: &str) -> &str {
    let rest = word.trim_start_matches(|c: char| c.is_ascii_digit());
    if rest.len() < word.len() && !rest.is_empty() && !rest.starts_with('.') {
        return word;
    }
    rest.trim_start_matches('.')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Result<Vec<Token>, RecordError> {
        let mut lexer = Lexer::new(text);
        let mut out = Vec::new();
        while let Some(t) = lexer.next_token()? {
            out.push(t);
        }
        Ok(out)
    }

    fn word(w: &str) -> Token {
        Token::Word(w.into())
    }

    #[test]
    fn the_lexer_passes_over_comments_variations_and_escapes() {
        let text = "[Event \"a \\\"b\\\" c\"]\n%escaped ( line\n1.e4 {a ) comment} e5 \
            (1... c5 {x} (1... e6) ; a ) comment\n) ; to the end\n2. Nf3 $1 *";
        assert_eq!(
            tokens(text).unwrap(),
            [
                Token::Tag("Event".into(), "a \"b\" c".into()),
                word("1.e4"),
                word("e5"),
                word("2."),
                word("Nf3"),
                word("$1"),
                word("*"),
            ]
        );
        for (bad, why) in [
            ("1. e4 {open", "comment"),
            ("1. e4 (1... e5", "variation"),
            ("1. e4 )", "closes no variation"),
            ("[Event a]", "quotes"),
            ("[Event \"a\"", "']'"),
            ("[ \"a\"]", "name"),
        ] {
            let e = tokens(bad).unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn move_numbers_go_and_castling_stays() {
        for (w, want) in [
            ("12.", ""),
            ("12...", ""),
            ("12.e4", "e4"),
            ("3...Nf6", "Nf6"),
            ("0-0", "0-0"),
            ("0-0-0", "0-0-0"),
            ("e4", "e4"),
            ("...", ""),
            ("7", ""),
        ] {
            assert_eq!(without_number(w), want, "{w}");
        }
    }
}
