//! What lies along a rank or a file, from its occupancy bits: the nearest pieces each way
//! ([`up`], [`down`]: every attack and pin needs at most three), and what a chariot or cannon
//! on the line reaches ([`SLIDES`]), spread onto the board's points by a shift (a rank) or
//! [`FILE_SPREAD`] (a file).

use super::point::{FILES, NONE, RANKS};

/// The pieces along a line from a point, nearest first, [`NONE`] past the last: enough for
/// every attack (a chariot's first, a cannon's second) and pin (a cannon's third).
#[derive(Clone, Copy)]
pub(super) struct Ray(pub(super) [u8; 3]);

/// The positions (0-based along the line) of the set bits of `line` above `at`, nearest first.
#[inline]
pub(super) fn up(line: u16, at: u8) -> Ray {
    let mut m = u32::from(line) >> (at + 1);
    let mut out = [NONE; 3];
    for o in &mut out {
        if m == 0 {
            break;
        }
        *o = at + 1 + m.trailing_zeros() as u8;
        m &= m - 1;
    }
    Ray(out)
}

/// The positions of the set bits of `line` below `at`, nearest first.
#[inline]
pub(super) fn down(line: u16, at: u8) -> Ray {
    let mut m = u32::from(line) & ((1 << at) - 1);
    let mut out = [NONE; 3];
    for o in &mut out {
        if m == 0 {
            break;
        }
        let top = 31 - m.leading_zeros() as u8;
        *o = top;
        m ^= 1 << top;
    }
    Ray(out)
}

/// What a chariot or cannon on one line (a rank or a file, as its bits) reaches: the empty
/// points up to the first piece each way, that first piece (the chariot's hit) and the
/// second (the cannon's, over its screen). Lines of up to 10 points; a rank's quiet points
/// are masked to its 9.
#[derive(Clone, Copy)]
pub(super) struct Slide {
    pub(super) quiet: u16,
    pub(super) chariot: u16,
    pub(super) cannon: u16,
}

pub(super) const RANK_MASK: u16 = (1 << FILES) - 1;

/// [`Slide`] by the slider's place on the line (0 to 9) and the line's occupancy (10 bits).
pub(super) static SLIDES: [[Slide; 1 << RANKS]; RANKS as usize] = {
    let mut t = [[Slide {
        quiet: 0,
        chariot: 0,
        cannon: 0,
    }; 1 << RANKS]; RANKS as usize];
    let mut at = 0;
    while at < RANKS as i32 {
        let mut line = 0;
        while line < 1 << RANKS {
            let mut s = Slide {
                quiet: 0,
                chariot: 0,
                cannon: 0,
            };
            let mut dir = -1;
            while dir <= 1 {
                let (mut x, mut screens) = (at + dir, 0);
                while x >= 0 && x < RANKS as i32 && screens < 2 {
                    if line & (1 << x) == 0 {
                        if screens == 0 {
                            s.quiet |= 1 << x;
                        }
                    } else {
                        if screens == 0 {
                            s.chariot |= 1 << x;
                        } else {
                            s.cannon |= 1 << x;
                        }
                        screens += 1;
                    }
                    x += dir;
                }
                dir += 2;
            }
            t[at as usize][line] = s;
            line += 1;
        }
        at += 1;
    }
    t
};

/// A file's line bits (bit `rank`) as the points of file a (bit `rank · 9`).
pub(super) static FILE_SPREAD: [u128; 1 << RANKS] = {
    let mut t = [0u128; 1 << RANKS];
    let mut line = 0;
    while line < 1 << RANKS {
        let mut r = 0;
        while r < RANKS as usize {
            if line & (1 << r) != 0 {
                t[line] |= 1 << (r * FILES as usize);
            }
            r += 1;
        }
        line += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::point::NONE;

    #[test]
    fn lines_find_the_nearest_pieces() {
        let line = 0b1_0010_0101u16; // bits 0, 2, 5, 8
        assert_eq!(up(line, 2).0, [5, 8, NONE]);
        assert_eq!(down(line, 5).0, [2, 0, NONE]);
        assert_eq!(down(line, 0).0, [NONE; 3]);
        assert_eq!(up(line, 8).0, [NONE; 3]);
    }
}
