//! Game-tree search for any [`duel_core::Game`].
//!
//! Two families live here:
//! - [`reference`](mod@reference): the algorithms exactly as the founding texts teach them (Minimax as a Max/Min
//!   pair, Negamax, Alpha-beta fail-hard and fail-soft, the two-phase build-then-back-up
//!   procedure, search under a node budget). Small, readable, and the oracle for tests.
//! - [`searcher`]: the [`Searcher`], what strong engines do (iterative deepening, principal variation search, a
//!   transposition table, aspiration windows, MTD(f), move ordering, quiescence, null move,
//!   late-move reductions, mate-distance pruning, limits, Lazy SMP).
//!
//! Every search answers with the same [`Report`]; [`timeman`] turns a game clock into its time
//! limits.
//!
//! # A game of your own
//!
//! Nothing here knows duel's games: implement [`duel_core::Game`] and [`duel_core::Evaluator`]
//! for yours and every algorithm searches it. Nim, which duel does not ship: a pile of
//! stones, each player takes one, two or three, and whoever takes the last stone wins.
//!
//! ```
//! use duel_core::{conformance, Evaluator, Game, MoveError, Outcome, PositionError, Score, Side};
//! use duel_search::{Limits, Reference, ReferenceOptions, SearchConfig, Searcher, Tree};
//!
//! #[derive(Clone, Debug)]
//! struct Nim {
//!     stones: u32,
//!     ply: u32,
//! }
//!
//! impl Game for Nim {
//!     type Move = u32; // stones taken
//!     const NAME: &'static str = "nim";
//!     fn start() -> Self {
//!         Nim { stones: 21, ply: 0 }
//!     }
//!     fn side_to_move(&self) -> Side {
//!         if self.ply % 2 == 0 { Side::First } else { Side::Second }
//!     }
//!     fn ply(&self) -> u32 {
//!         self.ply
//!     }
//!     fn generate_moves(&self, moves: &mut Vec<u32>) {
//!         moves.clear();
//!         moves.extend((1..=3).filter(|&n| n <= self.stones));
//!     }
//!     fn play(&mut self, mv: u32) {
//!         self.stones -= mv;
//!         self.ply += 1;
//!     }
//!     fn undo(&mut self, mv: u32) {
//!         self.stones += mv;
//!         self.ply -= 1;
//!     }
//!     fn outcome(&self) -> Option<Outcome> {
//!         // The other side took the last stone: the side to move has lost.
//!         (self.stones == 0).then_some(Outcome::Loss)
//!     }
//!     fn hash(&self) -> u64 {
//!         u64::from(self.stones) << 1 | u64::from(self.ply % 2)
//!     }
//!     fn hash_from_scratch(&self) -> u64 {
//!         self.hash()
//!     }
//!     fn format_move(&self, mv: u32) -> String {
//!         mv.to_string()
//!     }
//!     fn parse_move(&self, text: &str) -> Result<u32, MoveError> {
//!         let n: u32 = text
//!             .parse()
//!             .map_err(|_| MoveError::syntax(Self::NAME, text, "a number of stones"))?;
//!         if (1..=3).contains(&n) && n <= self.stones {
//!             Ok(n)
//!         } else {
//!             Err(MoveError::illegal(text, "take 1 to 3 of the stones left"))
//!         }
//!     }
//!     fn to_text(&self) -> String {
//!         format!("{} {}", self.stones, self.ply)
//!     }
//!     fn from_text(text: &str) -> Result<Self, PositionError> {
//!         let bad = || PositionError::new(Self::NAME, text, "expected STONES PLY");
//!         let (stones, ply) = text.split_once(' ').ok_or_else(bad)?;
//!         Ok(Nim {
//!             stones: stones.parse().map_err(|_| bad())?,
//!             ply: ply.parse().map_err(|_| bad())?,
//!         })
//!     }
//! }
//!
//! /// Knows nothing: every unfinished position is even, so only search finds the wins.
//! #[derive(Clone)]
//! struct Blind;
//!
//! impl Evaluator<Nim> for Blind {
//!     fn name(&self) -> &'static str {
//!         "blind"
//!     }
//!     fn evaluate(&self, _: &Nim) -> i32 {
//!         0
//!     }
//! }
//!
//! // The rules hold together (play and undo, hashes, text), as for duel's own games.
//! conformance::check_game(&Nim::start(), 20, 1).unwrap();
//!
//! // The textbook algorithms agree with one another at every depth...
//! let pos = Nim::start();
//! let opts = ReferenceOptions::default();
//! for depth in 1..=8 {
//!     let minimax = Reference::Minimax.search(&pos, &Blind, depth, opts);
//!     for algorithm in Reference::ALL {
//!         assert_eq!(algorithm.search(&pos, &Blind, depth, opts).value, minimax.value);
//!     }
//! }
//!
//! // ...and the engine search, with no limit, solves the game: 21 stones win for the side
//! // to move by taking one, leaving a multiple of four.
//! let mut searcher = Searcher::new(Blind, SearchConfig::default());
//! let solved = searcher.search(&pos, &Limits::default(), |_| {});
//! assert!(solved.value.is_win());
//! assert_eq!(solved.best, Some(1));
//!
//! // The tree alpha-beta explores, recorded node by node (what `duel tree` draws).
//! let mut tree = Tree::new(&pos);
//! let r = Reference::AlphaBetaSoft.search_traced(&pos, &Blind, 3, opts, &mut tree);
//! let root = tree.finish(r.value);
//! assert_eq!(root.children.len(), 3);
//! ```

pub mod reference;
mod report;
pub mod searcher;
pub mod timeman;
pub mod tree;
pub mod tt;

pub use reference::{Reference, ReferenceOptions};
pub use report::{Report, Stats};
pub use searcher::{Limits, Probed, SearchConfig, Searcher};
pub use tree::{Tree, TreeNode};
pub use tt::TtError;
