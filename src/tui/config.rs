//! config.toml in the user's config directory: written with commented defaults on first run;
//! each invalid value is reported and replaced by its default, the rest still applies.

use std::fs;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

use super::clock::TimeControl;
use super::keymap::{COMMANDS, Key, KeyMap};
use crate::book::Variety;
use crate::engines::external::{EngineSpec, Protocol};
use crate::engines::policy::BookRule;

/// Which colour the player takes in a new game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ColorChoice {
    White,
    Black,
    Random,
}

/// How the opponent picks among book moves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BookChoice {
    /// Always the highest weight.
    Best,
    /// In proportion to the weights.
    Proportional,
    /// Nearly uniform over the book moves (weight-0 moves still never).
    Random,
}

impl BookChoice {
    pub const ALL: [BookChoice; 3] = [
        BookChoice::Best,
        BookChoice::Proportional,
        BookChoice::Random,
    ];

    pub fn variety(self) -> Variety {
        match self {
            BookChoice::Best => Variety::BEST,
            BookChoice::Proportional => Variety::PROPORTIONAL,
            BookChoice::Random => Variety::new(10.0),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            BookChoice::Best => "best",
            BookChoice::Proportional => "proportional",
            BookChoice::Random => "random",
        }
    }

    pub fn from_name(name: &str) -> Option<BookChoice> {
        BookChoice::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// The engine name meaning our own engine.
pub const BUILTIN: &str = "builtin";

#[derive(Clone, Debug)]
pub struct Config {
    pub ascii: bool,
    pub coordinates: bool,
    /// Pieces drawn as block art several cells tall where the squares have room (with colours).
    pub piece_art: bool,
    /// Board colours.
    pub theme: &'static super::theme::Theme,
    pub color: ColorChoice,
    pub time_control: TimeControl,
    pub level: u8,
    pub hash_mb: u32,
    pub threads: u32,
    pub multipv: u32,
    /// The opponent thinks on the player's time too.
    pub ponder: bool,
    /// The engine's lines, score and move marks show during a game against it (else only
    /// once it is over).
    pub show_engine_in_play: bool,
    pub keys: KeyMap,
    /// Polyglot book file; `None`: the built-in book.
    pub book_file: Option<PathBuf>,
    /// The opponent plays book moves up to this ply (0: never).
    pub book_depth: u32,
    pub book_choice: BookChoice,
    /// Syzygy directories, ':'-separated; `None`: ./tablebases and the data directory's.
    pub tablebase_path: Option<String>,
    /// Milliseconds a position for the whole-game analysis (ctrl-a).
    pub analysis_movetime_ms: u64,
    /// The game database opened in the explorer at start (`kibitzer db import` makes one).
    pub database_path: Option<PathBuf>,
    /// The user's name in the database's games: the explorer can show only theirs.
    pub database_player: Option<String>,
    /// The file it was read from (where `:theme` is remembered); `None` for the defaults.
    pub file: Option<PathBuf>,
    /// There was no config file: this run wrote the defaults (the interface welcomes the user).
    pub first_run: bool,
    /// External UCI engines from `[[engines]]`.
    pub engines: Vec<EngineSpec>,
    /// Engine names (an `[[engines]]` entry or `builtin`) for the opponent and for analysis.
    pub opponent: String,
    pub analysis: String,
}

impl Config {
    /// The external engine called `name`; `None` for the built-in one.
    pub fn engine(&self, name: &str) -> Option<&EngineSpec> {
        self.engines.iter().find(|e| e.name == name)
    }
}

impl Config {
    /// When the opponent of this level plays from its book, and how it chooses.
    pub fn book_rule(&self, level: u8) -> BookRule {
        BookRule {
            variety: self.book_choice.variety(),
            max_plies: self.book_depth as usize,
        }
        .at_level(level)
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            ascii: false,
            coordinates: true,
            piece_art: true,
            theme: &super::theme::THEMES[0],
            color: ColorChoice::White,
            time_control: "5+3".parse().expect("default time control"),
            level: 20,
            hash_mb: 64,
            threads: 1,
            multipv: 3,
            ponder: false,
            show_engine_in_play: false,
            keys: KeyMap::default(),
            book_file: None,
            book_depth: 16,
            book_choice: BookChoice::Proportional,
            tablebase_path: None,
            analysis_movetime_ms: 500,
            database_path: None,
            database_player: None,
            file: None,
            first_run: false,
            engines: Vec::new(),
            opponent: BUILTIN.into(),
            analysis: BUILTIN.into(),
        }
    }
}

/// The file written on first run.
pub fn default_text() -> String {
    let mut s = String::from(
        "# kibitzer configuration. Delete a line to get its default back.\n\n\
         [display]\n\
         # ASCII letters instead of Unicode chess pieces (also: --ascii).\n\
         ascii = false\n\
         # Show a-h and 1-8 around the board.\n\
         coordinates = true\n\
         # Pieces drawn as block art on large boards (false: one symbol a square).\n\
         piece_art = true\n\
         # Board colours: \"wood\", \"blue\" or \"high-contrast\" (also :theme).\n\
         theme = \"wood\"\n\n\
         [play]\n\
         # Your colour in a new game: \"white\", \"black\" or \"random\".\n\
         color = \"white\"\n\
         # MINUTES+INCREMENT_SECONDS, or \"untimed\". Presets: 1+0 3+2 5+3 10+5 15+10 30+0.\n\
         time_control = \"5+3\"\n\
         # Engine strength, 1 (weakest) to 20 (full strength).\n\
         level = 20\n\
         # Show the engine's lines, score and move marks while a game is on (else at its end).\n\
         show_engine = false\n\n\
         [engine]\n\
         # Transposition table size in MiB.\n\
         hash_mb = 64\n\
         # Search threads.\n\
         threads = 1\n\
         # Lines shown while analysing.\n\
         multipv = 3\n\
         # The engine thinks on your time too, on the reply it expects (also: :ponder on|off).\n\
         ponder = false\n\
         # Which engine plays against you and which analyses: \"builtin\" or the name of an\n\
         # [[engines]] entry (see the end of this file).\n\
         opponent = \"builtin\"\n\
         analysis = \"builtin\"\n\n\
         [analysis]\n\
         # Milliseconds a position for the whole-game analysis (ctrl-a), with the analysis\n\
         # engine above (also :analyse-engine NAME).\n\
         movetime = 500\n\n\
         [book]\n\
         # Polyglot book for play mode and the book panel (\"\" = the built-in book).\n\
         file = \"\"\n\
         # The engine plays book moves up to this ply (0: no book).\n\
         depth = 16\n\
         # \"best\" (highest weight), \"proportional\" (by weight) or \"random\" (any book move).\n\
         variety = \"proportional\"\n\n\
         [tablebase]\n\
         # Syzygy table directories, ':'-separated (\"\" = ./tablebases and the data directory's\n\
         # kibitzer/tablebases).\n\
         path = \"\"\n\n\
         [database]\n\
         # A game database (kibitzer db import GAMES.pgn -o GAMES.kdb) for the explorer\n\
         # beside the board in analyse mode (also :db FILE; tab moves to it).\n\
         path = \"\"\n\
         # Your name in its games: m in the explorer shows only yours, as White or as Black.\n\
         player = \"\"\n\n\
         [keys]\n\
         # Keys: a character, or ctrl-X, alt-X, f1-f12, space, enter, tab, esc, home, end,\n\
         # pageup, pagedown. Letters a-h, N B R Q K O start a typed move and cannot be bound.\n",
    );
    for (_, name, key, help) in COMMANDS {
        s.push_str(&format!("{name} = \"{key}\"  # {help}\n"));
    }
    s.push_str(
        "\n# External UCI engines, one [[engines]] block each; name them in [engine] above.\n\
         # [[engines]]\n\
         # name = \"stockfish\"\n\
         # path = \"/usr/games/stockfish\"\n\
         # args = []\n\
         # options = { Threads = 2, Hash = 128 }\n",
    );
    s
}

/// `~/x` is `x` in the home directory, as in a shell.
pub fn expand_home(text: &str) -> PathBuf {
    match (text.strip_prefix("~/"), dirs::home_dir()) {
        (Some(rest), Some(home)) => home.join(rest),
        _ if text == "~" => dirs::home_dir().unwrap_or_else(|| PathBuf::from(text)),
        _ => PathBuf::from(text),
    }
}

/// `text` (a config file) with `key = value` under `[section]`: the line replaced where it is,
/// else added at the top of the section, else the section added at the end. Comments and every
/// other line stay as they were.
pub fn with_value(text: &str, section: &str, key: &str, value: &str) -> String {
    let line = format!("{key} = {value}");
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let header = format!("[{section}]");
    let Some(start) = lines.iter().position(|l| l.trim() == header) else {
        let mut out = text.trim_end().to_owned();
        out.push_str(&format!("\n\n{header}\n{line}\n"));
        return out;
    };
    let end = lines[start + 1..]
        .iter()
        .position(|l| l.trim_start().starts_with('['))
        .map_or(lines.len(), |i| start + 1 + i);
    let is_key = |l: &String| {
        l.split('=')
            .next()
            .is_some_and(|k| k.trim() == key && !l.trim_start().starts_with('#'))
    };
    match lines[start + 1..end].iter().position(is_key) {
        Some(i) => lines[start + 1 + i] = line,
        None => lines.insert(start + 1, line),
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// Writes each `key = value` under `[section]` into the config file it was read from, in one
/// atomic write.
pub fn remember(config: &Config, section: &str, values: &[(&str, &str)]) -> Result<(), String> {
    let path = config.file.as_deref().ok_or("no config file")?;
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let text = values.iter().fold(text, |text, (key, value)| {
        with_value(&text, section, key, value)
    });
    let write = || -> std::io::Result<()> {
        use std::io::Write;
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        let mut file = crate::game::AtomicFile::create(path)?;
        file.write_all(text.as_bytes())?;
        file.commit()
    };
    write().map_err(|e| format!("{}: {e}", path.display()))
}

pub fn config_path() -> Option<PathBuf> {
    dirs::config_dir().map(|d| d.join("kibitzer").join("config.toml"))
}

/// Loads the config, creating it with defaults when missing. Returns the config and one
/// message per problem found (the interface shows them; nothing here is fatal).
pub fn load(path: Option<&Path>) -> (Config, Vec<String>) {
    let Some(path) = path else {
        return (
            Config::default(),
            vec!["no config directory; using defaults".into()],
        );
    };
    let (mut config, notes) = read(path);
    config.file = Some(path.to_owned());
    (config, notes)
}

fn read(path: &Path) -> (Config, Vec<String>) {
    match fs::read_to_string(path) {
        Ok(text) => parse(&text, &path.display().to_string()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let written = path
                .parent()
                .map_or(Ok(()), fs::create_dir_all)
                .and_then(|()| fs::write(path, default_text()));
            let config = Config {
                first_run: written.is_ok(),
                ..Config::default()
            };
            let notes = match written {
                Ok(()) => vec![],
                Err(e) => vec![format!("could not write {}: {e}", path.display())],
            };
            (config, notes)
        }
        Err(e) => (Config::default(), vec![format!("{}: {e}", path.display())]),
    }
}

/// Parses config text; `origin` names the file in messages.
pub fn parse(text: &str, origin: &str) -> (Config, Vec<String>) {
    let mut config = Config::default();
    let table: toml::Table = match text.parse() {
        Ok(t) => t,
        Err(e) => return (config, vec![format!("{origin}: {e}; using defaults")]),
    };
    let mut r = Reader {
        table: &table,
        origin,
        errors: Vec::new(),
    };
    read_settings(&mut r, &mut config);
    read_engines(&mut r, &mut config);
    read_keys(&mut r, &mut config);
    (config, r.errors)
}

/// Reads one parsed config file, collecting what is wrong in it: a value that is wrong keeps
/// its default, and says so naming the file and the key.
struct Reader<'a> {
    table: &'a toml::Table,
    origin: &'a str,
    errors: Vec<String>,
}

impl Reader<'_> {
    fn get(&self, section: &str, key: &str) -> Option<toml::Value> {
        self.table.get(section)?.get(key).cloned()
    }

    fn error(&mut self, what: String) {
        self.errors.push(format!("{}: {what}", self.origin));
    }

    fn bad(&mut self, section: &str, key: &str, why: String) {
        self.error(format!("{section}.{key}: {why}; using the default"));
    }

    fn bool(&mut self, section: &str, key: &str) -> Option<bool> {
        let v = self.get(section, key)?;
        let b = v.as_bool();
        if b.is_none() {
            self.bad(section, key, format!("{v} is not true or false"));
        }
        b
    }

    fn int(&mut self, section: &str, key: &str, range: RangeInclusive<i64>) -> Option<i64> {
        let v = self.get(section, key)?;
        let i = v.as_integer().filter(|i| range.contains(i));
        if i.is_none() {
            let (from, to) = (range.start(), range.end());
            self.bad(
                section,
                key,
                format!("{v} is not a whole number from {from} to {to}"),
            );
        }
        i
    }

    /// A string setting; an empty one means none.
    fn text(&mut self, section: &str, key: &str) -> Option<String> {
        let v = self.get(section, key)?;
        match v.as_str() {
            Some("") => None,
            Some(text) => Some(text.to_owned()),
            None => {
                self.bad(section, key, format!("{v} is not a string"));
                None
            }
        }
    }

    /// A setting read by `read`, which returns why the value is wrong if it is.
    fn value<T>(
        &mut self,
        section: &str,
        key: &str,
        read: impl FnOnce(&toml::Value) -> Result<T, String>,
    ) -> Option<T> {
        let v = self.get(section, key)?;
        read(&v).map_err(|why| self.bad(section, key, why)).ok()
    }
}

/// The settings of one value each, in the order the default file lists them.
fn read_settings(r: &mut Reader, config: &mut Config) {
    let or_default = |slot: &mut bool, value: Option<bool>| {
        if let Some(b) = value {
            *slot = b;
        }
    };
    or_default(&mut config.ascii, r.bool("display", "ascii"));
    let theme = r.value("display", "theme", |v| {
        v.as_str()
            .and_then(super::theme::by_name)
            .ok_or_else(|| format!("{v} is not one of {}", super::theme::names()))
    });
    if let Some(theme) = theme {
        config.theme = theme;
    }
    or_default(&mut config.coordinates, r.bool("display", "coordinates"));
    or_default(&mut config.piece_art, r.bool("display", "piece_art"));
    or_default(
        &mut config.show_engine_in_play,
        r.bool("play", "show_engine"),
    );
    let color = r.value("play", "color", |v| match v.as_str() {
        Some("white") => Ok(ColorChoice::White),
        Some("black") => Ok(ColorChoice::Black),
        Some("random") => Ok(ColorChoice::Random),
        _ => Err(format!("{v} is not \"white\", \"black\" or \"random\"")),
    });
    if let Some(color) = color {
        config.color = color;
    }
    let time_control = r.value("play", "time_control", |v| match v.as_str() {
        Some(text) => text.parse::<TimeControl>().map_err(|e| e.to_string()),
        None => Err(format!("{v} is not a string")),
    });
    if let Some(tc) = time_control {
        config.time_control = tc;
    }
    or_default(&mut config.ponder, r.bool("engine", "ponder"));
    let max_level = i64::from(crate::engines::service::MAX_LEVEL);
    if let Some(i) = r.int("play", "level", 1..=max_level) {
        config.level = i as u8;
    }
    if let Some(i) = r.int("engine", "hash_mb", 1..=65_536) {
        match crate::engine::check_hash_size(i as usize) {
            Ok(_) => config.hash_mb = i as u32,
            Err(e) => r.bad("engine", "hash_mb", e.to_string()),
        }
    }
    if let Some(i) = r.int("engine", "threads", 1..=1024) {
        config.threads = i as u32;
    }
    if let Some(i) = r.int("engine", "multipv", 1..=10) {
        config.multipv = i as u32;
    }
    if let Some(i) = r.int("analysis", "movetime", 10..=600_000) {
        config.analysis_movetime_ms = i as u64;
    }
    if let Some(i) = r.int("book", "depth", 0..=1000) {
        config.book_depth = i as u32;
    }
    if let Some(file) = r.text("book", "file") {
        config.book_file = Some(PathBuf::from(file));
    }
    let variety = r.value("book", "variety", |v| {
        v.as_str()
            .and_then(BookChoice::from_name)
            .ok_or_else(|| format!("{v} is not \"best\", \"proportional\" or \"random\""))
    });
    if let Some(choice) = variety {
        config.book_choice = choice;
    }
    if let Some(path) = r.text("tablebase", "path") {
        config.tablebase_path = Some(path);
    }
    if let Some(path) = r.text("database", "path") {
        config.database_path = Some(expand_home(&path));
    }
    if let Some(name) = r.text("database", "player") {
        config.database_player = Some(name.trim().to_owned());
    }
}

/// The `[[engines]]` blocks, then which engine plays and which analyses.
fn read_engines(r: &mut Reader, config: &mut Config) {
    if let Some(v) = r.table.get("engines") {
        match v.as_array() {
            Some(list) => {
                for (i, entry) in list.iter().enumerate() {
                    match engine_spec(entry) {
                        Ok(spec) => config.engines.push(spec),
                        Err(why) => r.error(format!("engines[{i}]: {why}; skipped")),
                    }
                }
            }
            None => {
                r.error("engines: write each engine as an [[engines]] block; ignored".to_owned())
            }
        }
    }
    for key in ["opponent", "analysis"] {
        let Some(v) = r.get("engine", key) else {
            continue;
        };
        match v.as_str() {
            Some(name) if name == BUILTIN || config.engine(name).is_some() => {
                let slot = if key == "opponent" {
                    &mut config.opponent
                } else {
                    &mut config.analysis
                };
                *slot = name.to_owned();
            }
            _ => r.error(format!(
                "engine.{key}: {v} is not \"builtin\" or an [[engines]] name; using the built-in engine"
            )),
        }
    }
}

/// `[keys]`: a command's name and the key that runs it instead of its default.
fn read_keys(r: &mut Reader, config: &mut Config) {
    let Some(keys) = r.table.get("keys").and_then(|k| k.as_table()) else {
        return;
    };
    for (name, value) in keys {
        let Some(&(command, ..)) = COMMANDS.iter().find(|(_, n, ..)| n == name) else {
            r.error(format!("keys.{name}: no such command; ignored"));
            continue;
        };
        match value.as_str().map(str::parse::<Key>) {
            Some(Ok(key)) if super::keymap::starts_move(key) => r.error(format!(
                "keys.{name}: '{key}' starts a typed move; using the default"
            )),
            Some(Ok(key)) => config.keys.bind(command, key),
            Some(Err(e)) => r.error(format!("keys.{name}: {e}; using the default")),
            None => r.error(format!(
                "keys.{name}: {value} is not a string; using the default"
            )),
        }
    }
}

/// One `[[engines]]` block: name and path required, args and options optional.
fn engine_spec(entry: &toml::Value) -> Result<EngineSpec, String> {
    let text = |key: &str| entry.get(key).and_then(|v| v.as_str()).map(str::to_owned);
    let name = text("name").ok_or("no name (a string)")?;
    if name == BUILTIN {
        return Err(format!(
            "the name \"{BUILTIN}\" is taken by the built-in engine"
        ));
    }
    let path = text("path").ok_or(format!("{name}: no path (a string)"))?;
    let args = match entry.get("args") {
        None => Vec::new(),
        Some(v) => v
            .as_array()
            .and_then(|a| {
                a.iter()
                    .map(|s| s.as_str().map(str::to_owned))
                    .collect::<Option<Vec<_>>>()
            })
            .ok_or(format!("{name}: args is not a list of strings"))?,
    };
    let mut options = Vec::new();
    if let Some(v) = entry.get("options") {
        let table = v
            .as_table()
            .ok_or(format!("{name}: options is not a table"))?;
        for (key, value) in table {
            let value = match value {
                toml::Value::String(s) => s.clone(),
                toml::Value::Integer(i) => i.to_string(),
                toml::Value::Boolean(b) => b.to_string(),
                toml::Value::Float(f) => f.to_string(),
                other => return Err(format!("{name}: option {key}: {other} is not a value")),
            };
            options.push((key.clone(), value));
        }
    }
    let protocol = match text("protocol").as_deref() {
        None | Some("uci") => Protocol::Uci,
        Some("xboard" | "cecp" | "winboard") => Protocol::Xboard,
        Some(other) => {
            return Err(format!(
                "{name}: protocol \"{other}\" is not \"uci\" or \"xboard\""
            ));
        }
    };
    Ok(EngineSpec {
        name,
        path: PathBuf::from(path),
        args,
        options,
        protocol,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::keymap::Command;

    #[test]
    fn books_tablebases_and_engines() {
        let text = "[engine]\nopponent = \"sf\"\nanalysis = \"nope\"\n\
                    [book]\ndepth = 8\nvariety = \"random\"\nfile = \"my.bin\"\n\
                    [tablebase]\npath = \"/tb/a:/tb/b\"\n\
                    [[engines]]\nname = \"sf\"\npath = \"/usr/games/stockfish\"\nargs = [\"-q\"]\n\
                    options = { Threads = 2, Ponder = false, \"Skill Level\" = \"5\" }\n\
                    [[engines]]\nname = \"broken\"\n\
                    [[engines]]\nname = \"fm\"\npath = \"/usr/games/fairymax\"\nprotocol = \"xboard\"\n\
                    [[engines]]\nname = \"odd\"\npath = \"/x\"\nprotocol = \"telepathy\"\n";
        let (c, errors) = parse(text, "cfg");
        assert_eq!(errors.len(), 3, "{errors:#?}");
        assert!(errors[0].contains("engines[1]") && errors[0].contains("no path"));
        assert!(errors[1].contains("telepathy"), "{errors:#?}");
        assert!(errors[2].contains("engine.analysis"));
        assert_eq!(c.engine("fm").unwrap().protocol, Protocol::Xboard);
        assert_eq!(c.engine("sf").unwrap().protocol, Protocol::Uci);
        assert_eq!(c.book_depth, 8);
        assert_eq!(c.book_choice, BookChoice::Random);
        assert_eq!(c.book_file, Some(PathBuf::from("my.bin")));
        assert_eq!(c.tablebase_path.as_deref(), Some("/tb/a:/tb/b"));
        assert_eq!(c.opponent, "sf");
        assert_eq!(c.analysis, BUILTIN);
        let sf = c.engine("sf").unwrap();
        assert_eq!(sf.args, ["-q"]);
        assert_eq!(sf.options.len(), 3);
        assert!(sf.options.contains(&("Threads".into(), "2".into())));
    }

    #[test]
    fn a_remembered_value_replaces_its_line_and_keeps_the_rest() {
        let text =
            "# mine\n[display]\n# colours\ntheme = \"wood\"\nascii = false\n[play]\nlevel = 3\n";
        let out = with_value(text, "display", "theme", "\"blue\"");
        assert_eq!(out, text.replace("\"wood\"", "\"blue\""));
        let (c, errors) = parse(&out, "cfg");
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!((c.theme.name, c.level), ("blue", 3));
        // A commented-out key is left alone; the key goes at the top of its section.
        let out = with_value(
            "[display]\n# theme = \"x\"\n",
            "display",
            "theme",
            "\"blue\"",
        );
        assert_eq!(out, "[display]\ntheme = \"blue\"\n# theme = \"x\"\n");
        let out = with_value("[play]\nlevel = 3\n", "display", "theme", "\"blue\"");
        assert_eq!(out, "[play]\nlevel = 3\n\n[display]\ntheme = \"blue\"\n");
        assert_eq!(parse(&out, "cfg").0.theme.name, "blue");
    }

    #[test]
    fn default_text_parses_cleanly_to_defaults() {
        let (c, errors) = parse(&default_text(), "config.toml");
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(c.level, 20);
        assert_eq!(c.keys.command("r".parse().unwrap()), Some(Command::Flip));
        assert_eq!(c.theme.name, "wood");
    }

    #[test]
    fn themes_by_name() {
        let (c, errors) = parse("[display]\ntheme = \"high-contrast\"", "cfg");
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(c.theme.name, "high-contrast");
        let (c, errors) = parse("[display]\ntheme = \"neon\"", "cfg");
        assert!(
            errors[0].contains("wood, blue, high-contrast"),
            "{errors:?}"
        );
        assert_eq!(c.theme.name, "wood");
    }

    #[test]
    fn bad_values_are_reported_and_defaulted() {
        let text = "[display]\nascii = 3\n[play]\nlevel = 99\ntime_control = \"fast\"\ncolor = \"black\"\n\
                    [engine]\nthreads = 4\n[keys]\nflip = \"e\"\nhint = \"ctrl-h\"\nbogus = \"x\"\n";
        let (c, errors) = parse(text, "cfg");
        assert_eq!(errors.len(), 5, "{errors:#?}");
        assert!(errors[0].contains("display.ascii"));
        assert!(!c.ascii);
        assert_eq!(c.level, 20);
        assert_eq!(c.color, ColorChoice::Black);
        assert_eq!(c.threads, 4);
        assert_eq!(
            c.keys.command("ctrl-h".parse().unwrap()),
            Some(Command::Hint)
        );
        assert_eq!(c.keys.command("r".parse().unwrap()), Some(Command::Flip));
    }

    #[test]
    fn broken_toml_gives_defaults() {
        let (c, errors) = parse("[display\nascii = true", "cfg");
        assert_eq!(errors.len(), 1);
        assert!(!c.ascii);
    }

    #[test]
    fn first_run_writes_the_file() {
        let dir = std::env::temp_dir().join(format!("kibitzer-cfg-{}", std::process::id()));
        let path = dir.join("config.toml");
        let _ = fs::remove_dir_all(&dir);
        let (config, notes) = load(Some(&path));
        assert!(notes.is_empty());
        assert!(config.first_run);
        assert_eq!(fs::read_to_string(&path).unwrap(), default_text());
        assert!(
            !load(Some(&path)).0.first_run,
            "the second run is not the first"
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
