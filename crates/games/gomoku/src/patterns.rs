//! The strong Gomoku evaluator: line patterns per empty cell, as serious engines read them
//! (Rapfi's classical evaluation is the model; no code of it is used).
//!
//! **Line patterns.** For an empty cell, a direction and a side, the eight cells around it on
//! that line (four each side) are read as own stone, empty, or blocked (the other side's stone
//! or the edge); the board keeps these codes for every cell and direction, updated as stones
//! are placed and removed, so a reading is one lookup. With the cell taken as an own stone, a
//! table classifies the nine cells into a
//! [`Kind`], by how many more own moves make a five through the cell: a **five** now; a
//! **four** when one empty cell then makes five (**open four**, `flex4`, when two do: one block
//! cannot stop it); an **open three** when one move makes an open four, a **three** when one
//! makes a four; and so on down to ones. The table is built once (`OnceLock`) by that very
//! recursion over the 3^8 neighbourhoods, in two versions: five or more wins (freestyle,
//! caro, renju's White), and exactly five (standard, renju's Black). Caro's "five blocked at
//! both ends" and renju's forbidden points are not in the table: a five is confirmed by the
//! rules ([`Gomoku::makes_five`]), and Black's strong threat cells under renju are checked for
//! being forbidden before they count.
//!
//! **Cells.** The four directions of a cell combine into a [`Threat`] per side (a five, an
//! open four or two fours, a four with an open three, a four, two open threes, an open three)
//! and a score: the sum of the four kinds' weights plus a bonus per threat. Only empty cells
//! within two (square) of a stone are read: every cell a four or better can come from is
//! there.
//!
//! **Evaluation** (side to move aware): a five for the side to move wins next move; two fives
//! of the side waiting lose; an open four (or double four) for the side to move, or a
//! four-three with the side waiting having no four, wins soon; otherwise (the ordinary
//! evaluation) a linear function of the cells' features ([`Patterns::features`]: per side,
//! the count of each kind over the cells' directions and of each threat), weighed by
//! `weights/patterns.txt` ([`crate::weights`]), the side to move's and the side waiting's
//! counts each with their own weights.
//!
//! **Candidates** ([`Evaluator::prune_moves`]): a five if there is one; else the blocks of the
//! side waiting's five; else, when the side waiting can make an open four (it has an open
//! three), its open-four and four cells (the defences) and the side to move's own fours; else
//! the cells within two of a stone (the centre on the empty board).
//!
//! **Threats past the horizon.** A five threatened by the last stone forces the reply: the
//! search extends there (a four and its block cost one ply, not two) and quiescence may not
//! stand pat (it must search the blocks), so quiescence follows the side to move's fours and
//! their forced blocks as a VCF does, narrowing from eight fours to one and stopping after
//! four ([`Evaluator::noisy_limit`]): a short VCF beyond the horizon is a proven win, with
//! its mate distance. (In a search the threat is always the last stone's: the candidates
//! against a threat are its blocks.)
//!
//! The evaluation's weights are fitted by `duel-train gomoku-fit` to the results of duel's own
//! self-play (`weights/README.md`), starting from the hand-reasoned constants [`KIND_WEIGHT`]
//! and [`THREAT_BONUS`] weighed [`TO_MOVE`] against [`WAITING`] ([`PatternWeights::hand`]).
//! Move ordering still scores cells by those constants.

use std::sync::{Arc, OnceLock};

use duel_core::{Evaluator, Game, Side};

use crate::weights::{Features, PatternWeights, N_FEATURES};
use crate::{colour, Cell, Gomoku, Rule, CELLS, DIRECTIONS, EMPTY, MAX_SIZE};

/// The shape one direction gives a side at a cell, weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Kind {
    /// No five can go through the cell on this line, or nothing near.
    None,
    /// One stone (the cell's) with room: four moves from five, one way.
    Block1,
    /// One stone, four moves from five, several ways.
    Flex1,
    /// One move makes a three.
    Block2,
    /// One move makes an open three.
    Flex2,
    /// One move makes a four.
    Block3,
    /// One move makes an open four: an open three.
    Flex3,
    /// One move makes five.
    Block4,
    /// Two moves make five: an open four (or two fours in one line).
    Flex4,
    /// Five.
    Five,
}

/// Every kind, by index.
pub(crate) const KINDS: [Kind; 10] = [
    Kind::None,
    Kind::Block1,
    Kind::Flex1,
    Kind::Block2,
    Kind::Flex2,
    Kind::Block3,
    Kind::Flex3,
    Kind::Block4,
    Kind::Flex4,
    Kind::Five,
];

/// What the four directions of a cell make together for one side, weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Threat {
    /// Less than an open three.
    None,
    /// One open three.
    Three,
    /// Two open threes (or more).
    DoubleThree,
    /// A four, nothing else strong.
    Four,
    /// A four and an open three: wins unless the block makes a four.
    FourThree,
    /// An open four or two fours: wins unless the other side has a four.
    OpenFour,
    /// Five.
    Five,
}

/// Every threat, by index.
pub(crate) const THREATS: [Threat; 7] = [
    Threat::None,
    Threat::Three,
    Threat::DoubleThree,
    Threat::Four,
    Threat::FourThree,
    Threat::OpenFour,
    Threat::Five,
];

/// Weight of each [`Kind`] in a cell's score, by kind.
pub const KIND_WEIGHT: [i32; 10] = [0, 1, 2, 4, 12, 10, 40, 50, 200, 1_000];
/// Bonus of each [`Threat`] in a cell's score, by threat: combinations are worth more than
/// their parts.
pub const THREAT_BONUS: [i32; 7] = [0, 0, 150, 0, 300, 400, 0];
/// The side to move's cell scores weigh this many eighths...
pub const TO_MOVE: i32 = 10;
/// ...the side waiting's this many: its threats are a move behind.
pub const WAITING: i32 = 8;
/// The side to move makes five next move.
pub const WIN_NEXT: i32 = 20_000;
/// The side waiting has two cells making five: one block cannot stop both.
pub const LOSS_NEXT: i32 = 15_000;
/// The side to move makes an open four (or a double four, or a four-three) and the side
/// waiting has no four to answer with.
pub const WIN_SOON: i32 = 10_000;
/// The heuristic part stays within this, below every threat level.
pub const ORDINARY_MAX: i32 = 5_000;
/// At most this many noisy moves (fours) per node.
pub const NOISY_MAX: usize = 8;

/// The weights' feature counting `kind` (None counts nowhere): the kinds above None, in order.
pub(crate) fn kind_feature(kind: Kind) -> Option<usize> {
    (kind as usize).checked_sub(1)
}

/// The weights' feature counting `threat` (None counts nowhere): the threats above None, after
/// the nine kinds.
pub(crate) fn threat_feature(threat: Threat) -> Option<usize> {
    (threat as usize).checked_sub(1).map(|i| i + 9)
}

impl PatternWeights {
    /// The hand-reasoned weights (`KIND_WEIGHT`, `THREAT_BONUS`, weighed `TO_MOVE` and
    /// `WAITING` eighths): where the fit starts, and what move ordering still uses.
    pub fn hand() -> PatternWeights {
        let mut w = PatternWeights::zero();
        for (i, &kind) in KINDS.iter().enumerate() {
            if let Some(f) = kind_feature(kind) {
                w.set(f, [TO_MOVE * KIND_WEIGHT[i], -WAITING * KIND_WEIGHT[i]]);
            }
        }
        for (i, &threat) in THREATS.iter().enumerate() {
            if let Some(f) = threat_feature(threat) {
                w.set(f, [TO_MOVE * THREAT_BONUS[i], -WAITING * THREAT_BONUS[i]]);
            }
        }
        w
    }
}

/// Neighbourhood codes: 0 empty, 1 own, 2 blocked; eight cells, base 3, nearest last... in
/// the order -4, -3, -2, -1, +1, +2, +3, +4 (the board keeps them per cell the other way
/// round, +4 first: the table is the same both ways, a line read backwards being the same
/// line).
const STATES: usize = 6561;

/// The two tables: index 0 five or more wins, index 1 exactly five.
fn tables() -> &'static [[Kind; STATES]; 2] {
    static TABLES: OnceLock<Box<[[Kind; STATES]; 2]>> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut t = Box::new([[Kind::None; STATES]; 2]);
        for (exact, table) in t.iter_mut().enumerate() {
            let mut memo = vec![u8::MAX; STATES];
            for s in 0..STATES {
                table[s] = KINDS[classify(s, exact == 1, &mut memo) as usize];
            }
        }
        t
    })
}

/// The nine cells of neighbourhood `state`, the middle one own.
fn cells_of(state: usize) -> [u8; 9] {
    let mut line = [1u8; 9];
    let mut s = state;
    for k in [0, 1, 2, 3, 5, 6, 7, 8] {
        line[k] = (s % 3) as u8;
        s /= 3;
    }
    line
}

/// The neighbourhood of `line`.
fn state_of(line: &[u8; 9]) -> usize {
    [8, 7, 6, 5, 3, 2, 1, 0]
        .iter()
        .fold(0, |s, &k| s * 3 + line[k] as usize)
}

/// A five through the middle of `line` (exactly five if `exact`; the line's ends count as not
/// own).
fn five(line: &[u8; 9], exact: bool) -> bool {
    (0..=4).any(|s| {
        line[s..s + 5].iter().all(|&c| c == 1)
            && !(exact && ((s > 0 && line[s - 1] == 1) || (s + 5 < 9 && line[s + 5] == 1)))
    })
}

/// The kind (as its index in [`KINDS`]) of neighbourhood `state`, memoised.
fn classify(state: usize, exact: bool, memo: &mut [u8]) -> u8 {
    if memo[state] != u8::MAX {
        return memo[state];
    }
    let line = cells_of(state);
    let kind = if five(&line, exact) {
        9
    } else {
        let empties = (0..9).filter(|&k| line[k] == 0);
        let fives = empties
            .clone()
            .filter(|&k| {
                let mut next = line;
                next[k] = 1;
                five(&next, exact)
            })
            .count();
        match fives {
            2.. => 8,
            1 => 7,
            0 => {
                let best = empties
                    .map(|k| {
                        let mut next = line;
                        next[k] = 1;
                        classify(state_of(&next), exact, memo)
                    })
                    .max()
                    .unwrap_or(0);
                best.saturating_sub(2) * u8::from(best >= 3)
            }
        }
    };
    memo[state] = kind;
    kind
}

/// The kind of the text `line`, nine characters around the cell `*` in the middle: `X` own,
/// `.` empty, anything else blocked. For tests and diagrams.
pub fn line_kind(line: &str, exact_five: bool) -> Kind {
    let chars: Vec<char> = line.chars().collect();
    assert!(chars.len() == 9 && chars[4] == '*', "{line}");
    let mut cells = [1u8; 9];
    for (k, c) in chars.iter().enumerate() {
        if k != 4 {
            cells[k] = match c {
                'X' => 1,
                '.' => 0,
                _ => 2,
            };
        }
    }
    tables()[usize::from(exact_five)][state_of(&cells)]
}

/// Per colour (index 0 Black), whether only exactly five wins in the tables' sense.
fn exact_fives(rule: Rule) -> [bool; 2] {
    match rule {
        Rule::Standard => [true, true],
        Rule::Renju => [true, false],
        Rule::Freestyle | Rule::Caro => [false, false],
    }
}

/// One cell read for both sides: per colour (index 0 Black), its kinds in the four
/// directions.
#[derive(Debug, Clone, Copy)]
struct Read {
    kinds: [[Kind; 4]; 2],
}

impl Read {
    fn threat(&self, c: usize) -> Threat {
        let mut n = [0u8; 10];
        for k in self.kinds[c] {
            n[k as usize] += 1;
        }
        let (fours, threes) = (n[Kind::Block4 as usize], n[Kind::Flex3 as usize]);
        if n[Kind::Five as usize] > 0 {
            Threat::Five
        } else if n[Kind::Flex4 as usize] > 0 || fours >= 2 {
            Threat::OpenFour
        } else if fours == 1 && threes > 0 {
            Threat::FourThree
        } else if fours == 1 {
            Threat::Four
        } else if threes >= 2 {
            Threat::DoubleThree
        } else if threes == 1 {
            Threat::Three
        } else {
            Threat::None
        }
    }

    fn score(&self, c: usize, threat: Threat) -> i32 {
        self.kinds[c]
            .iter()
            .map(|&k| KIND_WEIGHT[k as usize])
            .sum::<i32>()
            + THREAT_BONUS[threat as usize]
    }
}

/// A set of cells by index.
type CellSet = [u64; CELLS.div_ceil(64)];

impl Gomoku {
    /// The kinds of the empty padded cell `p` for both colours.
    fn read_cell(&self, p: usize, exact: [bool; 2]) -> Read {
        let t = tables();
        let mut kinds = [[Kind::None; 4]; 2];
        for (i, codes) in self.lines[p].iter().enumerate() {
            kinds[0][i] = t[usize::from(exact[0])][usize::from(codes[0])];
            kinds[1][i] = t[usize::from(exact[1])][usize::from(codes[1])];
        }
        Read { kinds }
    }

    /// The empty cells within two (square) of a stone.
    fn near2(&self) -> CellSet {
        let mut set = [0u64; CELLS.div_ceil(64)];
        let (w, h) = (self.width() as i32, self.height() as i32);
        for &s in self.moves_played() {
            let (x, y) = (s.x() as i32, s.y() as i32);
            for ny in (y - 2).max(0)..=(y + 2).min(h - 1) {
                for nx in (x - 2).max(0)..=(x + 2).min(w - 1) {
                    let i = ny as usize * MAX_SIZE as usize + nx as usize;
                    set[i / 64] |= 1 << (i % 64);
                }
            }
        }
        for (s, e) in set.iter_mut().zip(self.empty.iter()) {
            *s &= e;
        }
        set
    }

    /// Whether the side waiting threatens five through its last stone, so that the side to
    /// move must block (or make five first). The last stone's own line codes say whether
    /// one more stone makes five on one of its lines; the rules confirm the cell (caro's
    /// blocked fives, renju's exactly five for Black).
    fn must_block(&self, exact: [bool; 2]) -> bool {
        let Some(last) = self.last_move() else {
            return false;
        };
        let p = last.padded();
        let colour = self.board[p];
        let c = usize::from(colour) - 1;
        let t = &tables()[usize::from(exact[c])];
        self.lines[p].iter().zip(DIRECTIONS).any(|(codes, d)| {
            t[usize::from(codes[c])] >= Kind::Block4
                && (1..=4).any(|k| {
                    [p + k * d, p - k * d]
                        .into_iter()
                        .any(|q| self.board[q] == EMPTY && self.wins_at(q, colour))
                })
        })
    }

    /// The cell of the board nearest its centre.
    fn centre(&self) -> Cell {
        Cell::new((self.width() - 1) / 2, (self.height() - 1) / 2)
    }
}

#[inline]
fn holds(set: &CellSet, c: Cell) -> bool {
    set[c.index() / 64] >> (c.index() % 64) & 1 == 1
}

/// A cell as the evaluator sees it: per colour its kinds, threat and hand-weighted score (the
/// score orders moves; the evaluation counts the kinds and threats as features).
#[derive(Debug, Clone, Copy)]
struct Seen {
    cell: Cell,
    kinds: [[Kind; 4]; 2],
    threat: [Threat; 2],
    score: [i32; 2],
}

/// Reads `cell` (empty) of `pos`; a five is confirmed by the rules and, under renju, Black's
/// strong threats at a forbidden cell are dropped.
fn see(pos: &Gomoku, cell: Cell, exact: [bool; 2]) -> Seen {
    let read = pos.read_cell(cell.padded(), exact);
    let mut threat = [read.threat(0), read.threat(1)];
    for (c, side) in [(0, Side::First), (1, Side::Second)] {
        if threat[c] == Threat::Five && !pos.makes_five(cell, side) {
            threat[c] = Threat::Four;
        }
    }
    if pos.rule() == Rule::Renju
        && threat[0] >= Threat::DoubleThree
        && threat[0] != Threat::Five
        && pos.forbidden(cell).is_some()
    {
        threat[0] = Threat::None;
    }
    let score = [read.score(0, threat[0]), read.score(1, threat[1])];
    Seen {
        cell,
        kinds: read.kinds,
        threat,
        score,
    }
}

/// Every empty cell within two of a stone, read, in index order.
fn scan(pos: &Gomoku, out: &mut Vec<Seen>) {
    out.clear();
    let exact = exact_fives(pos.rule());
    for (w, &word) in pos.near2().iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let c = Cell::from_index(w * 64 + bits.trailing_zeros() as usize);
            bits &= bits - 1;
            out.push(see(pos, c, exact));
        }
    }
}

/// The strong evaluator: see the module doc. Its ordinary evaluation weighs the features of
/// [`Patterns::features`] by `weights/patterns.txt` unless given other weights.
#[derive(Debug, Clone)]
pub struct Patterns {
    weights: Arc<PatternWeights>,
}

impl Default for Patterns {
    fn default() -> Self {
        static SHARED: OnceLock<Arc<PatternWeights>> = OnceLock::new();
        Patterns {
            weights: Arc::clone(
                SHARED.get_or_init(|| Arc::new(PatternWeights::committed().clone())),
            ),
        }
    }
}

impl Patterns {
    /// Patterns with other weights (a weights file, the fitter's candidates).
    pub fn new(weights: PatternWeights) -> Patterns {
        Patterns {
            weights: Arc::new(weights),
        }
    }

    /// The weights in use.
    pub fn weights(&self) -> &PatternWeights {
        &self.weights
    }

    /// The counts the ordinary evaluation weighs, or None where the evaluation is decisive
    /// instead (a five to make or to block, a four-three or better for the side to move):
    /// what the fitter learns from.
    pub fn features(pos: &Gomoku) -> Option<Features> {
        let mut seen = Vec::with_capacity(128);
        scan(pos, &mut seen);
        let (me, op) = sides(pos);
        let ordinary = best_threat(&seen, me) < Threat::FourThree && fives(&seen, op) == 0;
        ordinary.then(|| tally(&seen, me, op))
    }

    /// The kind `side` gets on the empty `cell` along direction `dir` (0 row, 1 column, 2 and 3
    /// the diagonals).
    pub fn kind(pos: &Gomoku, cell: Cell, side: Side, dir: usize) -> Kind {
        let read = pos.read_cell(cell.padded(), exact_fives(pos.rule()));
        read.kinds[usize::from(side == Side::Second)][dir]
    }

    /// The threat `side` makes on the empty `cell`.
    pub fn threat(pos: &Gomoku, cell: Cell, side: Side) -> Threat {
        see(pos, cell, exact_fives(pos.rule())).threat[usize::from(side == Side::Second)]
    }
}

/// The best threat colour `c` has on the cells `seen`.
fn best_threat(seen: &[Seen], c: usize) -> Threat {
    seen.iter()
        .map(|s| s.threat[c])
        .max()
        .unwrap_or(Threat::None)
}

/// How many of the cells `seen` make five for colour `c`.
fn fives(seen: &[Seen], c: usize) -> usize {
    seen.iter().filter(|s| s.threat[c] == Threat::Five).count()
}

/// The features of the cells `seen`, colour `me` to move.
fn tally(seen: &[Seen], me: usize, op: usize) -> Features {
    let mut f = [[0; N_FEATURES]; 2];
    for s in seen {
        for (side, c) in [me, op].into_iter().enumerate() {
            for &k in &s.kinds[c] {
                if let Some(i) = kind_feature(k) {
                    f[side][i] += 1;
                }
            }
            if let Some(i) = threat_feature(s.threat[c]) {
                f[side][i] += 1;
            }
        }
    }
    f
}

/// Index of the side to move's colour, and the other's.
fn sides(pos: &Gomoku) -> (usize, usize) {
    let me = colour(pos.side_to_move()) as usize - 1;
    (me, 1 - me)
}

impl Evaluator<Gomoku> for Patterns {
    fn unit(&self) -> &'static str {
        "pattern points (a four is about 600, a five next move 20,000)"
    }

    fn name(&self) -> &'static str {
        "patterns"
    }

    fn evaluate(&self, pos: &Gomoku) -> i32 {
        let mut seen = Vec::with_capacity(128);
        scan(pos, &mut seen);
        let (me, op) = sides(pos);
        let my_best = best_threat(&seen, me);
        if my_best == Threat::Five {
            return WIN_NEXT;
        }
        let their_fives = fives(&seen, op);
        if their_fives >= 2 {
            return -LOSS_NEXT;
        }
        let their_best = best_threat(&seen, op);
        let ordinary = self
            .weights
            .value(&tally(&seen, me, op))
            .clamp(-ORDINARY_MAX, ORDINARY_MAX);
        if their_fives == 1 {
            // Forced to block: the side to move's own threats wait a move.
            return ordinary - ORDINARY_MAX / 2;
        }
        let they_have_four = their_best >= Threat::Four;
        if my_best == Threat::OpenFour && !they_have_four {
            return WIN_SOON;
        }
        if my_best == Threat::FourThree && !they_have_four {
            return WIN_SOON - 1_000;
        }
        if my_best >= Threat::FourThree {
            return ordinary / 2 + WIN_SOON / 2;
        }
        ordinary
    }

    /// `NOISY_MAX` fours at the horizon, half as many two plies on (after the other
    /// side's block), and none from the eighth ply: four fours at most, 64 lines, where an
    /// unbounded chain of fours grows like a whole VCF search at every leaf.
    fn noisy_limit(&self, qply: u32) -> Option<usize> {
        Some(NOISY_MAX.checked_shr(qply / 2).unwrap_or(0))
    }

    /// A five threatened: the block is forced, so the search looks a ply further (as chess
    /// does for a check), and a four followed by its block costs one ply of depth, not two.
    fn extend(&self, pos: &Gomoku) -> bool {
        pos.must_block(exact_fives(pos.rule()))
    }

    /// Not when a five is threatened: the static value would guess where the block and what
    /// follows can be searched (the noisy moves are then the blocks), so quiescence follows
    /// fours and their blocks as a VCF does.
    fn may_stand_pat(&self, pos: &Gomoku) -> bool {
        !pos.must_block(exact_fives(pos.rule()))
    }

    /// Cell scores, attack and defence: a five, then the block of the other side's five, then
    /// open fours, four-threes, the block of the other's open four, and so on.
    fn move_hints(&self, pos: &Gomoku, moves: &[Cell], hints: &mut Vec<i32>) {
        hints.clear();
        let exact = exact_fives(pos.rule());
        let (me, op) = sides(pos);
        hints.extend(moves.iter().map(|&c| {
            let s = see(pos, c, exact);
            let attack = match s.threat[me] {
                Threat::Five => 1_000_000,
                Threat::OpenFour => 50_000,
                Threat::FourThree => 20_000,
                _ => 0,
            };
            let defence = match s.threat[op] {
                Threat::Five => 500_000,
                Threat::OpenFour => 10_000,
                Threat::FourThree => 5_000,
                _ => 0,
            };
            // Weak cells (no three, nothing to stop) get no hint: history orders them.
            let plain = s.score[me] + s.score[op] / 2;
            attack + defence + if plain >= 20 { plain } else { 0 }
        }));
    }

    fn prune_moves(&self, pos: &Gomoku, moves: &mut Vec<Cell>) {
        if moves.len() <= 1 {
            return;
        }
        if pos.moves_played().is_empty() {
            let centre = pos.centre();
            if moves.contains(&centre) {
                moves.clear();
                moves.push(centre);
            }
            return;
        }
        let near = pos.near2();
        let exact = exact_fives(pos.rule());
        let (me, op) = sides(pos);
        let seen: Vec<Seen> = moves
            .iter()
            .filter(|&&c| holds(&near, c))
            .map(|&c| see(pos, c, exact))
            .collect();
        let keep = |f: &dyn Fn(&Seen) -> bool| -> Vec<Cell> {
            seen.iter().filter(|s| f(s)).map(|s| s.cell).collect()
        };
        let mut kept = keep(&|s| s.threat[me] == Threat::Five);
        kept.truncate(1);
        if kept.is_empty() {
            kept = keep(&|s| s.threat[op] == Threat::Five);
        }
        if kept.is_empty() && seen.iter().any(|s| s.threat[op] >= Threat::OpenFour) {
            kept = keep(&|s| s.threat[op] >= Threat::Four || s.threat[me] >= Threat::Four);
        }
        if kept.is_empty() {
            kept = seen.iter().map(|s| s.cell).collect();
        }
        if !kept.is_empty() {
            *moves = kept;
        }
    }

    /// The side to move's five; else the blocks of the other side's five; else the side to
    /// move's fours, best first by score, at most `NOISY_MAX`.
    fn noisy_moves(&self, pos: &Gomoku, moves: &mut Vec<Cell>) {
        moves.clear();
        if pos.outcome().is_some() {
            return;
        }
        let mut seen = Vec::with_capacity(128);
        scan(pos, &mut seen);
        let (me, op) = sides(pos);
        let legal = |c: Cell| pos.is_legal(c);
        if let Some(s) = seen.iter().find(|s| s.threat[me] == Threat::Five) {
            moves.push(s.cell);
            return;
        }
        moves.extend(
            seen.iter()
                .filter(|s| s.threat[op] == Threat::Five && legal(s.cell))
                .map(|s| s.cell),
        );
        if !moves.is_empty() {
            return;
        }
        let mut fours: Vec<&Seen> = seen
            .iter()
            .filter(|s| s.threat[me] >= Threat::Four && legal(s.cell))
            .collect();
        fours.sort_by_key(|s| std::cmp::Reverse(s.score[me]));
        moves.extend(fours.iter().take(NOISY_MAX).map(|s| s.cell));
    }
}

#[cfg(test)]
mod tests {
    use duel_core::{GameInfo, SplitMix64};

    use super::*;

    /// Unfinished positions of seeded games among the candidate moves, under each rule.
    fn positions() -> Vec<Gomoku> {
        let mut rng = SplitMix64::new(42);
        let mut out = Vec::new();
        let mut moves = Vec::new();
        for spec in ["", "renju", "standard", "caro:9"] {
            for _ in 0..8 {
                let mut pos = Gomoku::variant(spec).unwrap();
                while pos.outcome().is_none() {
                    out.push(pos.clone());
                    pos.generate_moves(&mut moves);
                    Patterns::default().prune_moves(&pos, &mut moves);
                    pos.play(moves[rng.below(moves.len())]);
                }
            }
        }
        out
    }

    /// The evaluation the weights file replaced: hand-weighted cell scores.
    fn hand_ordinary(pos: &Gomoku) -> i32 {
        let mut seen = Vec::new();
        scan(pos, &mut seen);
        let (me, op) = sides(pos);
        let (mine, theirs) = seen
            .iter()
            .fold((0, 0), |(a, b), s| (a + s.score[me], b + s.score[op]));
        ((TO_MOVE * mine - WAITING * theirs) / 8).clamp(-ORDINARY_MAX, ORDINARY_MAX)
    }

    #[test]
    fn ordinary_evaluation_is_the_weighted_features() {
        let mut rng = SplitMix64::new(5);
        let mut random = PatternWeights::zero();
        for i in 0..N_FEATURES {
            random.set(
                i,
                [rng.below(4001) as i32 - 2000, rng.below(4001) as i32 - 2000],
            );
        }
        let hand = Patterns::new(PatternWeights::hand());
        let (mut ordinary, mut decisive) = (0, 0);
        for pos in positions() {
            let Some(f) = Patterns::features(&pos) else {
                decisive += 1;
                continue;
            };
            ordinary += 1;
            assert_eq!(hand.evaluate(&pos), hand_ordinary(&pos), "{pos:?}");
            for w in [PatternWeights::committed(), &random] {
                let v = w.value(&f).clamp(-ORDINARY_MAX, ORDINARY_MAX);
                assert_eq!(Patterns::new(w.clone()).evaluate(&pos), v, "{pos:?}");
            }
        }
        assert!(ordinary > 100 && decisive > 10, "{ordinary} {decisive}");
    }
}
