//! One module per headless subcommand: argument structs and their `run` functions.
pub mod annotate;
pub mod bench;
pub mod book;
pub mod data;
pub mod datafile;
pub mod datagen;
pub mod docs;
pub mod perft;
pub mod pgn;
pub mod tb;
pub mod train;
pub mod tui;
pub mod tune;
pub mod uci;

use std::path::Path;

use kibitzer::engine::Evaluation;

/// `--eval`: `nnue` (the embedded network), `hce` (the hand-crafted evaluation) or a network file.
pub fn parse_evaluation(arg: &str) -> Result<Evaluation, String> {
    match arg {
        "nnue" => Ok(Evaluation::embedded()),
        "hce" => Ok(Evaluation::HandCrafted),
        path => Evaluation::from_file(Path::new(path)).map_err(|e| e.to_string()),
    }
}

/// A share from 0 to 1 (`--result-weight`).
pub fn parse_share(arg: &str) -> Result<f64, String> {
    parse_share_up_to(arg, 1.0)
}

/// A share of the data to hold out, 0 to one half (`--validation`): more would leave too
/// little to learn from.
pub fn parse_held_out_share(arg: &str) -> Result<f64, String> {
    parse_share_up_to(arg, 0.5)
}

fn parse_share_up_to(arg: &str, max: f64) -> Result<f64, String> {
    let value: f64 = arg
        .parse()
        .map_err(|_| format!("'{arg}' is not a number"))?;
    if (0.0..=max).contains(&value) {
        Ok(value)
    } else {
        Err(format!("{value} is outside 0 to {max}"))
    }
}

pub use datafile::read_training_data;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_outside_their_range_are_refused() {
        assert_eq!(parse_share("0.3"), Ok(0.3));
        assert_eq!(parse_share("1"), Ok(1.0));
        assert!(parse_share("1.5").unwrap_err().contains("outside 0 to 1"));
        assert!(parse_share("-0.1").is_err());
        assert!(parse_share("NaN").is_err());
        assert!(parse_share("half").unwrap_err().contains("not a number"));
        assert_eq!(parse_held_out_share("0.5"), Ok(0.5));
        assert!(
            parse_held_out_share("0.6")
                .unwrap_err()
                .contains("0 to 0.5")
        );
    }
}
