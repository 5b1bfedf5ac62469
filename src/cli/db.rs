//! `kibitzer db`: build a game database from PGN files, explore it by position, list its games.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, bail};
use clap::{Args, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};

use kibitzer::chess::{Color, Position};
use kibitzer::db::{Database, Explorer, Filters, ImportEvent, Query, Report, Tally, import};
use kibitzer::game::{AtomicFile, GameResult, write_game};

#[derive(Args)]
pub struct DbArgs {
    #[command(subcommand)]
    command: DbCommand,
}

#[derive(Subcommand)]
enum DbCommand {
    /// Import PGN files into a database (made if missing). Bad games are reported by number
    /// and line and left out; a file imported before is recognised and skipped. The import is
    /// one transaction: stopped at any point, the database stays as it was.
    Import {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The database, like games.kdb.
        #[arg(long, short)]
        output: PathBuf,
        /// Add to a database that already holds games.
        #[arg(long)]
        append: bool,
    },
    /// The moves played from a position, with games, results and ratings, and the best-rated
    /// and latest games that reached it.
    Explore {
        #[command(flatten)]
        search: SearchArgs,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Write the games that reached a position as PGN, in import order.
    Games {
        #[command(flatten)]
        search: SearchArgs,
        /// At most this many games.
        #[arg(long)]
        limit: Option<usize>,
        /// Write to this file (atomically) instead of standard output.
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
    /// Games, sources and size of a database.
    Info { database: PathBuf },
    /// Time the explorer on the positions of the first 30 plies of games spread over the
    /// database (each timed warm, after a first pass), and the search for positions past the
    /// index, which replays the games that may reach them.
    Bench {
        database: PathBuf,
        /// How many games the positions are taken from.
        #[arg(long, default_value_t = 100)]
        games: u64,
    },
}

/// A database, a position in it and the filters: what `explore` and `games` look at.
#[derive(Args)]
struct SearchArgs {
    /// The database, like games.kdb.
    database: PathBuf,
    #[command(flatten)]
    position: PositionArgs,
    #[command(flatten)]
    filters: FilterArgs,
}

impl SearchArgs {
    fn open(self) -> anyhow::Result<(Database, Position, Filters)> {
        let db = Database::open(&self.database)?;
        let pos = self.position.position()?;
        Ok((db, pos, self.filters.filters()?))
    }
}

#[derive(Args)]
#[group(required = false, multiple = false)]
struct PositionArgs {
    /// SAN moves from the start, like "e4 c5 Nf3" (move numbers allowed).
    #[arg(long)]
    moves: Option<String>,
    /// A position in FEN.
    #[arg(long)]
    fen: Option<String>,
}

impl PositionArgs {
    fn position(&self) -> anyhow::Result<Position> {
        let query = match (&self.fen, &self.moves) {
            (Some(fen), _) => Query::Fen(fen.clone()),
            (None, Some(moves)) => Query::Moves(moves.clone()),
            (None, None) => Query::Moves(String::new()),
        };
        Ok(query.position()?)
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum Side {
    White,
    Black,
}

#[derive(Args)]
struct FilterArgs {
    /// Only games of this player (an exact name ignoring case, else every name containing it).
    #[arg(long)]
    player: Option<String>,
    /// With --player: only the games where they had this colour.
    #[arg(long, requires = "player")]
    color: Option<Side>,
    /// Players' mean rating at least this.
    #[arg(long)]
    min_rating: Option<u16>,
    /// Players' mean rating at most this.
    #[arg(long)]
    max_rating: Option<u16>,
    /// Games on or after this date (2020, 2020.06 or 2020.06.15).
    #[arg(long)]
    since: Option<String>,
    /// Games on or before this date (2021 takes in all of 2021).
    #[arg(long)]
    until: Option<String>,
    /// Events whose name contains this.
    #[arg(long)]
    event: Option<String>,
    /// bullet, blitz, rapid, classical, correspondence (from the TimeControl tag).
    #[arg(long)]
    speed: Option<String>,
    /// The TimeControl tag exactly, like 180+2.
    #[arg(long)]
    time_control: Option<String>,
    /// 1-0, 0-1 or 1/2-1/2.
    #[arg(long)]
    result: Option<String>,
}

impl FilterArgs {
    fn filters(self) -> anyhow::Result<Filters> {
        let result = match self.result.as_deref() {
            None => None,
            Some(text) => match text.parse::<GameResult>() {
                Ok(GameResult::Unknown) | Err(()) => {
                    bail!("--result {text}: expected 1-0, 0-1 or 1/2-1/2")
                }
                Ok(r) => Some(r),
            },
        };
        Ok(Filters {
            player: self.player,
            color: self.color.map(|c| match c {
                Side::White => Color::White,
                Side::Black => Color::Black,
            }),
            min_rating: self.min_rating,
            max_rating: self.max_rating,
            since: self.since,
            until: self.until,
            event: self.event,
            speed: self.speed,
            time_control: self.time_control,
            result,
        })
    }
}

pub fn run(args: DbArgs) -> anyhow::Result<()> {
    match args.command {
        DbCommand::Import {
            files,
            output,
            append,
        } => import_files(&files, &output, append),
        DbCommand::Explore { search, json } => {
            let (db, pos, filters) = search.open()?;
            let report = Explorer::new(&db).explore(&pos, &filters)?;
            let mut out = io::stdout().lock();
            if json {
                serde_json::to_writer_pretty(&mut out, &report)?;
                writeln!(out)?;
            } else {
                print_report(&mut out, &report)?;
            }
            Ok(())
        }
        DbCommand::Games {
            search,
            limit,
            output,
        } => {
            let (db, pos, filters) = search.open()?;
            let mut explorer = Explorer::new(&db);
            let mut ids = explorer.game_ids(&pos, &filters)?;
            ids.truncate(limit.unwrap_or(usize::MAX));
            match output {
                Some(path) => {
                    let mut file = AtomicFile::create(&path)
                        .with_context(|| format!("cannot write {}", path.display()))?;
                    write_games(&explorer, &ids, &mut file)?;
                    file.commit()
                        .with_context(|| format!("cannot write {}", path.display()))?;
                    eprintln!("{}: {} games", path.display(), ids.len());
                    Ok(())
                }
                None => write_games(&explorer, &ids, &mut BufWriter::new(io::stdout().lock())),
            }
        }
        DbCommand::Info { database } => info(&database),
        DbCommand::Bench { database, games } => bench(&database, games),
    }
}

fn import_files(files: &[PathBuf], output: &Path, append: bool) -> anyhow::Result<()> {
    let start = Instant::now();
    let mut db = Database::open_for_import(output)?;
    if !append && db.game_count()? > 0 {
        bail!(
            "{} already holds games; add --append to import into it",
            output.display()
        );
    }
    let bar = ProgressBar::new(0).with_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let summary = import(&mut db, files, &mut |event| match event {
        ImportEvent::File { path, size } => {
            bar.set_length(size);
            bar.set_position(0);
            bar.set_message(path.display().to_string());
        }
        ImportEvent::Read(offset) => bar.set_position(offset),
        ImportEvent::Bad { path, message } => {
            bar.suspend(|| eprintln!("{}: {message}", path.display()));
        }
        ImportEvent::Recognised { path, games } => bar.suspend(|| {
            eprintln!(
                "{}: imported before ({games} games); skipped",
                path.display()
            )
        }),
    })?;
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{}: {} games imported ({} plies), {} bad games left out, {} files skipped as imported before; {} games in all ({secs:.2} s, {:.0} games/s)",
        output.display(),
        summary.games,
        summary.plies,
        summary.bad,
        summary.recognised,
        db.game_count()?,
        summary.games as f64 / secs.max(1e-9),
    );
    Ok(())
}

fn percent(part: u64, tally: &Tally) -> String {
    if tally.games == 0 {
        return "-".into();
    }
    format!("{:.1}%", 100.0 * part as f64 / tally.games as f64)
}

fn print_report(out: &mut impl Write, report: &Report) -> io::Result<()> {
    let t = &report.total;
    writeln!(out, "{}", report.fen)?;
    if !report.players.is_empty() {
        writeln!(out, "players: {}", report.players.join(", "))?;
    }
    writeln!(
        out,
        "{} games: white {}, draws {}, black {}{}",
        t.games,
        percent(t.white, t),
        percent(t.draws, t),
        percent(t.black, t),
        t.average_rating
            .map(|r| format!(", average rating {r}"))
            .unwrap_or_default()
    )?;
    if t.games == 0 {
        return Ok(());
    }
    writeln!(
        out,
        "{:<8} {:>9} {:>7} {:>7} {:>7} {:>7} {:>6}",
        "move", "games", "share", "white", "draws", "black", "rating"
    )?;
    for m in &report.moves {
        let g = &m.tally;
        writeln!(
            out,
            "{:<8} {:>9} {:>7} {:>7} {:>7} {:>7} {:>6}",
            m.san,
            g.games,
            percent(g.games, t),
            percent(g.white, g),
            percent(g.draws, g),
            percent(g.black, g),
            g.average_rating.map(|r| r.to_string()).unwrap_or_default()
        )?;
    }
    if report.ended.games > 0 {
        writeln!(out, "{} games ended here", report.ended.games)?;
    }
    for (title, games) in [
        ("best-rated games", &report.top_games),
        ("latest games", &report.latest_games),
    ] {
        if !games.is_empty() {
            writeln!(out, "{title}:")?;
            for g in games {
                writeln!(out, "  {g}")?;
            }
        }
    }
    Ok(())
}

fn write_games(explorer: &Explorer<'_>, ids: &[u64], out: &mut dyn Write) -> anyhow::Result<()> {
    let mut text = String::new();
    for chunk in ids.chunks(256) {
        for game in explorer.load(chunk)? {
            let Some(record) = game.to_game() else {
                eprintln!("game #{}: damaged record, left out", game.id);
                continue;
            };
            text.clear();
            write_game(&record, &mut text);
            text.push('\n');
            out.write_all(text.as_bytes())?;
        }
    }
    out.flush()?;
    Ok(())
}

fn info(path: &Path) -> anyhow::Result<()> {
    let db = Database::open(path)?;
    let size = std::fs::metadata(path)?.len();
    println!(
        "{}: {} games, {} bytes",
        path.display(),
        db.game_count()?,
        size
    );
    for source in db.sources()? {
        println!(
            "  {}: {} games, {} bad, {} bytes, imported {}",
            source.path, source.games, source.bad, source.size, source.imported
        );
    }
    Ok(())
}

fn bench(path: &Path, games: u64) -> anyhow::Result<()> {
    let db = Database::open(path)?;
    let count = db.game_count()?;
    if count == 0 {
        bail!("{}: no games", path.display());
    }
    let mut explorer = Explorer::new(&db);
    let ids: Vec<u64> = (0..games.min(count))
        .map(|i| 1 + i * count / games.min(count))
        .collect();
    let mut early = Vec::new();
    let mut deep = Vec::new();
    for game in explorer.load(&ids)? {
        let mut ply = 0;
        game.replay(|pos, _| {
            if ply <= 30 {
                early.push(pos.clone());
            }
            if ply == 60 {
                deep.push(pos.clone());
            }
            ply += 1;
            ply <= 60
        });
    }
    let filters = Filters::default();
    for pos in &early {
        explorer.explore(pos, &filters)?;
    }
    let mut times = Vec::with_capacity(early.len());
    for pos in &early {
        let start = Instant::now();
        explorer.explore(pos, &filters)?;
        times.push((start.elapsed().as_secs_f64() * 1e3, pos));
    }
    times.sort_by(|a, b| a.0.total_cmp(&b.0));
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize].0;
    let (slowest, slowest_pos) = times[times.len() - 1];
    println!(
        "explorer: {} positions of the first 30 plies of {} games: p50 {:.2} ms, p99 {:.2} ms, max {slowest:.2} ms ({})",
        times.len(),
        ids.len(),
        at(0.5),
        at(0.99),
        slowest_pos.fen()
    );
    let mut worst = (0.0, String::new(), 0);
    for pos in deep.iter().take(20) {
        let start = Instant::now();
        let found = explorer.game_ids(pos, &filters)?.len();
        let ms = start.elapsed().as_secs_f64() * 1e3;
        if ms > worst.0 {
            worst = (ms, pos.fen(), found);
        }
    }
    if !deep.is_empty() {
        println!(
            "search past the index: {} positions at ply 60: max {:.1} ms ({}: {} games)",
            deep.len().min(20),
            worst.0,
            worst.1,
            worst.2
        );
    }
    Ok(())
}
