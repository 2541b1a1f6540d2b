//! Text for people: scores, positions, times, and the recorded tree as text, Graphviz or JSON.

use std::fmt::Write as _;
use std::time::Duration;

use duel_engine::tree::{annotate, bounded, role, to_move, Annotated, Kind};
use duel_engine::{Score, SearchReport, Session, Side, TreeNode};

/// "the start position (X to move)" or "position 519 (O to move)".
pub fn describe(s: &dyn Session) -> String {
    let text = s.position();
    let place = if text.is_empty() {
        "the start position".to_string()
    } else {
        format!("position {text}")
    };
    match s.outcome() {
        None => format!("{place} ({} to move)", s.side_name(s.side_to_move())),
        Some(_) => format!("{place} (game over: {})", result(s)),
    }
}

/// "X wins", "draw".
pub fn result(s: &dyn Session) -> String {
    let how = match (s.outcome(), s.winner()) {
        (None, _) => return "game in progress".into(),
        (Some(_), Some(side)) => format!("{} wins", s.side_name(side)),
        (Some(_), None) => "draw".into(),
    };
    // Why, where the game says more than the result itself (`draw`, `win`).
    match s.end_reason() {
        "draw" | "win" => how,
        why => format!("{how} ({why})"),
    }
}

/// An exact value in words, for the side to move: "draw", "X wins in 5 plies", "O loses in 4
/// plies".
pub fn exact_words(value: Score, side: &str) -> String {
    match value.plies_to_end() {
        Some(n) if value.is_win() => format!("{side} wins in {n} {}", plies(n)),
        Some(n) => format!("{side} loses in {n} {}", plies(n)),
        None if value == Score::DRAW => "draw".into(),
        None => format!("{value} (not exact)"),
    }
}

/// A proven result without its distance: `X wins`, `X loses`, `draw`.
pub fn outcome_words(value: Score, side: &str) -> String {
    if value.is_win() {
        format!("{side} wins")
    } else if value.is_loss() {
        format!("{side} loses")
    } else {
        "draw".into()
    }
}

fn plies(n: i32) -> &'static str {
    if n == 1 {
        "ply"
    } else {
        "plies"
    }
}

/// A report's score: the search's value, or `exact +6` when the game's solver gave the final
/// margin (the value alone would only say "win").
pub fn score(r: &SearchReport) -> String {
    match r.margin {
        Some(0) => "exact 0".into(),
        Some(m) => format!("exact {m:+}"),
        // Stopped inside an iteration after a better move: that move's value bounds the root's.
        None if r.partial => format!(">={}", r.value),
        None => r.value.to_string(),
    }
}

/// Milliseconds with three decimals: `1.234 ms` is never seconds.
pub fn ms(t: Duration) -> String {
    format!("{:.3}", t.as_secs_f64() * 1000.0)
}

/// The tree as indented text: one node per line, its move and its backed-up value for MAX
/// (`>=`/`<=` where alpha-beta only proved a bound); moves a cut-off made unnecessary are marked
/// `cut`.
pub fn tree_text(root: &TreeNode, side_names: [&str; 2]) -> String {
    fn go(a: &Annotated<'_>, depth: usize, out: &mut String) {
        let indent = "  ".repeat(depth);
        if a.node.is_pruned() {
            let _ = writeln!(out, "{indent}{}  cut", a.node.mv);
        } else if a.children.is_empty() {
            let _ = writeln!(out, "{indent}{}  {}", a.node.mv, bounded(a));
        } else {
            let tag = role(to_move(a.node));
            let _ = writeln!(out, "{indent}{}  {}  {tag}", a.node.mv, bounded(a));
        }
        for c in &a.children {
            go(c, depth + 1, out);
        }
    }
    let a = annotate(root);
    let mut out = String::new();
    let side = to_move(root);
    let _ = writeln!(
        out,
        "root ({} to move)  {}  {}",
        side_names[side as usize],
        bounded(&a),
        role(side)
    );
    for c in &a.children {
        go(c, 1, &mut out);
    }
    out
}

/// The tree as a Graphviz digraph: MAX-to-move nodes as boxes, MIN-to-move nodes as ellipses,
/// edges labelled with moves, pruned moves dashed and grey.
pub fn tree_dot(root: &TreeNode) -> String {
    fn go(a: &Annotated<'_>, id: usize, next: &mut usize, out: &mut String) {
        for c in &a.children {
            *next += 1;
            let cid = *next;
            let mv = escape(&c.node.mv);
            if c.node.is_pruned() {
                let _ = writeln!(
                    out,
                    "  n{cid} [label=\"cut\", shape=plaintext, fontcolor=grey];\n  n{id} -> \
                     n{cid} [label=\"{mv}\", style=dashed, color=grey, fontcolor=grey];"
                );
            } else {
                let shape = if to_move(c.node) == Side::First {
                    "box"
                } else {
                    "ellipse"
                };
                let _ = writeln!(
                    out,
                    "  n{cid} [label=\"{}\", shape={shape}];\n  n{id} -> n{cid} [label=\"{mv}\"];",
                    escape(&bounded(c))
                );
                go(c, cid, next, out);
            }
        }
    }
    let a = annotate(root);
    let mut out = String::from(
        "digraph tree {\n  // Values are for MAX (the first player); boxes: MAX to move, ellipses: \
         MIN to move;\n  // dashed grey edges: moves pruned by a cut-off.\n  node \
         [fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\"];\n",
    );
    let shape = if to_move(root) == Side::First {
        "box"
    } else {
        "ellipse"
    };
    let _ = writeln!(
        out,
        "  n0 [label=\"{}\", shape={shape}, style=bold];",
        escape(&bounded(&a))
    );
    let mut next = 0;
    go(&a, 0, &mut next, &mut out);
    out.push_str("}\n");
    out
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The tree as nested JSON objects: `move`, `to_move` (MAX/MIN), `value` (for MAX, an integer;
/// wins are ±30000 minus the distance), `bound` (`exact`, `lower`, `upper`), `value_text`,
/// `pruned`, `children`.
pub fn tree_json(root: &TreeNode) -> serde_json::Value {
    fn go(a: &Annotated<'_>) -> serde_json::Value {
        let children: Vec<serde_json::Value> = a.children.iter().map(go).collect();
        let pruned = a.node.is_pruned();
        serde_json::json!({
            "move": a.node.mv,
            "to_move": role(to_move(a.node)),
            "value": a.value.map(|v| v.0),
            "bound": if pruned { None } else { Some(match a.kind {
                Kind::Exact => "exact",
                Kind::Lower => "lower",
                Kind::Upper => "upper",
            }) },
            "value_text": if pruned { None } else { Some(bounded(a)) },
            "pruned": pruned,
            "children": children,
        })
    }
    go(&annotate(root))
}

/// Counts the pruned moves of a tree.
pub fn pruned(n: &TreeNode) -> usize {
    usize::from(n.is_pruned()) + n.children.iter().map(pruned).sum::<usize>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_units() {
        assert_eq!(exact_words(Score::DRAW, "X"), "draw");
        assert_eq!(exact_words(Score::win_in(1), "X"), "X wins in 1 ply");
        assert_eq!(exact_words(Score::loss_in(4), "O"), "O loses in 4 plies");
        assert_eq!(ms(Duration::from_micros(1500)), "1.500");
        assert_eq!(ms(Duration::from_secs(2)), "2000.000");
    }
}
