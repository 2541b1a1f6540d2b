//! The feature vector's layout: where each block of features begins (each block's size is
//! its table's length), and each feature's name as the weights file spells it.

use cozy_chess::Square;

// Feature indices. Each block's size is its table's length.
pub(super) const MATERIAL: usize = 0; // pawn, knight, bishop, rook, queen
pub(super) const PST: usize = MATERIAL + 5; // 6 pieces × 64 squares
/// Mobility tables by piece (knight, bishop, rook, queen): one weight per number of squares.
pub(super) const MOBILITY_SIZES: [usize; 4] = [9, 14, 15, 28];
pub(super) const MOBILITY: [usize; 4] = {
    let mut m = [0; 4];
    let mut next = PST + 6 * 64;
    let mut t = 0;
    while t < 4 {
        m[t] = next;
        next += MOBILITY_SIZES[t];
        t += 1;
    }
    m
};
pub(super) const PASSED: usize = MOBILITY[3] + MOBILITY_SIZES[3]; // relative ranks 2..7
pub(super) const ISOLATED: usize = PASSED + 6;
pub(super) const DOUBLED: usize = ISOLATED + 1;
pub(super) const SHIELD: usize = DOUBLED + 1; // one rank ahead of the king, two ranks ahead
pub(super) const KING_ATTACK: usize = SHIELD + 2; // by knight, bishop, rook, queen
pub(super) const BISHOP_PAIR: usize = KING_ATTACK + 4;
pub(super) const ROOK_OPEN: usize = BISHOP_PAIR + 1;
pub(super) const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
pub(super) const TEMPO: usize = ROOK_SEMI_OPEN + 1; // +1 for the side to move
/// King danger: the attack units on the enemy king's zone ([`KING_UNITS`] per attacking piece),
/// one weight per number of attackers (1 to 7 or more). A single attacker is rarely
/// dangerous, three together often are: the fit learns that from the data.
pub(super) const KING_DANGER: usize = TEMPO + 1;
pub(super) const PASSED_FREE: usize = KING_DANGER + 7; // by rank 2..7: nothing on the way to promotion
pub(super) const PASSED_OWN_KING: usize = PASSED_FREE + 6; // by rank: own king's distance to the stop square
pub(super) const PASSED_THEIR_KING: usize = PASSED_OWN_KING + 6; // by rank: the enemy king's distance
pub(super) const PASSED_SUPPORTED: usize = PASSED_THEIR_KING + 6; // a passed pawn defended by a pawn
pub(super) const PAWN_SUPPORTED: usize = PASSED_SUPPORTED + 1; // any pawn defended by a pawn
pub(super) const PAWN_PHALANX: usize = PAWN_SUPPORTED + 1; // a pawn with a friend beside it
pub(super) const PAWN_BACKWARD: usize = PAWN_PHALANX + 1; // no friend beside or behind, stop square hit
pub(super) const THREAT_BY_PAWN: usize = PAWN_BACKWARD + 1; // enemy pieces attacked by our pawns
pub(super) const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 1; // enemy rooks and queens hit by minors
pub(super) const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 1; // enemy queens hit by rooks
pub(super) const OUTPOST: usize = THREAT_BY_ROOK + 1; // knight, bishop on an outpost
/// Checks ready: squares from which a knight, bishop, rook or queen could check the enemy
/// king next move, free of own pieces and of enemy pawn attacks (one per square and piece).
pub(super) const CHECK: usize = OUTPOST + 2;
/// Pawn storm: enemy pawns on the king's and the neighbouring files, one, two and three ranks
/// in front of the king.
pub(super) const STORM: usize = CHECK + 4;
/// Files among the king's and its neighbours with no pawn of the king's side.
pub(super) const KING_OPEN: usize = STORM + 3;
/// Enemy knights, bishops, rooks and queens we attack that nothing of theirs defends.
pub(super) const THREAT_HANGING: usize = KING_OPEN + 1;
/// Checks ready (as [`CHECK`]) from squares the enemy does not attack at all.
pub(super) const SAFE_CHECK: usize = THREAT_HANGING + 1;
/// Passed pawns by rank whose stop square holds an enemy piece.
pub(super) const PASSED_BLOCKED: usize = SAFE_CHECK + 4;
/// Passed pawns by rank whose stop square is empty and not attacked by the enemy.
pub(super) const PASSED_SAFE: usize = PASSED_BLOCKED + 6;
/// Pawns defended by a pawn or with a friend beside them, by rank.
pub(super) const PAWN_CONNECTED: usize = PASSED_SAFE + 6;
/// A rook on the seventh rank with the enemy king on the eighth or enemy pawns on the seventh.
pub(super) const ROOK_SEVENTH: usize = PAWN_CONNECTED + 6;
/// Own pawns on the squares of a bishop's colour, summed over bishops.
pub(super) const BISHOP_PAWNS: usize = ROOK_SEVENTH + 1;
/// Knights and bishops with an own pawn on the square in front.
pub(super) const MINOR_BEHIND_PAWN: usize = BISHOP_PAWNS + 1;
/// The king's distance to the nearest pawn of either side (0 without pawns).
pub(super) const KING_PAWN_DISTANCE: usize = MINOR_BEHIND_PAWN + 1;
/// Enemy knights, bishops, rooks and queens a safe one-square pawn push would attack.
pub(super) const THREAT_PUSH: usize = KING_PAWN_DISTANCE + 1;
/// Squares of files c to f on ranks 2 to 4 not holding an own pawn nor hit by an enemy pawn.
pub(super) const SPACE: usize = THREAT_PUSH + 1;
/// Own knights and bishops next to the own king.
pub(super) const KING_DEFENDERS: usize = SPACE + 1;
/// Enemy pieces and pawns the king attacks that nothing of theirs defends.
pub(super) const THREAT_BY_KING: usize = KING_DEFENDERS + 1;
/// Enemy pawns no pawn of theirs defends that we attack.
pub(super) const THREAT_WEAK_PAWN: usize = THREAT_BY_KING + 1;
/// The number of features (and of weight pairs).
pub const N_FEATURES: usize = THREAT_WEAK_PAWN + 1;

const PIECE_NAMES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// The feature of piece `piece` (0 = pawn, ..., 5 = king) on square `sq` (0 = a1, seen from
/// its own side) in the piece-square tables.
pub fn pst_feature(piece: usize, sq: usize) -> usize {
    PST + piece * 64 + sq
}

/// The human-readable name of feature `index` (as the weights file spells it).
pub fn feature_name(index: usize) -> String {
    const MOB: [&str; 4] = ["knight", "bishop", "rook", "queen"];
    match index {
        i if i < PST => format!("material.{}", PIECE_NAMES[i - MATERIAL]),
        i if i < MOBILITY[0] => {
            let (p, sq) = ((i - PST) / 64, (i - PST) % 64);
            format!("pst.{}.{}", PIECE_NAMES[p], Square::index(sq))
        }
        i if i < PASSED => {
            let t = (0..4).rev().find(|&t| i >= MOBILITY[t]).unwrap_or(0);
            format!("mobility.{}.{}", MOB[t], i - MOBILITY[t])
        }
        i if i < ISOLATED => format!("pawn.passed.rank{}", i - PASSED + 2),
        ISOLATED => "pawn.isolated".into(),
        DOUBLED => "pawn.doubled".into(),
        i if i < KING_ATTACK => format!("king.shield.{}", i - SHIELD + 1),
        i if i < BISHOP_PAIR => format!("king.attack.{}", MOB[i - KING_ATTACK]),
        BISHOP_PAIR => "bishop.pair".into(),
        ROOK_OPEN => "rook.open_file".into(),
        ROOK_SEMI_OPEN => "rook.semi_open_file".into(),
        TEMPO => "tempo".into(),
        i if i < PASSED_FREE => format!("king.danger.attackers{}", i - KING_DANGER + 1),
        i if i < PASSED_OWN_KING => format!("pawn.passed.free.rank{}", i - PASSED_FREE + 2),
        i if i < PASSED_THEIR_KING => {
            format!("pawn.passed.own_king.rank{}", i - PASSED_OWN_KING + 2)
        }
        i if i < PASSED_SUPPORTED => {
            format!("pawn.passed.their_king.rank{}", i - PASSED_THEIR_KING + 2)
        }
        PASSED_SUPPORTED => "pawn.passed.supported".into(),
        PAWN_SUPPORTED => "pawn.supported".into(),
        PAWN_PHALANX => "pawn.phalanx".into(),
        PAWN_BACKWARD => "pawn.backward".into(),
        THREAT_BY_PAWN => "threat.by_pawn".into(),
        THREAT_BY_MINOR => "threat.by_minor".into(),
        THREAT_BY_ROOK => "threat.by_rook".into(),
        i if i < CHECK => format!("outpost.{}", MOB[i - OUTPOST]),
        i if i < STORM => format!("king.check.{}", MOB[i - CHECK]),
        i if i < KING_OPEN => format!("king.storm.{}", i - STORM + 1),
        KING_OPEN => "king.open_files".into(),
        THREAT_HANGING => "threat.hanging".into(),
        i if i < PASSED_BLOCKED => format!("king.safe_check.{}", MOB[i - SAFE_CHECK]),
        i if i < PASSED_SAFE => format!("pawn.passed.blocked.rank{}", i - PASSED_BLOCKED + 2),
        i if i < PAWN_CONNECTED => format!("pawn.passed.safe.rank{}", i - PASSED_SAFE + 2),
        i if i < ROOK_SEVENTH => format!("pawn.connected.rank{}", i - PAWN_CONNECTED + 2),
        ROOK_SEVENTH => "rook.seventh".into(),
        BISHOP_PAWNS => "bishop.same_colour_pawns".into(),
        MINOR_BEHIND_PAWN => "minor.behind_pawn".into(),
        KING_PAWN_DISTANCE => "king.pawn_distance".into(),
        THREAT_PUSH => "threat.pawn_push".into(),
        SPACE => "space".into(),
        KING_DEFENDERS => "king.defenders".into(),
        THREAT_BY_KING => "threat.by_king".into(),
        THREAT_WEAK_PAWN => "threat.weak_pawn".into(),
        _ => format!("unknown.{index}"),
    }
}

/// Every feature's name, in index order.
pub(super) fn names() -> Vec<String> {
    (0..N_FEATURES).map(feature_name).collect()
}
