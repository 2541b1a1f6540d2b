//! Weights tables as text: one `name a b` line per feature, two integer weights a line, blank
//! lines and `#` comments skipped. Chess's Strong and Gomoku's Patterns keep their weights so,
//! readable and diffable, and refuse a file that misses, repeats or misnames a feature.

use std::collections::HashMap;

/// Why a weights text was refused; each names the line it found wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// A line that is not three fields.
    #[error("line {line}: expected `{form}`: {text}")]
    Form {
        /// The line number, from 1.
        line: usize,
        /// The line.
        text: String,
        /// What a line should be (`name mg eg`).
        form: &'static str,
    },
    /// A name that is no feature.
    #[error("line {line}: unknown feature {name}")]
    Unknown {
        /// The line number, from 1.
        line: usize,
        /// The name as given.
        name: String,
    },
    /// A weight that is no integer within ±`max`.
    #[error("line {line}: bad weight {text} (an integer within ±{max})")]
    Weight {
        /// The line number, from 1.
        line: usize,
        /// The weight as given.
        text: String,
        /// The largest weight taken, either way.
        max: i32,
    },
    /// A feature given a second time.
    #[error("line {line}: {name} given twice")]
    Twice {
        /// The line number, from 1.
        line: usize,
        /// The feature.
        name: String,
    },
    /// A feature given no weight.
    #[error("no weight for {0}")]
    Missing(String),
}

/// Reads a table of `names.len()` features (line form `form`, for the errors), each given
/// exactly once, weights within ±`max`; returns the weights in the order of `names`.
pub fn parse_table(
    text: &str,
    names: &[String],
    form: &'static str,
    max: i32,
) -> Result<Vec<[i32; 2]>, WeightsError> {
    let index: HashMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let mut w = vec![[0; 2]; names.len()];
    let mut seen = vec![false; names.len()];
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let n = n + 1;
        let parts: Vec<&str> = line.split_whitespace().collect();
        let [name, a, b] = parts[..] else {
            return Err(WeightsError::Form {
                line: n,
                text: line.to_string(),
                form,
            });
        };
        let &i = index.get(name).ok_or_else(|| WeightsError::Unknown {
            line: n,
            name: name.to_string(),
        })?;
        let num = |s: &str| {
            s.parse::<i32>()
                .ok()
                .filter(|v| v.abs() <= max)
                .ok_or_else(|| WeightsError::Weight {
                    line: n,
                    text: s.to_string(),
                    max,
                })
        };
        if std::mem::replace(&mut seen[i], true) {
            return Err(WeightsError::Twice {
                line: n,
                name: name.to_string(),
            });
        }
        w[i] = [num(a)?, num(b)?];
    }
    if let Some(i) = seen.iter().position(|s| !s) {
        return Err(WeightsError::Missing(names[i].clone()));
    }
    Ok(w)
}

/// The table as [`parse_table`] reads it, after `header` (each of its lines written as a `#`
/// comment).
pub fn table_text(header: &str, names: &[String], w: &[[i32; 2]]) -> String {
    let mut s = String::new();
    for line in header.lines() {
        s.push_str("# ");
        s.push_str(line);
        s.push('\n');
    }
    for (name, [a, b]) in names.iter().zip(w) {
        s.push_str(&format!("{name} {a} {b}\n"));
    }
    s
}
