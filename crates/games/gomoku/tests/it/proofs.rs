//! Proofs that are proofs: every win the threat-space solver ([`solve_threats`]) and the
//! session's quick solve ([`GameInfo::quick_solve`]) claim is checked by an independent
//! search that shares none of their assumptions. It knows the rules only (the moves
//! [`Game::generate_moves`] lists, [`Game::outcome`], and [`Gomoku::makes_five`], the rules'
//! judge of a winning line), and it is an AND-OR search where the defender may play every
//! legal move: the five-cell, a counter-five, a cell beyond the five that blocks it under
//! caro, a stone that makes Black's threat point forbidden under renju, anything. The
//! attacker may choose among fewer moves (its fours, and in a VCT its moves near its stones),
//! which can only make a proof harder to find, never a false one true. A claim the checker
//! refutes is a failing test; one it cannot settle within its budget is counted, and the
//! tests require nearly all to be settled.

use std::collections::HashMap;

use crate::common::{fives_through, setup};
use duel_core::{Evaluator, Game, GameInfo, Outcome, Side, SplitMix64};
use duel_gomoku::{solve_threats, Cell, Gomoku, Patterns, Threat, ThreatLimits};

/// What the checker found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// The side to move wins within the attacker moves given, against every defence.
    Proven,
    /// A defence holds that long.
    Refuted,
    /// The budget ran out first.
    Unsettled,
}

/// The AND-OR search. Positions searched are remembered per attacker budget: a win in `n`
/// is a win in more, a refutation at `n` one at fewer.
struct Checker {
    nodes: u64,
    budget: u64,
    /// Whether the attacker may play moves that are not fours (a VCT's threes).
    threes: bool,
    /// The claimed line, tried first where the game follows it.
    hint: Vec<Cell>,
    wins: HashMap<u64, u32>,
    holds: HashMap<u64, u32>,
}

impl Checker {
    fn new(threes: bool, hint: Vec<Cell>, budget: u64) -> Checker {
        Checker {
            nodes: 0,
            budget,
            threes,
            hint,
            wins: HashMap::new(),
            holds: HashMap::new(),
        }
    }

    /// Whether the side to move in `pos` wins within `n` of its own moves.
    fn check(&mut self, pos: &mut Gomoku, n: u32) -> Verdict {
        match self.attacker(pos, n, 0) {
            Some(true) => Verdict::Proven,
            Some(false) => Verdict::Refuted,
            None => Verdict::Unsettled,
        }
    }

    fn tick(&mut self) -> Option<()> {
        self.nodes += 1;
        (self.nodes <= self.budget).then_some(())
    }

    /// The attacker to move, `n` moves left, `ply` plies into the claimed line.
    fn attacker(&mut self, pos: &mut Gomoku, n: u32, ply: usize) -> Option<bool> {
        self.tick()?;
        if n == 0 || pos.outcome().is_some() {
            return Some(false);
        }
        let key = pos.hash();
        if self.wins.get(&key).is_some_and(|&w| w <= n) {
            return Some(true);
        }
        if self.holds.get(&key).is_some_and(|&h| h >= n) {
            return Some(false);
        }
        let me = pos.side_to_move();
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        // A five now ends it.
        if moves.iter().any(|&m| pos.makes_five(m, me)) {
            self.wins.insert(key, 1);
            return Some(true);
        }
        if n == 1 {
            self.holds.insert(key, 1);
            return Some(false);
        }
        // The line's move first, where the game still follows it; then fours, then (in a VCT)
        // moves near the attacker's own stones.
        let hinted = self.hint.get(ply).copied().filter(|m| moves.contains(m));
        let mut fours = Vec::new();
        let mut quiet = Vec::new();
        for &m in &moves {
            if Some(m) == hinted {
                continue;
            }
            pos.play(m);
            let four = !fives_through(pos, m, me).is_empty();
            pos.undo(m);
            if four {
                fours.push(m);
            } else if self.threes && near_own(pos, m, me) {
                quiet.push(m);
            }
        }
        let order = hinted.into_iter().chain(fours).chain(quiet);
        for m in order {
            pos.play(m);
            let won = self.defender(
                pos,
                n - 1,
                if Some(m) == hinted {
                    ply + 1
                } else {
                    usize::MAX
                },
            );
            pos.undo(m);
            if won? {
                self.wins.insert(key, n);
                return Some(true);
            }
        }
        self.holds.insert(key, n);
        Some(false)
    }

    /// The defender to move after the attacker's move, `n` attacker moves left: every legal
    /// move is tried; those after which the attacker still has a five are lost at once.
    fn defender(&mut self, pos: &mut Gomoku, n: u32, ply: usize) -> Option<bool> {
        self.tick()?;
        match pos.outcome() {
            // The attacker's move made five.
            Some(Outcome::Loss) => return Some(true),
            Some(_) => return Some(false),
            None => {}
        }
        let them = pos.side_to_move();
        let last = pos.last_move().expect("the attacker has moved");
        let threats = fives_through(pos, last, them.other());
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let hinted = self.hint.get(ply).copied();
        // The claimed reply first: a refutation elsewhere is found all the same.
        moves.sort_by_key(|&m| Some(m) != hinted);
        for m in moves {
            pos.play(m);
            let verdict = if pos.outcome() == Some(Outcome::Loss) {
                // The defender made five (or, under renju, left Black without a move).
                Some(false)
            } else if threats
                .iter()
                .any(|&f| f != m && pos.is_empty(f) && pos.makes_five(f, them.other()))
            {
                // A five still stands: the attacker plays it next.
                Some(n >= 1)
            } else {
                let next = if Some(m) == hinted {
                    ply + 1
                } else {
                    usize::MAX
                };
                self.attacker(pos, n, next)
            };
            pos.undo(m);
            if !verdict? {
                return Some(false);
            }
        }
        Some(true)
    }
}

/// Whether `m` is within two cells of one of `side`'s stones.
fn near_own(pos: &Gomoku, m: Cell, side: Side) -> bool {
    let (x, y) = (m.x() as i32, m.y() as i32);
    (-2..=2).any(|dy| {
        (-2..=2).any(|dx| {
            let (nx, ny) = (x + dx, y + dy);
            nx >= 0
                && ny >= 0
                && pos
                    .cell(nx as u32, ny as u32)
                    .is_some_and(|c| pos.stone(c) == Some(side))
        })
    })
}

/// The attacker moves of a line that starts with the attacker's.
fn attacker_moves(line: &[Cell]) -> u32 {
    line.len().div_ceil(2) as u32
}

/// Positions from seeded random games: stones dropped near the others, on small boards so
/// that the checker's defender, who tries every cell, stays quick.
fn random_positions(spec: &str, games: usize, seed: u64) -> Vec<Gomoku> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut pos = Gomoku::variant(spec).unwrap();
        while pos.outcome().is_none() {
            pos.generate_moves(&mut moves);
            let near: Vec<Cell> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    pos.moves_played().is_empty()
                        || near_own(&pos, m, Side::First)
                        || near_own(&pos, m, Side::Second)
                })
                .collect();
            let pool = if near.is_empty() { &moves } else { &near };
            pos.play(pool[rng.below(pool.len())]);
            if pos.moves_played().len() >= 7 && pos.outcome().is_none() {
                out.push(pos.clone());
            }
        }
    }
    out
}

/// Each claim of the solver on `positions` checked, up to `longest` attacker moves (the
/// checker's defender tries every cell, so its work grows fast with the line); the refuted
/// ones named.
fn check_claims(positions: &[Gomoku], vct_depth: u32, longest: u32) -> (usize, usize, Vec<String>) {
    let (mut proven, mut unsettled, mut refuted) = (0, 0, Vec::new());
    for pos in positions {
        let limits = ThreatLimits {
            nodes: Some(20_000),
            vct_depth: Some(vct_depth),
            ..ThreatLimits::default()
        };
        let Ok(win) = solve_threats(pos, &limits).win else {
            continue;
        };
        let n = attacker_moves(&win.line);
        if n > longest {
            continue;
        }
        let mut checker = Checker::new(vct_depth > 0, win.line.clone(), 300_000);
        match checker.check(&mut pos.clone(), n) {
            Verdict::Proven => proven += 1,
            Verdict::Unsettled => unsettled += 1,
            Verdict::Refuted => refuted.push(format!(
                "{} {} in {n}: {}",
                pos.to_text(),
                win.kind.name(),
                win.line
                    .iter()
                    .map(|&c| pos.cell_name(c))
                    .collect::<Vec<_>>()
                    .join(" ")
            )),
        }
    }
    (proven, unsettled, refuted)
}

/// The solver's claims on random positions of every rule (seeds from `seed`), VCT to
/// `vct_depth` threats, checked up to `longest` attacker moves: none refuted, nearly all
/// settled.
fn assert_claims_hold(games: usize, seed: u64, vct_depth: u32, longest: u32) {
    for (i, spec) in ["9", "renju:11", "standard:9", "caro:9"]
        .into_iter()
        .enumerate()
    {
        let positions = random_positions(spec, games, seed + i as u64);
        let (proven, unsettled, refuted) = check_claims(&positions, vct_depth, longest);
        assert!(
            refuted.is_empty(),
            "{spec}: refuted claims:\n{}",
            refuted.join("\n")
        );
        assert!(
            proven >= 10 && unsettled * 20 <= proven,
            "{spec}: {proven} proven, {unsettled} unsettled"
        );
    }
}

/// The VCFs the solver finds in random positions of every rule hold against every defence
/// (under caro, before the solver knew that a stone beyond the five-cell defends, three
/// claims here were refuted).
#[test]
fn every_vcf_claimed_is_proven() {
    assert_claims_hold(30, 1, 0, u32::MAX);
}

/// The VCTs too, up to three threats: threes answered by every defence, counter-fours and far
/// cells included.
#[test]
fn every_vct_claimed_is_proven() {
    assert_claims_hold(12, 9, 2, 3);
}

/// The session's quick solve claims exact wins: each is proven at its length.
#[test]
fn every_quick_solve_win_is_proven() {
    for (spec, seed) in [("9", 5), ("renju:11", 6), ("standard:9", 7), ("caro:9", 8)] {
        for pos in random_positions(spec, 20, seed) {
            let Some(q) = pos.quick_solve() else { continue };
            let mut checker = Checker::new(false, q.line.clone(), 2_000_000);
            let verdict = checker.check(&mut pos.clone(), attacker_moves(&q.line));
            assert_ne!(verdict, Verdict::Refuted, "{spec}: {}", pos.to_text());
        }
    }
}

/// The caro case: `O X X X X . .` is a four, but a five blocked at both ends does not
/// win under caro, so the cell beyond the five-cell defends too. The checker sees it.
#[test]
fn caro_five_blocked_at_both_ends_is_no_win() {
    // X (Black) on c8 d8 e8 f8 with O on b8: g8 makes a five blocked by b8; White at h8
    // blocks the other end first.
    let pos = setup("caro:15", "c8 d8 e8 f8 a1", "b8 a3 a5 a7");
    assert_eq!(pos.side_to_move(), Side::Second);
    // White to move defends at h8: Black's g8 then is a five blocked at both ends.
    let mut after = pos.clone();
    after.play(after.parse_cell("h8").unwrap());
    assert!(!after.makes_five(after.parse_cell("g8").unwrap(), Side::First));
    let mut checker = Checker::new(false, Vec::new(), 100_000);
    assert_eq!(checker.check(&mut after, 1), Verdict::Refuted);
}

/// The restricted generator never drops a move that is needed: where the other side
/// threatens a five, an open four or a four-three and the side to move has neither a five nor
/// a four to answer with (so its candidates are the answers only), every legal move left out
/// near the stones loses: the checker proves that the other side then wins within three of its
/// moves, by fours and threes against every defence. On random positions of every rule.
#[test]
fn the_generator_drops_no_needed_move() {
    for (spec, seed) in [
        ("9", 21),
        ("renju:11", 22),
        ("standard:9", 23),
        ("caro:9", 24),
    ] {
        let (mut lost, mut unsettled, mut held) = (0, 0, Vec::new());
        // Every fourth position of the games: enough threats, and quick.
        for pos in random_positions(spec, 20, seed).iter().step_by(4) {
            let me = pos.side_to_move();
            let mut legal = Vec::new();
            pos.generate_moves(&mut legal);
            if legal
                .iter()
                .any(|&c| Patterns::threat(pos, c, me) >= Threat::Four)
            {
                continue;
            }
            let threatened = legal
                .iter()
                .any(|&c| Patterns::threat(pos, c, me.other()) >= Threat::FourThree);
            if !threatened {
                continue;
            }
            let mut kept = legal.clone();
            Patterns::default().prune_moves(pos, &mut kept);
            // Cells far from the stones are never answers.
            let near = |m: &&Cell| near_own(pos, **m, me) || near_own(pos, **m, me.other());
            for &m in legal.iter().filter(|m| !kept.contains(m)).filter(near) {
                let mut after = pos.clone();
                after.play(m);
                match Checker::new(true, Vec::new(), 20_000).check(&mut after, 3) {
                    Verdict::Proven => lost += 1,
                    Verdict::Unsettled => unsettled += 1,
                    Verdict::Refuted => {
                        held.push(format!("{} {}", pos.to_text(), pos.cell_name(m)))
                    }
                }
            }
        }
        assert!(
            held.is_empty(),
            "{spec}: moves left out that hold:\n{}",
            held.join("\n")
        );
        assert!(
            lost >= 50 && unsettled * 20 <= lost,
            "{spec}: {lost} proven lost, {unsettled} unsettled"
        );
    }
}

/// The VCF the search runs at its horizon ([`Evaluator::horizon_proof`]) claims mates: each
/// is proven by the checker at its length, under every rule, and the position is left as it
/// was.
#[test]
fn every_horizon_vcf_is_proven() {
    for (spec, seed) in [
        ("9", 31),
        ("renju:11", 32),
        ("standard:9", 33),
        ("caro:9", 34),
    ] {
        let mut proven = 0;
        for pos in random_positions(spec, 30, seed) {
            let mut probed = pos.clone();
            let Some(score) = Patterns::default().horizon_proof(&mut probed) else {
                continue;
            };
            assert_eq!(probed.to_text(), pos.to_text());
            assert_eq!(probed.hash(), pos.hash());
            let plies = score.plies_to_end().expect("a mate score") as u32;
            let mut checker = Checker::new(false, Vec::new(), 300_000);
            let verdict = checker.check(&mut pos.clone(), plies.div_ceil(2));
            assert_eq!(
                verdict,
                Verdict::Proven,
                "{spec}: {} in {plies}",
                pos.to_text()
            );
            proven += 1;
        }
        assert!(proven >= 10, "{spec}: only {proven} horizon VCFs");
    }
}
