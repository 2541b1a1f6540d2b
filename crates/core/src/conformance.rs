//! The conformance kit: invariants every [`Game`] must keep, checked along seeded random games.
//! Each game's tests call [`check_game`] on a few start positions, and [`check_view`] and
//! [`check_record`] for what a front end is shown of them and reads back.

use crate::{BoardStyle, BoardView, Game, GameInfo, MoveCells, RecordInfo, Side, SplitMix64};

/// What went wrong, with the position and move that showed it.
pub type Failure = String;

/// Plays `games` random games from `start` (seeded, so failures reproduce) and checks at every
/// position:
/// - the move list is empty exactly when the game is over, and has no duplicates;
/// - every generated move prints, parses back to itself, and is accepted by `parse_move`;
/// - `play` then `undo` restores the position text, the hash and the structure key;
/// - the incremental hash equals the hash from scratch, before and after each move;
/// - the position text round-trips and gives back the same hash and structure key;
/// - the side to move alternates on every move and `ply` counts up by one.
///
/// Returns the first failure found.
pub fn check_game<G: Game>(start: &G, games: usize, seed: u64) -> Result<(), Failure> {
    let mut rng = SplitMix64::new(seed);
    let mut moves = Vec::new();
    for game in 0..games {
        let mut pos = start.clone();
        let mut line: Vec<G::Move> = Vec::new();
        loop {
            let here = pos.to_text();
            let ctx = |what: &str| format!("game {game}, position '{here}': {what}");
            check_position(&pos).map_err(|e| ctx(&e))?;
            pos.generate_moves(&mut moves);
            match (pos.outcome(), moves.is_empty()) {
                (Some(_), false) => return Err(ctx("finished game has legal moves")),
                (None, true) => return Err(ctx("game not finished but no legal moves")),
                (Some(_), true) => break,
                (None, false) => {}
            }
            for (i, &mv) in moves.iter().enumerate() {
                if moves[..i].contains(&mv) {
                    return Err(ctx(&format!("duplicate move {mv:?}")));
                }
                // History tables are sized by these ranges; an index past one would panic.
                if G::move_index(mv) >= G::MOVE_INDICES
                    || pos.piece_move_index(mv) >= G::PIECE_MOVE_INDICES
                {
                    return Err(ctx(&format!("move {mv:?}: an index out of its range")));
                }
                let text = pos.format_move(mv);
                match pos.parse_move(&text) {
                    Ok(back) if back == mv => {}
                    Ok(back) => {
                        return Err(ctx(&format!("'{text}' parses as {back:?}, not {mv:?}")))
                    }
                    Err(e) => return Err(ctx(&format!("generated move '{text}' refused: {e}"))),
                }
                let (hash, side, ply) = (pos.hash(), pos.side_to_move(), pos.ply());
                let structure = pos.structure_key();
                pos.play(mv);
                if pos.hash() != pos.hash_from_scratch() {
                    return Err(ctx(&format!(
                        "after {text}: incremental hash != hash from scratch"
                    )));
                }
                // Othello-style passes still hand the turn over; every game alternates.
                if pos.side_to_move() != side.other() || pos.ply() != ply + 1 {
                    return Err(ctx(&format!(
                        "after {text}: side to move or ply did not advance"
                    )));
                }
                pos.undo(mv);
                if pos.to_text() != here || pos.hash() != hash || pos.structure_key() != structure {
                    return Err(ctx(&format!(
                        "play+undo of {text} did not restore the position"
                    )));
                }
            }
            let mv = moves[rng.below(moves.len())];
            pos.play(mv);
            line.push(mv);
        }
        // Unwind the whole game: undo must work at any depth, not just one ply.
        while let Some(mv) = line.pop() {
            pos.undo(mv);
        }
        if pos.to_text() != start.to_text() || pos.hash() != start.hash() {
            return Err(format!(
                "game {game}: undoing the whole game did not restore the start"
            ));
        }
    }
    Ok(())
}

/// The checks that need only the position: the hash, and the text round trip keeping the
/// position, its hash and its outcome (except an end by a history rule, a chess repetition's
/// draw or a xiangqi perpetual's loss, which the text cannot carry: see
/// [`Game::OUTCOME_NEEDS_HISTORY`]).
pub fn check_position<G: Game>(pos: &G) -> Result<(), Failure> {
    if pos.hash() != pos.hash_from_scratch() {
        return Err("incremental hash != hash from scratch".into());
    }
    let text = pos.to_text();
    let back = G::from_text(&text).map_err(|e| format!("own text refused: {e}"))?;
    if back.to_text() != text {
        return Err(format!("text round trip gave '{}'", back.to_text()));
    }
    if back.hash() != pos.hash() {
        return Err("text round trip changed the hash".into());
    }
    // The text is read from scratch: an incremental structure key must agree with it.
    if back.structure_key() != pos.structure_key() {
        return Err("text round trip changed the structure key".into());
    }
    let history_end =
        G::OUTCOME_NEEDS_HISTORY && pos.outcome().is_some() && back.outcome().is_none();
    if back.outcome() != pos.outcome() && !history_end {
        return Err("text round trip changed the outcome".into());
    }
    Ok(())
}

/// The checks for outside text, for fuzz targets and property tests: whatever `position` and
/// `mv` hold, reading them must not panic, and what they are read as must keep the contract.
/// Where `position` reads as a position, [`check_position`] holds for it, its move list is
/// empty exactly when it is over and every move in it prints and parses back to itself; where
/// `mv` then reads as a move, it is one of those moves, and playing it keeps
/// [`check_position`] and undoing it gives back the position and its hash. Cheap enough for
/// a fuzzer's every input: no random games are played.
pub fn check_text<G: Game>(position: &str, mv: &str) -> Result<(), Failure> {
    let Ok(mut pos) = G::from_text(position) else {
        return Ok(());
    };
    let at = |what: String| format!("{what} (position '{}')", pos.to_text());
    check_position(&pos).map_err(at)?;
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    if moves.is_empty() != pos.outcome().is_some() {
        return Err(at(
            "the move list is empty but the game goes on, or not empty but over".into(),
        ));
    }
    for &m in &moves {
        let text = pos.format_move(m);
        if pos.parse_move(&text) != Ok(m) {
            return Err(at(format!("move '{text}' does not parse back to itself")));
        }
    }
    let Ok(m) = pos.parse_move(mv) else {
        return Ok(());
    };
    if !moves.contains(&m) {
        return Err(at(format!("'{mv}' was read as {m:?}, not a legal move")));
    }
    let (before, hash) = (pos.to_text(), pos.hash());
    pos.play(m);
    check_position(&pos).map_err(|e| format!("{e} (after '{mv}' from '{before}')"))?;
    pos.undo(m);
    if pos.to_text() != before || pos.hash() != hash {
        return Err(format!("undoing '{mv}' did not give back '{before}'"));
    }
    Ok(())
}

/// Plays `games` random games from `start` (seeded, so failures reproduce) and checks at every
/// position what a graphical front end is shown ([`GameInfo::board_view`],
/// [`GameInfo::move_cells`]), by the contract of [`GameInfo::BOARD_STYLE`] alone:
/// - the grid has `cols * rows` cells, a label for each column and row, and keeps its size;
/// - every legal move's cells are on the grid, and undoing the move gives back the view;
/// - a move's `to` holds a piece of the mover after it;
/// - a placement (every style but [`BoardStyle::Checkered`] and [`BoardStyle::Xiangqi`]) has
///   no `from`, a `to` that was empty and that no other move places on, and changes no other
///   cell, except that [`BoardStyle::Discs`] turns opponent's discs into the mover's and a
///   [`BoardStyle::Drop`] piece rests on the bottom row or on another piece;
/// - a [`BoardStyle::Checkered`] or [`BoardStyle::Xiangqi`] move goes from a cell holding a
///   piece of the side to move, leaves the mover as many pieces and the opponent no more;
/// - a move that touches no cell (a pass) changes none.
///
/// Returns the first failure found.
pub fn check_view<G: GameInfo>(start: &G, games: usize, seed: u64) -> Result<(), Failure> {
    let mut rng = SplitMix64::new(seed);
    for game in 0..games {
        let mut pos = start.clone();
        for mv in random_game(start, &mut rng)
            .into_iter()
            .map(Some)
            .chain([None])
        {
            check_view_here(&mut pos)
                .map_err(|e| format!("game {game}, position '{}': {e}", pos.to_text()))?;
            if let Some(mv) = mv {
                pos.play(mv);
            }
        }
    }
    Ok(())
}

/// The moves of a game from `start` to its end, each picked by `rng`.
fn random_game<G: Game>(start: &G, rng: &mut SplitMix64) -> Vec<G::Move> {
    let mut pos = start.clone();
    let (mut list, mut moves) = (Vec::new(), Vec::new());
    loop {
        pos.generate_moves(&mut list);
        let Some(&mv) = list.get(rng.below(list.len().max(1))) else {
            return moves;
        };
        pos.play(mv);
        moves.push(mv);
    }
}

/// The checks of [`check_view`] in one position and for each of its moves.
fn check_view_here<G: GameInfo>(pos: &mut G) -> Result<(), Failure> {
    let view = pos.board_view();
    check_grid(&view)?;
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut placed = Vec::new();
    for mv in moves {
        check_move_cells(pos, mv, &view, &mut placed)
            .map_err(|e| format!("move {}: {e}", pos.format_move(mv)))?;
    }
    Ok(())
}

/// The grid's cells and labels agree with its size.
fn check_grid(view: &BoardView) -> Result<(), Failure> {
    let (cols, rows) = (usize::from(view.cols), usize::from(view.rows));
    if cols == 0 || rows == 0 {
        return Err(format!("a {cols}x{rows} grid has no cells"));
    }
    if view.cells.len() != cols * rows {
        return Err(format!(
            "{} cells in a {cols}x{rows} grid",
            view.cells.len()
        ));
    }
    if view.cell_names.len() != cols * rows {
        return Err(format!(
            "{} cell names for a {cols}x{rows} grid",
            view.cell_names.len()
        ));
    }
    if view.col_labels.len() != cols || view.row_labels.len() != rows {
        return Err(format!(
            "{} column and {} row labels for a {cols}x{rows} grid",
            view.col_labels.len(),
            view.row_labels.len()
        ));
    }
    Ok(())
}

/// The pieces of `side` on the grid.
fn pieces(view: &BoardView, side: Side) -> usize {
    view.cells
        .iter()
        .flatten()
        .filter(|p| p.side == side)
        .count()
}

/// The checks of [`check_view`] for one legal move `mv` of `pos`, whose view is `before`;
/// `placed` collects the cells the position's placements land on. `pos` is given back as it
/// was.
fn check_move_cells<G: GameInfo>(
    pos: &mut G,
    mv: G::Move,
    before: &BoardView,
    placed: &mut Vec<usize>,
) -> Result<(), Failure> {
    let n = before.cells.len();
    let cols = usize::from(before.cols);
    let mover = pos.side_to_move();
    let MoveCells { from, to } = pos.move_cells(mv);
    let (from, to) = (from.map(usize::from), to.map(usize::from));
    if let Some(c) = from.into_iter().chain(to).find(|&c| c >= n) {
        return Err(format!("cell {c} is off the {n}-cell grid"));
    }
    // A front end writes a click as the cells' names: a placement is its cell's name, a move
    // from a cell begins with that cell's.
    let text = pos.format_move(mv);
    let named = match (from, to) {
        (None, Some(to)) => text == before.cell_names[to],
        (Some(from), _) => text.starts_with(&before.cell_names[from]),
        (None, None) => true,
    };
    if !named {
        return Err(format!("'{text}' is not written as its cells are named"));
    }
    pos.play(mv);
    let after = pos.board_view();
    pos.undo(mv);
    if pos.board_view() != *before {
        return Err("undo did not give back the view".into());
    }
    if (after.cols, after.rows) != (before.cols, before.rows) {
        return Err("the grid changed size".into());
    }
    check_grid(&after)?;
    let holds = |view: &BoardView, cell: usize, side: Side| {
        view.cells[cell].is_some_and(|p| p.side == side)
    };
    let changed = (0..n).filter(|&c| before.cells[c] != after.cells[c] && Some(c) != to);
    let Some(to) = to else {
        if from.is_some() {
            return Err("a move with a `from` and no `to`".into());
        }
        return match changed.collect::<Vec<_>>() {
            c if c.is_empty() => Ok(()),
            c => Err(format!("a move that touches no cell changed cells {c:?}")),
        };
    };
    if !holds(&after, to, mover) {
        return Err(format!(
            "cell {to} holds no piece of the mover after the move"
        ));
    }
    if G::BOARD_STYLE.moves_pieces() {
        let Some(from) = from else {
            return Err("a move from one cell to another without a `from`".into());
        };
        if !holds(before, from, mover) {
            return Err(format!("cell {from} holds no piece of the side to move"));
        }
        if pieces(&after, mover) != pieces(before, mover) {
            return Err("the mover's pieces changed in number".into());
        }
        if pieces(&after, mover.other()) > pieces(before, mover.other()) {
            return Err("the opponent gained pieces".into());
        }
        return Ok(());
    }
    if from.is_some() {
        return Err("a placement with a `from`".into());
    }
    if before.cells[to].is_some() {
        return Err(format!("cell {to} was not empty"));
    }
    if placed.contains(&to) {
        return Err(format!("another move places on cell {to} too"));
    }
    placed.push(to);
    if G::BOARD_STYLE == BoardStyle::Drop && to + cols < n && before.cells[to + cols].is_none() {
        return Err(format!("the piece on cell {to} has nothing under it"));
    }
    let flips = G::BOARD_STYLE == BoardStyle::Discs;
    for c in changed {
        if !(flips && holds(before, c, mover.other()) && holds(&after, c, mover)) {
            return Err(format!("cell {c} changed too"));
        }
    }
    Ok(())
}

/// [`check_text`] for a record: whatever `text` holds, [`GameInfo::read_record`] in `start`'s
/// variant must not panic; where it reads a game, every move is legal where it is played,
/// the start and the end pass [`check_position`], and the game's own record of it (where
/// it has one) reads back to the same start and moves.
pub fn check_record_text<G: GameInfo>(start: &G, text: &str) -> Result<(), Failure> {
    let Ok((first, moves)) = G::read_record(start, text) else {
        return Ok(());
    };
    check_position(&first).map_err(|e| format!("{e} (start '{}')", first.to_text()))?;
    let mut pos = first.clone();
    let mut legal = Vec::new();
    for (i, &mv) in moves.iter().enumerate() {
        pos.generate_moves(&mut legal);
        if !legal.contains(&mv) {
            return Err(format!(
                "move {i} ({mv:?}) is not legal in '{}'",
                pos.to_text()
            ));
        }
        pos.play(mv);
    }
    check_position(&pos).map_err(|e| format!("{e} (end '{}')", pos.to_text()))?;
    if let Some(record) = G::record(&first, &moves, &RecordInfo::default()) {
        let back = G::read_record(&first, &record);
        let same = back
            .as_ref()
            .is_ok_and(|(b, m)| b.to_text() == first.to_text() && *m == moves);
        if !same {
            return Err(format!("own record read back as {back:?}:\n{record}"));
        }
    }
    Ok(())
}

/// Plays `games` random games from `start` (seeded, so failures reproduce) and reads each
/// back: its record ([`GameInfo::record`], where the game has one) through
/// [`GameInfo::read_record`] must give a start with `start`'s text and the same moves; and
/// the final position's text, read as a record, must lead to the final position (a game
/// whose text is its move list gives the moves, any other the position itself).
///
/// Returns the first failure found.
pub fn check_record<G: GameInfo>(start: &G, games: usize, seed: u64) -> Result<(), Failure> {
    let mut rng = SplitMix64::new(seed);
    for game in 0..games {
        let moves = random_game(start, &mut rng);
        let mut end = start.clone();
        for &mv in &moves {
            end.play(mv);
        }
        let ctx = |what: String| format!("game {game}, ending in '{}': {what}", end.to_text());
        if let Some(record) = G::record(start, &moves, &RecordInfo::default()) {
            let (first, read) =
                G::read_record(start, &record).map_err(|e| ctx(format!("record refused: {e}")))?;
            if first.to_text() != start.to_text() || read != moves {
                return Err(ctx(format!(
                    "record read back as '{}' and {} moves, not '{}' and {}",
                    first.to_text(),
                    read.len(),
                    start.to_text(),
                    moves.len()
                )));
            }
        }
        let (mut pos, read) = G::read_record(start, &end.to_text())
            .map_err(|e| ctx(format!("text refused as a record: {e}")))?;
        for mv in read {
            pos.play(mv);
        }
        if pos.to_text() != end.to_text() {
            return Err(ctx(format!(
                "its text read as a record led to '{}'",
                pos.to_text()
            )));
        }
    }
    Ok(())
}
