//! The variants: which rule decides a win, and the board's size. Both are runtime values of
//! the position (a Gomocup manager sets them per game with `INFO rule` and `RECTSTART`).

use std::fmt;

/// The smallest board side.
pub const MIN_SIZE: u8 = 5;
/// The largest board side (Gomocup's managers go up to 22; the move index is sized for it).
pub const MAX_SIZE: u8 = 22;
/// The default board side.
pub const DEFAULT_SIZE: u8 = 15;

/// What wins, as Gomocup numbers the rules (`INFO rule`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Rule {
    /// Five or more in a row wins (Gomocup rule 0).
    #[default]
    Freestyle,
    /// Exactly five wins; an overline (six or more) does not, and play goes on (rule 1).
    Standard,
    /// Renju (rule 4): Black wins with exactly five and may not play a double three, a double
    /// four or an overline (unless the move also makes five); White wins with five or more.
    Renju,
    /// Caro as Piskvork plays Gomocup rule 8: five or more wins, except a line of exactly
    /// five with an opponent stone at both ends (the board's edge is not a stone).
    Caro,
}

impl Rule {
    /// Every rule, in Gomocup's order.
    pub const ALL: [Rule; 4] = [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro];

    /// The rule of Gomocup's `INFO rule n`, whose bit 2 ("continuous game") is the manager's
    /// business and ignored here; `None` for numbers duel does not play (Piskvork's 9,
    /// caro with exactly five, among them).
    pub const fn from_gomocup(n: u32) -> Option<Rule> {
        match n & !2 {
            0 => Some(Rule::Freestyle),
            1 => Some(Rule::Standard),
            4 => Some(Rule::Renju),
            8 => Some(Rule::Caro),
            _ => None,
        }
    }

    /// Gomocup's number for the rule.
    pub const fn gomocup(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
        }
    }

    /// The rule's name in variant specs (`renju`).
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
        }
    }

    /// Reads a rule name or `ruleN` (Gomocup's number: 0, 1, 4 or 8), in any case.
    fn parse(word: &str) -> Option<Rule> {
        let word = word.to_ascii_lowercase();
        if let Some(n) = word.strip_prefix("rule") {
            let n: u32 = n.parse().ok()?;
            return Rule::from_gomocup(n).filter(|r| r.gomocup() == n);
        }
        Rule::ALL.into_iter().find(|r| r.name() == word)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a variant spec or size was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// A side outside `MIN_SIZE..=MAX_SIZE`.
    #[error("board size {width}x{height} is outside {MIN_SIZE}..={MAX_SIZE}")]
    Size {
        /// The width asked for.
        width: u32,
        /// The height asked for.
        height: u32,
    },
    /// A part that is neither a rule nor a size.
    #[error(
        "unknown rule or size '{0}' (rules: freestyle, standard, renju, caro or rule0, rule1, \
         rule4, rule8; sizes: 20 or 15x20)"
    )]
    Unknown(String),
    /// Two rules or two sizes.
    #[error("'{0}' gives the {1} twice")]
    Twice(String, &'static str),
    /// An empty part (`renju::20`).
    #[error("empty part in variant '{0}'")]
    Empty(String),
}

/// A rule and a board size: everything that differs between two empty boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Variant {
    /// What wins.
    pub rule: Rule,
    /// Columns, `MIN_SIZE..=MAX_SIZE`.
    pub width: u8,
    /// Rows, `MIN_SIZE..=MAX_SIZE`.
    pub height: u8,
}

impl Default for Variant {
    /// Freestyle on 15x15.
    fn default() -> Self {
        Variant {
            rule: Rule::Freestyle,
            width: DEFAULT_SIZE,
            height: DEFAULT_SIZE,
        }
    }
}

impl Variant {
    /// The variant, if both sides are within `MIN_SIZE..=MAX_SIZE`.
    pub fn new(width: u32, height: u32, rule: Rule) -> Result<Variant, VariantError> {
        let ok = |n: u32| (MIN_SIZE as u32..=MAX_SIZE as u32).contains(&n);
        if !ok(width) || !ok(height) {
            return Err(VariantError::Size { width, height });
        }
        Ok(Variant {
            rule,
            width: width as u8,
            height: height as u8,
        })
    }

    /// Reads a spec: a rule and/or a size (`20`, `15x20` = width x height) joined by `:`, in
    /// any order (`renju:20`, `20`, `standard:15x20`). What is not given is the default's.
    /// The empty spec is the default.
    pub fn parse(spec: &str) -> Result<Variant, VariantError> {
        let mut rule = None;
        let mut size = None;
        if spec.trim().is_empty() {
            return Ok(Variant::default());
        }
        for part in spec.split(':').map(str::trim) {
            if part.is_empty() {
                return Err(VariantError::Empty(spec.to_string()));
            }
            if let Some(r) = Rule::parse(part) {
                if rule.replace(r).is_some() {
                    return Err(VariantError::Twice(spec.to_string(), "rule"));
                }
            } else if let Some(s) = parse_size(part) {
                if size.replace(s).is_some() {
                    return Err(VariantError::Twice(spec.to_string(), "size"));
                }
            } else {
                return Err(VariantError::Unknown(part.to_string()));
            }
        }
        let (w, h) = size.unwrap_or((DEFAULT_SIZE as u32, DEFAULT_SIZE as u32));
        Variant::new(w, h, rule.unwrap_or_default())
    }

    /// True for freestyle on 15x15, which position texts leave unsaid.
    pub fn is_default(self) -> bool {
        self == Variant::default()
    }

    /// The number of cells.
    pub fn area(self) -> usize {
        self.width as usize * self.height as usize
    }
}

/// `20` or `15x20`, each number a whole number (range checked by [`Variant::new`]).
fn parse_size(part: &str) -> Option<(u32, u32)> {
    let number = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u32>().ok())
            .flatten()
    };
    match part.split_once(['x', 'X']) {
        Some((w, h)) => Some((number(w)?, number(h)?)),
        None => number(part).map(|n| (n, n)),
    }
}

/// The spec [`Variant::parse`] reads back: the rule unless freestyle, then the size unless
/// 15x15 (`renju:20`, `standard:15x20`); empty for the default.
impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if self.rule != Rule::Freestyle {
            parts.push(self.rule.name().to_string());
        }
        if (self.width, self.height) != (DEFAULT_SIZE, DEFAULT_SIZE) {
            parts.push(if self.width == self.height {
                self.width.to_string()
            } else {
                format!("{}x{}", self.width, self.height)
            });
        }
        f.write_str(&parts.join(":"))
    }
}
