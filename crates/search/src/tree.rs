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
            children: Vec::new(),
        };
        self.stack
            .last_mut()
            .expect("the root stays")
            .children
            .push(node);
    }

    fn full(&self) -> bool {
        self.exceeded()
    }
}
