//! The engine options xboard shows (`feature option=...`) and sets (`option NAME=VALUE`, and
//! `memory`, `cores`, `egtpath syzygy`): the engine's, the book's and the tables'.

use std::ffi::OsStr;

use crate::book::Book;
use crate::engine::{
    DEFAULT_ELO, DEFAULT_HCE_SHARE, Engine, EngineOptions, Evaluation, MAX_ELO, MAX_HASH_MB,
    MAX_MOVE_OVERHEAD_MS, MAX_THREADS, MIN_ELO,
};
use crate::engines::policy::{MAX_PROBE_DEPTH, PROBE_DEPTH, PlayPolicy, RULE50};
use crate::tablebase::Tablebases;

/// The options' values as last set.
#[derive(Clone, Debug)]
pub struct Values {
    hash_mb: usize,
    threads: usize,
    overhead_ms: u64,
    limit_strength: bool,
    elo: u32,
    own_book: bool,
    book_file: String,
    syzygy_path: String,
    probe_depth: i32,
    rule50: bool,
    use_nnue: bool,
    eval_file: String,
    hce_share: u8,
}

/// What a change needs done to the engine, the book or the tables.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Change {
    Hash,
    Threads,
    Overhead,
    Strength,
    Book,
    Tables,
    Evaluation,
    ClearHash,
}

/// The declarations of `feature option="..."`: the same limits and defaults as the UCI
/// options', under xboard's names.
pub fn declarations() -> Vec<String> {
    let defaults = EngineOptions::default();
    vec![
        format!("Hash -spin {} 1 {MAX_HASH_MB}", defaults.hash_mb),
        format!("Threads -spin {} 1 {MAX_THREADS}", defaults.threads),
        format!(
            "Move Overhead -spin {} 0 {MAX_MOVE_OVERHEAD_MS}",
            defaults.move_overhead.as_millis()
        ),
        "Limit Strength -check 0".to_owned(),
        format!("Elo -spin {DEFAULT_ELO} {MIN_ELO} {MAX_ELO}"),
        "Own Book -check 0".to_owned(),
        "Book File -file ".to_owned(),
        "Syzygy Path -path ".to_owned(),
        format!("Syzygy Probe Depth -spin {PROBE_DEPTH} 1 {MAX_PROBE_DEPTH}"),
        format!("Syzygy 50 Move Rule -check {}", u8::from(RULE50)),
        "Use NNUE -check 1".to_owned(),
        "Eval File -file ".to_owned(),
        format!("Hand Crafted Share -spin {DEFAULT_HCE_SHARE} 0 100"),
        "Clear Hash -button".to_owned(),
    ]
}

fn number<T: std::str::FromStr + PartialOrd>(
    name: &str,
    value: &str,
    min: T,
    max: T,
) -> Result<T, String> {
    match value.trim().parse::<T>() {
        Ok(v) if v >= min && v <= max => Ok(v),
        _ => Err(format!("{name} takes a number in its range")),
    }
}

fn check(name: &str, value: &str) -> Result<bool, String> {
    match value.trim() {
        "1" | "true" => Ok(true),
        "0" | "false" => Ok(false),
        _ => Err(format!("{name} takes 0 or 1")),
    }
}

impl Values {
    pub fn new(engine: &EngineOptions) -> Values {
        Values {
            hash_mb: engine.hash_mb,
            threads: engine.threads,
            overhead_ms: engine.move_overhead.as_millis() as u64,
            limit_strength: false,
            elo: DEFAULT_ELO,
            own_book: false,
            book_file: String::new(),
            syzygy_path: String::new(),
            probe_depth: PROBE_DEPTH,
            rule50: RULE50,
            use_nnue: engine.evaluation != Evaluation::HandCrafted,
            eval_file: String::new(),
            hce_share: match engine.evaluation {
                Evaluation::Nnue { hce_share, .. } => hce_share,
                Evaluation::HandCrafted => DEFAULT_HCE_SHARE,
            },
        }
    }

    /// Sets option `name` (as declared, case-insensitively) to `value`.
    pub fn set(&mut self, name: &str, value: &str) -> Result<Change, String> {
        let value = value.trim();
        Ok(match name.to_ascii_lowercase().as_str() {
            "hash" => {
                self.hash_mb = number(name, value, 1, MAX_HASH_MB)?;
                Change::Hash
            }
            "threads" => {
                self.threads = number(name, value, 1, MAX_THREADS)?;
                Change::Threads
            }
            "move overhead" => {
                self.overhead_ms = number(name, value, 0, MAX_MOVE_OVERHEAD_MS)?;
                Change::Overhead
            }
            "limit strength" => {
                self.limit_strength = check(name, value)?;
                Change::Strength
            }
            "elo" => {
                self.elo = number(name, value, MIN_ELO, MAX_ELO)?;
                Change::Strength
            }
            "own book" => {
                self.own_book = check(name, value)?;
                Change::Book
            }
            "book file" => {
                self.book_file = value.to_owned();
                Change::Book
            }
            "syzygy path" => {
                self.syzygy_path = value.to_owned();
                Change::Tables
            }
            "syzygy probe depth" => {
                self.probe_depth = number(name, value, 1, MAX_PROBE_DEPTH)?;
                Change::Tables
            }
            "syzygy 50 move rule" => {
                self.rule50 = check(name, value)?;
                Change::Tables
            }
            "use nnue" => {
                self.use_nnue = check(name, value)?;
                Change::Evaluation
            }
            "eval file" => {
                self.eval_file = value.to_owned();
                Change::Evaluation
            }
            "hand crafted share" => {
                self.hce_share = number(name, value, 0, 100)?;
                Change::Evaluation
            }
            "clear hash" => Change::ClearHash,
            _ => return Err(format!("no option '{name}'")),
        })
    }
}

impl Change {
    /// Carries the change out on an idle engine; an error says what could not be done.
    pub fn apply(
        self,
        engine: &mut Engine,
        policy: &mut PlayPolicy,
        values: &Values,
    ) -> Result<(), String> {
        match self {
            Change::Hash => engine.set_hash(values.hash_mb).map_err(|e| e.to_string())?,
            Change::Threads => engine.set_threads(values.threads),
            Change::Overhead => {
                engine.set_move_overhead(std::time::Duration::from_millis(values.overhead_ms))
            }
            Change::Strength => {
                engine.set_strength(values.limit_strength.then_some(values.elo));
            }
            Change::Book => {
                policy.set_book(None);
                if values.own_book {
                    let book = if values.book_file.is_empty() {
                        Book::embedded()
                    } else {
                        Book::open(values.book_file.as_ref())
                            .map_err(|e| format!("book not used: {e}"))?
                    };
                    policy.set_book(Some(book));
                }
            }
            Change::Tables => {
                policy.set_tables(None);
                if !values.syzygy_path.is_empty() {
                    let (tables, _) = Tablebases::open(OsStr::new(&values.syzygy_path))
                        .map_err(|e| format!("tablebases not used: {e}"))?;
                    policy.set_tables(Some(tables));
                }
                engine.set_tablebases(policy.search_tables(values.probe_depth, values.rule50));
            }
            Change::Evaluation => {
                let network = if values.eval_file.is_empty() {
                    Evaluation::embedded()
                } else {
                    Evaluation::from_file(values.eval_file.as_ref())
                        .map_err(|e| format!("Eval File: {e}; keeping the current network"))?
                };
                engine.set_evaluation(if values.use_nnue {
                    network.with_hce_share(values.hce_share)
                } else {
                    Evaluation::HandCrafted
                });
            }
            Change::ClearHash => engine.clear_hash(),
        }
        Ok(())
    }
}
