//! Test suites in EPD (Win At Chess, Bratko-Kopec, ...): a position a line, FEN's first four
//! fields, then operations, of which `bm` (best moves), `am` (moves to avoid) and `id` are
//! read. [`GameInfo::read_suite_line`] for chess.
//!
//! [`GameInfo::read_suite_line`]: duel_core::GameInfo::read_suite_line

use duel_core::{Game, SuiteError, SuitePosition};

use crate::Chess;

/// Reads one EPD line; its moves, written in SAN, come back in UCI notation.
pub(crate) fn read_suite_line(line: &str) -> Result<SuitePosition, SuiteError> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 5 {
        return Err(SuiteError::Malformed(
            "an EPD line needs four FEN fields and at least one operation".into(),
        ));
    }
    let position = format!("{} 0 1", fields[..4].join(" "));
    let pos = Chess::from_text(&position)?;
    let ops = fields[4..].join(" ");
    let mut problem = SuitePosition {
        id: None,
        position,
        best: Vec::new(),
        avoid: Vec::new(),
    };
    for op in ops.split(';').map(str::trim).filter(|o| !o.is_empty()) {
        let (code, operand) = op.split_once(' ').unwrap_or((op, ""));
        let moves = |list: &str| -> Result<Vec<String>, SuiteError> {
            list.split_whitespace()
                .map(|san| {
                    pos.parse_san(san)
                        .map(|m| pos.format_move(m))
                        .map_err(|source| SuiteError::Move {
                            text: san.to_string(),
                            source,
                        })
                })
                .collect()
        };
        match code {
            "bm" => problem.best = moves(operand)?,
            "am" => problem.avoid = moves(operand)?,
            "id" => problem.id = Some(operand.trim().trim_matches('"').to_string()),
            _ => {}
        }
    }
    if problem.best.is_empty() && problem.avoid.is_empty() {
        return Err(SuiteError::Malformed("no bm or am operation".into()));
    }
    Ok(problem)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_lines() {
        let p = read_suite_line(
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";",
        )
        .unwrap();
        assert_eq!(p.id.as_deref(), Some("WAC.001"));
        assert_eq!(p.best, ["g3g6"]);
        let p = read_suite_line("4k3/8/8/8/8/8/8/R3K3 w Q - am O-O-O Ra8+;").unwrap();
        assert_eq!(p.avoid, ["e1c1", "a1a8"]);
        assert_eq!(p.id, None);
        for (bad, says) in [
            ("4k3/8/8/8/8/8/8/R3K3 w Q -", "operation"),
            ("4k3/8/8/8/8/8/8/R3K3 w Q - bm Nf3;", "move 'Nf3'"),
            ("4k3/8/8/8/8/8/8/R3K3 w Q - id \"x\";", "no bm"),
            (
                "4k3/8/8/9/8/8/8/R3K3 w Q - bm Ra8+;",
                "invalid chess position",
            ),
        ] {
            let e = read_suite_line(bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }
}
