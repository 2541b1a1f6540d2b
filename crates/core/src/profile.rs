//! A game's search profile: which of the engine search's selective techniques suit it, and
//! their margins. It lives with the game, in the game's crate, because it is knowledge of the
//! game (chess trees are wide and most moves bad; tic-tac-toe is searched to its end); the
//! search reads it through `SearchConfig::with_profile`.

/// The selective techniques a game turns on, in the evaluator's units. The default turns
/// every one off: the plain engine search, exact against the reference algorithms but for
/// the table and quiescence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchProfile {
    /// Null-move pruning, where the evaluator allows it in the position.
    pub null_move: bool,
    /// Late-move reductions.
    pub lmr: bool,
    /// Futility margin per ply of remaining depth; 0 turns futility off.
    pub futility: i32,
    /// Internal iterative reduction.
    pub iir: bool,
    /// Late-move pruning.
    pub late_move_pruning: bool,
    /// Singular-extension margin per ply of depth; 0 turns them off.
    pub singular: i32,
    /// Continuation history in move ordering.
    pub continuation: bool,
    /// Correction history on the static value.
    pub correction: bool,
    /// Exchange pruning by the evaluator's static exchange.
    pub exchange_pruning: bool,
    /// Exchange pruning leaves every move that gives check alone, whatever it loses (where
    /// mating attacks give up material with check, as xiangqi's do).
    pub exchange_spares_checks: bool,
    /// Multi-ProbCut's selectivity: the factor on the evaluator's ProbCut sigma, in
    /// hundredths (Edax's levels: 110, 150, 200, 260, 330); 0 turns ProbCut off.
    pub probcut: i32,
}

impl SearchProfile {
    /// Every technique off (the default, as a constant for trait defaults).
    pub const NONE: SearchProfile = SearchProfile {
        null_move: false,
        lmr: false,
        futility: 0,
        iir: false,
        late_move_pruning: false,
        singular: 0,
        continuation: false,
        correction: false,
        exchange_pruning: false,
        exchange_spares_checks: false,
        probcut: 0,
    };
}

impl Default for SearchProfile {
    fn default() -> Self {
        SearchProfile::NONE
    }
}
