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

/// (middlegame, endgame) weight pairs by feature: the table of a linear, tapered evaluator
/// (xiangqi's Strong), read and written as [`parse_table`] and [`table_text`] do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairs(Vec<[i32; 2]>);

impl Pairs {
    /// `n` features, all zero.
    pub fn zero(n: usize) -> Pairs {
        Pairs(vec![[0, 0]; n])
    }

    /// The pairs given, one per feature.
    pub fn from_vec(w: Vec<[i32; 2]>) -> Pairs {
        Pairs(w)
    }

    /// The (middlegame, endgame) weight of feature `index`.
    pub fn get(&self, index: usize) -> [i32; 2] {
        self.0[index]
    }

    /// Sets the (middlegame, endgame) weight of feature `index`.
    pub fn set(&mut self, index: usize, w: [i32; 2]) {
        self.0[index] = w;
    }

    /// Every pair, in feature order.
    pub fn as_slice(&self) -> &[[i32; 2]] {
        &self.0
    }

    /// Reads `name mg eg` lines for the features `names`, each given once, within ±`max`.
    pub fn parse(text: &str, names: &[String], max: i32) -> Result<Pairs, WeightsError> {
        parse_table(text, names, "name mg eg", max).map(Pairs)
    }

    /// The table as [`Pairs::parse`] reads it, after `header` as `#` comments.
    pub fn to_text(&self, header: &str, names: &[String]) -> String {
        table_text(header, names, &self.0)
    }
}

/// The sums a feature walk builds with [`Pairs`]: middlegame and endgame apart, blended by the
/// phase at the end.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tapered {
    /// Σ w_mg · count.
    pub mg: i32,
    /// Σ w_eg · count.
    pub eg: i32,
}

impl Tapered {
    /// Adds `count` of a feature weighted `w`.
    #[inline(always)]
    pub fn add(&mut self, w: [i32; 2], count: i32) {
        self.mg += w[0] * count;
        self.eg += w[1] * count;
    }

    /// `(mg·phase + eg·(max − phase)) / max`. The truncating division is odd
    /// (`blend(-a) = -blend(a)`), which keeps an evaluation exactly colour-symmetric.
    pub fn blend(self, phase: i32, max: i32) -> i32 {
        (self.mg * phase + self.eg * (max - phase)) / max
    }
}
