//! A search stopped in the middle of an iteration plays the best move that iteration has
//! finished with, when it beat the last iteration's choice; otherwise the last complete
//! iteration's move. And a time limit is spent to its end.

use duel_core::{Evaluator, Game, MoveError, Outcome, PositionError, Side};
use duel_search::{Limits, SearchConfig, Searcher};

/// `PLIES` plies (`usize::MAX`: a game that never ends): each player in turn names a number
/// below [`PICKS`]. At the end the first player has lost if its first pick was 0 and won
/// otherwise.
#[derive(Debug, Clone, PartialEq)]
struct Picks<const PLIES: usize> {
    chosen: Vec<u8>,
}

const PICKS: u8 = 6;

/// The game of the stop tests: two plies.
type TwoPicks = Picks<2>;

/// The game of the time-limit test: no depth solves it.
type Endless = Picks<{ usize::MAX }>;

impl<const PLIES: usize> Game for Picks<PLIES> {
    type Move = u8;
    const NAME: &'static str = "picks";
    const MOVE_INDICES: usize = PICKS as usize;

    fn move_index(mv: u8) -> usize {
        mv as usize
    }

    fn start() -> Self {
        Picks { chosen: Vec::new() }
    }

    fn side_to_move(&self) -> Side {
        if self.chosen.len().is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        }
    }

    fn ply(&self) -> u32 {
        self.chosen.len() as u32
    }

    fn generate_moves(&self, moves: &mut Vec<u8>) {
        moves.clear();
        if self.chosen.len() < PLIES {
            moves.extend(0..PICKS);
        }
    }

    fn play(&mut self, mv: u8) {
        self.chosen.push(mv);
    }

    fn undo(&mut self, _mv: u8) {
        self.chosen.pop();
    }

    fn outcome(&self) -> Option<Outcome> {
        // After two picks the first player is to move again: the value is from its side.
        (self.chosen.len() == PLIES).then(|| {
            if self.chosen[0] == 0 {
                Outcome::Loss
            } else {
                Outcome::Win
            }
        })
    }

    fn hash(&self) -> u64 {
        self.hash_from_scratch()
    }

    fn hash_from_scratch(&self) -> u64 {
        self.chosen.iter().fold(0x9E37_79B9_7F4A_7C15, |h, &m| {
            (h ^ u64::from(m) ^ 0x100).wrapping_mul(0xBF58_476D_1CE4_E5B9)
        })
    }

    fn format_move(&self, mv: u8) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        text.parse()
            .ok()
            .filter(|&m| m < PICKS)
            .ok_or_else(|| MoveError::illegal(text, "not a number below the limit"))
    }

    fn to_text(&self) -> String {
        format!("{:?}", self.chosen)
    }

    fn from_text(text: &str) -> Result<Self, PositionError> {
        Err(PositionError::new(
            Self::NAME,
            text,
            "not needed by these tests",
        ))
    }
}

/// Misleading at one ply: after the first pick it likes 0 best for the first player.
#[derive(Debug, Clone, Copy)]
struct LikesZero;

impl Evaluator<TwoPicks> for LikesZero {
    fn name(&self) -> &'static str {
        "likes-zero"
    }

    fn evaluate(&self, pos: &TwoPicks) -> i32 {
        // From the side to move: the second player, after the first pick.
        match pos.chosen.as_slice() {
            [0] => -100,
            [a] => -i32::from(*a),
            _ => 0,
        }
    }
}

#[test]
fn a_stop_inside_an_iteration_plays_what_it_found() {
    let pos = TwoPicks::start();
    let config = SearchConfig {
        tt_mb: 1,
        ..SearchConfig::default()
    };
    let run =
        |limits: Limits| Searcher::new(LikesZero, config.clone()).search(&pos, &limits, |_| {});
    let one = run(Limits::depth(1));
    assert_eq!(one.best, Some(0), "the evaluator's choice at one ply");
    let two = run(Limits::depth(2));
    assert_ne!(two.best, Some(0), "two plies see that 0 loses");
    // Every stop inside the second iteration plays 0 (the first iteration's move) until a
    // winning move has been searched, and a winning move from then on.
    let mut switched = false;
    for nodes in one.stats.nodes + 1..two.stats.nodes {
        let r = run(Limits::nodes(nodes));
        // A move the second iteration searched to its end is reported with that
        // iteration's depth and its value, a lower bound on the root's.
        if r.partial {
            assert_eq!(r.depth, 2, "{nodes} nodes");
            assert!(
                r.value <= two.value,
                "{nodes} nodes: {:?} is no lower bound",
                r.value
            );
        } else {
            assert_eq!(
                r.depth, 1,
                "{nodes} nodes: the second iteration is not complete"
            );
            assert_eq!(r.value, one.value, "{nodes} nodes");
        }
        if r.best != Some(0) {
            assert!(r.partial, "{nodes} nodes: a move of the second iteration");
            switched = true;
            assert_eq!(
                r.pv.first(),
                r.best.as_ref(),
                "{nodes} nodes: the line starts with it"
            );
        } else {
            assert!(!switched, "{nodes} nodes: back to the refuted move");
        }
    }
    assert!(
        switched,
        "no stop played the move the unfinished iteration found"
    );
}

/// The line's hash, folded to a small value: a different value for nearly every position.
#[derive(Debug, Clone, Copy)]
struct Scattered;

impl Evaluator<Endless> for Scattered {
    fn name(&self) -> &'static str {
        "scattered"
    }

    fn evaluate(&self, pos: &Endless) -> i32 {
        (pos.hash() % 201) as i32 - 100
    }
}

/// A time limit is spent to its end (as UCI's `go movetime` asks), not cut at the last
/// iteration that seemed able to finish: the search returns no earlier than the limit. A
/// lower bound only, so the machine's load cannot make it fail.
#[test]
fn a_time_limit_is_spent_to_its_end() {
    let limit = std::time::Duration::from_millis(300);
    let mut searcher = Searcher::new(
        Scattered,
        SearchConfig {
            tt_mb: 1,
            ..SearchConfig::default()
        },
    );
    let start = std::time::Instant::now();
    let r = searcher.search(&Endless::start(), &Limits::time(limit), |_| {});
    let spent = start.elapsed();
    assert!(r.best.is_some());
    assert!(
        spent >= limit,
        "returned after {spent:?}, before the limit of {limit:?} (depth {})",
        r.depth
    );
}
