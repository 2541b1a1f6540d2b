//! The reference algorithms, as the founding texts write them.
//!
//! They are deliberately plain: no transposition table, no ordering beyond the game's own move
//! order, no tricks. They are what a student reads, what `duel compare` shows side by side, and
//! the oracle the engine search is tested against.
//!
//! Conventions: a finished game scores ±(WIN − ply) so shorter wins count more and every
//! algorithm here agrees with the engine search; [`ReferenceOptions::flat_wins`] switches to the
//! texts' plain ±INF whatever the distance.

use std::time::Instant;

use duel_core::{Evaluator, Game, Outcome, Score, Side};

use crate::report::{Report, Stats};
use crate::tree::{NoTrace, Tracer};

/// The reference algorithms.
///
/// ```
/// use duel_core::Game;
/// use duel_search::{Reference, ReferenceOptions};
/// use duel_tictactoe::{OpenLines, TicTacToe};
///
/// let pos = TicTacToe::from_text("5").unwrap();
/// let opts = ReferenceOptions::default();
/// let minimax = Reference::Minimax.search(&pos, &OpenLines, 4, opts);
/// let alphabeta = Reference::AlphaBetaSoft.search(&pos, &OpenLines, 4, opts);
/// // The same value, for far fewer nodes: the texts' lesson.
/// assert_eq!(alphabeta.value, minimax.value);
/// assert!(alphabeta.stats.nodes < minimax.stats.nodes);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reference {
    /// Minimax as a mutually recursive Max/Min pair; the evaluation is taken from MAX's side.
    Minimax,
    /// One function, the value from the side to move, negated on return.
    Negamax,
    /// Alpha-beta returning alpha or beta at the window's edge, as the texts write it.
    AlphaBetaHard,
    /// Alpha-beta returning the best value found even outside the window.
    AlphaBetaSoft,
    /// Build the whole tree to the depth breadth-first, evaluate its leaves, then back the values
    /// up level by level.
    TwoPhase,
}

impl Reference {
    /// Every reference algorithm, in the order `compare` shows them.
    pub const ALL: [Reference; 5] = [
        Reference::Minimax,
        Reference::Negamax,
        Reference::AlphaBetaHard,
        Reference::AlphaBetaSoft,
        Reference::TwoPhase,
    ];

    /// The short name used on the command line and in reports.
    pub const fn name(self) -> &'static str {
        match self {
            Reference::Minimax => "minimax",
            Reference::Negamax => "negamax",
            Reference::AlphaBetaHard => "alphabeta-hard",
            Reference::AlphaBetaSoft => "alphabeta",
            Reference::TwoPhase => "two-phase",
        }
    }

    /// Runs the algorithm to `depth` plies.
    pub fn search<G: Game, E: Evaluator<G>>(
        self,
        pos: &G,
        eval: &E,
        depth: u32,
        opts: ReferenceOptions,
    ) -> Report<G::Move> {
        self.search_traced(pos, eval, depth, opts, &mut NoTrace)
    }

    /// Runs the algorithm and shows every node to `tracer` (the `tree` command records them).
    /// The two-phase procedure builds its tree level by level rather than depth first, so it
    /// shows the tracer nothing; trace Minimax, which visits exactly the same tree.
    pub fn search_traced<G: Game, E: Evaluator<G>, T: Tracer<G>>(
        self,
        pos: &G,
        eval: &E,
        depth: u32,
        opts: ReferenceOptions,
        tracer: &mut T,
    ) -> Report<G::Move> {
        let start = Instant::now();
        let mut ctx = Ctx::new(pos.clone(), eval, opts, tracer);
        let value = match self {
            Reference::Minimax => {
                let v = match pos.side_to_move() {
                    Side::First => ctx.max_value(depth, 0),
                    Side::Second => ctx.min_value(depth, 0),
                };
                // Max/Min values are MAX's; every report speaks for the side to move.
                Score(v.0 * pos.side_to_move().sign())
            }
            Reference::Negamax => ctx.negamax(depth, 0),
            Reference::AlphaBetaHard => ctx.alphabeta::<true>(depth, 0, -Score::INF, Score::INF),
            Reference::AlphaBetaSoft => ctx.alphabeta::<false>(depth, 0, -Score::INF, Score::INF),
            Reference::TwoPhase => {
                let (v, stats, pv) = two_phase(pos, eval, depth, opts);
                ctx.stats = stats;
                ctx.pv = vec![pv];
                v
            }
        };
        let pv = std::mem::take(&mut ctx.pv[0]);
        Report {
            algorithm: self.name(),
            value,
            best: pv.first().copied(),
            pv,
            depth,
            stats: ctx.stats,
            time: start.elapsed(),
            lines: Vec::new(),
            hashfull: 0,
            margin: None,
            partial: false,
        }
    }
}

/// Options shared by the reference algorithms.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReferenceOptions {
    /// Score every win as +INF and every loss as −INF, whatever the distance, as the texts do.
    /// Off (the default), a win `n` plies away scores WIN − n, as in the engine search.
    pub flat_wins: bool,
}

impl ReferenceOptions {
    /// The value of a finished game `ply` plies below the root, from the side to move there.
    pub fn terminal(self, outcome: Outcome, ply: u32) -> Score {
        let ply = if self.flat_wins { 0 } else { ply as i32 };
        match outcome {
            Outcome::Win => Score::win_in(ply),
            Outcome::Loss => Score::loss_in(ply),
            Outcome::Draw => Score::DRAW,
        }
    }
}

/// Search state: the position (made and unmade in place), one move buffer and one PV row per ply.
/// The rows are made as the search first reaches a ply, never for the depth asked: a depth is a
/// number anyone can send (`duel serve`), and the game usually ends long before it.
struct Ctx<'a, G: Game, E, T> {
    pos: G,
    eval: &'a E,
    opts: ReferenceOptions,
    stats: Stats,
    moves: Vec<Vec<G::Move>>,
    pv: Vec<Vec<G::Move>>,
    tracer: &'a mut T,
}

impl<'a, G: Game, E: Evaluator<G>, T: Tracer<G>> Ctx<'a, G, E, T> {
    fn new(mut pos: G, eval: &'a E, opts: ReferenceOptions, tracer: &'a mut T) -> Self {
        pos.begin_search();
        Ctx {
            pos,
            eval,
            opts,
            stats: Stats::default(),
            moves: Vec::new(),
            pv: Vec::new(),
            tracer,
        }
    }

    /// Makes the rows of `ply` and of the ply below, whose line `update_pv` copies up.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, ply: usize) {
        self.moves.resize_with(ply + 2, Vec::new);
        self.pv.resize_with(ply + 2, Vec::new);
    }

    /// Counts the node; returns its value if it is a finished game or a leaf at depth 0 (from the
    /// side to move), or None if it must be expanded (its moves are then in `self.moves[ply]`).
    #[inline]
    fn visit(&mut self, depth: u32, ply: u32) -> Option<Score> {
        // `moves` grows with `pv`: one length tells both.
        if self.pv.len() < ply as usize + 2 {
            self.grow(ply as usize);
        }
        self.stats.nodes += 1;
        self.stats.seldepth = self.stats.seldepth.max(ply);
        self.pv[ply as usize].clear();
        if self.tracer.full() {
            return Some(Score::DRAW);
        }
        if let Some(o) = self.pos.outcome() {
            return Some(self.opts.terminal(o, ply));
        }
        if depth == 0 {
            self.stats.evals += 1;
            return Some(Score::heuristic(self.eval.evaluate(&self.pos)));
        }
        let mut buf = std::mem::take(&mut self.moves[ply as usize]);
        self.pos.generate_moves(&mut buf);
        self.moves[ply as usize] = buf;
        None
    }

    /// Plays the `i`-th move of this ply's list.
    #[inline]
    fn enter(&mut self, ply: u32, i: usize) -> G::Move {
        let mv = self.moves[ply as usize][i];
        self.tracer.enter(&self.pos, mv);
        self.pos.play(mv);
        mv
    }

    #[inline]
    fn leave(&mut self, mv: G::Move, value: Score) {
        self.pos.undo(mv);
        self.tracer.leave(value);
    }

    /// The moves after the `i`-th were cut off: show them to the tracer.
    fn cut_after(&mut self, ply: u32, i: usize) {
        self.stats.cutoffs += 1;
        for &mv in &self.moves[ply as usize][i + 1..] {
            self.tracer.pruned(&self.pos, mv);
        }
    }

    /// pv[ply] = mv followed by the child's line.
    #[inline]
    fn update_pv(&mut self, ply: u32, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply as usize + 1);
        let row = &mut head[ply as usize];
        row.clear();
        row.push(mv);
        row.extend_from_slice(&tail[0]);
    }

    /// The value of a leaf or finished game for MAX (the first player).
    fn for_max(&self, v: Score) -> Score {
        Score(v.0 * self.pos.side_to_move().sign())
    }

    fn max_value(&mut self, depth: u32, ply: u32) -> Score {
        if let Some(v) = self.visit(depth, ply) {
            return self.for_max(v);
        }
        let mut best = -Score::INF;
        for i in 0..self.moves[ply as usize].len() {
            let mv = self.enter(ply, i);
            let v = self.min_value(depth - 1, ply + 1);
            // MAX moved: its value is MAX's.
            self.leave(mv, v);
            if v > best {
                best = v;
                self.update_pv(ply, mv);
            }
        }
        best
    }

    fn min_value(&mut self, depth: u32, ply: u32) -> Score {
        if let Some(v) = self.visit(depth, ply) {
            return self.for_max(v);
        }
        let mut best = Score::INF;
        for i in 0..self.moves[ply as usize].len() {
            let mv = self.enter(ply, i);
            let v = self.max_value(depth - 1, ply + 1);
            // MIN moved: its value is the opposite of MAX's.
            self.leave(mv, -v);
            if v < best {
                best = v;
                self.update_pv(ply, mv);
            }
        }
        best
    }

    fn negamax(&mut self, depth: u32, ply: u32) -> Score {
        if let Some(v) = self.visit(depth, ply) {
            return v;
        }
        let mut best = -Score::INF;
        for i in 0..self.moves[ply as usize].len() {
            let mv = self.enter(ply, i);
            let v = -self.negamax(depth - 1, ply + 1);
            self.leave(mv, v);
            if v > best {
                best = v;
                self.update_pv(ply, mv);
            }
        }
        best
    }

    /// Alpha-beta in negamax form. `HARD` returns the window's edge when the true value lies
    /// outside it (fail-hard, as the texts write it); otherwise the best value found (fail-soft),
    /// a tighter bound that transposition tables make use of. Both visit the same nodes.
    fn alphabeta<const HARD: bool>(
        &mut self,
        depth: u32,
        ply: u32,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
        self.tracer.window(alpha, beta);
        if let Some(v) = self.visit(depth, ply) {
            return v;
        }
        let mut best = -Score::INF;
        for i in 0..self.moves[ply as usize].len() {
            let mv = self.enter(ply, i);
            let v = -self.alphabeta::<HARD>(depth - 1, ply + 1, -beta, -alpha);
            self.leave(mv, v);
            if v > best {
                best = v;
            }
            if v >= beta {
                self.cut_after(ply, i);
                // A refutation is not a line worth showing, but keep the move so the root of a
                // null-window search still names one.
                self.update_pv(ply, mv);
                return if HARD { beta } else { best };
            }
            if v > alpha {
                alpha = v;
                self.update_pv(ply, mv);
            }
        }
        if HARD {
            alpha
        } else {
            best
        }
    }
}

/// The textbook's two-phase procedure. Phase one generates the whole tree to `depth` breadth
/// first, level by level, keeping every node; phase two backs the values up from the deepest
/// level to the root, MAX taking the largest child value and MIN the smallest. The texts
/// evaluate the leaves in phase two; here phase one does, as it stands on each, since no
/// position is kept for later. It visits exactly the Minimax tree, at the price of holding all
/// of it in memory at once.
///
/// Memory: the nodes, and no positions. A [`Node`] is 12 bytes for every game here (a move of
/// one to three bytes), so the tree takes 12 bytes a node of the Minimax tree, and the vector's
/// spare room as it grows, up to as much again (Gomoku 22x22 at depth 2: 234,257 nodes,
/// 2.8 MB). One position walks from node to node with play and undo ([`Walker`]): the nodes of a
/// level lie in the order of their parents, so going to the next one undoes only to their
/// common ancestor (between siblings, one move back and one forward), and the walk costs about
/// what Minimax's own play and undo do.
///
/// Returns the root value from the side to move, the counters and the principal variation.
fn two_phase<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    depth: u32,
    opts: ReferenceOptions,
) -> (Score, Stats, Vec<G::Move>) {
    let mut stats = Stats::default();
    let mut pos = root.clone();
    pos.begin_search();
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    // Every node holds a move, the root too, where none led: a root without moves is the whole
    // tree, valued at once.
    let Some(&any) = moves.first() else {
        stats.nodes = 1;
        let v = settle(&pos, eval, opts, 0, depth, &mut stats).unwrap_or(Score::DRAW);
        return (v, stats, Vec::new());
    };
    let mut nodes = vec![Node {
        first_child: 0,
        value: Score::DRAW,
        mv: any,
        side: pos.side_to_move(),
    }];
    let mut walker = Walker {
        pos,
        path: vec![0],
        down: Vec::new(),
    };
    let mut level = 0..1;
    for ply in 0..=depth {
        stats.seldepth = ply;
        let next = nodes.len();
        for id in level {
            walker.go(&nodes, id, ply);
            let pos = &walker.pos;
            stats.nodes += 1;
            nodes[id].side = pos.side_to_move();
            nodes[id].first_child = index(nodes.len());
            if let Some(v) = settle(pos, eval, opts, ply, depth, &mut stats) {
                nodes[id].value = Score(v.0 * pos.side_to_move().sign());
                continue;
            }
            pos.generate_moves(&mut moves);
            nodes.extend(moves.iter().map(|&mv| Node {
                first_child: 0,
                value: Score::DRAW,
                mv,
                // Set when the node is visited.
                side: Side::First,
            }));
        }
        if nodes.len() == next {
            break;
        }
        level = next..nodes.len();
    }
    // Phase two: children always come after their parent, so one backward sweep backs every
    // value up after all of its children's.
    for id in (0..nodes.len()).rev() {
        let kids = children(&nodes, id);
        if kids.is_empty() {
            continue;
        }
        let values = nodes[kids].iter().map(|c| c.value);
        let v = match nodes[id].side {
            Side::First => values.max(),
            Side::Second => values.min(),
        };
        nodes[id].value = v.unwrap_or(Score::DRAW);
    }
    // The principal variation: from the root, follow the first child that holds the value.
    let mut pv = Vec::new();
    let mut id = 0;
    loop {
        let mut kids = children(&nodes, id);
        if kids.is_empty() {
            break;
        }
        let k = kids
            .find(|&c| nodes[c].value == nodes[id].value)
            .expect("a backed-up value comes from a child");
        pv.push(nodes[k].mv);
        id = k;
    }
    (
        Score(nodes[0].value.0 * root.side_to_move().sign()),
        stats,
        pv,
    )
}

/// One node of the two-phase tree.
struct Node<M> {
    /// Where the children start; they end where the next node's start (or with the vector).
    /// Set when the node is visited, which is before any later node is: the starts rise with
    /// the index, and a node's parent is the last node whose children start at or before it.
    first_child: u32,
    /// The value for MAX.
    value: Score,
    /// The move that led here (at the root, any move of the root: it is never read).
    mv: M,
    /// Who is to move here.
    side: Side,
}

/// A node count as a node index: the tree is limited to 2^32 nodes (48 GiB of nodes).
fn index(n: usize) -> u32 {
    u32::try_from(n).expect("a two-phase tree of at most 2^32 nodes")
}

/// The children of node `id`.
fn children<M>(nodes: &[Node<M>], id: usize) -> std::ops::Range<usize> {
    let end = nodes
        .get(id + 1)
        .map_or(nodes.len(), |n| n.first_child as usize);
    nodes[id].first_child as usize..end
}

/// The value of a node that is not expanded, from its side to move: a finished game, or the
/// evaluation at the depth. None for a node to expand.
fn settle<G: Game, E: Evaluator<G>>(
    pos: &G,
    eval: &E,
    opts: ReferenceOptions,
    ply: u32,
    depth: u32,
    stats: &mut Stats,
) -> Option<Score> {
    if let Some(o) = pos.outcome() {
        return Some(opts.terminal(o, ply));
    }
    if ply == depth {
        stats.evals += 1;
        return Some(Score::heuristic(eval.evaluate(pos)));
    }
    None
}

/// The one position of the two-phase procedure, and the nodes from the root to it.
struct Walker<G: Game> {
    pos: G,
    /// The node at each level, from the root to the one `pos` is at.
    path: Vec<u32>,
    /// The nodes to play down through on the way to the next one, deepest first.
    down: Vec<u32>,
}

impl<G: Game> Walker<G> {
    /// Takes the position to node `to` of level `ply`. The nodes before `to` must have been
    /// visited, so that their children are known.
    fn go(&mut self, nodes: &[Node<G::Move>], to: usize, ply: u32) {
        let visited = &nodes[..to];
        self.down.clear();
        let mut at = index(to);
        let mut level = ply as usize;
        // Up from `to` to the first node on the path; the root is on every path.
        while self.path.get(level) != Some(&at) {
            self.down.push(at);
            at = (visited.partition_point(|n| n.first_child <= at) - 1) as u32;
            level -= 1;
        }
        for &n in self.path[level + 1..].iter().rev() {
            self.pos.undo(nodes[n as usize].mv);
        }
        self.path.truncate(level + 1);
        for &n in self.down.iter().rev() {
            self.pos.play(nodes[n as usize].mv);
            self.path.push(n);
        }
    }
}

/// Search under a node budget instead of a depth: each node shares what is left of its budget
/// evenly among its moves, and a node whose share runs out is evaluated where it stands. The
/// texts' pitfall shows at once: wide subtrees end shallower than narrow ones, so the horizon is
/// uneven. A node whose share cannot cover one visit per move stays a leaf, so the search never
/// visits more than `budget` nodes. Returns the report with `depth` = the deepest ply reached.
pub fn node_budget<G: Game, E: Evaluator<G>>(
    pos: &G,
    eval: &E,
    budget: u64,
    opts: ReferenceOptions,
) -> Report<G::Move> {
    fn go<G: Game, E: Evaluator<G>>(
        ctx: &mut Ctx<'_, G, E, NoTrace>,
        budget: u64,
        ply: u32,
    ) -> Score {
        // Depth 1 expands the node; depth 0 makes it a leaf.
        let depth = u32::from(budget > 1);
        if let Some(v) = ctx.visit(depth, ply) {
            return v;
        }
        let n = ctx.moves[ply as usize].len() as u64;
        if n > budget - 1 {
            // Too little left to look at every move even once: the node stays a leaf.
            ctx.stats.evals += 1;
            return Score::heuristic(ctx.eval.evaluate(&ctx.pos));
        }
        let share = (budget - 1) / n;
        let mut extra = (budget - 1) % n;
        let mut best = -Score::INF;
        for i in 0..n as usize {
            // Deterministic: the first moves take the remainder, one node each.
            let b = share + u64::from(extra > 0);
            extra = extra.saturating_sub(1);
            let mv = ctx.enter(ply, i);
            let v = -go(ctx, b, ply + 1);
            ctx.leave(mv, v);
            if v > best {
                best = v;
                ctx.update_pv(ply, mv);
            }
        }
        best
    }
    let start = Instant::now();
    let mut tracer = NoTrace;
    let mut ctx = Ctx::new(pos.clone(), eval, opts, &mut tracer);
    let value = go(&mut ctx, budget.max(1), 0);
    let pv = std::mem::take(&mut ctx.pv[0]);
    Report {
        algorithm: "node-budget",
        value,
        best: pv.first().copied(),
        pv,
        depth: ctx.stats.seldepth,
        stats: ctx.stats,
        time: start.elapsed(),
        lines: Vec::new(),
        hashfull: 0,
        margin: None,
        partial: false,
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use duel_core::{MoveError, PositionError};
    use duel_tictactoe::{OpenLines, TicTacToe};

    use super::*;

    /// The size the two-phase doc states, for the move of every game here.
    #[test]
    fn two_phase_nodes_are_twelve_bytes() {
        use std::mem::size_of;
        assert_eq!(size_of::<Node<duel_tictactoe::Cell>>(), 12);
        assert_eq!(size_of::<Node<duel_connect4::Column>>(), 12);
        assert_eq!(size_of::<Node<<duel_othello::Othello as Game>::Move>>(), 12);
        assert_eq!(size_of::<Node<duel_gomoku::Cell>>(), 12);
        assert_eq!(size_of::<Node<<duel_xiangqi::Xiangqi as Game>::Move>>(), 12);
        assert_eq!(size_of::<Node<duel_chess::Move>>(), 12);
    }

    thread_local! {
        static CLONES: Cell<u64> = const { Cell::new(0) };
    }

    /// Tic-tac-toe that counts its copies (on this thread): a position kept is a copy made.
    #[derive(Debug)]
    struct Counted(TicTacToe);

    impl Clone for Counted {
        fn clone(&self) -> Self {
            CLONES.with(|c| c.set(c.get() + 1));
            Counted(self.0.clone())
        }
    }

    impl Game for Counted {
        type Move = duel_tictactoe::Cell;
        const NAME: &'static str = "counted";
        fn start() -> Self {
            Counted(TicTacToe::start())
        }
        fn side_to_move(&self) -> Side {
            self.0.side_to_move()
        }
        fn ply(&self) -> u32 {
            self.0.ply()
        }
        fn generate_moves(&self, moves: &mut Vec<Self::Move>) {
            self.0.generate_moves(moves)
        }
        fn play(&mut self, mv: Self::Move) {
            self.0.play(mv)
        }
        fn undo(&mut self, mv: Self::Move) {
            self.0.undo(mv)
        }
        fn outcome(&self) -> Option<Outcome> {
            self.0.outcome()
        }
        fn hash(&self) -> u64 {
            self.0.hash()
        }
        fn hash_from_scratch(&self) -> u64 {
            self.0.hash_from_scratch()
        }
        fn format_move(&self, mv: Self::Move) -> String {
            self.0.format_move(mv)
        }
        fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
            self.0.parse_move(text)
        }
        fn to_text(&self) -> String {
            self.0.to_text()
        }
        fn from_text(text: &str) -> Result<Self, PositionError> {
            TicTacToe::from_text(text).map(Counted)
        }
    }

    #[derive(Clone)]
    struct CountedLines;

    impl Evaluator<Counted> for CountedLines {
        fn name(&self) -> &'static str {
            "open-lines"
        }
        fn evaluate(&self, pos: &Counted) -> i32 {
            OpenLines.evaluate(&pos.0)
        }
    }

    /// The two-phase procedure copies the root and walks that one copy over the whole tree:
    /// as many copies at depth 9 (549,946 nodes) as at depth 1, and its result is the Minimax
    /// search's.
    #[test]
    fn two_phase_keeps_no_positions() {
        let copies = |algo: Reference, depth| {
            let before = CLONES.with(Cell::get);
            let r = algo.search(&Counted::start(), &CountedLines, depth, Default::default());
            (CLONES.with(Cell::get) - before, r)
        };
        let (shallow, _) = copies(Reference::TwoPhase, 1);
        let (deep, r) = copies(Reference::TwoPhase, 9);
        assert_eq!(deep, shallow);
        assert!(deep <= 2, "{deep} copies");
        let (_, m) = copies(Reference::Minimax, 9);
        assert_eq!(
            (r.value, r.stats.nodes, r.stats.evals, r.pv),
            (m.value, m.stats.nodes, m.stats.evals, m.pv)
        );
    }
}
