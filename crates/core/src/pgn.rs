//! PGN's tag pairs and results, for every game whose record is shaped as PGN: chess and
//! xiangqi write PGN proper, Connect Four its move list under the same tags, so that who
//! played, when and how it ended read the same in every game's record.

use crate::{Game, Outcome, Side};

/// The result tokens that end PGN movetext, the first player's points first.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// The result of a game that has reached `end`, as PGN writes it: `1-0` when the first player
/// has won, `0-1` when the second has, `1/2-1/2` for a draw, `*` while the game goes on.
pub fn result<G: Game>(end: &G) -> &'static str {
    match (end.outcome(), end.side_to_move()) {
        (None, _) => "*",
        (Some(Outcome::Draw), _) => "1/2-1/2",
        (Some(Outcome::Win), Side::First) | (Some(Outcome::Loss), Side::Second) => "1-0",
        _ => "0-1",
    }
}

/// Tag pairs as PGN's tag section: one `[Name "value"]` a line, in the order given, with `\`
/// and `"` escaped in the values.
pub fn write_tags<K: AsRef<str>, V: AsRef<str>>(tags: impl IntoIterator<Item = (K, V)>) -> String {
    let mut out = String::new();
    for (k, v) in tags {
        let v = v.as_ref().replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{} \"{v}\"]\n", k.as_ref()));
    }
    out
}

/// Why a tag section cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TagError {
    /// What follows a `[` is not a tag name (letters, digits and `_`) then a quoted value.
    #[error("tag '[{0}': a name, then its value in quotes")]
    Name(String),
    /// A tag value without its closing quote.
    #[error("tag {0}: its value's quote is not closed")]
    Quote(String),
    /// A tag without its `]` after the value.
    #[error("tag {0}: no ']' after its value")]
    End(String),
}

/// Tag pairs, name and value, in the order a record gives them.
pub type Tags = Vec<(String, String)>;

/// The tag pairs at the start of `text` (none if it does not begin with `[`), the values
/// unescaped, and the text after them: what [`write_tags`] writes reads back.
pub fn read_tags(text: &str) -> Result<(Tags, &str), TagError> {
    let mut tags = Vec::new();
    let mut rest = text.trim_start();
    while let Some(after) = rest.strip_prefix('[') {
        let (head, value_on) = after
            .split_once('"')
            .ok_or_else(|| TagError::Name(after.lines().next().unwrap_or_default().to_string()))?;
        let name = head.trim();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(TagError::Name(head.to_string()));
        }
        let mut value = String::new();
        let mut chars = value_on.char_indices();
        let closed = loop {
            match chars.next() {
                Some((i, '"')) => break i + 1,
                Some((_, '\\')) => value.extend(chars.next().map(|(_, c)| c)),
                Some((_, c)) => value.push(c),
                None => return Err(TagError::Quote(name.to_string())),
            }
        };
        rest = value_on[closed..]
            .trim_start()
            .strip_prefix(']')
            .ok_or_else(|| TagError::End(name.to_string()))?
            .trim_start();
        tags.push((name.to_string(), value));
    }
    Ok((tags, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_read_back_with_their_escapes() {
        let tags = [
            ("Event", "a \"quoted\" \\ name]"),
            ("X", ""),
            ("Round", "3"),
        ];
        let text = write_tags(tags) + "\n4453 1-0\n";
        assert!(
            text.starts_with("[Event \"a \\\"quoted\\\" \\\\ name]\"]\n"),
            "{text}"
        );
        let (read, rest) = read_tags(&text).unwrap();
        let read: Vec<(&str, &str)> = read.iter().map(|(k, v)| (&k[..], &v[..])).collect();
        assert_eq!(read, tags);
        assert_eq!(rest, "4453 1-0\n");
        assert_eq!(read_tags("4453"), Ok((Vec::new(), "4453")));
    }

    #[test]
    fn broken_tags_are_named() {
        for (text, says) in [
            ("[Event", "'[Event'"),
            ("[Ev ent \"a\"]", "'[Ev ent '"),
            ("[Event \"a]", "Event: its value's quote"),
            ("[Event \"a\" 4453", "Event: no ']'"),
        ] {
            let e = read_tags(text).unwrap_err().to_string();
            assert!(e.contains(says), "{text}: {e}");
        }
    }
}
