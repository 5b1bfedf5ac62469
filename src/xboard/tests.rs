//! The protocol driven command by command, as xboard would.

use std::time::Duration;

use super::*;
use crate::engines::protocol::testing::Buffer;

fn session() -> (Session, Buffer) {
    let buf = Buffer::default();
    (Session::new(Output::new(buf.clone())), buf)
}

fn send(s: &mut Session, lines: &[&str]) {
    for line in lines {
        assert!(s.handle_line(line), "{line}");
    }
}

/// The move of a `move X` line, checked legal in `pos`.
fn engine_move(line: &str, pos: &Position) -> Move {
    let text = line.strip_prefix("move ").expect("a move line");
    pos.parse_uci(text)
        .ok()
        .or_else(|| pos.parse_san(text).ok())
        .filter(|&m| pos.is_legal(m))
        .unwrap_or_else(|| panic!("illegal engine move {text} in {}", pos.fen()))
}

#[test]
fn handshake_features_ping_and_bad_input() {
    let (mut s, out) = session();
    send(
        &mut s,
        &["xboard", "protover 2", "accepted setboard", "ping 7"],
    );
    let text = out.text();
    for feature in [
        "setboard=1",
        "usermove=1",
        "ping=1",
        "sigint=0",
        "sigterm=0",
        "analyze=1",
        "colors=0",
        "variants=\"normal,fischerandom\"",
        "memory=1",
        "smp=1",
        "egt=\"syzygy\"",
        "option=\"Hash -spin 64 1 65536\"",
        "option=\"Syzygy Path -path \"",
    ] {
        assert!(text.contains(feature), "{feature} missing:\n{text}");
    }
    assert!(text.contains("feature done=1\npong 7"), "{text}");
    send(
        &mut s,
        &[
            "frobnicate",
            "usermove e2e5",
            "level 40 x 0",
            "sd banana",
            "option Warp=9",
            "option Hash=0",
            "variant crazyhouse",
            "setboard not a fen",
            "undo",
        ],
    );
    let text = out.text();
    assert!(
        text.contains("Error (unknown command): frobnicate"),
        "{text}"
    );
    assert!(text.contains("Illegal move: e2e5"), "{text}");
    assert!(text.contains("Error (expected level MPS BASE INC): level 40 x 0"));
    assert!(text.contains("Error (expected a depth): sd banana"));
    assert!(
        text.contains("Error (no option 'Warp'): option Warp=9"),
        "{text}"
    );
    assert!(
        text.contains("tellusererror option Hash: 0 is outside 1..65536"),
        "{text}"
    );
    assert!(text.contains("Error (variant not supported): crazyhouse"));
    assert!(text.contains("tellusererror Illegal position"), "{text}");
    assert!(
        text.contains("Error (no moves to take back): undo"),
        "{text}"
    );
    // nopost: the engine moves without thinking output.
    out.clear();
    send(&mut s, &["new", "post", "nopost", "sd 3", "force", "go"]);
    engine_move(&out.wait_for_line("move "), &Position::startpos());
    let thinking = out
        .text()
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .count();
    assert_eq!(thinking, 0, "{}", out.text());
    assert!(!s.handle_line("quit"));
    s.shutdown();
}

#[test]
fn the_engine_plays_its_side_with_thinking_output() {
    let (mut s, out) = session();
    send(
        &mut s,
        &["protover 2", "new", "post", "sd 4", "usermove e2e4"],
    );
    let mut pos = Position::startpos();
    pos.play_unchecked(pos.parse_uci("e2e4").unwrap());
    let reply = engine_move(&out.wait_for_line("move "), &pos);
    // Thinking: depth, score, time in centiseconds, nodes, a line in coordinates.
    let thinking = out
        .text()
        .lines()
        .find(|l| l.starts_with("4 "))
        .map(str::to_owned)
        .expect("a depth-4 line");
    let fields: Vec<&str> = thinking.split_whitespace().collect();
    assert!(fields.len() >= 5, "{thinking}");
    assert!(
        fields[1..4].iter().all(|f| f.parse::<i64>().is_ok()),
        "{thinking}"
    );
    pos.play_unchecked(reply);

    // Force mode: both sides' moves come from the GUI; undo and remove take them back.
    out.clear();
    let uci = |m: Move| UciMove::from_move(m, CastlingMode::Standard).to_string();
    let white = pos.legal_moves().iter().copied().next().unwrap();
    let black = pos
        .play(white)
        .unwrap()
        .legal_moves()
        .iter()
        .copied()
        .next()
        .unwrap();
    send(
        &mut s,
        &[
            "force",
            &format!("usermove {}", uci(white)),
            &format!("usermove {}", uci(black)),
            "remove",
            &format!("usermove {}", uci(white)),
            "undo",
        ],
    );
    std::thread::sleep(Duration::from_millis(100));
    assert!(!out.text().contains("move "), "{}", out.text());
    // Back to the position after 1. e4 and the engine's reply: White to move, the engine on it.
    send(&mut s, &["go"]);
    let m = engine_move(&out.wait_for_line("move "), &pos);
    pos.play_unchecked(m);
    // playother: the engine takes the side not to move, the user moves for the other.
    out.clear();
    send(&mut s, &["force", "playother"]);
    let theirs = pos.legal_moves().iter().copied().next().unwrap();
    send(&mut s, &[&format!("usermove {}", uci(theirs))]);
    pos.play_unchecked(theirs);
    engine_move(&out.wait_for_line("move "), &pos);
    send(&mut s, &["result 1/2-1/2 {agreed}"]);
    assert!(!s.handle_line("quit"));
    s.shutdown();
}

#[test]
fn clocks_levels_nps_and_move_now() {
    let (mut s, out) = session();
    send(
        &mut s,
        &[
            "new",
            "level 40 0:30 0",
            "time 3000",
            "otim 3000",
            "usermove d2d4",
        ],
    );
    let mut pos = Position::startpos();
    pos.play_unchecked(pos.parse_uci("d2d4").unwrap());
    engine_move(&out.wait_for_line("move "), &pos);

    // `st` with `nps`: the nodes that rate gives in the move's time, however fast the machine.
    let (mut s2, out2) = session();
    send(&mut s2, &["new", "post", "st 1", "nps 5000", "force", "go"]);
    engine_move(&out2.wait_for_line("move "), &Position::startpos());
    let most_nodes = out2
        .text()
        .lines()
        .filter_map(|l| l.split_whitespace().nth(3)?.parse::<u64>().ok())
        .max()
        .unwrap_or(0);
    assert!(most_nodes <= 5000 + 1024, "{}", out2.text());
    s2.shutdown();

    // `?`: an endless search (a day a move) moves at once.
    out.clear();
    send(&mut s, &["force", "new", "st 86400", "force", "go"]);
    std::thread::sleep(Duration::from_millis(200));
    send(&mut s, &["?"]);
    engine_move(&out.wait_for_line("move "), &Position::startpos());
    s.shutdown();
}

#[test]
fn analyze_a_chess960_position_set_with_setboard() {
    let (mut s, out) = session();
    // Chess960 position 0 (BBQNNRKR), White to move; castling rights by the rooks' files.
    let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";
    send(
        &mut s,
        &[
            "new",
            "variant fischerandom",
            &format!("setboard {fen}"),
            "analyze",
        ],
    );
    let first = out.wait_for_line("1 ");
    assert!(first.split_whitespace().count() >= 5, "{first}");
    send(&mut s, &["."]);
    let stat = out.wait_for_line("stat01: ");
    assert_eq!(stat.split_whitespace().nth(5), Some("20"), "{stat}");
    // A move while analysing: the analysis goes on from the new position.
    out.clear();
    send(&mut s, &["usermove g2g3"]);
    out.wait_for_line("1 ");
    send(&mut s, &["exit", "force"]);
    assert!(!out.text().contains("move "), "analysis plays no move");

    // Castling in Chess960 is written O-O, and the GUI's O-O is understood.
    let fen = "rnbqnk1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQNK1R w HAha - 0 1";
    send(&mut s, &[&format!("setboard {fen}"), "usermove O-O"]);
    let pos = Position::from_fen_with_mode(fen, CastlingMode::Chess960).unwrap();
    let castle = pos.parse_san("O-O").unwrap();
    let after = pos.play(castle).unwrap();
    send(&mut s, &["go"]);
    engine_move(&out.wait_for_line("move "), &after);
    s.shutdown();
}

#[test]
fn pondering_hints_draws_and_options() {
    let (mut s, out) = session();
    send(
        &mut s,
        &[
            "new",
            "hard",
            "sd 6",
            "memory 16",
            "cores 1",
            "option Hash=16",
            "option Own Book=0",
            "option Limit Strength=0",
            "option Move Overhead=10",
            "option Use NNUE=0",
            "option Use NNUE=1",
            "option Hand Crafted Share=30",
            "option Clear Hash",
            "option Eval File=/nonexistent/net.bin",
            "usermove e2e4",
        ],
    );
    let mut pos = Position::startpos();
    pos.play_unchecked(pos.parse_uci("e2e4").unwrap());
    let reply = engine_move(&out.wait_for_line("move "), &pos);
    // A network file that cannot be read keeps the evaluation, and says why.
    assert!(
        out.text().contains("tellusererror Eval File: ")
            && out.text().contains("keeping the current network"),
        "{}",
        out.text()
    );
    pos.play_unchecked(reply);
    // The engine ponders on the reply it expects, and hints it.
    std::thread::sleep(Duration::from_millis(50));
    out.clear();
    send(&mut s, &["hint"]);
    let hint = out.wait_for_line("Hint: ");
    let expected = pos
        .parse_uci(hint.trim_start_matches("Hint: "))
        .expect("a legal hint");
    // The hinted reply is the ponder hit: the engine answers from that search.
    out.clear();
    let text = UciMove::from_move(expected, CastlingMode::Standard).to_string();
    send(&mut s, &[&format!("usermove {text}")]);
    pos.play_unchecked(expected);
    engine_move(&out.wait_for_line("move "), &pos);
    // A draw offer in the opening is declined (no `offer draw`).
    send(&mut s, &["draw", "easy", "ping 3"]);
    out.wait_for_line("pong 3");
    assert!(!out.text().contains("offer draw"), "{}", out.text());
    // The book: the engine's first move comes from it without a search.
    out.clear();
    send(&mut s, &["new", "post", "option Own Book=1", "force", "go"]);
    let first = engine_move(&out.wait_for_line("move "), &Position::startpos());
    assert!(
        crate::book::Book::embedded()
            .probe(&Position::startpos())
            .iter()
            .any(|bm| bm.mv == first),
        "{first:?} is not a book move"
    );
    // Syzygy tables through egtpath, when the shared ones are there.
    if let Some(dir) = crate::test_data::shared_path("syzygy") {
        out.clear();
        send(
            &mut s,
            &[
                "new",
                "post",
                &format!("egtpath syzygy {}", dir.display()),
                "setboard 8/8/8/3k4/8/8/8/R3K3 w - - 0 1",
                "sd 2",
                "go",
            ],
        );
        out.wait_for_line("move ");
        let tb_scores = out
            .text()
            .lines()
            .filter_map(|l| l.split_whitespace().nth(1)?.parse::<i32>().ok())
            .any(|cp| Score::Cp(cp).is_tablebase());
        assert!(tb_scores, "{}", out.text());
    }
    s.shutdown();
}
