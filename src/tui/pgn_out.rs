//! PGN text for a linear game (headers and SAN movetext), for saving finished games.

use crate::chess::STARTPOS;

use super::game::GameLine;

pub struct Players<'a> {
    pub white: &'a str,
    pub black: &'a str,
    pub event: &'a str,
    pub time_control: Option<String>,
}

/// `date` as `YYYY.MM.DD`.
pub fn write(game: &GameLine, players: &Players, date: &str) -> String {
    let result = game.end().map_or("*", |e| e.result());
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{name} \"{escaped}\"]\n"));
    };
    tag("Event", players.event);
    tag("Site", "kibitzer");
    tag("Date", date);
    tag("Round", "-");
    tag("White", players.white);
    tag("Black", players.black);
    tag("Result", result);
    let fen = game.start().fen();
    if fen != STARTPOS {
        tag("SetUp", "1");
        tag("FEN", &fen);
    }
    if let Some(tc) = &players.time_control {
        tag("TimeControl", tc);
    }
    if let Some(end) = game.end() {
        tag("Termination", &end.to_string());
    }
    out.push('\n');
    let mut tokens = Vec::new();
    for (i, san) in game.sans().iter().enumerate() {
        let (number, turn) = game.move_number(i);
        if turn == crate::chess::Color::White {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(san.clone());
    }
    tokens.push(result.to_owned());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// Today's date from the system clock (UTC), `YYYY.MM.DD`.
pub fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Civil-from-days (proleptic Gregorian).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;

    #[test]
    fn writes_headers_and_movetext() {
        let mut g = GameLine::new(Position::startpos());
        for u in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            let m = g.current().parse_uci(u).unwrap();
            g.play(m);
        }
        let p = Players {
            white: "You",
            black: "kibitzer",
            event: "Casual game",
            time_control: Some("300+3".into()),
        };
        let text = write(&g, &p, "2026.01.02");
        assert!(text.contains("[Result \"0-1\"]"));
        assert!(text.contains("1. f3 e5 2. g4 Qh4# 0-1"), "{text}");
        assert_eq!(today().len(), 10);
    }
}
