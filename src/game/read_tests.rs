//! What the reader makes of the PGN import format, and of what is not PGN at all.

use super::read::{GameErrorKind, parse_all};

/// The first game's moves in export form, and its errors as "line: message".
fn read(text: &str) -> (String, Vec<String>) {
    let game = parse_all(text).remove(0);
    let pgn = game.game.to_pgn();
    let movetext = pgn
        .split("\n\n")
        .nth(1)
        .unwrap_or_default()
        .trim()
        .to_owned();
    let errors = game
        .errors
        .iter()
        .map(|e| format!("{}: {}", e.line, e.kind))
        .collect();
    (movetext, errors)
}

#[test]
fn a_token_that_is_not_a_move_is_an_error_and_the_moves_before_it_stay() {
    let (moves, errors) = read("1. e4 Ke9 e5 *\n");
    assert_eq!(moves, "1. e4 *");
    assert_eq!(errors, ["1: 1... 'Ke9' is not a SAN move"]);
    // A German knight, a typo: at their lines.
    let (moves, errors) = read("1. e4 e5\n2. Sf3 Nc6 *\n");
    assert_eq!(moves, "1. e4 e5 *");
    assert_eq!(errors, ["2: 2. 'Sf3' is not a SAN move"]);
    let (_, errors) = read("1. e4 e4e *\n");
    assert_eq!(errors, ["1: 1... 'e4e' is not a SAN move"]);
    // In a variation the error skips the rest of it; the main line goes on.
    let (moves, errors) = read("1. e4 (1. d4 Xx5 d5) 1... e5 *\n");
    assert_eq!(moves, "1. e4 (1. d4) 1... e5 *");
    assert_eq!(errors.len(), 1);
}

#[test]
fn lenient_forms_read_and_are_written_back_as_san() {
    let (moves, errors) = read("1. e2-e4 e7-e5 2. Ng1-f3 Nb8-c6 3. Bf1-c4 Ng8-f6 4. 0-0 *");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(moves, "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O *");
    let promotions = "[FEN \"4k3/1P5P/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. b7b8r+ Ke7 2. h7-h8=q *";
    let (moves, errors) = read(promotions);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(moves, "1. b8=R+ Ke7 2. h8=Q *");
    let (moves, errors) = read("[FEN \"k7/3P4/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. d8R+ *");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(moves, "1. d8=R+ *");
    let (moves, errors) = read("1. e4!? e5?! 2. Nf3!! Nc6?? 3. Bb5! a6? *");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(moves, "1. e4 $5 e5 $6 2. Nf3 $3 Nc6 $4 3. Bb5 $1 a6 $2 *");
    let (moves, _) = read("1.e4 e5 2.Nf3 Nc6 3.Bb5 *");
    assert_eq!(moves, "1. e4 e5 2. Nf3 Nc6 3. Bb5 *");
}

#[test]
fn tags_and_movetext_may_share_a_line() {
    let games = parse_all("[White \"a\"] [Result \"1-0\"] 1. e4 e5 1-0\n\n[White \"b\"] 1. d4 *\n");
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|g| g.is_ok()), "{:?}", games[0].errors);
    assert_eq!(games[0].game.headers.get("White"), Some("a"));
    assert_eq!(games[0].game.tree.mainline().count(), 2);
    assert_eq!(games[1].game.headers.get("White"), Some("b"));
    assert_eq!(games[1].game.tree.mainline().count(), 1);
}

#[test]
fn semicolon_comments_are_kept_and_escape_lines_ignored() {
    let (moves, errors) = read("1. e4 ; the king's pawn {not a brace}\n% 1. d4 is escaped\ne5 *");
    assert!(errors.is_empty(), "{errors:?}");
    // A `}` cannot be in a brace comment: the text stays a rest-of-line comment, exactly.
    assert_eq!(moves, "1. e4 ; the king's pawn {not a brace}\n1... e5 *");
}

#[test]
fn nags_past_255_are_errors() {
    let (moves, errors) = read("1. e4 $255 e5 $256 *");
    assert_eq!(moves, "1. e4 $255 e5 *");
    assert_eq!(errors, ["1: NAG $256 is out of range ($0 to $255)"]);
    let (_, errors) = read("1. e4 $ e5 *");
    assert_eq!(errors, ["1: '$' without a number"]);
    let (_, errors) = read("1. e4 !!! e5 *");
    assert_eq!(errors, ["1: unknown annotation '!!!'"]);
}

#[test]
fn binary_garbage_is_an_invalid_character_at_its_line() {
    let (moves, errors) = read("1. e4 e5\n2. Nf3 \0 Nc6 *");
    assert_eq!(moves, "1. e4 e5 2. Nf3 *");
    assert_eq!(errors, ["2: invalid character 0x00"]);
    let games = parse_all("1. e4 \u{7f}\u{1}\n");
    assert!(matches!(
        games[0].errors[0].kind,
        GameErrorKind::InvalidCharacter(0x7f)
    ));
    // Control characters in comments and tags never reach the output.
    let text = "[Event \"a\u{1}b\"]\n\n1. e4 {x\u{0}y} *";
    let pgn = parse_all(text).remove(0).game.to_pgn();
    assert!(!pgn.chars().any(|c| c.is_control() && c != '\n'), "{pgn:?}");
    assert!(
        pgn.contains("[Event \"a b\"]") && pgn.contains("{x y}"),
        "{pgn}"
    );
    // A broken tag's message shows its control characters escaped.
    let games = parse_all("[Event \u{1}\"x\n\n1. e4 *");
    let message = games[0].errors[0].to_string();
    assert!(
        message.contains("\\u{1}") && !message.contains('\u{1}'),
        "{message}"
    );
}

#[test]
fn escape_lines_before_the_tags_do_not_make_a_game() {
    let games = parse_all("% made by hand\n\n[White \"a\"]\n\n1. e4 *\n");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].game.headers.get("White"), Some("a"));
}

#[test]
fn a_variation_needs_a_move_before_it() {
    let (moves, errors) = read("( 1. e4 e5 ) *");
    assert_eq!(moves, "*");
    assert_eq!(
        errors,
        ["1: '(' with no move before it to be an alternative to"]
    );
    let (moves, errors) = read("1. e4 ((1. d4) 1. c4) e5 *");
    assert_eq!(moves, "1. e4 e5 *");
    assert_eq!(errors.len(), 1);
}

fn warnings(text: &str) -> Vec<Vec<String>> {
    parse_all(text)
        .iter()
        .map(|g| {
            g.warnings
                .iter()
                .map(|w| format!("{}: {}", w.line, w.kind))
                .collect()
        })
        .collect()
}

#[test]
fn each_tag_section_is_a_game_even_without_movetext() {
    let text = "[Round \"1\"]\n[White \"A\"]\n\n[Round \"2\"]\n[White \"B\"]\n\n\
                [Round \"3\"]\n[White \"C\"]\n[Result \"0-1\"]\n\n1. e4 e5 0-1\n";
    let games = parse_all(text);
    assert_eq!(games.len(), 3);
    let whites: Vec<_> = games.iter().map(|g| g.game.headers.get("White")).collect();
    assert_eq!(whites, [Some("A"), Some("B"), Some("C")]);
    assert_eq!(games[2].game.tree.move_count(), 2);
    let w = warnings(text);
    assert_eq!(
        w[0],
        ["1: a tag section with no movetext (no moves and no result)"]
    );
    assert_eq!(
        w[1],
        ["4: a tag section with no movetext (no moves and no result)"]
    );
    assert!(w[2].is_empty());
}

#[test]
fn text_after_the_result_is_an_error_and_comments_after_it_are_kept() {
    let (moves, errors) = read("1. e4 e5 1-0 2. Nf3 *\n");
    assert_eq!(moves, "1. e4 e5 1-0");
    assert_eq!(errors, ["1: text after the result 1-0: 2. Nf3 *"]);
    let (moves, errors) = read("1. e4 e5\n1-0 {White won on time}\n");
    assert_eq!(moves, "1. e4 e5 {White won on time} 1-0");
    assert!(errors.is_empty(), "{errors:?}");
    // `1/2` alone is not a result: an error where it stands, not a silent end.
    let (_, errors) = read("1. e4 e5 1/2 2. Nf3 *\n");
    assert_eq!(errors.len(), 1, "{errors:?}");
}

#[test]
fn repeated_tags_and_results_that_disagree_are_warned_about() {
    let text = "[White \"A\"]\n[White \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 0-1\n";
    let games = parse_all(text);
    assert_eq!(games[0].game.headers.get("White"), Some("A"));
    assert_eq!(games[0].game.headers.get("Result"), Some("1-0"));
    assert_eq!(games[0].game.result.as_str(), "0-1");
    assert!(games[0].is_ok());
    assert_eq!(
        warnings(text)[0],
        [
            "2: tag White repeated: \"B\" ignored, \"A\" kept",
            "5: Result tag \"1-0\" but the movetext ends with 0-1",
        ]
    );
    // Written back as read: the tag and the movetext each keep what they said.
    let pgn = games[0].game.to_pgn();
    assert!(
        pgn.contains("[Result \"1-0\"]") && pgn.ends_with("1. e4 e5 0-1\n"),
        "{pgn}"
    );

    let text = "[White \"A\"]\n\n1. e4 e5 1/2-1/2\n";
    let games = parse_all(text);
    assert_eq!(games[0].game.headers.get("Result"), Some("1/2-1/2"));
    assert_eq!(
        warnings(text)[0],
        ["3: no Result tag; the movetext's 1/2-1/2 is used"]
    );
    assert_eq!(
        warnings("[Result \"*\"]\n\n1. e4 e5\n")[0],
        ["3: the movetext does not end with a result (1-0, 0-1, 1/2-1/2 or *)"]
    );
}
