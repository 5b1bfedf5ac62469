//! Where each hand-crafted evaluation weight lives in one flat table. The evaluation reads the
//! table through these indices and the Texel tuner ([`super::tune`]) adjusts it through the
//! same ones, so no term can be tuned without being evaluated or the other way round. The
//! values themselves are in `weights.rs`, which `kibitzer tune` writes.

/// By role (pawn to king); the king's entry is never counted.
pub const MATERIAL: usize = 0;
/// By role, then square written rank 8 first: a white piece on `sq` uses `sq ^ 56`, a black
/// one `sq`.
pub const PST: usize = MATERIAL + 6;
/// By the number of safe squares a piece reaches (knight 0-8, bishop 0-13, rook 0-14,
/// queen 0-27).
pub const KNIGHT_MOBILITY: usize = PST + 6 * 64;
pub const BISHOP_MOBILITY: usize = KNIGHT_MOBILITY + 9;
pub const ROOK_MOBILITY: usize = BISHOP_MOBILITY + 14;
pub const QUEEN_MOBILITY: usize = ROOK_MOBILITY + 15;
/// By the attack units on the enemy king zone (capped at `KING_DANGER_UNITS - 1`), counted
/// once two pieces, the queen among our pieces, attack it.
pub const KING_DANGER: usize = QUEEN_MOBILITY + 28;
pub const KING_DANGER_UNITS: usize = 40;
pub const PAWN_SHIELD_NEAR: usize = KING_DANGER + KING_DANGER_UNITS;
pub const PAWN_SHIELD_FAR: usize = PAWN_SHIELD_NEAR + 1;
pub const KING_OPEN_FILE: usize = PAWN_SHIELD_FAR + 1;
pub const DOUBLED_PAWN: usize = KING_OPEN_FILE + 1;
pub const ISOLATED_PAWN: usize = DOUBLED_PAWN + 1;
/// By relative rank (rank 1 first).
pub const PASSED_PAWN: usize = ISOLATED_PAWN + 1;
/// Per square of king distance to an advanced passer's stop square, times (rank - 2).
pub const PASSER_THEIR_KING: usize = PASSED_PAWN + 8;
pub const PASSER_OUR_KING: usize = PASSER_THEIR_KING + 1;
pub const BISHOP_PAIR: usize = PASSER_OUR_KING + 1;
pub const ROOK_OPEN_FILE: usize = BISHOP_PAIR + 1;
pub const ROOK_SEMI_OPEN_FILE: usize = ROOK_OPEN_FILE + 1;
/// Pawns side by side, and pawns a pawn defends, by relative rank.
pub const PAWN_PHALANX: usize = ROOK_SEMI_OPEN_FILE + 1;
pub const PAWN_SUPPORTED: usize = PAWN_PHALANX + 8;
/// A pawn no pawn beside or behind it can support, whose stop square an enemy pawn holds.
pub const BACKWARD_PAWN: usize = PAWN_SUPPORTED + 8;
/// A passer whose stop square is empty and not attacked, by relative rank.
pub const PASSER_FREE: usize = BACKWARD_PAWN + 1;
pub const ROOK_BEHIND_PASSER: usize = PASSER_FREE + 8;
/// A minor on the fourth to sixth rank, defended by a pawn, that no enemy pawn can attack.
pub const KNIGHT_OUTPOST: usize = ROOK_BEHIND_PASSER + 1;
pub const BISHOP_OUTPOST: usize = KNIGHT_OUTPOST + 1;
/// Per own pawn on the bishop's square colour.
pub const BISHOP_PAWNS: usize = BISHOP_OUTPOST + 1;
/// Enemy pieces our pawns attack, by the attacked role (knight to queen).
pub const THREAT_BY_PAWN: usize = BISHOP_PAWNS + 1;
/// Weak or pawn-defended enemy pieces our minors attack, by the attacked role (pawn to queen).
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 4;
/// Weak enemy pieces our rooks attack, by the attacked role (pawn to queen).
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 5;
pub const THREAT_BY_KING: usize = THREAT_BY_ROOK + 5;
/// Weak enemy pieces that are undefended, or attacked twice.
pub const HANGING: usize = THREAT_BY_KING + 1;
/// Safe pawn pushes that would attack an enemy piece.
pub const PAWN_PUSH_THREAT: usize = HANGING + 1;
/// Squares a piece could check the enemy king from without being taken, by role (knight to
/// queen).
pub const SAFE_CHECK: usize = PAWN_PUSH_THREAT + 1;
/// An enemy pawn storming our king's file or the two beside it, by its distance in ranks to
/// our king (1 to 4), first free, then blocked by our pawn.
pub const PAWN_STORM: usize = SAFE_CHECK + 4;
/// Squares next to the enemy king that we attack and they guard at most with king or queen.
pub const KING_ZONE_WEAK: usize = PAWN_STORM + 8;
/// A passer the enemy king cannot catch when the enemy has only pawns.
pub const UNSTOPPABLE_PASSER: usize = KING_ZONE_WEAK + 1;
/// Per square of distance from our king to our nearest pawn.
pub const KING_PAWN_DISTANCE: usize = UNSTOPPABLE_PASSER + 1;
/// A rook on the seventh rank with the enemy king on the eighth or enemy pawns on the seventh.
pub const ROOK_ON_SEVENTH: usize = KING_PAWN_DISTANCE + 1;
/// A knight or bishop right behind one of our pawns.
pub const MINOR_BEHIND_PAWN: usize = ROOK_ON_SEVENTH + 1;
pub const COUNT: usize = MINOR_BEHIND_PAWN + 1;

/// The groups the UCI `eval` command shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Term {
    Material,
    Mobility,
    KingAttack,
    KingShelter,
    Pawns,
    PassedPawns,
    Pieces,
    Threats,
}

impl Term {
    pub const ALL: [Term; 8] = [
        Term::Material,
        Term::Mobility,
        Term::KingAttack,
        Term::KingShelter,
        Term::Pawns,
        Term::PassedPawns,
        Term::Pieces,
        Term::Threats,
    ];

    /// The name on the command line (`kibitzer tune --fixed material,pawns`).
    pub fn key(self) -> &'static str {
        match self {
            Term::Material => "material",
            Term::Mobility => "mobility",
            Term::KingAttack => "king-attack",
            Term::KingShelter => "king-shelter",
            Term::Pawns => "pawns",
            Term::PassedPawns => "passed-pawns",
            Term::Pieces => "pieces",
            Term::Threats => "threats",
        }
    }

    pub fn from_key(key: &str) -> Option<Term> {
        Term::ALL.into_iter().find(|t| t.key() == key)
    }

    pub fn name(self) -> &'static str {
        match self {
            Term::Material => "Material+PST",
            Term::Mobility => "Mobility",
            Term::KingAttack => "King attack",
            Term::KingShelter => "King shelter",
            Term::Pawns => "Pawns",
            Term::PassedPawns => "Passed pawns",
            Term::Pieces => "Pieces",
            Term::Threats => "Threats",
        }
    }
}

/// A named run of the table.
pub struct Section {
    pub name: &'static str,
    pub term: Term,
    pub start: usize,
    pub len: usize,
    /// Values per line in `weights.rs`.
    pub row: usize,
}

const fn section(name: &'static str, term: Term, start: usize, len: usize, row: usize) -> Section {
    Section {
        name,
        term,
        start,
        len,
        row,
    }
}

/// Every section in table order, covering it exactly (a test checks).
pub const SECTIONS: [Section; 44] = [
    section("material: P N B R Q K", Term::Material, MATERIAL, 6, 6),
    section("pawn squares", Term::Material, PST, 64, 8),
    section("knight squares", Term::Material, PST + 64, 64, 8),
    section("bishop squares", Term::Material, PST + 128, 64, 8),
    section("rook squares", Term::Material, PST + 192, 64, 8),
    section("queen squares", Term::Material, PST + 256, 64, 8),
    section("king squares", Term::Material, PST + 320, 64, 8),
    section("knight mobility", Term::Mobility, KNIGHT_MOBILITY, 9, 8),
    section("bishop mobility", Term::Mobility, BISHOP_MOBILITY, 14, 8),
    section("rook mobility", Term::Mobility, ROOK_MOBILITY, 15, 8),
    section("queen mobility", Term::Mobility, QUEEN_MOBILITY, 28, 8),
    section(
        "king danger by attack units",
        Term::KingAttack,
        KING_DANGER,
        KING_DANGER_UNITS,
        8,
    ),
    section(
        "pawn shield near",
        Term::KingShelter,
        PAWN_SHIELD_NEAR,
        1,
        1,
    ),
    section("pawn shield far", Term::KingShelter, PAWN_SHIELD_FAR, 1, 1),
    section("king on open file", Term::KingShelter, KING_OPEN_FILE, 1, 1),
    section("doubled pawn", Term::Pawns, DOUBLED_PAWN, 1, 1),
    section("isolated pawn", Term::Pawns, ISOLATED_PAWN, 1, 1),
    section("passed pawn by rank", Term::PassedPawns, PASSED_PAWN, 8, 8),
    section(
        "passer: their king's distance",
        Term::PassedPawns,
        PASSER_THEIR_KING,
        1,
        1,
    ),
    section(
        "passer: our king's distance",
        Term::PassedPawns,
        PASSER_OUR_KING,
        1,
        1,
    ),
    section("bishop pair", Term::Pieces, BISHOP_PAIR, 1, 1),
    section("rook on open file", Term::Pieces, ROOK_OPEN_FILE, 1, 1),
    section(
        "rook on semi-open file",
        Term::Pieces,
        ROOK_SEMI_OPEN_FILE,
        1,
        1,
    ),
    section("pawn phalanx by rank", Term::Pawns, PAWN_PHALANX, 8, 8),
    section("supported pawn by rank", Term::Pawns, PAWN_SUPPORTED, 8, 8),
    section("backward pawn", Term::Pawns, BACKWARD_PAWN, 1, 1),
    section("free passer by rank", Term::PassedPawns, PASSER_FREE, 8, 8),
    section(
        "rook behind passer",
        Term::PassedPawns,
        ROOK_BEHIND_PASSER,
        1,
        1,
    ),
    section("knight outpost", Term::Pieces, KNIGHT_OUTPOST, 1, 1),
    section("bishop outpost", Term::Pieces, BISHOP_OUTPOST, 1, 1),
    section(
        "bishop's own-colour pawns",
        Term::Pieces,
        BISHOP_PAWNS,
        1,
        1,
    ),
    section(
        "threat by pawn: N B R Q",
        Term::Threats,
        THREAT_BY_PAWN,
        4,
        4,
    ),
    section(
        "threat by minor: P N B R Q",
        Term::Threats,
        THREAT_BY_MINOR,
        5,
        5,
    ),
    section(
        "threat by rook: P N B R Q",
        Term::Threats,
        THREAT_BY_ROOK,
        5,
        5,
    ),
    section("threat by king", Term::Threats, THREAT_BY_KING, 1, 1),
    section("hanging piece", Term::Threats, HANGING, 1, 1),
    section("pawn push threat", Term::Threats, PAWN_PUSH_THREAT, 1, 1),
    section("safe check: N B R Q", Term::KingAttack, SAFE_CHECK, 4, 4),
    section(
        "pawn storm: free, blocked by distance",
        Term::KingShelter,
        PAWN_STORM,
        8,
        4,
    ),
    section(
        "weak king zone square",
        Term::KingAttack,
        KING_ZONE_WEAK,
        1,
        1,
    ),
    section(
        "unstoppable passer",
        Term::PassedPawns,
        UNSTOPPABLE_PASSER,
        1,
        1,
    ),
    section(
        "king's distance to its pawns",
        Term::Pawns,
        KING_PAWN_DISTANCE,
        1,
        1,
    ),
    section("rook on seventh", Term::Pieces, ROOK_ON_SEVENTH, 1, 1),
    section("minor behind pawn", Term::Pieces, MINOR_BEHIND_PAWN, 1, 1),
];

/// The section holding `param`.
pub fn section_of(param: usize) -> &'static Section {
    let i = SECTIONS.partition_point(|s| s.start + s.len <= param);
    &SECTIONS[i.min(SECTIONS.len() - 1)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_cover_the_table_in_order() {
        let mut next = 0;
        for s in &SECTIONS {
            assert_eq!(s.start, next, "{} starts where the last one ended", s.name);
            next += s.len;
        }
        assert_eq!(next, COUNT);
        assert_eq!(section_of(PST + 65).name, "knight squares");
        assert_eq!(section_of(COUNT - 1).name, "minor behind pawn");
    }
}
