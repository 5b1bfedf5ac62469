//! Board colour themes. Every square colour (highlights included) stands at least 3:1 (WCAG
//! contrast) against both piece colours, so a white piece on a light square or on the last-move
//! highlight stays readable: with white and black pieces that keeps every square a mid-tone.

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
}

impl Theme {
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
    },
    Theme {
        name: "high-contrast",
        light: (140, 140, 140),
        dark: (92, 92, 92),
        last_light: (120, 120, 40),
        last_dark: (110, 110, 30),
        selected: (40, 100, 200),
        check: (190, 40, 40),
        hint: (40, 140, 60),
        target: (255, 255, 0),
        white_piece: (255, 255, 255),
        black_piece: (0, 0, 0),
    },
];

pub fn by_name(name: &str) -> Option<&'static Theme> {
    THEMES.iter().find(|t| t.name == name)
}

pub fn names() -> String {
    THEMES.map(|t| t.name).join(", ")
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
    fn every_piece_reads_on_every_square_of_every_theme() {
        assert_eq!(contrast((255, 255, 255), (0, 0, 0)), 21.0);
        for theme in &THEMES {
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
