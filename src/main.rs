//! The `kibitzer` command: the TUI by default, headless subcommands for batch work.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;

#[derive(Parser)]
#[command(
    name = "kibitzer",
    version,
    about = "A terminal chess program with its own engine"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// ASCII pieces instead of Unicode in the terminal interface.
    #[arg(long)]
    ascii: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (move generator check and benchmark).
    Perft(cli::perft::PerftArgs),
    /// Play a game against the engine in the terminal interface.
    Play(cli::tui::PlayArgs),
    /// Analyse a position (FEN) or a game (PGN) in the terminal interface.
    #[command(alias = "analyze")]
    Analyse(cli::tui::AnalyseArgs),
    /// Practise an endgame against the tablebase defender.
    Endgame(cli::tui::EndgameArgs),
    /// Polyglot opening books: probe a position, build a book from PGN.
    Book(cli::book::BookArgs),
    /// Syzygy tablebases: WDL and DTZ of a position and its moves.
    Tb(cli::tb::TbArgs),
    /// Search fixed positions to a fixed depth: prints the node count (search signature) and speed.
    Bench(cli::bench::BenchArgs),
    /// Speak the UCI protocol on stdin/stdout (for chess GUIs and match runners).
    Uci,
    /// Speak the xboard/WinBoard protocol (CECP version 2) on stdin/stdout.
    Xboard,
    /// Check, convert, index and show PGN files.
    Pgn(cli::pgn::PgnArgs),
    /// A game database from PGN files: import, explore by position, list games.
    Db(cli::db::DbArgs),
    /// Annotate PGN games with engine evaluations, judgements and better lines.
    Annotate(cli::annotate::AnnotateArgs),
    /// Generate NNUE training data by self-play.
    Datagen(cli::datagen::DatagenArgs),
    /// Count, inspect, convert and deduplicate training data files.
    Data(cli::data::DataArgs),
    /// Train an NNUE network on data from `kibitzer datagen` (games or records).
    Train(cli::train::TrainArgs),
    /// Tune the hand-crafted evaluation's weights on game results (Texel's method).
    Tune(cli::tune::TuneArgs),
    /// Print the shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(cli::docs::CompletionsArgs),
    /// Print the man page, or write every page into a folder (--dir).
    Man(cli::docs::ManArgs),
}

fn main() -> ExitCode {
    restore_sigpipe();
    let cli = Cli::parse();
    // The interface handles its own keys and restores the terminal; every other command gets
    // the handler that cleans up temporary files.
    if !matches!(
        cli.command,
        None | Some(Command::Play(_) | Command::Analyse(_) | Command::Endgame(_))
    ) {
        cli::interrupt::install();
    }
    let result = match cli.command {
        Some(Command::Perft(args)) => cli::perft::run(args),
        Some(Command::Play(args)) => cli::tui::play(args),
        Some(Command::Analyse(args)) => cli::tui::analyse(args),
        Some(Command::Endgame(args)) => cli::tui::endgame(args),
        Some(Command::Book(args)) => cli::book::run(args),
        Some(Command::Tb(args)) => cli::tb::run(args),
        Some(Command::Bench(args)) => cli::bench::run(args),
        Some(Command::Uci) => cli::uci::run(),
        Some(Command::Xboard) => cli::xboard::run(),
        Some(Command::Pgn(args)) => cli::pgn::run(args),
        Some(Command::Db(args)) => cli::db::run(args),
        Some(Command::Annotate(args)) => cli::annotate::run(args),
        Some(Command::Datagen(args)) => cli::datagen::run(args),
        Some(Command::Data(args)) => cli::data::run(args),
        Some(Command::Train(args)) => cli::train::run(args),
        Some(Command::Tune(args)) => cli::tune::run(args),
        Some(Command::Completions(args)) => cli::docs::completions::<Cli>(args),
        Some(Command::Man(args)) => cli::docs::man::<Cli>(args),
        None => cli::tui::run_default(cli.ascii),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Rust ignores SIGPIPE, which turns `kibitzer tb probe ... | head` into a panic on the first
/// write after `head` exits. Like other Unix tools, we let the signal end the process quietly.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any other thread exists; SIG_DFL is a valid
    // disposition for SIGPIPE. Starting an external engine ignores it again (engines::external).
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
