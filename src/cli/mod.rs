//! One module per headless subcommand: argument structs and their `run` functions.
pub mod annotate;
pub mod bench;
pub mod book;
pub mod data;
pub mod datafile;
pub mod datagen;
pub mod db;
pub mod docs;
pub mod interrupt;
pub mod perft;
pub mod pgn;
pub mod pgn_check;
pub mod tb;
pub mod train;
pub mod tui;
pub mod tune;
pub mod uci;
pub mod xboard;

use std::path::Path;

use clap::Args;
use kibitzer::engine::{self, Evaluation};

/// The evaluation a headless search uses: `--eval` and, for a network, `--hce-share`.
#[derive(Args)]
pub struct EvalArgs {
    /// Evaluation: `nnue` (embedded network), `hce`, or a network file [default: the engine's].
    #[arg(long, value_parser = parse_evaluation)]
    eval: Option<Evaluation>,
    /// With a network: the percent of each score taken from the hand-crafted evaluation, 0 for
    /// the network alone (the UCI option HandCraftedShare).
    #[arg(long, value_name = "PERCENT", value_parser = clap::value_parser!(u8).range(0..=100))]
    hce_share: Option<u8>,
}

impl EvalArgs {
    pub fn evaluation(self) -> anyhow::Result<Evaluation> {
        let evaluation = self.eval.unwrap_or_default();
        match (self.hce_share, &evaluation) {
            (None, _) => Ok(evaluation),
            (Some(_), Evaluation::HandCrafted) => {
                anyhow::bail!("--hce-share needs a network: --eval nnue or a network file")
            }
            (Some(share), Evaluation::Nnue { .. }) => Ok(evaluation.with_hce_share(share)),
        }
    }
}

/// `--eval`: `nnue` (the embedded network), `hce` (the hand-crafted evaluation) or a network file.
pub fn parse_evaluation(arg: &str) -> Result<Evaluation, String> {
    match arg {
        "nnue" => Ok(Evaluation::embedded()),
        "hce" => Ok(Evaluation::HandCrafted),
        path => Evaluation::from_file(Path::new(path)).map_err(|e| e.to_string()),
    }
}

/// A hash table size in MiB: a whole number from 1 up to what the engine and this machine hold.
pub fn parse_hash_mb(arg: &str) -> Result<usize, String> {
    let mb: usize = arg
        .parse()
        .map_err(|_| format!("'{arg}' is not a whole number of MiB"))?;
    if !(1..=engine::MAX_HASH_MB).contains(&mb) {
        return Err(format!("{mb} is not from 1 to {}", engine::MAX_HASH_MB));
    }
    engine::check_hash_size(mb).map_err(|e| e.to_string())
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
    use kibitzer::engine::DEFAULT_HCE_SHARE;

    #[derive(clap::Parser)]
    struct WithEval {
        #[command(flatten)]
        eval: EvalArgs,
    }

    fn evaluation(args: &[&str]) -> Result<Evaluation, String> {
        use clap::Parser;
        let parsed = WithEval::try_parse_from(std::iter::once("x").chain(args.iter().copied()))
            .map_err(|e| e.kind().to_string())?;
        parsed.eval.evaluation().map_err(|e| e.to_string())
    }

    #[test]
    fn a_share_of_the_hand_crafted_evaluation_goes_with_a_network_only() {
        let share = |e: Evaluation| match e {
            Evaluation::Nnue { hce_share, .. } => Some(hce_share),
            Evaluation::HandCrafted => None,
        };
        assert_eq!(
            evaluation(&["--eval", "nnue"]).map(share),
            Ok(Some(DEFAULT_HCE_SHARE))
        );
        assert_eq!(
            evaluation(&["--eval", "nnue", "--hce-share", "0"]).map(share),
            Ok(Some(0))
        );
        assert_eq!(evaluation(&["--eval", "hce"]).map(share), Ok(None));
        assert!(
            evaluation(&["--eval", "hce", "--hce-share", "30"])
                .is_err_and(|e| e.contains("needs a network"))
        );
        assert!(evaluation(&["--eval", "nnue", "--hce-share", "101"]).is_err());
    }

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
