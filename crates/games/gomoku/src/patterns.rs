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
//! **Kept readings.** The position keeps each empty cell's reading (its kinds and their
//! threat per side, by the tables), the set of cells the evaluation reads, and per side the
//! feature counts over those cells and how many make each threat. A stone changes one
//! direction of the cells four each way on its lines and the count of stones near the square
//! around it: those are read again, and only what changed moves in the sums
//! ([`Gomoku::reread_near`]). The rules' corrections (a five they do not count, renju's
//! forbidden points) are made when the evaluation asks, on the few cells whose threat is a
//! double three or more, which the position keeps as a set per side. So the evaluation and
//! the noisy moves read no board, and a test compares all of it with a reading from scratch
//! after random moves and takebacks under every rule.
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
//! their forced blocks as a VCF does, eight fours and then two, no third
//! ([`Evaluator::noisy_limit`]): a two-four VCF beyond the horizon is a proven win, with its
//! mate distance. (In a search the threat is always the last stone's: the candidates
//! against a threat are its blocks.)
//!
//! The evaluation's weights are fitted by `duel-train gomoku-fit` to the results of duel's own
//! self-play (`weights/README.md`), starting from the hand-reasoned constants [`KIND_WEIGHT`]
//! and [`THREAT_BONUS`] weighed [`TO_MOVE`] against [`WAITING`] ([`PatternWeights::hand`]).
//! Move ordering still scores cells by those constants.

use std::sync::{Arc, OnceLock};

use duel_core::{Evaluator, Game, Score, Side};

use crate::weights::{Features, PatternWeights, N_FEATURES};
use crate::{
    cell_of_padded, colour, members, Cell, CellSet, Gomoku, Rule, DIRECTIONS, EMPTY, POW3,
};

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

/// The number of threats.
pub(crate) const N_THREATS: usize = 7;

/// Every threat, by index.
pub(crate) const THREATS: [Threat; N_THREATS] = [
    Threat::None,
    Threat::Three,
    Threat::DoubleThree,
    Threat::Four,
    Threat::FourThree,
    Threat::OpenFour,
    Threat::Five,
];

/// The threat four directions' kinds make together, by the kinds' indices `a + 10b + 100c +
/// 1000d`: a lookup where the search reads cells again after every stone.
static COMBINED: [Threat; 10_000] = combined();

const fn combined() -> [Threat; 10_000] {
    let mut table = [Threat::None; 10_000];
    let mut i = 0;
    while i < 10_000 {
        // How many directions have each kind.
        let mut n = [0u8; 10];
        let mut rest = i;
        let mut dir = 0;
        while dir < 4 {
            n[rest % 10] += 1;
            rest /= 10;
            dir += 1;
        }
        let (fours, threes) = (n[Kind::Block4 as usize], n[Kind::Flex3 as usize]);
        table[i] = if n[Kind::Five as usize] > 0 {
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
        };
        i += 1;
    }
    table
}

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
/// A cell's policy (its pattern score) in the search's history units: a cell's score
/// outweighs all but the strongest history.
pub const POLICY_SCALE: i32 = 64;
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

/// One cell read for both sides by the tables: per colour (index 0 Black), its kinds in the
/// four directions and the threat they make together, before the rules' corrections (a five
/// the rules do not count, renju's forbidden points).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Read {
    kinds: [[Kind; 4]; 2],
    pub(crate) threat: [Threat; 2],
}

impl Default for Read {
    fn default() -> Self {
        Read {
            kinds: [[Kind::None; 4]; 2],
            threat: [Threat::None; 2],
        }
    }
}

impl Read {
    fn of_kinds(kinds: [[Kind; 4]; 2]) -> Read {
        let mut read = Read {
            kinds,
            threat: [Threat::None; 2],
        };
        read.threat = [read.combine(0), read.combine(1)];
        read
    }

    #[inline]
    fn combine(&self, c: usize) -> Threat {
        let [a, b, c2, d] = self.kinds[c].map(|k| k as usize);
        COMBINED[a + 10 * b + 100 * c2 + 1000 * d]
    }

    fn score(&self, c: usize, threat: Threat) -> i32 {
        self.kinds[c]
            .iter()
            .map(|&k| KIND_WEIGHT[k as usize])
            .sum::<i32>()
            + THREAT_BONUS[threat as usize]
    }
}

/// The eight cells a knight's move from `p`: the square of side five around `p` without its
/// four lines.
fn knight(p: usize) -> [usize; 8] {
    let (row, col) = (DIRECTIONS[1], DIRECTIONS[0]);
    [
        p - 2 * row - col,
        p - 2 * row + col,
        p - row - 2 * col,
        p - row + 2 * col,
        p + row - 2 * col,
        p + row + 2 * col,
        p + 2 * row - col,
        p + 2 * row + col,
    ]
}

/// The 24 cells within two (square) of `p`, `p` left out.
pub(crate) fn square2(p: usize) -> impl Iterator<Item = usize> {
    DIRECTIONS
        .into_iter()
        .flat_map(move |d| [p + d, p - d, p + 2 * d, p - 2 * d])
        .chain(knight(p))
}

#[inline]
fn holds(set: &CellSet, i: usize) -> bool {
    set[i / 64] >> (i % 64) & 1 == 1
}

#[inline]
fn put(set: &mut CellSet, i: usize, on: bool) {
    if on {
        set[i / 64] |= 1 << (i % 64);
    } else {
        set[i / 64] &= !(1 << (i % 64));
    }
}

impl Gomoku {
    /// The kinds of the empty padded cell `p` for both colours, read from its line patterns.
    fn read_cell(&self, p: usize, exact: [bool; 2]) -> Read {
        let t = tables();
        let mut kinds = [[Kind::None; 4]; 2];
        for (i, codes) in self.lines[p].iter().enumerate() {
            kinds[0][i] = t[usize::from(exact[0])][usize::from(codes[0])];
            kinds[1][i] = t[usize::from(exact[1])][usize::from(codes[1])];
        }
        Read::of_kinds(kinds)
    }

    /// After a stone came to (`add`) or left padded cell `p`: reads again what it changed and
    /// moves into the sums only what changed. The cells are `p` itself, the four cells each
    /// way on its lines (one direction of their line patterns changed) and the eight a
    /// knight's move away (with the lines' cells within two, the square whose count of stones
    /// near changed by one: a cell may start or stop being read).
    pub(crate) fn reread_near(&mut self, p: usize, add: bool) {
        let exact = exact_fives(self.rule());
        let t = tables();
        // The stones near a cell of the square before this one came or went.
        let before = |now: u8| if add { now - 1 } else { now + 1 };
        if add {
            if self.near2[p] > 0 {
                let old = self.reads[p];
                self.count(p, &old, -1);
            }
        } else {
            self.reread(p);
        }
        for (dir, d) in DIRECTIONS.into_iter().enumerate() {
            for k in 1..=4 {
                for q in [p + k * d, p - k * d] {
                    if self.board[q] != EMPTY {
                        continue;
                    }
                    let old = self.reads[q];
                    let codes = self.lines[q][dir];
                    let black = t[usize::from(exact[0])][usize::from(codes[0])];
                    let white = t[usize::from(exact[1])][usize::from(codes[1])];
                    let is = self.near2[q] > 0;
                    let was = if k <= 2 {
                        before(self.near2[q]) > 0
                    } else {
                        is
                    };
                    // Most stones change no kind of the cells three and four away.
                    let same = old.kinds[0][dir] == black && old.kinds[1][dir] == white;
                    if same && was == is {
                        continue;
                    }
                    let new = if same {
                        old
                    } else {
                        let mut kinds = old.kinds;
                        kinds[0][dir] = black;
                        kinds[1][dir] = white;
                        Read::of_kinds(kinds)
                    };
                    self.reads[q] = new;
                    if was && is {
                        if !same {
                            self.recount(q, &old, &new);
                        }
                    } else if was {
                        self.count(q, &old, -1);
                    } else if is {
                        self.count(q, &new, 1);
                    }
                }
            }
        }
        for q in knight(p) {
            if self.board[q] == EMPTY {
                let (was, is) = (before(self.near2[q]) > 0, self.near2[q] > 0);
                if was != is {
                    let read = self.reads[q];
                    self.count(q, &read, if is { 1 } else { -1 });
                }
            }
        }
    }

    /// Reads padded cell `p` again if it is empty, and counts it if the evaluation reads it:
    /// for a board being set up, where nothing was counted yet.
    pub(crate) fn reread(&mut self, p: usize) {
        if self.board[p] != EMPTY {
            return;
        }
        self.reads[p] = self.read_cell(p, exact_fives(self.rule()));
        if self.near2[p] > 0 {
            let read = self.reads[p];
            self.count(p, &read, 1);
        }
    }

    /// Adds (`sign` 1) or takes away (-1) the read cell `p`, read as `read`, in the sums, the
    /// threat counts and the sets.
    fn count(&mut self, p: usize, read: &Read, sign: i32) {
        let i = cell_of_padded(p).index();
        put(&mut self.read_set, i, sign > 0);
        for c in 0..2 {
            for &k in &read.kinds[c] {
                if let Some(f) = kind_feature(k) {
                    self.sums[c][f] += sign;
                }
            }
            self.count_threat(i, c, read.threat[c], sign);
        }
    }

    /// A read cell `p` that stays read, read `old` before and `new` now: only the kinds and
    /// threats that changed move.
    fn recount(&mut self, p: usize, old: &Read, new: &Read) {
        let i = cell_of_padded(p).index();
        for c in 0..2 {
            for (&a, &b) in old.kinds[c].iter().zip(&new.kinds[c]) {
                if a != b {
                    if let Some(f) = kind_feature(a) {
                        self.sums[c][f] -= 1;
                    }
                    if let Some(f) = kind_feature(b) {
                        self.sums[c][f] += 1;
                    }
                }
            }
            if old.threat[c] != new.threat[c] {
                self.count_threat(i, c, old.threat[c], -1);
                self.count_threat(i, c, new.threat[c], 1);
            }
        }
    }

    /// Counts (`sign` 1) or uncounts (-1) threat `t` of colour `c` at cell index `i`.
    #[inline]
    fn count_threat(&mut self, i: usize, c: usize, t: Threat, sign: i32) {
        if let Some(f) = threat_feature(t) {
            self.sums[c][f] += sign;
        }
        let n = &mut self.threat_counts[c][t as usize];
        *n = n.wrapping_add_signed(sign as i16);
        if t >= Threat::DoubleThree {
            put(&mut self.strong[c], i, sign > 0);
        }
    }

    /// The evaluation's view of the board from the sums and the strong cells: per colour the
    /// feature counts and the cells per threat, the rules' corrections made.
    fn tallies(&self) -> Tallies {
        let mut t = Tallies {
            sums: self.sums,
            threats: self.threat_counts.map(|row| row.map(i32::from)),
        };
        // Under freestyle the tables judge as the rules do: five or more wins, nothing is
        // forbidden.
        if self.rule() == Rule::Freestyle {
            return t;
        }
        for c in 0..2 {
            for cell in members(&self.strong[c]) {
                let raw = self.reads[cell.padded()].threat[c];
                let fixed = self.rule_threat(cell, c, raw);
                if fixed != raw {
                    for (threat, sign) in [(raw, -1), (fixed, 1)] {
                        if let Some(f) = threat_feature(threat) {
                            t.sums[c][f] += sign;
                        }
                        t.threats[c][threat as usize] += sign;
                    }
                }
            }
        }
        t
    }

    /// Colour `c`'s threat `raw` at `cell` as the rules judge it: a five the rules do not count
    /// (caro's, an overline where only five wins) is a four; under renju, Black's strong
    /// threats at a forbidden point are nothing.
    fn rule_threat(&self, cell: Cell, c: usize, raw: Threat) -> Threat {
        let side = if c == 0 { Side::First } else { Side::Second };
        let mut t = raw;
        if t == Threat::Five && !self.makes_five(cell, side) {
            t = Threat::Four;
        }
        if c == 0
            && self.rule() == Rule::Renju
            && t >= Threat::DoubleThree
            && t != Threat::Five
            && self.forbidden(cell).is_some()
        {
            t = Threat::None;
        }
        t
    }

    /// Whether `colour` (Black or White) makes a four or better on the empty padded cell `p`
    /// along some line, read from the line codes as they are now (readings kept or not).
    pub(crate) fn four_at(&self, p: usize, colour: u8) -> bool {
        let c = usize::from(colour) - 1;
        let t = &tables()[usize::from(exact_fives(self.rule())[c])];
        self.lines[p]
            .iter()
            .any(|codes| t[usize::from(codes[c])] >= Kind::Block4)
    }

    /// The strong cells of colour `c` where it makes `at_least` or better, as the rules judge
    /// it, in index order.
    pub(crate) fn strong_cells(
        &self,
        c: usize,
        at_least: Threat,
    ) -> impl Iterator<Item = Cell> + '_ {
        members(&self.strong[c]).filter(move |&cell| {
            let raw = self.reads[cell.padded()].threat[c];
            raw >= at_least && self.rule_threat(cell, c, raw) >= at_least
        })
    }

    /// Whether colour `c` has a cell making a four-three or better (as the rules judge it):
    /// the other side must answer it. The kept counts answer no at once on most boards.
    pub(crate) fn threatened(&self, c: usize) -> bool {
        let n = &self.threat_counts[c];
        n[Threat::FourThree as usize] + n[Threat::OpenFour as usize] + n[Threat::Five as usize] > 0
            && self.strong_cells(c, Threat::FourThree).next().is_some()
    }

    /// Into `moves` (empty), in index order: the answers of colour `me` to `op`'s threats of
    /// a four-three or better (an open three is one: it makes an open four), where the rules
    /// let the line codes judge them exactly: the cells where `me`'s stone leaves `op` no such
    /// threat anywhere (the threat cells themselves, or cells on their lines whose stone
    /// spoils the pattern, the far points of a three included), and `me`'s own fours, which
    /// `op` must answer first. Nothing where a threat's cell holds another rule's subtlety
    /// (caro's blocked five, renju's forbidden points for Black): the caller then keeps
    /// every cell.
    pub(crate) fn answers(&self, me: usize, op: usize, moves: &mut Vec<Cell>) {
        let rule = self.rule();
        if rule == Rule::Caro || (rule == Rule::Renju && op == 0) {
            return;
        }
        let exact = exact_fives(rule);
        let table = &tables()[usize::from(exact[op])];
        // The threats to break: cells where `op` makes a four-three or better.
        let threats: Vec<Cell> = self.strong_cells(op, Threat::FourThree).collect();
        // Cells that break every threat: start from the first threat's breakers, keep
        // those that break each other one.
        let mut breakers: Vec<usize> = Vec::new();
        for (n, &t) in threats.iter().enumerate() {
            let p = t.padded();
            let read = self.reads[p];
            let breaks_t = |q: usize| -> bool {
                if q == p {
                    return true;
                }
                // On which line of `t` is `q`, and how far: a stone of `me` there turns that
                // digit of `op`'s code from empty to blocked.
                for (dir, d) in DIRECTIONS.into_iter().enumerate() {
                    for k in 1..=4usize {
                        let place = if q == p + k * d {
                            3 + k
                        } else if q == p - k * d {
                            4 - k
                        } else {
                            continue;
                        };
                        let code = usize::from(self.lines[p][dir][op] + 2 * POW3[place]);
                        let mut kinds = read.kinds;
                        kinds[op][dir] = table[code];
                        return Read::of_kinds(kinds).threat[op] < Threat::FourThree;
                    }
                }
                false
            };
            if n == 0 {
                breakers.push(p);
                for d in DIRECTIONS {
                    for k in 1..=4 {
                        for q in [p + k * d, p - k * d] {
                            if self.board[q] == EMPTY && breaks_t(q) {
                                breakers.push(q);
                            }
                        }
                    }
                }
            } else {
                breakers.retain(|&q| breaks_t(q));
            }
            if breakers.is_empty() {
                break;
            }
        }
        let mut set: CellSet = [0; crate::CELLS.div_ceil(64)];
        for q in breakers {
            put(&mut set, cell_of_padded(q).index(), true);
        }
        for cell in self.strong_cells(me, Threat::Four) {
            put(&mut set, cell.index(), true);
        }
        moves.extend(members(&set).filter(|&c| self.is_legal(c)));
    }

    /// The empty cells within two (square) of a stone: the cells the evaluation reads.
    fn near2(&self) -> &CellSet {
        &self.read_set
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

/// The board as the evaluation counts it, per colour (index 0 Black): the feature counts of
/// the cells read and how many cells make each threat.
struct Tallies {
    sums: [[i32; N_FEATURES]; 2],
    threats: [[i32; N_THREATS]; 2],
}

impl Tallies {
    /// Colour `c`'s best threat.
    fn best(&self, c: usize) -> Threat {
        (0..N_THREATS)
            .rev()
            .find(|&t| self.threats[c][t] > 0)
            .map_or(Threat::None, |t| THREATS[t])
    }

    /// The features with colour `me` to move.
    fn features(&self, me: usize, op: usize) -> Features {
        [self.sums[me], self.sums[op]]
    }
}

/// A cell as the evaluator sees it: per colour its threat as the rules judge it and its
/// hand-weighted score (the score orders moves).
#[derive(Debug, Clone, Copy)]
struct Seen {
    cell: Cell,
    pub(crate) threat: [Threat; 2],
    score: [i32; 2],
}

/// Reads `cell` (empty) of `pos` from its line patterns; a five is confirmed by the rules
/// and, under renju, Black's strong threats at a forbidden cell are dropped.
fn see(pos: &Gomoku, cell: Cell, exact: [bool; 2]) -> Seen {
    judge(pos, cell, pos.read_cell(cell.padded(), exact))
}

/// [`see`] from the reading the position keeps for `cell` (empty).
#[inline]
fn see_kept(pos: &Gomoku, cell: Cell) -> Seen {
    judge(pos, cell, pos.reads[cell.padded()])
}

/// The cell `cell` read as `read`, judged by the rules.
fn judge(pos: &Gomoku, cell: Cell, read: Read) -> Seen {
    let threat = [
        pos.rule_threat(cell, 0, read.threat[0]),
        pos.rule_threat(cell, 1, read.threat[1]),
    ];
    let score = [read.score(0, threat[0]), read.score(1, threat[1])];
    Seen {
        cell,
        threat,
        score,
    }
}

/// Every empty cell within two of a stone, read from scratch, in index order: what the kept
/// readings must equal.
#[cfg(test)]
fn scan(pos: &Gomoku, out: &mut Vec<Seen>) {
    out.clear();
    let exact = exact_fives(pos.rule());
    out.extend(members(pos.near2()).map(|c| see(pos, c, exact)));
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
        let t = pos.tallies();
        let (me, op) = sides(pos);
        let ordinary = t.best(me) < Threat::FourThree && t.threats[op][Threat::Five as usize] == 0;
        ordinary.then(|| t.features(me, op))
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

/// Index of the side to move's colour, and the other's.
fn sides(pos: &Gomoku) -> (usize, usize) {
    let me = colour(pos.side_to_move()) as usize - 1;
    (me, 1 - me)
}

/// The ordering of the empty `cell` with colour `me` to move: a hint for the threats,
/// attack and defence (a five, then the block of the other side's five, open fours,
/// four-threes, the block of the other's open four, ...), searched first and never reduced;
/// where the other side threatens an open four or a four-three (`defending`), every
/// candidate is an answer and gets a hint. The other cells get no hint but a policy, their
/// pattern score (attack, and half the defence): ordered by it, reduced late.
fn cell_order(pos: &Gomoku, cell: Cell, me: usize, op: usize, defending: bool) -> (i32, i32) {
    let s = see_kept(pos, cell);
    let attack = match s.threat[me] {
        Threat::Five => 1_000_000,
        Threat::OpenFour => 50_000,
        Threat::FourThree => 20_000,
        Threat::Four => 3_000,
        Threat::DoubleThree => 2_000,
        _ => 0,
    };
    let defence = match s.threat[op] {
        Threat::Five => 500_000,
        Threat::OpenFour => 10_000,
        Threat::FourThree => 5_000,
        Threat::DoubleThree => 1_000,
        _ => 0,
    };
    let plain = s.score[me] + s.score[op] / 2;
    let hint = attack + defence;
    if hint > 0 || defending {
        (hint + plain.max(1), 0)
    } else {
        (0, plain * POLICY_SCALE)
    }
}

impl Evaluator<Gomoku> for Patterns {
    fn unit(&self) -> &'static str {
        "pattern points (a four is about 600, a five next move 20,000)"
    }

    fn name(&self) -> &'static str {
        "patterns"
    }

    fn evaluate(&self, pos: &Gomoku) -> i32 {
        let t = pos.tallies();
        let (me, op) = sides(pos);
        let my_best = t.best(me);
        if my_best == Threat::Five {
            return WIN_NEXT;
        }
        let their_fives = t.threats[op][Threat::Five as usize];
        if their_fives >= 2 {
            return -LOSS_NEXT;
        }
        let their_best = t.best(op);
        let ordinary = self
            .weights
            .value_of(&t.sums[me], &t.sums[op])
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

    /// `NOISY_MAX` moves at the horizon, half as many a ply on, and none from the fourth
    /// ply: eight fours, their blocks, then two fours and theirs, where an unbounded chain of
    /// fours grows like a whole VCF search at every leaf. Two fours, not four (halving every
    /// second ply): +51 Elo in self-play at 0.2 s a move, 164 games (docs/BENCHMARKS.md).
    fn noisy_limit(&self, qply: u32) -> Option<usize> {
        Some(NOISY_MAX.checked_shr(qply).unwrap_or(0))
    }

    /// A five threatened: the block is forced, so the search looks a ply further (as chess
    /// does for a check), and a four followed by its block costs one ply of depth, not two.
    fn extend(&self, pos: &Gomoku) -> bool {
        pos.must_block(exact_fives(pos.rule()))
    }

    /// A stone makes a five threat through itself where its cell's kept reading has a four
    /// (or better) in some direction: the reading is of the same line codes and tables
    /// [`Evaluator::extend`]'s check reads after the move. Under caro a four the tables see
    /// may still be no threat (both ends blocked): that one is played and asked.
    fn forcing(&self, pos: &Gomoku, mv: Cell) -> Option<bool> {
        let (me, _) = sides(pos);
        (pos.reads[mv.padded()].threat[me] < Threat::Four).then_some(false)
    }

    /// A VCF of the side to move within `HORIZON_VCF_NODES` (16): a win in
    /// 2n − 1 plies for n fours (the five included).
    fn horizon_proof(&self, pos: &mut Gomoku) -> Option<Score> {
        pos.horizon_vcf().map(|n| Score::win_in(2 * n as i32 - 1))
    }

    /// Not when a five is threatened: the static value would guess where the block and what
    /// follows can be searched (the noisy moves are then the blocks), so quiescence follows
    /// fours and their blocks as a VCF does.
    fn may_stand_pat(&self, pos: &Gomoku) -> bool {
        !pos.must_block(exact_fives(pos.rule()))
    }

    /// The hints of [`Evaluator::move_policy`], without the policy.
    fn move_hints(&self, pos: &Gomoku, moves: &[Cell], hints: &mut Vec<i32>) {
        let (me, op) = sides(pos);
        let defending = pos.threatened(op);
        hints.clear();
        hints.extend(
            moves
                .iter()
                .map(|&c| match cell_order(pos, c, me, op, defending) {
                    (0, policy) => policy / POLICY_SCALE,
                    (hint, _) => hint,
                }),
        );
    }

    fn move_hint(&self, pos: &Gomoku, mv: Cell) -> i32 {
        let (me, op) = sides(pos);
        match cell_order(pos, mv, me, op, pos.threatened(op)) {
            (0, policy) => policy / POLICY_SCALE,
            (hint, _) => hint,
        }
    }

    /// Hints for the threats and the answers, a policy for the other cells: see
    /// `cell_order`.
    fn move_policy(
        &self,
        pos: &Gomoku,
        moves: &[Cell],
        hints: &mut Vec<i32>,
        policy: &mut Vec<i32>,
    ) {
        hints.clear();
        policy.clear();
        let (me, op) = sides(pos);
        let defending = pos.threatened(op);
        for &c in moves {
            let (hint, p) = cell_order(pos, c, me, op, defending);
            hints.push(hint);
            policy.push(p);
        }
    }

    /// The candidates of [`Evaluator::candidates`] among `moves`, in their order (all of
    /// `moves` if none is).
    fn prune_moves(&self, pos: &Gomoku, moves: &mut Vec<Cell>) {
        if moves.len() <= 1 {
            return;
        }
        let mut kept = Vec::new();
        self.candidates(pos, &mut kept);
        let mut set: CellSet = [0; crate::CELLS.div_ceil(64)];
        for c in &kept {
            put(&mut set, c.index(), true);
        }
        if moves.iter().any(|c| holds(&set, c.index())) {
            moves.retain(|c| holds(&set, c.index()));
        }
    }

    /// The cells worth a search, from what the position keeps: the side to move's five if it
    /// has one; else the blocks of the other side's five; else, where the other side
    /// threatens an open four or a four-three, the cells that break every such threat and the
    /// side to move's own fours (see `Gomoku::answers`); else every cell within two of a
    /// stone. In index order; the centre on an empty board; every legal cell if the rule
    /// leaves none of those.
    fn candidates(&self, pos: &Gomoku, moves: &mut Vec<Cell>) -> bool {
        moves.clear();
        if pos.outcome().is_some() {
            return true;
        }
        if pos.moves_played().is_empty() {
            let centre = pos.centre();
            if pos.is_legal(centre) {
                moves.push(centre);
                return true;
            }
            pos.generate_moves(moves);
            return true;
        }
        let (me, op) = sides(pos);
        let fives = |c: usize| pos.strong_cells(c, Threat::Five);
        if pos.threat_counts[me][Threat::Five as usize] > 0 {
            if let Some(cell) = fives(me).next() {
                moves.push(cell);
                return true;
            }
        }
        if pos.threat_counts[op][Threat::Five as usize] > 0 {
            moves.extend(fives(op).filter(|&cell| pos.is_legal(cell)));
            if !moves.is_empty() {
                return true;
            }
        }
        if pos.threatened(op) {
            pos.answers(me, op, moves);
            if !moves.is_empty() {
                return true;
            }
        }
        moves.extend(members(pos.near2()).filter(|&c| pos.is_legal(c)));
        if moves.is_empty() {
            pos.generate_moves(moves);
        }
        true
    }

    /// The side to move's five; else the blocks of the other side's five; else the side to
    /// move's fours, best first by score, at most `NOISY_MAX`.
    fn noisy_moves(&self, pos: &Gomoku, moves: &mut Vec<Cell>) {
        moves.clear();
        if pos.outcome().is_some() {
            return;
        }
        let (me, op) = sides(pos);
        let legal = |c: Cell| pos.is_legal(c);
        // Fives and fours are strong cells: only those are read.
        let strong = |c: usize| members(&pos.strong[c]).map(|cell| see_kept(pos, cell));
        if let Some(s) = strong(me).find(|s| s.threat[me] == Threat::Five) {
            moves.push(s.cell);
            return;
        }
        moves.extend(
            strong(op)
                .filter(|s| s.threat[op] == Threat::Five && legal(s.cell))
                .map(|s| s.cell),
        );
        if !moves.is_empty() {
            return;
        }
        let mut fours: Vec<Seen> = strong(me)
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

    /// The features read from scratch: the cells within two of a stone found from the moves,
    /// each read from the board's line patterns and judged by the rules.
    fn scratch_features(pos: &Gomoku) -> [[i32; N_FEATURES]; 2] {
        let exact = exact_fives(pos.rule());
        let mut f = [[0; N_FEATURES]; 2];
        for y in 0..pos.height() {
            for x in 0..pos.width() {
                let cell = Cell::new(x, y);
                let near = pos
                    .moves_played()
                    .iter()
                    .any(|s| s.x().abs_diff(x) <= 2 && s.y().abs_diff(y) <= 2);
                if !pos.is_empty(cell) || !near {
                    continue;
                }
                let read = pos.read_cell(cell.padded(), exact);
                let seen = see(pos, cell, exact);
                for (c, counts) in f.iter_mut().enumerate() {
                    for &k in &read.kinds[c] {
                        if let Some(i) = kind_feature(k) {
                            counts[i] += 1;
                        }
                    }
                    if let Some(i) = threat_feature(seen.threat[c]) {
                        counts[i] += 1;
                    }
                }
            }
        }
        f
    }

    /// What the position keeps (each empty cell's reading, the cells read, the feature sums and
    /// threat counts with the rules' corrections) equals a reading from scratch, after random
    /// moves and takebacks under every rule and on boards of every shape.
    #[test]
    fn kept_readings_equal_a_reading_from_scratch() {
        let mut rng = SplitMix64::new(11);
        let mut moves = Vec::new();
        for spec in [
            "", "renju", "standard", "caro", "5", "22", "9x13", "renju:7", "caro:20",
        ] {
            let mut pos = Gomoku::variant(spec).unwrap();
            let exact = exact_fives(pos.rule());
            for step in 0..160 {
                pos.generate_moves(&mut moves);
                // Moves near the stones, as games go, with takebacks now and then.
                Patterns::default().prune_moves(&pos, &mut moves);
                if step % 5 == 4 || moves.is_empty() {
                    match pos.last_move() {
                        Some(m) => pos.undo(m),
                        None => continue,
                    }
                } else {
                    pos.play(moves[rng.below(moves.len())]);
                }
                for y in 0..pos.height() {
                    for x in 0..pos.width() {
                        let cell = Cell::new(x, y);
                        if pos.is_empty(cell) {
                            let p = cell.padded();
                            assert_eq!(pos.reads[p], pos.read_cell(p, exact), "{pos:?} {cell:?}");
                        }
                    }
                }
                let t = pos.tallies();
                let f = scratch_features(&pos);
                assert_eq!(t.sums, f, "{pos:?}");
                let mut seen = Vec::new();
                scan(&pos, &mut seen);
                for c in 0..2 {
                    for (i, &threat) in THREATS.iter().enumerate() {
                        let n = seen.iter().filter(|s| s.threat[c] == threat).count();
                        assert_eq!(t.threats[c][i] as usize, n, "{pos:?} {threat:?}");
                    }
                }
            }
        }
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
