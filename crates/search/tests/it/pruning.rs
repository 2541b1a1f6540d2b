//! The inexact prunings (null move, late-move reductions and pruning, exchange pruning, and
//! the static-value corrections they read) are checked for legality and sanity,
//! and for the one exact guarantee they keep: a search that runs until no value depends on the
//! depth limit returns the proven value, whatever it pruned on the way.

use duel_core::{
    Evaluator, Game, MoveError, Outcome, PositionError, ProbCut, Score, SearchProfile, Side,
    SplitMix64,
};
use duel_search::reference::{Reference, ReferenceOptions};
use duel_search::{Limits, SearchConfig, Searcher};

/// Tic-tac-toe in which a side may also pass (a null move), so that null-move pruning has a game
/// to run on. Having the move never hurts in tic-tac-toe, so passing is the zugzwang-free case
/// null move is made for.
#[derive(Debug, Clone, PartialEq)]
struct PassTicTacToe {
    stones: [u16; 2],
    to_move: Side,
    plies: u32,
    passes: u32,
}

thread_local! {
    /// Null moves played on this thread: the search's main thread is the caller's.
    static NULLS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The null moves `f` makes the search on this thread play.
fn nulls_in(f: impl FnOnce()) -> u64 {
    let before = NULLS.with(|n| n.get());
    f();
    NULLS.with(|n| n.get()) - before
}

const LINES: [u16; 8] = [0o7, 0o70, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];
const KEYS: [u64; 19] = SplitMix64::keys(99);

impl PassTicTacToe {
    fn has_line(s: u16) -> bool {
        LINES.iter().filter(|&&l| s & l == l).count() > 0
    }
}

impl Game for PassTicTacToe {
    type Move = u8;
    const NAME: &'static str = "pass-tictactoe";
    const MOVE_INDICES: usize = 9;

    fn move_index(mv: u8) -> usize {
        mv as usize
    }

    fn start() -> Self {
        PassTicTacToe {
            stones: [0, 0],
            to_move: Side::First,
            plies: 0,
            passes: 0,
        }
    }

    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn ply(&self) -> u32 {
        self.plies
    }

    fn generate_moves(&self, moves: &mut Vec<u8>) {
        moves.clear();
        if self.outcome().is_none() {
            let full = self.stones[0] | self.stones[1];
            moves.extend((0..9).filter(|c| full & (1 << c) == 0));
        }
    }

    fn play(&mut self, mv: u8) {
        self.stones[self.to_move as usize] |= 1 << mv;
        self.to_move = self.to_move.other();
        self.plies += 1;
    }

    fn undo(&mut self, mv: u8) {
        self.to_move = self.to_move.other();
        self.stones[self.to_move as usize] &= !(1 << mv);
        self.plies -= 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        if Self::has_line(self.stones[self.to_move.other() as usize]) {
            Some(Outcome::Loss)
        } else if Self::has_line(self.stones[self.to_move as usize]) {
            // After a pass the side that just passed may still hold a line it made earlier.
            Some(Outcome::Win)
        } else if (self.stones[0] | self.stones[1]) == 0o777 {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn hash(&self) -> u64 {
        self.hash_from_scratch()
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.to_move == Side::Second {
            KEYS[18]
        } else {
            0
        };
        for side in 0..2 {
            for c in 0..9 {
                if self.stones[side] & (1 << c) != 0 {
                    h ^= KEYS[side * 9 + c];
                }
            }
        }
        h
    }

    fn format_move(&self, mv: u8) -> String {
        (mv + 1).to_string()
    }

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves
            .into_iter()
            .find(|&m| self.format_move(m) == text)
            .ok_or_else(|| MoveError::illegal(text, "not a legal cell"))
    }

    fn to_text(&self) -> String {
        format!(
            "{:o}/{:o}/{:?}",
            self.stones[0], self.stones[1], self.to_move
        )
    }

    fn from_text(text: &str) -> Result<Self, PositionError> {
        Err(PositionError::new(
            Self::NAME,
            text,
            "not needed by these tests",
        ))
    }

    fn play_null(&mut self) -> bool {
        NULLS.with(|n| n.set(n.get() + 1));
        self.to_move = self.to_move.other();
        self.passes += 1;
        true
    }

    fn undo_null(&mut self) {
        self.to_move = self.to_move.other();
        self.passes -= 1;
    }

    /// Who holds the centre: a part of the position that changes at most twice a game, as a
    /// pawn structure changes slowly, for correction history.
    fn structure_key(&self) -> Option<u64> {
        let centre = |s: u16| u64::from(s & 0o20 != 0);
        Some(centre(self.stones[0]) | centre(self.stones[1]) << 1)
    }
}

/// Open lines, as in the texts, with null moves allowed everywhere.
#[derive(Debug, Clone, Copy)]
struct OpenLinesNull;

impl Evaluator<PassTicTacToe> for OpenLinesNull {
    fn name(&self) -> &'static str {
        "open-lines"
    }

    fn evaluate(&self, pos: &PassTicTacToe) -> i32 {
        let open = |s: u16| LINES.iter().filter(|&&l| l & s == 0).count() as i32;
        let me = pos.stones[pos.to_move as usize];
        let them = pos.stones[pos.to_move.other() as usize];
        open(them) - open(me)
    }

    fn null_move_ok(&self, _pos: &PassTicTacToe) -> bool {
        true
    }

    /// A made-up exchange for exchange pruning to act on: a corner stone "loses" 100, an
    /// edge stone 50, the centre nothing.
    fn exchange_at_least(&self, _pos: &PassTicTacToe, mv: u8, threshold: i32) -> bool {
        let value = match mv {
            0 | 2 | 6 | 8 => -100,
            4 => 0,
            _ => -50,
        };
        value >= threshold
    }

    /// Half the depth, trusted to within a unit: cuts often, and wrongly at times, which is
    /// what the proven-value test below must survive.
    fn probcut(&self, _pos: &PassTicTacToe, depth: u32, check: usize) -> Option<ProbCut> {
        (check == 0 && depth >= 2).then_some(ProbCut {
            depth: depth / 2,
            sigma: 1,
        })
    }
}

fn pruning_configs() -> Vec<(&'static str, SearchConfig)> {
    let base = SearchConfig {
        tt_mb: 1,
        ..SearchConfig::default()
    };
    vec![
        (
            "null move",
            SearchConfig {
                profile: SearchProfile {
                    null_move: true,
                    ..base.profile
                },
                ..base.clone()
            },
        ),
        (
            "lmr",
            SearchConfig {
                profile: SearchProfile {
                    lmr: true,
                    ..base.profile
                },
                ..base.clone()
            },
        ),
        (
            "late-move pruning",
            SearchConfig {
                profile: SearchProfile {
                    late_move_pruning: true,
                    ..base.profile
                },
                ..base.clone()
            },
        ),
        (
            "singular extensions",
            SearchConfig {
                profile: SearchProfile {
                    singular: 1,
                    ..base.profile
                },
                ..base.clone()
            },
        ),
        (
            "exchange pruning",
            SearchConfig {
                profile: SearchProfile {
                    exchange_pruning: true,
                    ..base.profile
                },
                ..base.clone()
            },
        ),
        (
            "probcut",
            SearchConfig {
                profile: SearchProfile {
                    probcut: 100,
                    ..base.profile
                },
                ..base.clone()
            },
        ),
        (
            "null move + lmr + late-move pruning + singular extensions",
            SearchConfig {
                profile: SearchProfile {
                    null_move: true,
                    lmr: true,
                    late_move_pruning: true,
                    singular: 1,
                    ..base.profile
                },
                ..base.clone()
            },
        ),
        (
            "everything chess has and the options it leaves off: the above + futility, iir, \
             improving, continuation and correction history, and probcut",
            SearchConfig {
                improving: true,
                profile: SearchProfile {
                    null_move: true,
                    lmr: true,
                    late_move_pruning: true,
                    singular: 1,
                    futility: 1,
                    iir: true,
                    continuation: true,
                    correction: true,
                    exchange_pruning: true,
                    probcut: 100,
                    ..base.profile
                },
                ..base
            },
        ),
    ]
}

#[test]
fn inexact_prunings_keep_proven_values_and_legal_moves() {
    let mut rng = SplitMix64::new(7);
    // Null moves played, by whether the configuration turns null move on.
    let (mut nulls_on, mut nulls_off) = (0, 0);
    for _ in 0..60 {
        // A random position with 0 to 4 stones.
        let mut pos = PassTicTacToe::start();
        let mut moves = Vec::new();
        for _ in 0..rng.below(5) {
            pos.generate_moves(&mut moves);
            pos.play(moves[rng.below(moves.len())]);
        }
        if pos.outcome().is_some() {
            continue;
        }
        let exact =
            Reference::AlphaBetaSoft.search(&pos, &OpenLinesNull, 9, ReferenceOptions::default());
        pos.generate_moves(&mut moves);
        for (name, config) in pruning_configs() {
            let null_move = config.profile.null_move;
            let mut s = Searcher::new(OpenLinesNull, config);
            // Depth-limited: any legal move, a value in range.
            let mut r = None;
            let nulls = nulls_in(|| r = Some(s.search(&pos, &Limits::depth(4), |_| {})));
            let r = r.expect("searched");
            assert!(r.best.is_some_and(|m| moves.contains(&m)), "{name}");
            assert!(r.value.0.abs() <= Score::WIN_VALUE, "{name}");
            match null_move {
                true => nulls_on += nulls,
                false => nulls_off += nulls,
            }
            // Unlimited: the search stops only once nothing depends on the horizon.
            s.new_game();
            let r = s.search(&pos, &Limits::default(), |_| {});
            assert_eq!(r.value, exact.value, "{name} on {}", pos.to_text());
            assert!(r.best.is_some_and(|m| moves.contains(&m)), "{name}");
        }
    }
    // The values above were proven with null moves really played, and only where asked for.
    assert!(nulls_on > 0);
    assert_eq!(nulls_off, 0);
}

/// With the pruning `enable` sets, a search of the start position to `depth` visits fewer
/// nodes than the plain one.
fn assert_prunes(name: &str, depth: u32, enable: impl Fn(&mut SearchConfig)) {
    let pos = PassTicTacToe::start();
    let plain = SearchConfig {
        tt_mb: 1,
        ..SearchConfig::default()
    };
    let mut pruning = plain.clone();
    enable(&mut pruning);
    let a = Searcher::new(OpenLinesNull, plain).search(&pos, &Limits::depth(depth), |_| {});
    let b = Searcher::new(OpenLinesNull, pruning).search(&pos, &Limits::depth(depth), |_| {});
    assert!(
        b.stats.nodes < a.stats.nodes,
        "{name} {} vs plain {}",
        b.stats.nodes,
        a.stats.nodes
    );
}

#[test]
fn null_move_prunes_nodes() {
    assert_prunes("null move", 6, |c| c.profile.null_move = true);
}

#[test]
fn late_move_pruning_prunes_nodes() {
    assert_prunes("late-move pruning", 5, |c| {
        c.profile.late_move_pruning = true
    });
}

#[test]
fn probcut_prunes_nodes() {
    assert_prunes("probcut", 6, |c| c.profile.probcut = 100);
}

/// The evaluator of the tests above without its ProbCut tests.
#[derive(Debug, Clone, Copy)]
struct NoProbCut;

impl Evaluator<PassTicTacToe> for NoProbCut {
    fn name(&self) -> &'static str {
        "open-lines"
    }

    fn evaluate(&self, pos: &PassTicTacToe) -> i32 {
        OpenLinesNull.evaluate(pos)
    }
}

/// ProbCut on costs nothing where the evaluator names no test, and a selectivity so high that
/// no shallow value can clear it never runs a shallow search: both trees are the plain one.
#[test]
fn probcut_without_a_usable_test_is_the_plain_search() {
    let pos = PassTicTacToe::start();
    let plain = SearchConfig {
        tt_mb: 1,
        ..SearchConfig::default()
    };
    let on = SearchConfig {
        profile: SearchProfile {
            probcut: 100,
            ..plain.profile
        },
        ..plain.clone()
    };
    let off = Searcher::new(NoProbCut, plain.clone()).search(&pos, &Limits::depth(6), |_| {});
    let no_test = Searcher::new(NoProbCut, on).search(&pos, &Limits::depth(6), |_| {});
    assert_eq!(
        (no_test.stats.nodes, no_test.value),
        (off.stats.nodes, off.value)
    );
    let off = Searcher::new(OpenLinesNull, plain.clone()).search(&pos, &Limits::depth(6), |_| {});
    let beyond = SearchConfig {
        profile: SearchProfile {
            probcut: i32::MAX,
            ..plain.profile
        },
        ..plain
    };
    let huge = Searcher::new(OpenLinesNull, beyond).search(&pos, &Limits::depth(6), |_| {});
    assert_eq!((huge.stats.nodes, huge.value), (off.stats.nodes, off.value));
}

#[test]
fn exchange_pruning_prunes_nodes() {
    assert_prunes("exchange pruning", 5, |c| c.profile.exchange_pruning = true);
}

/// Singular extensions search more, not less: at depth 9 (where nodes of depth 8 have table
/// moves to test) the tree grows beyond the plain one (the exclusion searches and the
/// extended moves), and the proven value above holds.
#[test]
fn singular_extensions_change_the_tree() {
    let pos = PassTicTacToe::start();
    let plain = SearchConfig {
        tt_mb: 1,
        ..SearchConfig::default()
    };
    let singular = SearchConfig {
        profile: SearchProfile {
            singular: 1,
            ..plain.profile
        },
        ..plain.clone()
    };
    let a = Searcher::new(OpenLinesNull, plain).search(&pos, &Limits::depth(9), |_| {});
    let b = Searcher::new(OpenLinesNull, singular).search(&pos, &Limits::depth(9), |_| {});
    assert!(
        b.stats.nodes > a.stats.nodes,
        "{} vs {}",
        b.stats.nodes,
        a.stats.nodes
    );
}

/// Correction history changes the static values that pruning reads, so with futility pruning
/// on, the tree must differ from the one without it (and the proven values above still hold).
#[test]
fn correction_history_changes_the_tree() {
    let pos = PassTicTacToe::start();
    let futility = SearchConfig {
        tt_mb: 1,
        profile: SearchProfile {
            futility: 1,
            ..SearchProfile::NONE
        },
        ..SearchConfig::default()
    };
    let corrected = SearchConfig {
        profile: SearchProfile {
            correction: true,
            ..futility.profile
        },
        ..futility.clone()
    };
    let a = Searcher::new(OpenLinesNull, futility).search(&pos, &Limits::depth(7), |_| {});
    let b = Searcher::new(OpenLinesNull, corrected).search(&pos, &Limits::depth(7), |_| {});
    assert_ne!(a.stats.nodes, b.stats.nodes);
    // The difference is the corrected values read by futility pruning: with nothing that reads
    // them, correction history leaves the tree as it was.
    let plain = SearchConfig {
        tt_mb: 1,
        ..SearchConfig::default()
    };
    let unread = SearchConfig {
        profile: SearchProfile {
            correction: true,
            ..plain.profile
        },
        ..plain.clone()
    };
    let a = Searcher::new(OpenLinesNull, plain).search(&pos, &Limits::depth(7), |_| {});
    let b = Searcher::new(OpenLinesNull, unread).search(&pos, &Limits::depth(7), |_| {});
    assert_eq!((a.stats.nodes, a.value), (b.stats.nodes, b.value));
}
