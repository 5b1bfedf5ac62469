//! UCI input lines turned into [`UciCommand`]s (syntax only: moves are checked against the
//! position later, in the session).

use std::str::FromStr;
use std::time::Duration;

#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum UciError {
    #[error("unknown command '{0}'")]
    Unknown(String),
    #[error("'{command}' needs {what}")]
    Missing {
        command: &'static str,
        what: &'static str,
    },
    #[error("'{value}' is not a valid {field}")]
    BadValue { field: &'static str, value: String },
}

/// Where `position` starts.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum StartPosition {
    StartPos,
    Fen(String),
}

/// The parameters of `go`, as given. Fields that could not be read are listed in `warnings`
/// (a `go` is never dropped: the GUI waits for its `bestmove`).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct GoParams {
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<Duration>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
    pub warnings: Vec<String>,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum UciCommand {
    Uci,
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Register,
    UciNewGame,
    Position {
        start: StartPosition,
        moves: Vec<String>,
    },
    Go(GoParams),
    Stop,
    PonderHit,
    Quit,
    /// `d`: show the position.
    Display,
    Eval,
    Bench {
        depth: Option<u32>,
    },
}

fn number<T: FromStr>(field: &'static str, value: Option<&str>) -> Result<T, UciError> {
    let value = value.ok_or(UciError::BadValue {
        field,
        value: String::new(),
    })?;
    value.parse().map_err(|_| UciError::BadValue {
        field,
        value: value.to_owned(),
    })
}

/// Milliseconds; negative clocks (some GUIs send them) count as zero.
fn millis(field: &'static str, value: Option<&str>) -> Result<Duration, UciError> {
    let ms: i64 = number(field, value)?;
    Ok(Duration::from_millis(ms.max(0) as u64))
}

const GO_KEYWORDS: [&str; 12] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

fn parse_go(tokens: &[&str]) -> GoParams {
    let mut go = GoParams::default();
    let mut i = 0;
    while i < tokens.len() {
        let key = tokens[i];
        let value = tokens.get(i + 1).copied();
        i += 1;
        let result = match key {
            "infinite" => {
                go.infinite = true;
                Ok(())
            }
            "ponder" => {
                go.ponder = true;
                Ok(())
            }
            "searchmoves" => {
                while i < tokens.len() && !GO_KEYWORDS.contains(&tokens[i]) {
                    go.searchmoves.push(tokens[i].to_owned());
                    i += 1;
                }
                Ok(())
            }
            "wtime" | "btime" | "winc" | "binc" | "movetime" => {
                i += 1;
                let field = match key {
                    "wtime" => &mut go.wtime,
                    "btime" => &mut go.btime,
                    "winc" => &mut go.winc,
                    "binc" => &mut go.binc,
                    _ => &mut go.movetime,
                };
                millis("time in milliseconds", value).map(|d| *field = Some(d))
            }
            "movestogo" => {
                i += 1;
                number("movestogo", value).map(|n| go.movestogo = Some(n))
            }
            "depth" => {
                i += 1;
                number("depth", value).map(|n| go.depth = Some(n))
            }
            "nodes" => {
                i += 1;
                number("node count", value).map(|n| go.nodes = Some(n))
            }
            "mate" => {
                i += 1;
                number("mate distance", value).map(|n| go.mate = Some(n))
            }
            other => Err(UciError::Unknown(format!("go {other}"))),
        };
        if let Err(e) = result {
            go.warnings.push(format!("{key}: {e}"));
        }
    }
    go
}

fn parse_setoption(tokens: &[&str]) -> Result<UciCommand, UciError> {
    // setoption name <id with spaces> [value <x with spaces>]
    if tokens.first() != Some(&"name") {
        return Err(UciError::Missing {
            command: "setoption",
            what: "'name <option>'",
        });
    }
    let rest = &tokens[1..];
    let value_at = rest.iter().position(|&t| t == "value");
    let (name, value) = match value_at {
        Some(v) => (&rest[..v], Some(rest[v + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(UciError::Missing {
            command: "setoption",
            what: "an option name",
        });
    }
    Ok(UciCommand::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_position(tokens: &[&str]) -> Result<UciCommand, UciError> {
    let moves_at = tokens.iter().position(|&t| t == "moves");
    let (head, moves) = match moves_at {
        Some(m) => (&tokens[..m], &tokens[m + 1..]),
        None => (tokens, &[][..]),
    };
    let start = match head.split_first() {
        Some((&"startpos", [])) => StartPosition::StartPos,
        Some((&"fen", fen)) if !fen.is_empty() => StartPosition::Fen(fen.join(" ")),
        _ => {
            return Err(UciError::Missing {
                command: "position",
                what: "'startpos' or 'fen <FEN>'",
            });
        }
    };
    Ok(UciCommand::Position {
        start,
        moves: moves.iter().map(|s| (*s).to_owned()).collect(),
    })
}

impl FromStr for UciCommand {
    type Err = UciError;

    fn from_str(line: &str) -> Result<UciCommand, UciError> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = tokens.split_first() else {
            return Err(UciError::Unknown(String::new()));
        };
        Ok(match command {
            "uci" => UciCommand::Uci,
            "debug" => UciCommand::Debug(args.first() == Some(&"on")),
            "isready" => UciCommand::IsReady,
            "setoption" => parse_setoption(args)?,
            "register" => UciCommand::Register,
            "ucinewgame" => UciCommand::UciNewGame,
            "position" => parse_position(args)?,
            "go" => UciCommand::Go(parse_go(args)),
            "stop" => UciCommand::Stop,
            "ponderhit" => UciCommand::PonderHit,
            "quit" => UciCommand::Quit,
            "d" => UciCommand::Display,
            "eval" => UciCommand::Eval,
            "bench" => UciCommand::Bench {
                depth: args.first().map(|d| number("depth", Some(d))).transpose()?,
            },
            other => return Err(UciError::Unknown(other.to_owned())),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> UciCommand {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn simple_commands() {
        for (s, c) in [
            ("uci", UciCommand::Uci),
            ("isready", UciCommand::IsReady),
            ("ucinewgame", UciCommand::UciNewGame),
            ("stop", UciCommand::Stop),
            ("ponderhit", UciCommand::PonderHit),
            ("quit", UciCommand::Quit),
            ("d", UciCommand::Display),
            ("eval", UciCommand::Eval),
            ("  debug on ", UciCommand::Debug(true)),
            ("register later", UciCommand::Register),
            ("bench", UciCommand::Bench { depth: None }),
            ("bench 5", UciCommand::Bench { depth: Some(5) }),
        ] {
            assert_eq!(parse(s), c, "{s}");
        }
    }

    #[test]
    fn setoption_with_spaces() {
        assert_eq!(
            parse("setoption name Move Overhead value 100"),
            UciCommand::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            }
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            UciCommand::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert_eq!(
            parse("setoption name SyzygyPath value /tb/a b"),
            UciCommand::SetOption {
                name: "SyzygyPath".into(),
                value: Some("/tb/a b".into())
            }
        );
    }

    #[test]
    fn positions() {
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            UciCommand::Position {
                start: StartPosition::StartPos,
                moves: vec!["e2e4".into(), "e7e5".into()]
            }
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1"),
            UciCommand::Position {
                start: StartPosition::Fen("8/8/8/8/8/8/8/K1k5 w - - 0 1".into()),
                moves: vec![]
            }
        );
    }

    #[test]
    fn go_parameters() {
        let UciCommand::Go(go) = parse(
            "go wtime 1000 btime -5 winc 10 binc 20 movestogo 7 depth 3 nodes 500 mate 2 movetime 300 ponder searchmoves e2e4 d2d4 infinite",
        ) else {
            panic!()
        };
        assert_eq!(go.wtime, Some(Duration::from_millis(1000)));
        assert_eq!(go.btime, Some(Duration::ZERO));
        assert_eq!(
            (go.winc, go.binc),
            (
                Some(Duration::from_millis(10)),
                Some(Duration::from_millis(20))
            )
        );
        assert_eq!(
            (go.movestogo, go.depth, go.nodes, go.mate),
            (Some(7), Some(3), Some(500), Some(2))
        );
        assert_eq!(go.movetime, Some(Duration::from_millis(300)));
        assert!(go.ponder && go.infinite);
        assert_eq!(go.searchmoves, vec!["e2e4", "d2d4"]);
        assert!(go.warnings.is_empty());
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        for bad in [
            "",
            "   ",
            "foo",
            "position",
            "position fen",
            "position banana",
            "setoption",
            "setoption value 3",
            "setoption name",
            "bench x",
        ] {
            assert!(bad.parse::<UciCommand>().is_err(), "{bad:?}");
        }
        let UciCommand::Go(go) = parse("go depth x wtime nodes 5 frobnicate") else {
            panic!()
        };
        assert_eq!(go.warnings.len(), 4, "{:?}", go.warnings);
        assert_eq!(go.nodes, None, "'nodes' was eaten as wtime's bad value");
    }
}
