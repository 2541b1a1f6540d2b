//! Move text: ICCS coordinates (`h2e2`), which UCCI, ElephantEye and Pikafish read and write,
//! and WXF notation (`C2.5`), which players read.
//!
//! WXF names the piece (`K A E H R C P`), the file it stands on counted 1 to 9 from the
//! mover's right (Red's file 1 is file i, Black's file 1 is file a), then `+` forward, `-`
//! backward or `.` along the rank, and last the file it goes to (along the rank, and for the
//! pieces that move diagonally: advisor, elephant, horse) or the number of ranks it moves.
//! Two like pieces on one file are told apart by `+` (the front one) and `-` (the rear) in
//! place of the file; soldiers, of which a file may hold up to five, follow the federation's
//! rules for three to five in a file and for two files with several.
//! An advisor or elephant is never written so: the direction tells the two apart.

use duel_core::Side;

use crate::board::{file_of, rank_of, square, Board, Kind, Move, Square};

/// The two points of ICCS text, if it is that: `h2e2`, in either case, with or without a `-`
/// between the points (`H2-E2`, as the ICCS's own records write them).
pub fn parse_iccs(text: &str) -> Option<(Square, Square)> {
    let b = text.as_bytes();
    let (from, to) = match b.len() {
        4 => (&b[..2], &b[2..]),
        5 if b[2] == b'-' => (&b[..2], &b[3..]),
        _ => return None,
    };
    Some((point(from)?, point(to)?))
}

/// A point as a file letter and a rank digit.
fn point(b: &[u8]) -> Option<Square> {
    let file = b[0].to_ascii_lowercase().checked_sub(b'a')?;
    let rank = b[1].checked_sub(b'0')?;
    (file < 9 && rank < 10).then(|| square(file, rank))
}

/// `mv` in ICCS coordinates, lower case.
pub fn iccs(mv: Move) -> String {
    format!(
        "{}{}",
        crate::board::square_name(mv.from()),
        crate::board::square_name(mv.to())
    )
}

/// WXF's letter for a kind.
pub(crate) fn wxf_letter(kind: Kind) -> char {
    match kind {
        Kind::King => 'K',
        Kind::Advisor => 'A',
        Kind::Elephant => 'E',
        Kind::Horse => 'H',
        Kind::Chariot => 'R',
        Kind::Cannon => 'C',
        Kind::Pawn => 'P',
    }
}

/// `mv`, legal on `board`, in WXF notation.
pub fn wxf(board: &Board, mv: Move) -> String {
    let Some(piece) = board.piece_at(mv.from()) else {
        return iccs(mv);
    };
    let side = piece.side;
    // Files from the mover's right, 1 to 9.
    let number = |file: u8| match side {
        Side::First => char::from(b'9' - file),
        Side::Second => char::from(b'1' + file),
    };
    // How far forward a rank is for the mover.
    let ahead = |rank: u8| match side {
        Side::First => rank,
        Side::Second => 9 - rank,
    };
    let to_file = file_of(mv.to());
    let (from_rank, to_rank) = (ahead(rank_of(mv.from())), ahead(rank_of(mv.to())));
    let mut out = designation(board, mv.from(), &number, &ahead);
    if from_rank == to_rank {
        out.push('.');
        out.push(number(to_file));
        return out;
    }
    out.push(if to_rank > from_rank { '+' } else { '-' });
    match piece.kind {
        Kind::Advisor | Kind::Elephant | Kind::Horse => out.push(number(to_file)),
        _ => out.push(char::from(b'0' + from_rank.abs_diff(to_rank))),
    }
    out
}

/// The first two characters of a WXF move: the piece and its file, or the marks that tell
/// apart like pieces on one file.
fn designation(
    board: &Board,
    from: Square,
    number: &impl Fn(u8) -> char,
    ahead: &impl Fn(u8) -> u8,
) -> String {
    let Some(piece) = board.piece_at(from) else {
        return String::new();
    };
    let letter = wxf_letter(piece.kind);
    let file = file_of(from);
    // The like pieces on a file, front first.
    let tandem = |f: u8| {
        let mut ranks: Vec<u8> = (0..10)
            .map(|r| square(f, r))
            .filter(|&sq| board.piece_at(sq) == Some(piece))
            .map(|sq| ahead(rank_of(sq)))
            .collect();
        ranks.sort_unstable_by(|a, b| b.cmp(a));
        ranks
    };
    let here = tandem(file);
    let plain = format!("{letter}{}", number(file));
    if here.len() < 2 || matches!(piece.kind, Kind::Advisor | Kind::Elephant | Kind::King) {
        return plain;
    }
    let index = here
        .iter()
        .position(|&r| r == ahead(rank_of(from)))
        .unwrap_or(0);
    let (front, rear) = (index == 0, index + 1 == here.len());
    if piece.kind != Kind::Pawn {
        return format!("{letter}{}", if front { '+' } else { '-' });
    }
    // Soldiers: with several in two files, the file comes first and then the mark.
    let other_files = (0..9)
        .filter(|&f| f != file && tandem(f).len() >= 2)
        .count();
    let mark = if front {
        '+'
    } else if rear {
        '-'
    } else {
        number(file)
    };
    if other_files > 0 {
        return format!("{}{mark}", number(file));
    }
    match (here.len(), index) {
        (4 | 5, 0) => "++".into(),
        (4 | 5, i) if i + 1 == here.len() => "--".into(),
        // The second and second-last of four or five are P+ and P-; the middle of five (or of
        // three) is written with its file.
        (4 | 5, 1) => "P+".into(),
        (4 | 5, i) if i + 2 == here.len() => "P-".into(),
        _ => format!("P{mark}"),
    }
}

/// `text` in the form [`wxf`] writes, if it has WXF's shape: four characters, a piece letter
/// (K, A, E, H, R, C, P; B and N, chess's letters for the elephant and the horse, and either
/// case, as players write them) and its file or a tandem mark (`+`, `-`, before or after the
/// letter), then `.` (or `=`), `+` or `-`, then a digit 1 to 9. Only the shape: the position
/// says which move, if any, it names.
pub fn wxf_shape(text: &str) -> Option<String> {
    let b: Vec<char> = text.chars().collect();
    let [a, c, dir, n] = b[..] else {
        return None;
    };
    let letter = |x: char| match x.to_ascii_uppercase() {
        'B' => Some('E'),
        'N' => Some('H'),
        k @ ('K' | 'A' | 'E' | 'H' | 'R' | 'C' | 'P') => Some(k),
        _ => None,
    };
    let place = |x: char| x.is_ascii_digit() && x != '0' || x == '+' || x == '-';
    // The piece first (C2, C+), or a tandem mark first (+C), written here as C+.
    let head = match (letter(a), letter(c)) {
        (Some(k), None) if place(c) => format!("{k}{c}"),
        (None, Some(k)) if a == '+' || a == '-' => format!("{k}{a}"),
        // Soldiers in two files: the file, then the mark (`2+`), as `wxf` writes them.
        (None, None) if a.is_ascii_digit() && a != '0' && place(c) => format!("{a}{c}"),
        _ => return None,
    };
    let dir = match dir {
        '.' | '=' => '.',
        '+' | '-' => dir,
        _ => return None,
    };
    (n.is_ascii_digit() && n != '0').then(|| format!("{head}{dir}{n}"))
}
