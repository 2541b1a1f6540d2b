//! Renju's forbidden points for Black, as the RIF rules define them.
//!
//! Black playing an empty point `p` is looked at along each of the four lines through `p`,
//! eleven cells long (`p` and five each side: all that a five, a four or a three through `p`
//! can touch), with `p` taken as Black:
//!
//! 1. a line with exactly five Black stones in a row through `p`: a five, and the move is
//!    allowed whatever else it makes (five takes precedence);
//! 2. six or more in a row through `p`: an **overline**;
//! 3. the **fours** through `p`: the empty cells `q` of the line where Black would then make
//!    exactly five with `p` in it; two such cells five apart are the two ends of one straight
//!    four (`.XXXX.`), any others are separate fours, so `X.XXX.X` with the middle stone
//!    played is two fours in one line. Two fours in all: a **double four**;
//! 4. the **threes** through `p`, in lines without a four: the empty cells `q` at which Black
//!    would make a straight four containing `p` (four in a row, both ends empty, and the cells
//!    past the ends not Black, so that either end makes exactly five). The line holds a real
//!    three if at least one such `q` is itself not forbidden, asked with `p` on the board: the
//!    recursive test. Two real threes: a **double three**.
//!
//! The recursion places stones in thought only (a list of extra Black stones read over the
//! board), so the test needs no mutable board; it is asked only where two lines each have a
//! candidate three, and stops at [`MAX_DEPTH`] stones.

use std::fmt;

use crate::{BLACK, DIRECTIONS, EMPTY, PADDED};

/// Why a point is forbidden to Black.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Forbidden {
    /// The move makes two or more threes.
    DoubleThree,
    /// The move makes two or more fours (in two lines, or two in one line).
    DoubleFour,
    /// The move makes six or more in a row.
    Overline,
}

impl fmt::Display for Forbidden {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Forbidden::DoubleThree => "double three",
            Forbidden::DoubleFour => "double four",
            Forbidden::Overline => "overline",
        })
    }
}

/// How far from a point the Black stones counted by the position's `near` table lie.
pub(crate) const NEAR_REACH: usize = 4;

/// A forbidden point has at least this many Black stones within [`NEAR_REACH`] on its lines:
/// a double three needs two in each of two lines, a double four three and three (or four in
/// one line, `X.XpX.X`), an overline of six at least four of the five others within four.
pub(crate) const NEAR_NEEDED: u8 = 4;

/// The most stones the recursive three test places in thought before it calls a point
/// allowed.
pub const MAX_DEPTH: usize = 16;

/// A line through the point: eleven cells, the point in the middle; 0 empty, 1 Black, 2
/// White or the edge.
type Line = [u8; 11];
const MID: usize = 5;

/// Extra Black stones placed in thought by the recursion.
struct Extra {
    cells: [usize; MAX_DEPTH],
    len: usize,
}

impl Extra {
    #[inline]
    fn holds(&self, p: usize) -> bool {
        self.cells[..self.len].contains(&p)
    }
}

/// Why Black may not play the empty padded cell `p` of `board`, if it may not.
pub(crate) fn forbidden(board: &[u8; PADDED], p: usize) -> Option<Forbidden> {
    let mut extra = Extra {
        cells: [0; MAX_DEPTH],
        len: 0,
    };
    forbidden_with(board, p, &mut extra)
}

fn forbidden_with(board: &[u8; PADDED], p: usize, extra: &mut Extra) -> Option<Forbidden> {
    let lines = DIRECTIONS.map(|d| line(board, p, d, extra));
    let runs = lines.map(|l| {
        let (s, e) = run(&l, MID);
        e - s + 1
    });
    if runs.contains(&5) {
        return None;
    }
    if runs.iter().any(|&n| n >= 6) {
        return Some(Forbidden::Overline);
    }
    let fours = lines.map(|l| fours(&l));
    if fours.iter().sum::<u32>() >= 2 {
        return Some(Forbidden::DoubleFour);
    }
    let mut threes = [0u16; 4];
    for i in 0..4 {
        if fours[i] == 0 {
            threes[i] = three_points(&lines[i]);
        }
    }
    if threes.iter().filter(|&&t| t != 0).count() < 2 || extra.len == MAX_DEPTH {
        return None;
    }
    extra.cells[extra.len] = p;
    extra.len += 1;
    let mut real = 0;
    for (i, &points) in threes.iter().enumerate() {
        let mut bits = points;
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let q = at(p, DIRECTIONS[i], k as isize - MID as isize);
            if forbidden_with(board, q, extra).is_none() {
                real += 1;
                break;
            }
        }
        if real == 2 {
            break;
        }
    }
    extra.len -= 1;
    (real >= 2).then_some(Forbidden::DoubleThree)
}

/// The padded index `k` steps from `p` along `d` (`k` may be negative).
#[inline]
fn at(p: usize, d: usize, k: isize) -> usize {
    (p as isize + k * d as isize) as usize
}

/// The line through `p` along `d`, with `p` and the extra stones Black.
#[inline]
fn line(board: &[u8; PADDED], p: usize, d: usize, extra: &Extra) -> Line {
    let mut l = [0u8; 11];
    for (k, v) in l.iter_mut().enumerate() {
        let q = at(p, d, k as isize - MID as isize);
        let cell = board[q];
        *v = if q == p || cell == BLACK || (cell == EMPTY && extra.holds(q)) {
            1
        } else if cell == EMPTY {
            0
        } else {
            2
        };
    }
    l
}

/// The first and last index of the run of Black through `i` (Black).
#[inline]
fn run(l: &Line, i: usize) -> (usize, usize) {
    let (mut s, mut e) = (i, i);
    while s > 0 && l[s - 1] == 1 {
        s -= 1;
    }
    while e < l.len() - 1 && l[e + 1] == 1 {
        e += 1;
    }
    (s, e)
}

/// The fours through the middle: cells that make exactly five including it, the two ends of
/// a straight four counted once.
fn fours(l: &Line) -> u32 {
    let mut points = [0usize; 8];
    let mut n = 0;
    for k in 1..=9 {
        if k == MID || l[k] != 0 {
            continue;
        }
        let mut m = *l;
        m[k] = 1;
        let (s, e) = run(&m, k);
        if e - s + 1 == 5 && s <= MID && MID <= e {
            points[n] = k;
            n += 1;
        }
    }
    let straight = (1..n).any(|i| (0..i).any(|j| points[i] - points[j] == 5));
    n as u32 - straight as u32
}

/// The cells (bit `k` for index `k` of the line) where Black would make a straight four
/// through the middle: four in a row holding the middle and the cell, both ends empty, and
/// the cells beyond the ends not Black.
fn three_points(l: &Line) -> u16 {
    let mut points = 0;
    for q in 2..=8 {
        if q == MID || l[q] != 0 {
            continue;
        }
        let mut m = *l;
        m[q] = 1;
        let (s, e) = run(&m, MID);
        if e - s + 1 == 4
            && s <= q
            && q <= e
            && m[s - 1] == 0
            && m[e + 1] == 0
            && m[s - 2] != 1
            && m[e + 2] != 1
        {
            points |= 1 << q;
        }
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Line {
        let mut l = [0u8; 11];
        for (v, c) in l.iter_mut().zip(s.chars()) {
            *v = match c {
                'X' => 1,
                '.' => 0,
                _ => 2,
            };
        }
        l
    }

    #[test]
    fn fours_in_one_line() {
        // The middle (index 5) is the stone played.
        assert_eq!(fours(&parse("....XXXX...")), 1, "straight four");
        assert_eq!(fours(&parse("...OXXXX...")), 1, "four");
        assert_eq!(fours(&parse("...X.XXX.X.")), 2, "X.XXX.X");
        assert_eq!(fours(&parse("..XX.XX.XX.")), 2, "XX.XX.XX");
        assert_eq!(
            fours(&parse(".X.XXXX....")),
            1,
            "an end that makes six is no five"
        );
        assert_eq!(fours(&parse("....XXX....")), 0);
    }

    #[test]
    fn threes_in_one_line() {
        assert_ne!(three_points(&parse("....XXX....")), 0);
        assert_ne!(three_points(&parse("...X.XX....")), 0, "split three");
        assert_eq!(
            three_points(&parse("...OXXX.O..")),
            0,
            "no room for a straight four"
        );
        assert_eq!(
            three_points(&parse("...O.XXX.O.")),
            0,
            ".XXX. between two whites"
        );
        assert_eq!(
            three_points(&parse("..X..XXX...")) & (1 << 4),
            0,
            "X.XXXX would be six"
        );
    }
}
