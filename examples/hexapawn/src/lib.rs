//! Hexapawn, Martin Gardner's game of 1962 ("How to build a game-learning machine"): three
//! pawns a side on a 3x3 board. A pawn moves one square straight forward onto an empty square
//! or one square diagonally forward onto an enemy pawn, which it takes. A side wins by
//! bringing a pawn to the far row, or when the other side cannot move (having no pawn left
//! or every pawn blocked). White moves first, up the board; Gardner showed that Black, the
//! second player, always wins.
//!
//! duel does not ship this game: this crate implements duel-core's [`Game`] and [`GameInfo`]
//! and an [`Evaluator`], and gets from duel's crates, unchanged, the engine search, the
//! textbook algorithms side by side (`compare`), the recorded tree (`tree`), and `solve` by
//! duel's own negamax run to the end of the game.

use std::path::Path;
use std::time::Instant;

use duel_core::solve::{MoveValue, Solution, SolveError, SolveLimits, SolveProgress};
use duel_core::{
    BoardStyle, BoardView, Evaluator, EvaluatorError, EvaluatorVisitor, Game, GameInfo, MoveCells,
    MoveError, Outcome, Piece, PositionError, Score, Side,
};
use duel_search::{Reference, ReferenceOptions};

/// Squares 0..9: `a1 b1 c1 a2 ... c3`, file plus three times the rank, White's pawns start on
/// rank 1 and move up.
pub type Square = u8;

/// A pawn's move, from one square to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The square it leaves.
    pub from: Square,
    /// The square it goes to.
    pub to: Square,
}

/// A position: each side's pawns as bits of a square set, and the plies played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hexapawn {
    pawns: [u16; 2],
    ply: u32,
    /// Whether the last move brought a pawn to the far row: the side to move has then lost,
    /// whatever moves it still has.
    arrived: bool,
}

fn name(sq: Square) -> String {
    format!("{}{}", char::from(b'a' + sq % 3), sq / 3 + 1)
}

fn square(text: &str) -> Option<Square> {
    let mut c = text.chars();
    let (file, rank) = (c.next()?, c.next()?);
    let f = u8::try_from(u32::from(file).checked_sub(u32::from('a'))?).ok()?;
    let r = u8::try_from(rank.to_digit(10)?.checked_sub(1)?).ok()?;
    (f < 3 && r < 3).then_some(f + 3 * r)
}

impl Hexapawn {
    /// The pawns of `side` as a set of squares.
    pub fn pawns(&self, side: Side) -> u16 {
        self.pawns[side as usize]
    }

    fn piece(&self, sq: Square) -> Option<Side> {
        [Side::First, Side::Second]
            .into_iter()
            .find(|&s| self.pawns(s) >> sq & 1 != 0)
    }
}

impl Game for Hexapawn {
    type Move = Move;
    const NAME: &'static str = "hexapawn";
    const MOVE_INDICES: usize = 81;

    fn move_index(mv: Move) -> usize {
        usize::from(mv.from) * 9 + usize::from(mv.to)
    }

    fn start() -> Self {
        Hexapawn {
            pawns: [0b000_000_111, 0b111_000_000],
            ply: 0,
            arrived: false,
        }
    }

    fn side_to_move(&self) -> Side {
        if self.ply.is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        }
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.arrived {
            return;
        }
        let side = self.side_to_move();
        let (own, theirs) = (self.pawns(side), self.pawns(side.other()));
        let up = side == Side::First;
        for from in 0..9u8 {
            if own >> from & 1 == 0 {
                continue;
            }
            let rank = from / 3;
            // A pawn on the far row would have ended the game.
            let next = if up { rank + 1 } else { rank.wrapping_sub(1) };
            if next > 2 {
                continue;
            }
            let file = from % 3;
            let ahead = file + 3 * next;
            if (own | theirs) >> ahead & 1 == 0 {
                moves.push(Move { from, to: ahead });
            }
            for df in [-1i8, 1] {
                let f = file as i8 + df;
                if (0..3).contains(&f) {
                    let to = f as u8 + 3 * next;
                    if theirs >> to & 1 != 0 {
                        moves.push(Move { from, to });
                    }
                }
            }
        }
    }

    fn play(&mut self, mv: Move) {
        let side = self.side_to_move() as usize;
        self.pawns[side] ^= 1 << mv.from | 1 << mv.to;
        self.pawns[1 - side] &= !(1 << mv.to);
        self.arrived = if side == 0 { mv.to >= 6 } else { mv.to < 3 };
        self.ply += 1;
    }

    fn undo(&mut self, mv: Move) {
        self.ply -= 1;
        let side = self.side_to_move() as usize;
        self.pawns[side] ^= 1 << mv.from | 1 << mv.to;
        // Diagonal moves are captures, so the taken pawn comes back.
        if mv.from % 3 != mv.to % 3 {
            self.pawns[1 - side] |= 1 << mv.to;
        }
        // No pawn stands on the far row while the game goes on.
        self.arrived = false;
    }

    fn outcome(&self) -> Option<Outcome> {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves.is_empty().then_some(Outcome::Loss)
    }

    fn hash(&self) -> u64 {
        u64::from(self.pawns[0]) | u64::from(self.pawns[1]) << 9 | u64::from(self.ply % 2) << 18
    }

    fn hash_from_scratch(&self) -> u64 {
        self.hash()
    }

    fn format_move(&self, mv: Move) -> String {
        format!("{}{}", name(mv.from), name(mv.to))
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        let syntax = || MoveError::syntax(Self::NAME, text, "two squares, as a1a2 or b2c3");
        if t.len() != 4 || !t.is_ascii() {
            return Err(syntax());
        }
        let (from, to) = (
            square(&t[..2]).ok_or_else(syntax)?,
            square(&t[2..]).ok_or_else(syntax)?,
        );
        let mv = Move { from, to };
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        if moves.contains(&mv) {
            Ok(mv)
        } else {
            Err(MoveError::illegal(
                text,
                "a pawn goes one square forward, or takes one square diagonally forward",
            ))
        }
    }

    /// Rank 3 first, `W` and `B` for the pawns, then the side to move: `BBB/.../WWW w`.
    fn to_text(&self) -> String {
        let rows: Vec<String> = (0..3)
            .rev()
            .map(|rank| {
                (0..3)
                    .map(|file| match self.piece(file + 3 * rank) {
                        Some(Side::First) => 'W',
                        Some(Side::Second) => 'B',
                        None => '.',
                    })
                    .collect()
            })
            .collect();
        let side = if self.side_to_move() == Side::First {
            'w'
        } else {
            'b'
        };
        format!("{} {side}", rows.join("/"))
    }

    fn from_text(text: &str) -> Result<Self, PositionError> {
        let bad = |why: &str| PositionError::new(Self::NAME, text, why);
        let (board, side) = text
            .trim()
            .split_once(' ')
            .ok_or_else(|| bad("expected three rows and the side to move, as BBB/.../WWW w"))?;
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != 3 || rows.iter().any(|r| r.chars().count() != 3) {
            return Err(bad("expected three rows of three squares"));
        }
        let mut pawns = [0u16; 2];
        for (i, row) in rows.iter().enumerate() {
            let rank = 2 - i as u8;
            for (file, c) in row.chars().enumerate() {
                let sq = file as u8 + 3 * rank;
                match c {
                    'W' => pawns[0] |= 1 << sq,
                    'B' => pawns[1] |= 1 << sq,
                    '.' => {}
                    _ => return Err(bad("a square is W, B or .")),
                }
            }
        }
        let ply = match side {
            "w" => 0,
            "b" => 1,
            _ => return Err(bad("the side to move is w or b")),
        };
        // A pawn on the far row ended the game as it arrived: only the side that just moved
        // can have one there, and then the game is over.
        let far = [0b111_000_000, 0b111];
        let (mover, waiting) = (ply as usize, 1 - ply as usize);
        if pawns[mover] & far[mover] != 0 {
            return Err(bad(
                "the side to move has a pawn on the far row: the game ended before",
            ));
        }
        let arrived = pawns[waiting] & far[waiting] != 0;
        Ok(Hexapawn {
            pawns,
            ply,
            arrived,
        })
    }
}

/// Pawns count, and so does how far they have come.
#[derive(Clone, Copy, Debug)]
pub struct Material;

impl Evaluator<Hexapawn> for Material {
    fn name(&self) -> &'static str {
        "material"
    }

    fn evaluate(&self, pos: &Hexapawn) -> i32 {
        let side = pos.side_to_move();
        let worth = |side: Side| {
            (0..9u8)
                .filter(|&sq| pos.pawns(side) >> sq & 1 != 0)
                .map(|sq| {
                    let rank = i32::from(sq / 3);
                    100 + 10 * if side == Side::First { rank } else { 2 - rank }
                })
                .sum::<i32>()
        };
        worth(side) - worth(side.other())
    }

    fn unit(&self) -> &'static str {
        "hundredths of a pawn"
    }
}

impl GameInfo for Hexapawn {
    const TITLE: &'static str = "Hexapawn";
    const NOTATION: &'static str =
        "moves from square to square (a1a2, b2c3); a position is rank 3 \
        to rank 1 and the side to move, as BBB/.../WWW w";
    const EVALUATORS: &'static [&'static str] = &["material"];
    const BENCH: &'static [&'static str] = &["BBB/.../WWW w", "BBB/W../.WW b"];
    const BENCH_DEPTH: u32 = 12;
    /// A whole game is at most 12 plies (each pawn moves at most twice).
    const DEFAULT_DEPTH: u32 = 12;
    const SIDE_NAMES: [&'static str; 2] = ["White", "Black"];

    fn make_evaluator<V: EvaluatorVisitor<Self>>(
        _name: &str,
        _file: Option<&Path>,
        visitor: V,
    ) -> Result<V::Output, EvaluatorError> {
        Ok(visitor.visit(Material))
    }

    fn diagram(&self) -> String {
        let mut out = String::new();
        for rank in (0..3u8).rev() {
            out.push_str(&format!("{} ", rank + 1));
            for file in 0..3 {
                out.push(match self.piece(file + 3 * rank) {
                    Some(Side::First) => 'W',
                    Some(Side::Second) => 'B',
                    None => '.',
                });
                out.push(' ');
            }
            out.pop();
            out.push('\n');
        }
        out.push_str("  a b c\n");
        out
    }

    const BOARD_STYLE: BoardStyle = BoardStyle::Checkered;

    fn board_view(&self) -> BoardView {
        let cells = (0..3u8)
            .rev()
            .flat_map(|rank| (0..3u8).map(move |file| file + 3 * rank))
            .map(|sq| self.piece(sq).map(|side| Piece::of_side(side, ['P', 'P'])))
            .collect();
        BoardView::with_coordinates(3, 3, cells, false)
    }

    /// The cells as [`GameInfo::board_view`] numbers them: rank 3 first.
    fn move_cells(&self, mv: Move) -> MoveCells {
        let cell = |sq: Square| u16::from(sq % 3 + 3 * (2 - sq / 3));
        MoveCells::between(cell(mv.from), cell(mv.to))
    }

    fn end_reason(&self) -> &'static str {
        if self.arrived {
            "a pawn reached the far row"
        } else {
            "no move left"
        }
    }

    /// duel's own textbook negamax, run past the end of the game: every leaf it reaches is a
    /// finished game, so its value is exact. A game lasts 12 plies at most.
    fn solve(
        &self,
        _limits: &SolveLimits<'_>,
        _progress: &mut dyn FnMut(&SolveProgress<'_>),
    ) -> Result<Solution, SolveError> {
        let start = Instant::now();
        let opts = ReferenceOptions::default();
        let mut nodes = 0;
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        let mut child = self.clone();
        let values: Vec<MoveValue> = moves
            .iter()
            .map(|&mv| {
                child.play(mv);
                let r = Reference::Negamax.search(&child, &Material, Self::DEFAULT_DEPTH, opts);
                child.undo(mv);
                nodes += r.stats.nodes;
                MoveValue {
                    mv: self.format_move(mv),
                    // One ply further from the position solved than from the child.
                    value: (-r.value).from_tt(1),
                    margin: None,
                }
            })
            .collect();
        let value = match self.outcome() {
            Some(_) => Score::loss_in(0),
            None => values.iter().map(|m| m.value).max().unwrap_or(Score::DRAW),
        };
        Ok(Solution {
            value,
            plies_known: true,
            margin: None,
            margin_name: "",
            moves: values,
            method: "duel's negamax to the end of the game",
            nodes,
            time: start.elapsed(),
        })
    }
}
