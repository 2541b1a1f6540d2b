use crate::{Game, Score};

/// One ProbCut test (Buro's Multi-ProbCut): a search `depth` plies deep whose value predicts
/// the node's deeper one with an error of standard deviation `sigma` (evaluator units).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProbCut {
    /// The shallow search's depth.
    pub depth: u32,
    /// The standard deviation of (deep value − shallow value), measured on the game's own
    /// positions.
    pub sigma: i32,
}

/// Game knowledge, apart from the rules: a static evaluation and optional hooks the search uses
/// when they are present. One game can carry several evaluators (the textbook one and a strong
/// one) and the command line can compare them.
pub trait Evaluator<G: Game>: Clone + Send + Sync + 'static {
    /// A short name for reports (`open-lines`, `threats`, ...).
    fn name(&self) -> &'static str;

    /// The static value of a position that is not finished, from the side to move, in the
    /// evaluator's own units. Must lie within `±Score::MAX_HEURISTIC`.
    fn evaluate(&self, pos: &G) -> i32;

    /// What one unit of [`Evaluator::evaluate`]'s value is, for people reading a score
    /// (`centipawns`, `sixteenths of a disc`). The default says only that it is this
    /// evaluator's own scale.
    fn unit(&self) -> &'static str {
        "points of this evaluator's own scale"
    }

    /// Moves that make the position unquiet (captures, immediate threats). Quiescence search
    /// follows only these past the depth limit. The default, none, makes quiescence the static
    /// evaluation.
    fn noisy_moves(&self, _pos: &G, moves: &mut Vec<G::Move>) {
        moves.clear();
    }

    /// How many of its noisy moves (best first, as [`Evaluator::move_hints`] orders them)
    /// quiescence tries `qply` plies past the horizon where the side to move may stand pat:
    /// for games whose noisy moves breed more of themselves (Gomoku: a four and its block
    /// leave new fours), so that quiescence stays a short look at the threats and not a
    /// whole search. Forced nodes (see [`Evaluator::may_stand_pat`]) try every noisy move.
    /// The default, `None`, tries them all.
    fn noisy_limit(&self, _qply: u32) -> Option<usize> {
        None
    }

    /// Candidate moves: moves not worth searching here are removed from `moves` (the legal
    /// moves, in the game's order), the others kept in their order. Must leave at least one
    /// move when the list is non-empty, and depend only on the position: the transposition
    /// table names a move by its index in the kept list. The engine search calls it at every
    /// node, the root included (unless the root is restricted to chosen moves); the reference
    /// algorithms never do, they stay full width. The default keeps every move.
    fn prune_moves(&self, _pos: &G, _moves: &mut Vec<G::Move>) {}

    /// The candidate moves generated directly, into `moves` (cleared first): exactly what
    /// [`Game::generate_moves`] followed by [`Evaluator::prune_moves`] gives, for evaluators
    /// that keep what they need as moves are played (Gomoku: the cells near the stones and
    /// the threats) and need not list every legal move first. Returns false where it does not
    /// (the default), and the search generates and prunes.
    fn candidates(&self, _pos: &G, _moves: &mut Vec<G::Move>) -> bool {
        false
    }

    /// An ordering hint: moves with higher hints are tried first, after the hash move and before
    /// killers and history. The default gives no preference.
    fn move_hint(&self, _pos: &G, _mv: G::Move) -> i32 {
        0
    }

    /// [`Evaluator::move_hint`] for every move of `moves`, into `hints` (cleared first), in
    /// the same order. The search calls this once per node; the default asks `move_hint` move
    /// by move. Override it when the hints share work that depends only on the position (a
    /// threat map, say), to do that work once.
    fn move_hints(&self, pos: &G, moves: &[G::Move], hints: &mut Vec<i32>) {
        hints.clear();
        hints.extend(moves.iter().map(|&mv| self.move_hint(pos, mv)));
    }

    /// [`Evaluator::move_hints`] into `hints`, and into `policy` (cleared first) an ordering
    /// score per move for the moves without a positive hint, in history units: the search
    /// adds it to their history. A hint makes a move noisy (never reduced nor pruned as a
    /// late quiet move); a policy score only orders it among the quiet ones. For games whose
    /// many quiet moves history alone orders poorly and that can score them from the
    /// position (Gomoku: a cell's pattern score), so that the best come first and the rest
    /// can be reduced. The default asks `move_hints` and leaves `policy` empty: no policy.
    fn move_policy(&self, pos: &G, moves: &[G::Move], hints: &mut Vec<i32>, policy: &mut Vec<i32>) {
        self.move_hints(pos, moves, hints);
        policy.clear();
    }

    /// Whether `mv` keeps at least `threshold` (evaluation units, may be negative) by static
    /// exchange: what it takes, less what the opponent then takes on the same square, and so
    /// on, each side free to stop (chess: SEE). Near the horizon the search skips moves that
    /// lose more than a margin growing with the depth, and quiescence the captures that cannot
    /// bring the value near alpha. The default answers yes for every move: without the
    /// game's knowledge nothing is pruned.
    fn exchange_at_least(&self, _pos: &G, _mv: G::Move, _threshold: i32) -> bool {
        true
    }

    /// Whether to search this position one ply deeper than its depth says (chess: the side to
    /// move is in check, so the position is forcing and a horizon there misleads). The default
    /// never extends.
    fn extend(&self, _pos: &G) -> bool {
        false
    }

    /// Whether playing `mv` leads to a position [`Evaluator::extend`] says yes to (a move that
    /// gives check), told without playing it; `None` (the default) where the evaluator
    /// cannot tell, and the search plays the move to ask. The search asks before it prunes a
    /// late quiet move: one the evaluator rules out this way costs no move played and taken
    /// back. Where it answers, the answer must be what `extend` says after the move.
    fn forcing(&self, _pos: &G, _mv: G::Move) -> Option<bool> {
        None
    }

    /// Whether quiescence may take the static value here instead of a move ("stand pat"):
    /// not where the side to move must answer a threat the static value cannot see through
    /// (Gomoku: the other side makes five next unless blocked), so that a forcing line is
    /// followed to its end. Quiescence then searches the noisy moves only (the evaluator's
    /// answers to the threat); with none, it falls back to the static value. The default
    /// always stands pat.
    fn may_stand_pat(&self, _pos: &G) -> bool {
        true
    }

    /// The exact game-theoretic value, where the evaluator can compute it cheaply (an endgame
    /// solver for small positions). The search stops at a node that returns `Some`.
    fn exact(&self, _pos: &G) -> Option<Score> {
        None
    }

    /// A value of the side to move proven where the search reaches its horizon, by a search
    /// of the evaluator's own (Gomoku: a VCF, a win by fours), as a score from this node
    /// (`Score::win_in(plies)`), before quiescence: the search returns it. It may play moves
    /// on `pos` but leaves it as it was. Asked only where the side to move may stand pat and
    /// its static value is below beta, so that the search pays for it where it may change
    /// the value. The default proves nothing.
    fn horizon_proof(&self, _pos: &mut G) -> Option<Score> {
        None
    }

    /// Whether a null move is sound enough here (no zugzwang danger). Null-move pruning is only
    /// tried where the search option is on, the game allows a null move and this says yes.
    fn null_move_ok(&self, _pos: &G) -> bool {
        false
    }

    /// The `check`-th ProbCut test (from 0) for a node `depth` plies from the horizon, or None
    /// when there are no more. Where the search's ProbCut is on, a node away from the
    /// principal variation runs each test's shallow search against beta raised (and alpha
    /// lowered) by `sigma` times the selectivity's factor, and cuts when the shallow value
    /// clears it: the deep search would very likely have failed the same way. Shallow tests
    /// first, as they cost least. The default has none.
    fn probcut(&self, _pos: &G, _depth: u32, _check: usize) -> Option<ProbCut> {
        None
    }
}
