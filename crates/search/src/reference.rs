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

use crate::tree::{NoTrace, Tracer};
use crate::{Report, Stats};

/// The reference algorithms.
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
        let mut ctx = Ctx::new(pos.clone(), eval, opts, depth, tracer);
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
                ctx.pv[0] = pv;
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
    fn new(mut pos: G, eval: &'a E, opts: ReferenceOptions, depth: u32, tracer: &'a mut T) -> Self {
        pos.begin_search();
        let n = depth as usize + 2;
        Ctx {
            pos,
            eval,
            opts,
            stats: Stats::default(),
            moves: vec![Vec::new(); n],
            pv: vec![Vec::new(); n],
            tracer,
        }
    }

    /// Counts the node; returns its value if it is a finished game or a leaf at depth 0 (from the
    /// side to move), or None if it must be expanded (its moves are then in `self.moves[ply]`).
    #[inline]
    fn visit(&mut self, depth: u32, ply: u32) -> Option<Score> {
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
/// first, level by level, keeping every node; phase two evaluates the leaves and backs the values
/// up from the deepest level to the root, MAX taking the largest child value and MIN the smallest.
/// It visits exactly the Minimax tree, at the price of holding all of it in memory at once.
/// Returns the root value from the side to move, the counters and the principal variation.
fn two_phase<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    depth: u32,
    opts: ReferenceOptions,
) -> (Score, Stats, Vec<G::Move>) {
    struct Node<M> {
        parent: usize,
        mv: Option<M>,
        side: Side,
        first_child: usize,
        children: usize,
        value: Score, // for MAX
    }
    let mut stats = Stats::default();
    let mut nodes: Vec<Node<G::Move>> = Vec::new();
    // The positions of one level only: the next level is built from them, then they go.
    let mut level: Vec<G> = vec![root.clone()];
    level[0].begin_search();
    nodes.push(Node {
        parent: usize::MAX,
        mv: None,
        side: root.side_to_move(),
        first_child: 0,
        children: 0,
        value: Score::DRAW,
    });
    let mut level_start = 0;
    let mut moves = Vec::new();
    for ply in 0..=depth {
        stats.seldepth = ply;
        let mut next = Vec::new();
        let next_start = nodes.len();
        for (k, pos) in level.iter().enumerate() {
            let id = level_start + k;
            stats.nodes += 1;
            if let Some(o) = pos.outcome() {
                let v = opts.terminal(o, ply);
                nodes[id].value = Score(v.0 * pos.side_to_move().sign());
                continue;
            }
            if ply == depth {
                stats.evals += 1;
                let v = Score::heuristic(eval.evaluate(pos));
                nodes[id].value = Score(v.0 * pos.side_to_move().sign());
                continue;
            }
            pos.generate_moves(&mut moves);
            nodes[id].first_child = nodes.len();
            nodes[id].children = moves.len();
            for &mv in &moves {
                let mut child = pos.clone();
                child.play(mv);
                nodes.push(Node {
                    parent: id,
                    mv: Some(mv),
                    side: child.side_to_move(),
                    first_child: 0,
                    children: 0,
                    value: Score::DRAW,
                });
                next.push(child);
            }
        }
        if next.is_empty() {
            break;
        }
        level = next;
        level_start = next_start;
    }
    // Phase two: children always come after their parent, so one backward sweep backs every
    // value up after all of its children's.
    for id in (0..nodes.len()).rev() {
        let n = &nodes[id];
        if n.children == 0 {
            continue;
        }
        let kids = &nodes[n.first_child..n.first_child + n.children];
        let v = match n.side {
            Side::First => kids.iter().map(|c| c.value).max(),
            Side::Second => kids.iter().map(|c| c.value).min(),
        };
        nodes[id].value = v.unwrap_or(Score::DRAW);
    }
    // The principal variation: from the root, follow the first child that holds the value.
    let mut pv = Vec::new();
    let mut id = 0;
    while nodes[id].children > 0 {
        let n = &nodes[id];
        let k = (n.first_child..n.first_child + n.children)
            .find(|&c| nodes[c].value == n.value)
            .expect("a backed-up value comes from a child");
        pv.extend(nodes[k].mv);
        id = k;
    }
    debug_assert!(nodes.iter().skip(1).all(|n| n.parent < usize::MAX));
    (
        Score(nodes[0].value.0 * root.side_to_move().sign()),
        stats,
        pv,
    )
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
        while ctx.moves.len() < ply as usize + 3 {
            ctx.moves.push(Vec::new());
            ctx.pv.push(Vec::new());
        }
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
    let mut ctx = Ctx::new(pos.clone(), eval, opts, 0, &mut tracer);
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
    }
}
