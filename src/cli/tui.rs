//! The interactive commands: the terminal interface with no subcommand, `play`, `analyse`,
//! `endgame`.

use anyhow::{Context, bail};
use clap::Args;

use kibitzer::chess::{Color, Position};
use kibitzer::tui::clock::TimeControl;
use kibitzer::tui::{self, Options, Start};

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Play White (the default from config.toml otherwise).
    #[arg(long, conflicts_with = "black")]
    pub white: bool,
    /// Play Black.
    #[arg(long)]
    pub black: bool,
    /// Engine strength, 1 (weakest) to 20 (full strength).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=20))]
    pub level: Option<u8>,
    /// Time control MINUTES+INCREMENT (5+3, 0.5+1) or "untimed".
    #[arg(long)]
    pub tc: Option<TimeControl>,
    /// ASCII pieces instead of Unicode.
    #[arg(long)]
    pub ascii: bool,
}

#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// A FEN, or a PGN file.
    pub target: String,
    /// ASCII pieces instead of Unicode.
    #[arg(long)]
    pub ascii: bool,
}

#[derive(Args, Debug)]
pub struct EndgameArgs {
    /// Material such as KQvK, KRPvKR, or a FEN.
    pub target: Option<String>,
    /// ASCII pieces instead of Unicode.
    #[arg(long)]
    pub ascii: bool,
}

/// `kibitzer` with no subcommand.
pub fn run_default(ascii: bool) -> anyhow::Result<()> {
    open(Options {
        ascii,
        start: Start::Default,
    })
}

pub fn play(args: PlayArgs) -> anyhow::Result<()> {
    let color = if args.white {
        Some(Color::White)
    } else if args.black {
        Some(Color::Black)
    } else {
        None
    };
    open(Options {
        ascii: args.ascii,
        start: Start::Play {
            color,
            level: args.level,
            time_control: args.tc,
        },
    })
}

pub fn analyse(args: AnalyseArgs) -> anyhow::Result<()> {
    let target = args.target.trim();
    let start = if target.to_ascii_lowercase().ends_with(".pgn") {
        let path = std::path::PathBuf::from(target);
        // Fail before the screen changes; the interface reads the file itself.
        std::fs::metadata(&path).with_context(|| format!("reading {target}"))?;
        Start::Browse(path)
    } else {
        let pos = Position::from_fen(target)
            .with_context(|| format!("'{target}' is not a FEN or a .pgn file"))?;
        Start::Analyse(Box::new(pos))
    };
    open(Options {
        ascii: args.ascii,
        start,
    })
}

pub fn endgame(args: EndgameArgs) -> anyhow::Result<()> {
    let target = args.target.unwrap_or_default();
    // Bad input is reported here, before the terminal is taken over.
    if !target.trim().is_empty()
        && let Err(material) = target.parse::<kibitzer::tablebase::Material>()
        && let Err(fen) = Position::from_fen(target.trim())
    {
        bail!("'{target}' is neither a material ({material}) nor a FEN ({fen})");
    }
    let (config, _) = tui::config::load(tui::config::config_path().as_deref());
    let tables = tui::tablebase::TbPanel::open(&config);
    if tables.tables.is_none() {
        bail!("the endgame trainer needs tablebases; {}", tables.note);
    }
    open(Options {
        ascii: args.ascii,
        start: Start::Endgame(target),
    })
}

fn open(options: Options) -> anyhow::Result<()> {
    if !std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        bail!("the terminal interface needs a terminal; see `kibitzer --help` for batch commands");
    }
    tui::run(options).context("terminal interface")
}
