//! The explored tree, recorded node by node, for the `tree` command: what an algorithm actually
//! looked at, with the values it backed up and the moves alpha-beta never had to search.

use duel_core::{Game, Score, Side};

/// Sees a search's nodes as it visits them. Every method defaults to nothing, and [`NoTrace`]
/// compiles away, so the reference algorithms pay nothing when nobody watches.
pub trait Tracer<G: Game> {
    /// About to play `mv` in `pos`.
    fn enter(&mut self, _pos: &G, _mv: G::Move) {}
    /// Back from the move last entered; `value` is its value from the side that played it.
    fn leave(&mut self, _value: Score) {}
    /// `mv` in `pos` was never searched: a cut-off made it unnecessary.
    fn pruned(&mut self, _pos: &G, _mv: G::Move) {}
    /// The node just entered (the root before any move) is searched with the window
    /// (`alpha`, `beta`), from its side to move: alpha-beta only.
    fn window(&mut self, _alpha: Score, _beta: Score) {}
    /// True once the tracer has seen enough: the search then treats every further node as a
    /// leaf and unwinds at once (its result is meaningless and should be discarded).
    fn full(&self) -> bool {
        false
    }
}

/// The tracer that records nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoTrace;

impl<G: Game> Tracer<G> for NoTrace {}

/// One node of a recorded tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeNode {
    /// The move that led here in the game's notation (empty at the root).
    pub mv: String,
    /// Who moved into this node (at the root: who is to move there).
    pub mover: Side,
    /// The backed-up value for `mover`, or None for a pruned move.
    pub value: Option<Score>,
    /// The window (alpha, beta) alpha-beta searched the node with, from the side to move at
    /// the node; None for the algorithms without one, and for pruned moves.
    pub window: Option<(Score, Score)>,
    /// The children in the order they were searched, pruned ones last.
    pub children: Vec<TreeNode>,
}

impl TreeNode {
    /// True if alpha-beta skipped this move.
    pub fn is_pruned(&self) -> bool {
        self.value.is_none()
    }

    /// The value from the first player's (MAX's) side, as the texts' figures show it.
    pub fn value_for_max(&self) -> Option<Score> {
        self.value.map(|v| Score(v.0 * self.mover.sign()))
    }

    /// Number of nodes visited in this subtree (pruned moves excluded).
    pub fn visited(&self) -> usize {
        if self.is_pruned() {
            0
        } else {
            1 + self.children.iter().map(TreeNode::visited).sum::<usize>()
        }
    }
}

/// Records a search into a [`TreeNode`] tree.
#[derive(Debug, Clone)]
pub struct Tree {
    stack: Vec<TreeNode>,
    nodes: u64,
    cap: u64,
}

impl Tree {
    /// A recorder for a search from `root`.
    pub fn new<G: Game>(root: &G) -> Self {
        Self::with_cap(root, u64::MAX)
    }

    /// A recorder that stops the search once it has recorded `cap` nodes, so that a tree too
    /// large to draw costs no more than `cap` nodes to find out.
    pub fn with_cap<G: Game>(root: &G, cap: u64) -> Self {
        Tree {
            nodes: 1,
            cap,
            stack: vec![TreeNode {
                mv: String::new(),
                mover: root.side_to_move().other(),
                value: None,
                window: None,
                children: Vec::new(),
            }],
        }
    }

    /// True if the search went past the cap (the recorded tree is then incomplete).
    pub fn exceeded(&self) -> bool {
        self.nodes > self.cap
    }

    /// The recorded tree; `root_value` is the search's value from the side to move at the root.
    pub fn finish(mut self, root_value: Score) -> TreeNode {
        let mut root = self.stack.swap_remove(0);
        // The root's "mover" is the side not to move, so its value is negated to match.
        root.value = Some(-root_value);
        root
    }
}

impl<G: Game> Tracer<G> for Tree {
    fn enter(&mut self, pos: &G, mv: G::Move) {
        self.nodes += 1;
        self.stack.push(TreeNode {
            mv: pos.format_move(mv),
            mover: pos.side_to_move(),
            value: None,
            window: None,
            children: Vec::new(),
        });
    }

    fn leave(&mut self, value: Score) {
        let mut node = self.stack.pop().expect("leave matches enter");
        node.value = Some(value);
        self.stack
            .last_mut()
            .expect("the root stays")
            .children
            .push(node);
    }

    fn pruned(&mut self, pos: &G, mv: G::Move) {
        let node = TreeNode {
            mv: pos.format_move(mv),
            mover: pos.side_to_move(),
            value: None,
            window: None,
            children: Vec::new(),
        };
        self.stack
            .last_mut()
            .expect("the root stays")
            .children
            .push(node);
    }

    fn window(&mut self, alpha: Score, beta: Score) {
        if let Some(node) = self.stack.last_mut() {
            node.window = Some((alpha, beta));
        }
    }

    fn full(&self) -> bool {
        self.exceeded()
    }
}

/// Counts the nodes a search visits and stops it past a cap, recording nothing: what a tree
/// of that size would cost to look at, found for at most `cap` nodes' work.
#[derive(Debug, Clone, Copy)]
pub struct Count {
    /// Nodes visited, the root included.
    pub nodes: u64,
    cap: u64,
}

impl Count {
    /// A counter that stops the search once it has seen more than `cap` nodes.
    pub fn with_cap(cap: u64) -> Self {
        Count { nodes: 1, cap }
    }

    /// True if the search went past the cap (it was then cut short).
    pub fn exceeded(&self) -> bool {
        self.nodes > self.cap
    }
}

impl<G: Game> Tracer<G> for Count {
    fn enter(&mut self, _pos: &G, _mv: G::Move) {
        self.nodes += 1;
    }

    fn full(&self) -> bool {
        self.exceeded()
    }
}

/// A value from MAX's side as the texts' figures print it: `+1`, `-2`, `0`, `+INF@5` for a win
/// of MAX found 5 plies below the root, `-INF@4` for a loss.
pub fn max_value(v: Score) -> String {
    match v.plies_to_end() {
        Some(n) if v.is_win() => format!("+INF@{n}"),
        Some(n) => format!("-INF@{n}"),
        None => v.to_string(),
    }
}

/// Which side is to move at a node: the one that did not move into it.
pub fn to_move(n: &TreeNode) -> Side {
    n.mover.other()
}

/// MAX for the first player, MIN for the second, as the texts name them.
pub fn role(side: Side) -> &'static str {
    match side {
        Side::First => "MAX",
        Side::Second => "MIN",
    }
}

/// What a backed-up value of alpha-beta is: the node's value, or only a bound on it (a node cut
/// off is worth at least what it shows to the side to move there, a node that failed low at
/// most).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The value itself.
    Exact,
    /// The true value is at least the one shown.
    Lower,
    /// The true value is at most the one shown.
    Upper,
}

impl Kind {
    /// The same bound seen from the other side.
    pub fn flip(self) -> Kind {
        match self {
            Kind::Exact => Kind::Exact,
            Kind::Lower => Kind::Upper,
            Kind::Upper => Kind::Lower,
        }
    }
}

/// A tree node with the kind of its value, from MAX's side.
pub struct Annotated<'a> {
    /// The recorded node.
    pub node: &'a TreeNode,
    /// Its value for MAX, None for a pruned move.
    pub value: Option<Score>,
    /// Whether that value is exact or a bound (for MAX).
    pub kind: Kind,
    /// The children, in search order.
    pub children: Vec<Annotated<'a>>,
}

/// Works out, bottom up, which values are exact and which are bounds. Rules (negamax view of
/// the side to move at the node): a node with a pruned move, or whose best child is itself a
/// lower bound, is a lower bound; a node whose value equals an exact child's is exact; any other
/// is an upper bound (every move failed low). Minimax and negamax trees come out all exact.
pub fn annotate(n: &TreeNode) -> Annotated<'_> {
    let children: Vec<Annotated<'_>> = n.children.iter().map(annotate).collect();
    // Kinds relative to each node's own `value`, i.e. for the side that moved into it.
    fn own(a: &Annotated<'_>) -> Kind {
        if a.node.mover == Side::First {
            a.kind
        } else {
            a.kind.flip()
        }
    }
    let kind_for_mover = match n.value {
        None => Kind::Exact,
        Some(_) if children.is_empty() => Kind::Exact,
        Some(v) => {
            // The side to move here sees -v; each child's value is already from its side.
            let here = -v;
            let kind_here = if n.children.iter().any(TreeNode::is_pruned)
                || children
                    .iter()
                    .any(|c| own(c) == Kind::Lower && c.node.value.is_some_and(|cv| cv >= here))
            {
                Kind::Lower
            } else if children
                .iter()
                .any(|c| own(c) == Kind::Exact && c.node.value == Some(here))
            {
                Kind::Exact
            } else {
                Kind::Upper
            };
            kind_here.flip()
        }
    };
    let kind = if n.mover == Side::First {
        kind_for_mover
    } else {
        kind_for_mover.flip()
    };
    Annotated {
        node: n,
        value: n.value_for_max(),
        kind,
        children,
    }
}

/// A value for MAX with its kind: `+1`, `>=+1`, `<=-2`, `+INF@5`.
pub fn bounded(a: &Annotated<'_>) -> String {
    let v = a.value.map(max_value).unwrap_or_default();
    match a.kind {
        Kind::Exact => v,
        Kind::Lower => format!(">={v}"),
        Kind::Upper => format!("<={v}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_for_max_as_the_texts_print_them() {
        assert_eq!(max_value(Score(1)), "+1");
        assert_eq!(max_value(Score::win_in(5)), "+INF@5");
        assert_eq!(max_value(Score::loss_in(4)), "-INF@4");
    }
}
