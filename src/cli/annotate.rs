use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use kibitzer::analysis::{AnalysisEngine, Annotator, GameSummary, SideStats};
use kibitzer::book::Book;
use kibitzer::engine::{Engine, EngineOptions, SearchLimits};
use kibitzer::engines::external::{EngineSpec, HANDSHAKE_TIMEOUT, Protocol, UciClient};
use kibitzer::engines::policy::PlayPolicy;
use kibitzer::game::{self, Game, PgnReader, parse_game, save_atomic, write_game};
use kibitzer::tablebase::Tablebases;

#[derive(Args)]
pub struct AnnotateArgs {
    /// The games to annotate.
    input: PathBuf,
    /// Where to write the annotated games (default: standard output).
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// Let --out name the input file and replace it.
    #[arg(long)]
    overwrite: bool,
    /// Think this many milliseconds per position (the default, at 100 ms, when no limit is given).
    #[arg(long, conflicts_with_all = ["depth", "nodes"])]
    movetime: Option<u64>,
    /// Search every position to this depth.
    #[arg(long, conflicts_with = "nodes")]
    depth: Option<u32>,
    /// Search every position for this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    /// Games analysed at once, one engine thread each (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Which games, 1-based: `5`, `3-10`, `7-` (default: all).
    #[arg(long)]
    games: Option<String>,
    /// Also write a per-game report as JSON.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Polyglot book for recognising book moves (default: the built-in book).
    #[arg(long)]
    book: Option<PathBuf>,
    /// Do not consult any opening book.
    #[arg(long, conflicts_with = "book")]
    no_book: bool,
    /// Syzygy tablebase folders, ':'-separated.
    #[arg(long)]
    syzygy: Option<String>,
    /// Hash table per engine, in MB.
    #[arg(long, default_value_t = 64, value_parser = super::parse_hash_mb)]
    hash: usize,
    /// Leave missing ECO and Opening tags missing (by default they are filled in from the
    /// opening names).
    #[arg(long)]
    no_eco: bool,
    /// Analyse with this UCI engine of config.toml's [[engines]] instead of the built-in one.
    #[arg(long, conflicts_with = "engine_path")]
    engine: Option<String>,
    /// Analyse with the UCI engine at this path instead of the built-in one.
    #[arg(long)]
    engine_path: Option<PathBuf>,
}

/// The external engine asked for by `--engine` or `--engine-path`, if any.
fn external_engine(args: &AnnotateArgs) -> anyhow::Result<Option<EngineSpec>> {
    if let Some(path) = &args.engine_path {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        return Ok(Some(EngineSpec {
            name,
            path: path.clone(),
            args: Vec::new(),
            options: Vec::new(),
            protocol: Protocol::Uci,
        }));
    }
    let Some(name) = &args.engine else {
        return Ok(None);
    };
    let config =
        kibitzer::tui::config::config_path().context("no config directory: use --engine-path")?;
    let text = std::fs::read_to_string(&config).with_context(|| {
        format!(
            "--engine {name}: cannot read {} (add an [[engines]] entry there, or use --engine-path)",
            config.display()
        )
    })?;
    let (parsed, _) = kibitzer::tui::config::parse(&text, &config.display().to_string());
    let Some(spec) = parsed.engine(name).cloned() else {
        let names: Vec<&str> = parsed.engines.iter().map(|e| e.name.as_str()).collect();
        bail!(
            "--engine {name}: no [[engines]] entry of that name in {} (there: {})",
            config.display(),
            if names.is_empty() {
                "none".to_owned()
            } else {
                names.join(", ")
            }
        );
    };
    if spec.protocol != Protocol::Uci {
        bail!("--engine {name}: annotate speaks UCI, and {name} is an xboard engine");
    }
    Ok(Some(spec))
}

/// One annotator a worker: the built-in engine with one thread, or a process of the external
/// engine (one thread and the hash asked for, when it has those options; its tables too).
fn annotator(
    args: &AnnotateArgs,
    spec: Option<&EngineSpec>,
    limits: &SearchLimits,
) -> anyhow::Result<Annotator> {
    let Some(spec) = spec else {
        let (engine, events) = Engine::new(EngineOptions {
            hash_mb: args.hash,
            threads: 1,
            ..EngineOptions::default()
        });
        return Ok(Annotator::new(
            AnalysisEngine::Builtin(Box::new(engine)),
            events,
            limits.clone(),
        ));
    };
    let starting = || format!("starting {} ({})", spec.name, spec.path.display());
    let (mut client, events) = UciClient::start(spec, HANDSHAKE_TIMEOUT).with_context(starting)?;
    let mut wanted = vec![("Threads", "1".to_owned()), ("Hash", args.hash.to_string())];
    if let Some(path) = &args.syzygy {
        wanted.push(("SyzygyPath", path.clone()));
    }
    for (option, value) in wanted {
        if client.has_option(option) && !spec.options.iter().any(|(o, _)| o == option) {
            client.set_option(option, &value).with_context(starting)?;
        }
    }
    client.sync(HANDSHAKE_TIMEOUT).with_context(starting)?;
    Ok(Annotator::new(
        AnalysisEngine::Uci(client),
        events,
        limits.clone(),
    ))
}

/// `5`, `3-10`, `7-`: an inclusive 1-based range.
fn parse_range(text: &str) -> anyhow::Result<(u64, u64)> {
    let bad = || anyhow::anyhow!("--games '{text}': expected N, N-M or N-");
    let (lo, hi) = match text.split_once('-') {
        Some((lo, "")) => (lo.trim().parse().map_err(|_| bad())?, u64::MAX),
        Some((lo, hi)) => (
            lo.trim().parse().map_err(|_| bad())?,
            hi.trim().parse().map_err(|_| bad())?,
        ),
        None => {
            let n = text.trim().parse().map_err(|_| bad())?;
            (n, n)
        }
    };
    if lo == 0 || lo > hi {
        return Err(bad());
    }
    Ok((lo, hi))
}

fn limits(args: &AnnotateArgs) -> SearchLimits {
    match (args.depth, args.nodes) {
        (Some(depth), _) => SearchLimits::depth(depth.max(1)),
        (None, Some(nodes)) => SearchLimits::nodes(nodes.max(1)),
        (None, None) => {
            SearchLimits::move_time(Duration::from_millis(args.movetime.unwrap_or(100).max(1)))
        }
    }
}

fn side_json(stats: &SideStats) -> serde_json::Value {
    json!({
        "accuracy": (stats.accuracy() * 10.0).round() / 10.0,
        "acpl": stats.acpl(),
        "inaccuracies": stats.inaccuracies,
        "mistakes": stats.mistakes,
        "blunders": stats.blunders,
    })
}

fn game_json(number: u64, game: &Game, summary: &GameSummary) -> serde_json::Value {
    let moves: Vec<serde_json::Value> = summary
        .moves
        .iter()
        .map(|m| {
            json!({
                "ply": m.ply,
                "san": m.san,
                "eval": match m.eval {
                    game::Score::Cp(cp) => json!({ "cp": cp }),
                    game::Score::Mate(n) => json!({ "mate": n }),
                },
                "best": m.best,
                "judgement": m.judgement.map(|j| j.name().to_lowercase()),
                "book": m.book,
            })
        })
        .collect();
    json!({
        "game": number,
        "white": game.headers.get("White"),
        "black": game.headers.get("Black"),
        "result": game.result.as_str(),
        "complete": !summary.incomplete,
        "stats": { "white": side_json(&summary.white), "black": side_json(&summary.black) },
        "moves": moves,
    })
}

pub fn run(args: AnnotateArgs) -> anyhow::Result<()> {
    if let Some(out) = &args.out
        && !args.overwrite
        && kibitzer::game::same_file(out, &args.input)
    {
        bail!(
            "--out {} is the input file; add --overwrite to replace it",
            out.display()
        );
    }
    let range = match &args.games {
        Some(text) => parse_range(text)?,
        None => (1, u64::MAX),
    };
    let mut games = read_games(&args, range)?;
    let policy = play_policy(&args)?;
    let spec = external_engine(&args)?;
    let outcome = annotate_all(&args, spec.as_ref(), &policy, &mut games)?;

    let done: Vec<(u64, &Game, &GameSummary)> = games
        .iter()
        .zip(&outcome.summaries)
        .filter_map(|((n, g), r)| r.as_ref().map(|r| (*n, g, r)))
        .collect();
    let failure = outcome.failure.map(|why| match &spec {
        Some(spec) => format!("{}: {why}", spec.name),
        None => why,
    });
    if outcome.stopped {
        let why = failure.as_deref().unwrap_or("interrupted");
        if done.is_empty() {
            // Nothing to write: an existing --out file is left as it was.
            bail!("{why}: no game was finished, nothing written");
        }
        eprintln!(
            "{why}: writing the {} games finished of {}",
            done.len(),
            games.len()
        );
    }
    write_games(&args, &done)?;
    print_summaries(&done);
    if let Some(why) = failure {
        bail!("{why}");
    }
    if outcome.stopped {
        bail!("interrupted");
    }
    Ok(())
}

/// The selected games; a game with errors keeps its moves up to the error.
fn read_games(args: &AnnotateArgs, range: (u64, u64)) -> anyhow::Result<Vec<(u64, Game)>> {
    let mut games = Vec::new();
    let mut reader = PgnReader::open(&args.input)
        .with_context(|| format!("cannot open {}", args.input.display()))?;
    let mut number = 0u64;
    reader
        .for_each_raw(|raw| {
            number += 1;
            if number > range.1 {
                return ControlFlow::Break(());
            }
            if number >= range.0 {
                let parsed = parse_game(raw);
                for e in &parsed.errors {
                    eprintln!("{}: {e}", args.input.display());
                }
                games.push((number, parsed.game));
            }
            ControlFlow::Continue(())
        })
        .with_context(|| format!("reading {}", args.input.display()))?;
    if games.is_empty() {
        bail!("{}: no games selected", args.input.display());
    }
    Ok(games)
}

/// The book and tablebases that name book moves and judge endings.
fn play_policy(args: &AnnotateArgs) -> anyhow::Result<PlayPolicy> {
    let book = match (&args.book, args.no_book) {
        (_, true) => None,
        (Some(path), false) => {
            Some(Book::open(path).with_context(|| format!("book {}", path.display()))?)
        }
        (None, false) => Some(Book::embedded()),
    };
    let tablebases = match &args.syzygy {
        Some(path) => {
            let (tables, problems) =
                Tablebases::open(path.as_ref()).with_context(|| format!("--syzygy {path}"))?;
            for p in problems {
                eprintln!("warning: {p}");
            }
            Some(tables)
        }
        None => None,
    };
    Ok(PlayPolicy::new(book, tablebases))
}

/// What the workers left: a summary for each game finished, why they stopped early if they did.
struct Outcome {
    summaries: Vec<Option<GameSummary>>,
    failure: Option<String>,
    stopped: bool,
}

/// Annotates the games in place, one worker per engine, each taking the next game not yet
/// taken. Ctrl-C or a failed engine stops them all; the games finished keep their summaries.
fn annotate_all(
    args: &AnnotateArgs,
    spec: Option<&EngineSpec>,
    policy: &PlayPolicy,
    games: &mut [(u64, Game)],
) -> anyhow::Result<Outcome> {
    let workers = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, games.len());
    let positions: u64 = games
        .iter()
        .map(|(_, g)| g.tree.mainline().count() as u64 + 1)
        .sum();
    let bar = ProgressBar::new(positions).with_style(
        ProgressStyle::with_template("{pos}/{len} positions [{bar:40}] {elapsed} eta {eta}")
            .expect("valid template")
            .progress_chars("=> "),
    );

    let stop = AtomicBool::new(false);
    // The first Ctrl-C stops the workers and writes the games done; a second ends at once.
    super::interrupt::finish_work_on_signal();

    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<GameSummary>>> = Mutex::new(vec![None; games.len()]);
    let slots: Vec<Mutex<&mut Game>> = games.iter_mut().map(|(_, g)| Mutex::new(g)).collect();
    let search_limits = limits(args);
    let fill_eco = !args.no_eco;
    let annotators = (0..workers)
        .map(|_| annotator(args, spec, &search_limits))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let failure: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|s| {
        for mut annotator in annotators {
            let (next, slots, stop, results, bar, failure) =
                (&next, &slots, &stop, &results, &bar, &failure);
            s.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= slots.len() || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let mut game = slots[i].lock().unwrap_or_else(|e| e.into_inner());
                    let summary = annotator.annotate(&mut game, policy, stop);
                    if let Some(why) = annotator.failure() {
                        // The engine is gone: the other workers stop too, the games done are
                        // written.
                        *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(why.to_owned());
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                    if fill_eco {
                        kibitzer::game::openings::fill_tags(&mut game);
                    }
                    bar.inc(game.tree.mainline().count() as u64 + 1);
                    if !summary.incomplete || !stop.load(Ordering::Relaxed) {
                        results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(summary);
                    }
                }
            });
        }
        // The watcher turns Ctrl-C into a clean stop of every worker.
        s.spawn(|| {
            while next.load(Ordering::Relaxed) < slots.len() + workers
                && !stop.load(Ordering::Relaxed)
            {
                if super::interrupt::interrupted() {
                    stop.store(true, Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
    });
    bar.finish_and_clear();
    Ok(Outcome {
        summaries: results.into_inner().unwrap_or_else(|e| e.into_inner()),
        failure: failure.into_inner().unwrap_or_else(|e| e.into_inner()),
        stopped: stop.load(Ordering::Relaxed),
    })
}

/// The annotated games to --out (atomically) or standard output, and the --json report.
fn write_games(args: &AnnotateArgs, done: &[(u64, &Game, &GameSummary)]) -> anyhow::Result<()> {
    let mut text = String::new();
    for (i, (_, game, _)) in done.iter().enumerate() {
        if i > 0 {
            text.push('\n');
        }
        write_game(game, &mut text);
    }
    match &args.out {
        Some(path) => save_atomic(path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => std::io::stdout()
            .write_all(text.as_bytes())
            .context("writing standard output")?,
    }
    if let Some(path) = &args.json {
        let report: Vec<serde_json::Value> = done
            .iter()
            .map(|(n, g, summary)| game_json(*n, g, summary))
            .collect();
        let bytes = serde_json::to_vec_pretty(&report).context("encoding JSON")?;
        save_atomic(path, &bytes).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// One line per game on standard error: each side's accuracy, average loss and errors.
fn print_summaries(done: &[(u64, &Game, &GameSummary)]) {
    let line = |name: &str, s: &SideStats| {
        format!(
            "{name} {:.1}% acpl {} ({}/{}/{})",
            s.accuracy(),
            s.acpl(),
            s.inaccuracies,
            s.mistakes,
            s.blunders
        )
    };
    for (n, game, summary) in done {
        eprintln!(
            "game {n}: {} - {}: {}; {}",
            game.headers.get("White").unwrap_or("?"),
            game.headers.get("Black").unwrap_or("?"),
            line("White", &summary.white),
            line("Black", &summary.black)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::parse_range;

    #[test]
    fn game_ranges() {
        assert_eq!(parse_range("5").unwrap(), (5, 5));
        assert_eq!(parse_range("3-10").unwrap(), (3, 10));
        assert_eq!(parse_range("7-").unwrap(), (7, u64::MAX));
        for bad in ["", "0", "5-3", "x", "1-y", "-4"] {
            assert!(parse_range(bad).is_err(), "{bad}");
        }
    }
}
