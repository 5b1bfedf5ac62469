//! The 960 start positions of Chess960, by their standard number (Scharnagl's scheme: 518 is
//! the ordinary start position).

use super::{CastlingMode, Position};

/// The start position numbered `n` (0 to 959), with Chess960 castling.
pub fn start_position(n: u32) -> Option<Position> {
    if n >= 960 {
        return None;
    }
    let mut rank: [Option<char>; 8] = [None; 8];
    let (light_bishop, n) = (n % 4, n / 4);
    rank[(light_bishop * 2 + 1) as usize] = Some('B');
    let (dark_bishop, n) = (n % 4, n / 4);
    rank[(dark_bishop * 2) as usize] = Some('B');
    let (queen, knights) = (n % 6, n / 6);
    let mut place = |piece: char, nth_empty: u32| {
        let file = (0..8)
            .filter(|&f| rank[f].is_none())
            .nth(nth_empty as usize)
            .expect("enough empty files");
        rank[file] = Some(piece);
    };
    place('Q', queen);
    const KNIGHTS: [(u32, u32); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (first, second) = KNIGHTS[knights as usize];
    // The second knight goes among the files left after the first took one.
    place('N', first);
    place('N', second - 1);
    for piece in ['R', 'K', 'R'] {
        place(piece, 0);
    }
    let white: String = rank.iter().map(|p| p.unwrap_or('?')).collect();
    let rook_files: Vec<char> = (0..8u8)
        .filter(|&f| rank[f as usize] == Some('R'))
        .map(|f| (b'A' + f) as char)
        .collect();
    let castling: String = rook_files
        .iter()
        .rev()
        .copied()
        .chain(rook_files.iter().rev().map(char::to_ascii_lowercase))
        .collect();
    let fen = format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {castling} - 0 1",
        white.to_ascii_lowercase()
    );
    Position::from_fen_with_mode(&fen, CastlingMode::Chess960).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_positions() {
        let standard = start_position(518).unwrap();
        assert_eq!(
            standard.board_fen(),
            Position::startpos().board_fen(),
            "518 is the usual start"
        );
        assert_eq!(
            start_position(0).unwrap().shredder_fen(),
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
        );
        assert!(start_position(960).is_none());
        // Every number gives a different position, the king between its rooks and the
        // bishops on squares of both colours.
        let mut seen = std::collections::HashSet::new();
        for n in 0..960 {
            let pos = start_position(n).unwrap();
            let back = pos.board_fen().rsplit('/').next().unwrap().to_owned();
            let (king, rooks) = (back.find('K').unwrap(), back.match_indices('R').count());
            assert!(
                back.find('R').unwrap() < king && back.rfind('R').unwrap() > king,
                "{back}"
            );
            assert_eq!(rooks, 2);
            let bishops: Vec<usize> = back.match_indices('B').map(|(i, _)| i).collect();
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "{back}");
            assert!(seen.insert(back), "{n}");
        }
    }
}
