//! What every game's text diagram ([`crate::GameInfo::diagram`]) shares, so that the boards
//! of all the games read alike in the terminal: a cell is one character after a separator,
//! and the last move's cell stands in brackets (`. X[O]. .`), taking the two separators
//! around it, so that no column moves.

/// One row of cells: each character after a space, a marked cell (the last move) in brackets
/// instead, then the separator that closes the row: a space, or the `]` of a mark in the last
/// cell. A row that ends the line is written `trim_end`; a label after the row (Othello's
/// rank on the right) goes straight after it. Two marks side by side would share a
/// separator, and the second's `[` is written: a diagram marks one cell a row.
pub fn row(cells: impl IntoIterator<Item = (char, bool)>) -> String {
    let mut out = String::new();
    let mut after_mark = false;
    for (c, marked) in cells {
        out.push(match (marked, after_mark) {
            (true, _) => '[',
            (false, true) => ']',
            (false, false) => ' ',
        });
        out.push(c);
        after_mark = marked;
    }
    out.push(if after_mark { ']' } else { ' ' });
    out
}

#[cfg(test)]
mod tests {
    use super::row;

    #[test]
    fn the_mark_takes_the_separators_around_its_cell() {
        let cells = |marked: Option<usize>| {
            row(".XO."
                .chars()
                .enumerate()
                .map(|(i, c)| (c, Some(i) == marked)))
        };
        assert_eq!(cells(None), " . X O . ");
        assert_eq!(cells(Some(2)), " . X[O]. ");
        assert_eq!(cells(Some(0)), "[.]X O . ");
        assert_eq!(cells(Some(3)), " . X O[.]");
        assert_eq!(row([]), " ");
    }
}
