//! Board colour themes. Every square colour (highlights included) stands at least 3:1 (WCAG
//! contrast) against both piece colours, so a white piece on a light square or on the last-move
//! highlight stays readable: with white and black pieces that keeps every square a mid-tone.
//!
//! No square colour can stand 7:1 against both white and black (4.58:1 at best), so the
//! high-contrast theme puts each piece on a plate of the other colour (21:1 whatever the
//! square) and draws every mark in black or white, whichever its square's colour is made for:
//! each of its square colours is either light enough for black or dark enough for white at 7:1.

/// An sRGB colour.
pub type Rgb = (u8, u8, u8);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    pub name: &'static str,
    pub light: Rgb,
    pub dark: Rgb,
    pub last_light: Rgb,
    pub last_dark: Rgb,
    pub selected: Rgb,
    pub check: Rgb,
    /// A hint, or the engine's best move.
    pub hint: Rgb,
    /// Marks of the squares a selected piece can go to.
    pub target: Rgb,
    pub white_piece: Rgb,
    pub black_piece: Rgb,
    /// Pieces stand on a plate of the other piece colour; marks are inked black or white.
    pub plates: bool,
}

impl Theme {
    /// The ink for marks on a square of colour `square`: `target` in the usual themes; black or
    /// white, whichever reads better, where pieces stand on plates.
    pub fn mark(&self, square: Rgb) -> Rgb {
        if self.plates {
            ink(square)
        } else {
            self.target
        }
    }

    /// The plate under a piece of this colour (`white_piece` or `black_piece`), if pieces have
    /// plates.
    pub fn plate(&self, piece: Rgb) -> Option<Rgb> {
        self.plates.then(|| {
            if piece == self.white_piece {
                self.black_piece
            } else {
                self.white_piece
            }
        })
    }

    /// The square colours, highlights included.
    pub fn squares(&self) -> [Rgb; 7] {
        [
            self.light,
            self.dark,
            self.last_light,
            self.last_dark,
            self.selected,
            self.check,
            self.hint,
        ]
    }
}

/// The themes, the default first.
pub const THEMES: [Theme; 3] = [
    Theme {
        name: "wood",
        light: (170, 140, 100),
        dark: (122, 90, 62),
        last_light: (150, 150, 60),
        last_dark: (120, 125, 40),
        selected: (70, 120, 190),
        check: (200, 60, 50),
        hint: (80, 150, 100),
        target: (30, 60, 30),
        white_piece: (255, 255, 255),
        black_piece: (0, 0, 0),
        plates: false,
    },
    Theme {
        name: "blue",
        light: (130, 150, 170),
        dark: (80, 100, 130),
        last_light: (150, 150, 80),
        last_dark: (110, 120, 60),
        selected: (60, 130, 200),
        check: (200, 60, 50),
        hint: (70, 150, 110),
        target: (20, 40, 70),
        white_piece: (255, 255, 255),
        black_piece: (0, 0, 0),
        plates: false,
    },
    Theme {
        name: "high-contrast",
        light: (200, 200, 200),
        dark: (56, 56, 56),
        last_light: (235, 215, 90),
        last_dark: (80, 64, 0),
        selected: (100, 170, 255),
        check: (255, 120, 120),
        hint: (110, 225, 130),
        target: (0, 0, 0),
        white_piece: (255, 255, 255),
        black_piece: (0, 0, 0),
        plates: true,
    },
];

pub fn by_name(name: &str) -> Option<&'static Theme> {
    THEMES.iter().find(|t| t.name == name)
}

pub fn names() -> String {
    THEMES.map(|t| t.name).join(", ")
}

/// Black or white, whichever reads better on `square`.
pub fn ink(square: Rgb) -> Rgb {
    let (black, white) = ((0, 0, 0), (255, 255, 255));
    if contrast(square, black) >= contrast(square, white) {
        black
    } else {
        white
    }
}

/// WCAG relative luminance.
fn luminance((r, g, b): Rgb) -> f64 {
    let channel = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
}

/// WCAG contrast ratio, 1 to 21.
pub fn contrast(a: Rgb, b: Rgb) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn high_contrast_stands_at_7_to_1_for_pieces_and_marks() {
        let theme = by_name("high-contrast").unwrap();
        for piece in [theme.white_piece, theme.black_piece] {
            let plate = theme.plate(piece).unwrap();
            assert!(
                contrast(piece, plate) >= 7.0,
                "piece {piece:?} on {plate:?}"
            );
        }
        for square in theme.squares() {
            let ratio = contrast(theme.mark(square), square);
            assert!(ratio >= 7.0, "a mark on {square:?} is {ratio:.2}:1");
        }
        // No square colour could carry both piece colours at 7:1.
        let best = (0..=255u8)
            .map(|v| {
                let square = (v, v, v);
                contrast(square, (0, 0, 0)).min(contrast(square, (255, 255, 255)))
            })
            .fold(0.0, f64::max);
        assert!(best < 4.6, "{best}");
    }

    #[test]
    fn every_piece_reads_on_every_square_of_every_theme() {
        assert_eq!(contrast((255, 255, 255), (0, 0, 0)), 21.0);
        for theme in THEMES.iter().filter(|t| !t.plates) {
            for square in theme.squares() {
                for piece in [theme.white_piece, theme.black_piece] {
                    let ratio = contrast(piece, square);
                    assert!(
                        ratio >= 3.0,
                        "{}: piece {piece:?} on {square:?} is {ratio:.2}:1",
                        theme.name
                    );
                }
            }
        }
        assert_eq!(by_name("blue").map(|t| t.name), Some("blue"));
        assert!(by_name("neon").is_none());
    }
}
