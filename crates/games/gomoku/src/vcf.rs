//! Threat-space search: VCF (victory by continuous fours) and VCT (victory by continuous
//! threats, fours and threes), proving wins for the side to move.
//!
//! # VCF
//!
//! The attacker plays only *fours*: moves after which one more stone makes a winning line
//! (judged by [`Gomoku::makes_five`]'s rule, so renju's exactly-five for Black and caro's
//! blocked fives are the rules crate's, not ours). The defender's answers to a four are the
//! moves after which no five-cell makes five any more, each judged by the rules with the
//! stone put down: the five-cell itself, and under caro also a cell beyond it, for a five
//! blocked at both ends does not win there. A four the defender has no such answer to wins
//! at once (an open four, a double four, a five-cell forbidden to a Black defender under
//! renju); against several, the attacker must win after each. Usually the reply is forced:
//! the five-cell. That block
//! may make a four for the defender (a *counter-four*): the attacker's next move is then
//! forced too (its five-cell), and the sequence goes on only if that block is itself a four.
//! Two counter-fives at once refute the line. Black attacking under renju plays no forbidden
//! point. A position searched in vain is kept in a table with the depth it failed to.
//!
//! # VCT
//!
//! As VCF, and the attacker may also play a move after which it has a *winning threat*: a
//! move making an open four or a double four (or a four whose block is forbidden to the
//! defender). The defender then may answer with any cell of those threats (the threat moves
//! themselves and their five-cells: every other move leaves one of them standing) or with a
//! four of its own; the attacker must win against every answer. VCF is tried first at every
//! attacker node. Depth counts the attacker's moves, and the VCT is deepened one move at a
//! time, so the shortest-found line comes first.
//!
//! Both prove wins only: not finding one says nothing of the position's value.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use duel_core::Game;

use crate::{cell_of_padded, colour, Cell, Gomoku, BLACK, DIRECTIONS, EMPTY, PADDED, WALL, WHITE};

/// Fours the VCF follows at most, counted for the attacker: the puzzles' longest lines need 16.
pub const VCF_DEPTH: u32 = 40;
/// Threats (fours or threes) the VCT plays at most by default.
pub const VCT_DEPTH: u32 = 8;
/// The nodes `duel solve gomoku` searches when it is given no limit: 10 to 30 s of VCT, which
/// ran at 70 000 to 190 000 nodes/s here (release, 2026-11-28, two busy cores).
pub const SOLVE_DEFAULT_NODES: u64 = 2_000_000;
/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;

/// How the win was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThreatKind {
    /// Fours only.
    Vcf,
    /// Fours and threes.
    Vct,
}

impl ThreatKind {
    /// `VCF` or `VCT`.
    pub fn name(self) -> &'static str {
        match self {
            ThreatKind::Vcf => "VCF",
            ThreatKind::Vct => "VCT",
        }
    }
}

/// A proven win for the side to move: how, and a line to the five (attacker first; at a
/// VCT's defender nodes the reply that resisted longest).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreatWin {
    /// VCF or VCT.
    pub kind: ThreatKind,
    /// The moves, the last one making five.
    pub line: Vec<Cell>,
}

/// What ends a threat search early.
#[derive(Debug, Clone, Copy, Default)]
pub struct ThreatLimits<'a> {
    /// At most this many nodes.
    pub nodes: Option<u64>,
    /// Stop at this time.
    pub deadline: Option<Instant>,
    /// Stop when this flag is set.
    pub stop: Option<&'a AtomicBool>,
    /// The most attacker moves a VCT plays (None: [`VCT_DEPTH`]); 0 tries VCF only.
    pub vct_depth: Option<u32>,
    /// The most fours a VCF plays (None: [`VCF_DEPTH`]).
    pub vcf_depth: Option<u32>,
}

/// Why a threat search ended without a win.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThreatStop {
    /// It searched everything to its depth: no VCF or VCT that short.
    Exhausted,
    /// The node limit.
    Nodes,
    /// The deadline.
    Time,
    /// The stop flag.
    Flag,
}

/// A threat search's answer, with the nodes it visited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreatResult {
    /// The win, or why none was found.
    pub win: Result<ThreatWin, ThreatStop>,
    /// Nodes visited (attacker and defender positions).
    pub nodes: u64,
}

/// Nodes of the VCF probe [`quick_vcf`]: about 4 ms at the VCF's 230 000 nodes/s (release,
/// 2026-11-28, two busy cores: the deep puzzles searched in vain under renju); the puzzles'
/// VCFs take 11 to 209 nodes, the bench positions' probes under 0.2 ms.
pub const QUICK_VCF_NODES: u64 = 1_000;

/// A VCF for the side to move within [`QUICK_VCF_NODES`], as the probe before a search.
pub fn quick_vcf(pos: &Gomoku) -> ThreatResult {
    let limits = ThreatLimits {
        nodes: Some(QUICK_VCF_NODES),
        vct_depth: Some(0),
        ..ThreatLimits::default()
    };
    solve_threats(pos, &limits)
}

/// Searches `pos` for a VCF, then (if `limits.vct_depth` allows) a VCT, for the side to move.
pub fn solve_threats(pos: &Gomoku, limits: &ThreatLimits<'_>) -> ThreatResult {
    let mut s = Search::new(limits);
    let win = s.root(&mut pos.clone(), limits.vct_depth.unwrap_or(VCT_DEPTH));
    ThreatResult {
        win,
        nodes: s.nodes,
    }
}

/// Up to this many cells: the five-cells a move makes, the defences of a threat.
#[derive(Clone, Copy)]
pub(crate) struct Spots {
    pub(crate) cells: [u16; 24],
    pub(crate) len: usize,
}

impl Spots {
    const NONE: Spots = Spots {
        cells: [0; 24],
        len: 0,
    };

    fn push(&mut self, p: usize) {
        if !self.as_slice().contains(&(p as u16)) && self.len < self.cells.len() {
            self.cells[self.len] = p as u16;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[u16] {
        &self.cells[..self.len]
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.as_slice().iter().map(|&p| p as usize)
    }
}

struct Search<'a> {
    nodes: u64,
    limits: ThreatLimits<'a>,
    stopped: Option<ThreatStop>,
    vcf_depth: u32,
    /// VCF positions searched in vain, with the depth.
    vcf_failed: HashMap<u64, u32>,
    /// VCT attacker positions searched in vain, with the depth.
    vct_failed: HashMap<u64, u32>,
}

impl<'a> Search<'a> {
    fn new(limits: &ThreatLimits<'a>) -> Self {
        Search {
            nodes: 0,
            limits: *limits,
            stopped: None,
            vcf_depth: limits.vcf_depth.unwrap_or(VCF_DEPTH),
            vcf_failed: HashMap::new(),
            vct_failed: HashMap::new(),
        }
    }

    /// Counts a node; true once a limit is reached (then every search returns at once).
    fn tick(&mut self) -> bool {
        if self.stopped.is_some() {
            return true;
        }
        self.nodes += 1;
        if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            self.stopped = Some(ThreatStop::Nodes);
        } else if self.nodes.is_multiple_of(CHECK_EVERY) {
            if self.limits.deadline.is_some_and(|d| Instant::now() >= d) {
                self.stopped = Some(ThreatStop::Time);
            } else if self.limits.stop.is_some_and(|f| f.load(Ordering::Relaxed)) {
                self.stopped = Some(ThreatStop::Flag);
            }
        }
        self.stopped.is_some()
    }

    fn root(&mut self, pos: &mut Gomoku, vct_depth: u32) -> Result<ThreatWin, ThreatStop> {
        if pos.outcome().is_some() {
            return Err(ThreatStop::Exhausted);
        }
        let me = colour(pos.side_to_move());
        let them = BLACK + WHITE - me;
        let mut mine = Spots::NONE;
        let mut theirs = Spots::NONE;
        for c in pos.empty_cells() {
            let p = c.padded();
            if pos.wins_at(p, me) {
                mine.push(p);
            }
            if pos.wins_at(p, them) {
                theirs.push(p);
            }
        }
        if let Some(p) = mine.iter().next() {
            return Ok(ThreatWin {
                kind: ThreatKind::Vcf,
                line: vec![cell_of_padded(p)],
            });
        }
        let forced = match theirs.len {
            0 => None,
            1 => Some(theirs.cells[0] as usize),
            _ => return Err(ThreatStop::Exhausted),
        };
        let mut line = Vec::new();
        if self.vcf(pos, self.vcf_depth, forced, &mut line) {
            return Ok(win(ThreatKind::Vcf, &line));
        }
        for depth in 1..=vct_depth {
            if let Some(stop) = self.stopped {
                return Err(stop);
            }
            line.clear();
            if self.vct(pos, depth, forced, &mut line) {
                return Ok(win(ThreatKind::Vct, &line));
            }
        }
        Err(self.stopped.unwrap_or(ThreatStop::Exhausted))
    }

    /// Is there a VCF of at most `depth` fours for the side to move, whose opponent has no
    /// four unless `forced` is its five-cell (which the attacker must then take)? The
    /// attacker has no five-cell. On success the line is appended to `line`.
    fn vcf(
        &mut self,
        pos: &mut Gomoku,
        depth: u32,
        forced: Option<usize>,
        line: &mut Vec<usize>,
    ) -> bool {
        if depth == 0 || self.tick() {
            return false;
        }
        let key = pos.hash();
        if self.vcf_failed.get(&key).is_some_and(|&d| d >= depth) {
            return false;
        }
        let moves = match forced {
            Some(p) => vec![p],
            None => candidates(pos, colour(pos.side_to_move()), 3),
        };
        for m in moves {
            let won = legal(pos, m)
                && self.threat(
                    pos,
                    m,
                    line,
                    |_, _, _| false,
                    |s, pos, forced, line| s.vcf(pos, depth - 1, forced, line),
                );
            if won {
                return true;
            }
            if self.stopped.is_some() {
                return false;
            }
        }
        if self.stopped.is_none() {
            self.vcf_failed.insert(key, depth);
        }
        false
    }

    /// The attacker plays `m`. A four: it wins if unstoppable, else the defender blocks and
    /// `next` searches on (see [`Search::after_block`]). No four: `quiet` says whether the
    /// attacker wins. On success the line is appended to `line`.
    fn threat(
        &mut self,
        pos: &mut Gomoku,
        m: usize,
        line: &mut Vec<usize>,
        quiet: impl FnOnce(&mut Self, &mut Gomoku, &mut Vec<usize>) -> bool,
        next: impl Fn(&mut Self, &mut Gomoku, Option<usize>, &mut Vec<usize>) -> bool,
    ) -> bool {
        let me = colour(pos.side_to_move());
        let mark = line.len();
        line.push(m);
        pos.play_unread(cell_of_padded(m));
        let fives = fives_through(pos, m, me);
        let ok = if fives.len == 0 {
            quiet(self, pos, line)
        } else {
            let defences = five_defences(pos, &fives, me);
            if defences.is_empty() {
                finish(pos, &fives, me, line);
                true
            } else {
                self.after_blocks(pos, &defences, line, &next)
            }
        };
        pos.undo_unread(cell_of_padded(m));
        if !ok {
            line.truncate(mark);
        }
        ok
    }

    /// The defender has `defences` against the attacker's four: the attacker must win after
    /// each ([`Search::after_block`]). The line follows the defence whose win is longest.
    fn after_blocks(
        &mut self,
        pos: &mut Gomoku,
        defences: &[usize],
        line: &mut Vec<usize>,
        next: &impl Fn(&mut Self, &mut Gomoku, Option<usize>, &mut Vec<usize>) -> bool,
    ) -> bool {
        if let [b] = defences {
            return self.after_block(pos, *b, line, next);
        }
        let mut best: Option<Vec<usize>> = None;
        for &b in defences {
            let mut sub = Vec::new();
            if !self.after_block(pos, b, &mut sub, next) {
                return false;
            }
            if best.as_ref().is_none_or(|l| sub.len() > l.len()) {
                best = Some(sub);
            }
        }
        line.extend(best.unwrap_or_default());
        true
    }

    /// The defender blocks the attacker's four on `b`; then `next` searches on, told the
    /// defender's counter-four's five-cell if the block made one. Two counter-fives: the
    /// attacker cannot stop them.
    fn after_block(
        &mut self,
        pos: &mut Gomoku,
        b: usize,
        line: &mut Vec<usize>,
        next: &impl Fn(&mut Self, &mut Gomoku, Option<usize>, &mut Vec<usize>) -> bool,
    ) -> bool {
        let them = colour(pos.side_to_move());
        line.push(b);
        pos.play_unread(cell_of_padded(b));
        let counter = fives_through(pos, b, them);
        let ok = match counter.len {
            0 => next(self, pos, None, line),
            1 => next(self, pos, Some(counter.cells[0] as usize), line),
            _ => false,
        };
        pos.undo_unread(cell_of_padded(b));
        ok
    }

    /// After the attacker's quiet move `m`: if it has a winning threat, the defender's turn
    /// ([`Search::defend`]) with `depth` threats left. With `near`, the threats are looked
    /// for on `m`'s lines only: where the attacker had none before `m` (its VCF failed), any
    /// it has now go through `m`.
    fn pressed(
        &mut self,
        pos: &mut Gomoku,
        m: usize,
        near: bool,
        depth: u32,
        line: &mut Vec<usize>,
    ) -> bool {
        let me = BLACK + WHITE - colour(pos.side_to_move());
        let cells = match near {
            true => line_cells(pos, m),
            false => candidates(pos, me, 3),
        };
        let threats = winning_threats(pos, me, cells);
        threats.len > 0 && self.defend(pos, depth, &threats, line)
    }

    /// Is there a VCT of at most `depth` threats for the side to move (as [`Search::vcf`])?
    fn vct(
        &mut self,
        pos: &mut Gomoku,
        depth: u32,
        forced: Option<usize>,
        line: &mut Vec<usize>,
    ) -> bool {
        let mark = line.len();
        if self.vcf(pos, self.vcf_depth, forced, line) {
            return true;
        }
        line.truncate(mark);
        if depth == 0 || self.tick() {
            return false;
        }
        if self
            .vct_failed
            .get(&pos.hash())
            .is_some_and(|&d| d >= depth)
        {
            return false;
        }
        let me = colour(pos.side_to_move());
        let moves = match forced {
            Some(p) => vec![p],
            None => {
                let mut v = candidates(pos, me, 3);
                for p in candidates(pos, me, 2) {
                    if !v.contains(&p) {
                        v.push(p);
                    }
                }
                v
            }
        };
        for m in moves {
            let won = legal(pos, m)
                && self.threat(
                    pos,
                    m,
                    line,
                    |s, pos, line| s.pressed(pos, m, forced.is_none(), depth - 1, line),
                    |s, pos, forced, line| s.vct(pos, depth - 1, forced, line),
                );
            if won {
                return true;
            }
            if self.stopped.is_some() {
                return false;
            }
        }
        if self.stopped.is_none() {
            self.vct_failed.insert(pos.hash(), depth);
        }
        false
    }

    /// The defender to move against the attacker's winning `threats`: does the attacker win
    /// after every defence (a cell of the threats, or a four of the defender's)? The line
    /// follows the defence whose win is longest.
    fn defend(
        &mut self,
        pos: &mut Gomoku,
        depth: u32,
        threats: &Spots,
        line: &mut Vec<usize>,
    ) -> bool {
        if self.tick() {
            return false;
        }
        let them = colour(pos.side_to_move());
        let me = BLACK + WHITE - them;
        let mut defences = Vec::new();
        for w in threats.iter() {
            defences.push(w);
            pos.toggle_unread(cell_of_padded(w), me, true);
            let fives = fives_through(pos, w, me);
            pos.toggle_unread(cell_of_padded(w), me, false);
            defences.extend(fives.iter());
            if pos.rule() == crate::Rule::Caro {
                // A stone beyond a five-cell can leave the five blocked at both ends.
                for f in fives.iter() {
                    defences.extend(line_cells_within(pos, f, 5));
                }
            }
        }
        defences.extend(candidates(pos, them, 3));
        defences.sort_unstable();
        defences.dedup();
        defences.retain(|&c| legal(pos, c));
        if defences.is_empty() {
            // No legal defence (Black under renju, its defences forbidden): whatever it
            // plays, a threat stands; the line shows its first legal move.
            match pos
                .empty_cells()
                .map(|c| c.padded())
                .find(|&p| legal(pos, p))
            {
                Some(c) => defences.push(c),
                None => return false,
            }
        }
        let mut best: Option<Vec<usize>> = None;
        for c in defences {
            let mut sub = vec![c];
            pos.play_unread(cell_of_padded(c));
            let counter = fives_through(pos, c, them);
            let ok = match counter.len {
                0 => self.vct(pos, depth, None, &mut sub),
                1 => self.answer_counter(pos, depth, counter.cells[0] as usize, &mut sub),
                _ => false,
            };
            pos.undo_unread(cell_of_padded(c));
            if !ok {
                return false;
            }
            if best.as_ref().is_none_or(|b| sub.len() > b.len()) {
                best = Some(sub);
            }
        }
        line.extend(best.unwrap_or_default());
        true
    }

    /// The defender's counter-four has five-cell `d`: the attacker must take it; the VCT goes
    /// on if that block is a four, or if the attacker still has a winning threat after it.
    fn answer_counter(
        &mut self,
        pos: &mut Gomoku,
        depth: u32,
        d: usize,
        line: &mut Vec<usize>,
    ) -> bool {
        if depth == 0 || !legal(pos, d) || self.tick() {
            return false;
        }
        self.threat(
            pos,
            d,
            line,
            |s, pos, line| s.pressed(pos, d, false, depth - 1, line),
            |s, pos, forced, line| s.vct(pos, depth - 1, forced, line),
        )
    }
}

fn win(kind: ThreatKind, line: &[usize]) -> ThreatWin {
    ThreatWin {
        kind,
        line: line.iter().map(|&p| cell_of_padded(p)).collect(),
    }
}

/// True if the side to move may play the padded cell `p`.
#[inline]
pub(crate) fn legal(pos: &Gomoku, p: usize) -> bool {
    pos.board[p] == EMPTY && !pos.forbidden_to_mover(p)
}

/// The defender's moves (the defender is to move) after which no cell of `fives` makes five
/// for the attacker `me`, each judged by the rules with the defender's stone put down: the
/// five-cells it may play, and under caro the cells within five of one on its lines, for a
/// five blocked at both ends does not win there (a stone beyond the five-cell defends). Under
/// the other rules a stone of the defender changes no five but the one it fills. Empty: the
/// four cannot be stopped.
pub(crate) fn five_defences(pos: &mut Gomoku, fives: &Spots, me: u8) -> Vec<usize> {
    let them = BLACK + WHITE - me;
    let mut cells: Vec<usize> = fives.iter().collect();
    if pos.rule() == crate::Rule::Caro {
        for f in fives.iter() {
            for q in line_cells_within(pos, f, 5) {
                if !cells.contains(&q) {
                    cells.push(q);
                }
            }
        }
    }
    cells.retain(|&d| {
        if !legal(pos, d) {
            return false;
        }
        pos.toggle_unread(cell_of_padded(d), them, true);
        let stops = fives.iter().all(|f| f == d || !pos.wins_at(f, me));
        pos.toggle_unread(cell_of_padded(d), them, false);
        stops
    });
    cells
}

/// Ends a won line: the defender blocks a five-cell if it may (else plays its first legal
/// cell), the attacker makes five on a cell that still makes it.
fn finish(pos: &mut Gomoku, fives: &Spots, me: u8, line: &mut Vec<usize>) {
    let reply = fives.iter().find(|&p| legal(pos, p)).or_else(|| {
        pos.empty_cells()
            .map(|c| c.padded())
            .find(|&p| legal(pos, p))
    });
    let Some(reply) = reply else { return };
    line.push(reply);
    let them = BLACK + WHITE - me;
    pos.toggle_unread(cell_of_padded(reply), them, true);
    let five = fives.iter().find(|&p| p != reply && pos.wins_at(p, me));
    pos.toggle_unread(cell_of_padded(reply), them, false);
    if let Some(five) = five {
        line.push(five);
    }
}

/// The empty cells on the four lines through `p` (within four cells) where `colour` would
/// make a winning line.
pub(crate) fn fives_through(pos: &Gomoku, p: usize, colour: u8) -> Spots {
    let mut out = Spots::NONE;
    for d in DIRECTIONS {
        for k in 1..=4 {
            for q in [p + k * d, p - k * d] {
                if pos.board[q] == EMPTY && pos.wins_at(q, colour) {
                    out.push(q);
                }
            }
        }
    }
    out
}

/// The empty cells of every five-cell window of the board holding `own` stones of `colour`
/// and otherwise empty cells: with `own` 3, where `colour` may make a four; with 2, a three.
fn candidates(pos: &Gomoku, colour: u8, own: u32) -> Vec<usize> {
    let mut seen = [0u64; PADDED.div_ceil(64)];
    let mut out = Vec::new();
    // Only windows that start within four cells of a stone (left, above or on the
    // down-left diagonal's far side) can hold one.
    let (mut x0, mut y0, mut x1, mut y1) = (u8::MAX, u8::MAX, 0, 0);
    for &c in pos.moves_played() {
        (x0, y0) = (x0.min(c.x()), y0.min(c.y()));
        (x1, y1) = (x1.max(c.x()), y1.max(c.y()));
    }
    if x0 > x1 {
        return out;
    }
    let xs = x0.saturating_sub(4)..(x1 + 5).min(pos.width());
    for y in y0.saturating_sub(4)..=y1.min(pos.height() - 1) {
        for x in xs.clone() {
            let s = Cell::new(x, y).padded();
            for d in DIRECTIONS {
                let mut mine = 0;
                let mut clear = true;
                for i in 0..5 {
                    let v = pos.board[s + i * d];
                    if v == colour {
                        mine += 1;
                    } else if v != EMPTY {
                        clear = false;
                        break;
                    }
                }
                if !clear || mine != own {
                    continue;
                }
                for i in 0..5 {
                    let q = s + i * d;
                    if pos.board[q] == EMPTY && seen[q / 64] & (1 << (q % 64)) == 0 {
                        seen[q / 64] |= 1 << (q % 64);
                        out.push(q);
                    }
                }
            }
        }
    }
    debug_assert!(out.iter().all(|&q| pos.board[q] != WALL));
    out
}

/// The empty cells within four of `p` on its four lines.
pub(crate) fn line_cells(pos: &Gomoku, p: usize) -> Vec<usize> {
    line_cells_within(pos, p, 4)
}

/// The empty cells within `reach` of `p` on its four lines.
fn line_cells_within(pos: &Gomoku, p: usize, reach: usize) -> Vec<usize> {
    let mut out = Vec::with_capacity(8 * reach);
    for d in DIRECTIONS {
        for k in 1..=reach {
            out.extend(
                [p + k * d, p - k * d]
                    .into_iter()
                    .filter(|&q| pos.board[q] == EMPTY),
            );
        }
    }
    out
}

/// The moves of `colour` (not to move) among `cells` that would win by force at once: a
/// four with two five-cells or more, or one whose single five-cell the side to move may not
/// play.
fn winning_threats(pos: &mut Gomoku, colour: u8, cells: Vec<usize>) -> Spots {
    let mut out = Spots::NONE;
    for w in cells {
        if colour == BLACK && pos.rule() == crate::Rule::Renju && pos.forbidden_at(w).is_some() {
            continue;
        }
        pos.toggle_unread(cell_of_padded(w), colour, true);
        let fives = fives_through(pos, w, colour);
        let wins = fives.len > 0 && five_defences(pos, &fives, colour).is_empty();
        pos.toggle_unread(cell_of_padded(w), colour, false);
        if wins {
            out.push(w);
        }
    }
    out
}
