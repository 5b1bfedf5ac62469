//! The UCI options: their declarations, parsing `setoption` values, and what each change does.

use std::path::Path;
use std::time::Duration;

use crate::engine::{
    DEFAULT_ELO, DEFAULT_HCE_SHARE, Engine, EngineOptions, Evaluation, MAX_ELO, MAX_HASH_MB,
    MAX_MOVE_OVERHEAD_MS, MAX_MULTIPV, MAX_THREADS, MIN_ELO, TablebaseConfig,
};
use crate::engines::policy::{MAX_PROBE_DEPTH, PROBE_DEPTH, RULE50};

/// A change that needs an idle engine (applied when the running search ends).
#[derive(Clone, PartialEq, Debug)]
pub enum PendingChange {
    Hash(usize),
    Threads(usize),
    MultiPv(usize),
    MoveOverhead(Duration),
    Strength(Option<u32>),
    ClearHash,
    NewGame,
    Evaluation(Evaluation),
    Tablebases(Option<TablebaseConfig>),
}

impl PendingChange {
    /// Applies the change; what could not be done comes back as a message for the GUI.
    pub fn apply(self, engine: &mut Engine) -> Result<(), String> {
        match self {
            PendingChange::Hash(mb) => {
                let kept = engine.options().hash_mb;
                return engine
                    .set_hash(mb)
                    .map_err(|e| format!("Hash {mb}: {e}; keeping {kept} MiB"));
            }
            PendingChange::Threads(n) => engine.set_threads(n),
            PendingChange::MultiPv(n) => engine.set_multipv(n),
            PendingChange::MoveOverhead(d) => engine.set_move_overhead(d),
            PendingChange::Strength(elo) => engine.set_strength(elo),
            PendingChange::ClearHash => engine.clear_hash(),
            PendingChange::NewGame => engine.new_game(),
            PendingChange::Evaluation(e) => engine.set_evaluation(e),
            PendingChange::Tablebases(t) => engine.set_tablebases(t),
        }
        Ok(())
    }
}

/// What a `setoption` did.
#[derive(Clone, PartialEq, Debug)]
pub enum OptionChange {
    Engine(PendingChange),
    Chess960(bool),
    ShowWdl(bool),
    /// OwnBook or BookFile changed: reload the book.
    Book,
    /// SyzygyPath changed: reopen the tables.
    Tablebases,
    /// SyzygyProbeDepth or Syzygy50MoveRule changed.
    TablebaseSettings,
    None,
}

/// Current values of the options the session keeps itself.
pub struct Values {
    pub chess960: bool,
    limit_strength: bool,
    elo: u32,
    pub syzygy_path: String,
    pub syzygy_probe_depth: u32,
    pub syzygy_50_move_rule: bool,
    pub own_book: bool,
    pub book_file: String,
    use_nnue: bool,
    eval_file: String,
    hce_share: u8,
}

/// `EvalFile`'s default: the network built into the binary.
const EMBEDDED_NET: &str = "<embedded>";

pub fn declarations() -> Vec<String> {
    let d = EngineOptions::default();
    vec![
        format!(
            "option name Hash type spin default {} min 1 max {MAX_HASH_MB}",
            d.hash_mb
        ),
        format!(
            "option name Threads type spin default {} min 1 max {MAX_THREADS}",
            d.threads
        ),
        format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
        "option name Clear Hash type button".to_owned(),
        "option name Ponder type check default false".to_owned(),
        format!(
            "option name Move Overhead type spin default {} min 0 max {MAX_MOVE_OVERHEAD_MS}",
            d.move_overhead.as_millis()
        ),
        "option name UCI_Chess960 type check default false".to_owned(),
        "option name UCI_ShowWDL type check default false".to_owned(),
        "option name UCI_LimitStrength type check default false".to_owned(),
        format!("option name UCI_Elo type spin default {DEFAULT_ELO} min {MIN_ELO} max {MAX_ELO}"),
        "option name SyzygyPath type string default <empty>".to_owned(),
        format!(
            "option name SyzygyProbeDepth type spin default {PROBE_DEPTH} min 1 max {MAX_PROBE_DEPTH}"
        ),
        format!("option name Syzygy50MoveRule type check default {RULE50}"),
        "option name OwnBook type check default false".to_owned(),
        "option name BookFile type string default <empty>".to_owned(),
        format!(
            "option name UseNNUE type check default {}",
            d.evaluation != Evaluation::HandCrafted
        ),
        format!("option name EvalFile type string default {EMBEDDED_NET}"),
        format!("option name HandCraftedShare type spin default {DEFAULT_HCE_SHARE} min 0 max 100"),
    ]
    .into_iter()
    .chain(tunable_declarations())
    .collect()
}

/// The search parameters, as options only in a build for tuning them (the `tune` feature).
fn tunable_declarations() -> Vec<String> {
    if !cfg!(feature = "tune") {
        return Vec::new();
    }
    crate::engine::TUNABLES
        .iter()
        .map(|t| {
            format!(
                "option name {} type spin default {} min {} max {}",
                t.name, t.default, t.min, t.max
            )
        })
        .collect()
}

/// `setoption` for a search parameter of a `tune` build.
#[cfg(feature = "tune")]
fn set_tunable(name: &str, value: Option<&str>) -> Option<Result<OptionChange, String>> {
    let tunable = crate::engine::TUNABLES
        .iter()
        .find(|t| t.name.eq_ignore_ascii_case(name))?;
    let value = value.unwrap_or_default().trim();
    Some(match value.parse::<i32>() {
        Ok(v) => tunable.set(v).map(|()| OptionChange::None),
        Err(_) => Err(format!("option {name}: '{value}' is not a number")),
    })
}

fn spin(name: &str, value: Option<&str>, min: u64, max: u64) -> Result<u64, String> {
    let v = value.ok_or_else(|| format!("option {name} needs a value"))?;
    let n: u64 = v
        .trim()
        .parse()
        .map_err(|_| format!("option {name}: '{v}' is not a number"))?;
    if !(min..=max).contains(&n) {
        return Err(format!("option {name}: {n} is outside {min}..{max}"));
    }
    Ok(n)
}

fn check(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value.map(str::trim) {
        Some(v) if v.eq_ignore_ascii_case("true") => Ok(true),
        Some(v) if v.eq_ignore_ascii_case("false") => Ok(false),
        other => Err(format!(
            "option {name}: '{}' is not true or false",
            other.unwrap_or_default()
        )),
    }
}

fn string(value: Option<&str>) -> String {
    match value.map(str::trim) {
        None | Some("<empty>") => String::new(),
        Some(v) => v.to_owned(),
    }
}

impl Values {
    pub fn new(options: &EngineOptions) -> Values {
        Values {
            chess960: false,
            limit_strength: false,
            elo: DEFAULT_ELO,
            syzygy_path: String::new(),
            syzygy_probe_depth: PROBE_DEPTH as u32,
            syzygy_50_move_rule: true,
            own_book: false,
            book_file: String::new(),
            use_nnue: options.evaluation != Evaluation::HandCrafted,
            eval_file: String::new(),
            hce_share: match options.evaluation {
                Evaluation::Nnue { hce_share, .. } => hce_share,
                Evaluation::HandCrafted => DEFAULT_HCE_SHARE,
            },
        }
    }

    /// The evaluation `UseNNUE`, `EvalFile` and `HandCraftedShare` ask for. A file that cannot
    /// be used is an error, and the engine keeps the evaluation it has.
    fn evaluation(&self) -> Result<OptionChange, String> {
        let network = if self.eval_file.is_empty() || self.eval_file == EMBEDDED_NET {
            Evaluation::embedded()
        } else {
            Evaluation::from_file(Path::new(&self.eval_file))
                .map_err(|e| format!("EvalFile: {e}; keeping the current network"))?
        };
        let evaluation = if self.use_nnue {
            network.with_hce_share(self.hce_share)
        } else {
            Evaluation::HandCrafted
        };
        Ok(OptionChange::Engine(PendingChange::Evaluation(evaluation)))
    }

    fn strength(&self) -> OptionChange {
        OptionChange::Engine(PendingChange::Strength(
            self.limit_strength.then_some(self.elo),
        ))
    }

    /// Applies `setoption name <name> [value <value>]`; option names ignore case.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<OptionChange, String> {
        let key = name.to_ascii_lowercase();
        Ok(match key.as_str() {
            "hash" => {
                OptionChange::Engine(PendingChange::Hash(
                    spin(name, value, 1, MAX_HASH_MB as u64)? as usize,
                ))
            }
            "threads" => OptionChange::Engine(PendingChange::Threads(spin(
                name,
                value,
                1,
                MAX_THREADS as u64,
            )? as usize)),
            "multipv" => OptionChange::Engine(PendingChange::MultiPv(spin(
                name,
                value,
                1,
                MAX_MULTIPV as u64,
            )? as usize)),
            "clear hash" => OptionChange::Engine(PendingChange::ClearHash),
            "ponder" => {
                check(name, value)?;
                OptionChange::None
            }
            "move overhead" => OptionChange::Engine(PendingChange::MoveOverhead(
                Duration::from_millis(spin(name, value, 0, MAX_MOVE_OVERHEAD_MS)?),
            )),
            "uci_chess960" => {
                self.chess960 = check(name, value)?;
                OptionChange::Chess960(self.chess960)
            }
            "uci_showwdl" => OptionChange::ShowWdl(check(name, value)?),
            "uci_limitstrength" => {
                self.limit_strength = check(name, value)?;
                self.strength()
            }
            "uci_elo" => {
                self.elo = spin(name, value, MIN_ELO as u64, MAX_ELO as u64)? as u32;
                self.strength()
            }
            "syzygypath" => {
                self.syzygy_path = string(value);
                OptionChange::Tablebases
            }
            "syzygyprobedepth" => {
                self.syzygy_probe_depth = spin(name, value, 1, MAX_PROBE_DEPTH as u64)? as u32;
                OptionChange::TablebaseSettings
            }
            "syzygy50moverule" => {
                self.syzygy_50_move_rule = check(name, value)?;
                OptionChange::TablebaseSettings
            }
            "ownbook" => {
                self.own_book = check(name, value)?;
                OptionChange::Book
            }
            "bookfile" => {
                self.book_file = string(value);
                OptionChange::Book
            }
            "usennue" => {
                self.use_nnue = check(name, value)?;
                self.evaluation()?
            }
            "handcraftedshare" => {
                self.hce_share = spin(name, value, 0, 100)? as u8;
                self.evaluation()?
            }
            "evalfile" => {
                let previous = std::mem::replace(&mut self.eval_file, string(value));
                let change = self.evaluation();
                if change.is_err() {
                    self.eval_file = previous;
                }
                change?
            }
            #[cfg(feature = "tune")]
            _ if let Some(result) = set_tunable(name, value) => result?,
            _ => return Err(format!("unknown option '{name}'")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_parameters_are_options_only_in_a_tuning_build() {
        let rfp = crate::engine::TUNABLES
            .iter()
            .find(|t| t.name == "RFP_MARGIN")
            .unwrap();
        let declaration = format!("option name RFP_MARGIN type spin default {} ", rfp.default);
        let declared = declarations().iter().any(|d| d.starts_with(&declaration));
        assert_eq!(declared, cfg!(feature = "tune"));
        // Set to its default: the value is global, and other tests search meanwhile.
        let mut v = Values::new(&EngineOptions::default());
        let default = rfp.default.to_string();
        assert_eq!(
            v.set("rfp_margin", Some(&default)).is_ok(),
            cfg!(feature = "tune")
        );
        assert!(v.set("RFP_MARGIN", Some("5000")).is_err());
    }

    #[test]
    fn every_declared_option_can_be_set() {
        let mut v = Values::new(&EngineOptions::default());
        for decl in declarations() {
            let name = decl
                .trim_start_matches("option name ")
                .split(" type ")
                .next()
                .unwrap();
            let value = if decl.contains("type button") {
                None
            } else if decl.contains("type check") {
                Some("true")
            } else if decl.contains("type spin") {
                Some(
                    decl.split(" default ")
                        .nth(1)
                        .unwrap()
                        .split(' ')
                        .next()
                        .unwrap(),
                )
            } else if name == "EvalFile" {
                Some("<embedded>")
            } else {
                Some("/some/where")
            };
            v.set(name, value).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        assert!(v.chess960 && v.own_book);
    }

    #[test]
    fn a_bad_eval_file_keeps_the_current_evaluation() {
        let mut v = Values::new(&EngineOptions::default());
        let path = std::env::temp_dir().join(format!("kibitzer-bad-{}.nnue", std::process::id()));
        std::fs::write(&path, [0u8; 100]).unwrap();
        let err = v.set("EvalFile", Some(path.to_str().unwrap())).unwrap_err();
        assert!(
            err.contains("bad magic") && err.contains("keeping"),
            "{err}"
        );
        std::fs::remove_file(&path).unwrap();
        assert_eq!(
            v.set("UseNNUE", Some("true")),
            Ok(OptionChange::Engine(PendingChange::Evaluation(
                Evaluation::embedded()
            )))
        );
        assert_eq!(
            v.set("UseNNUE", Some("false")),
            Ok(OptionChange::Engine(PendingChange::Evaluation(
                Evaluation::HandCrafted
            )))
        );
    }

    #[test]
    fn the_hand_crafted_share_mixes_into_the_network() {
        let mut v = Values::new(&EngineOptions::default());
        v.set("UseNNUE", Some("true")).unwrap();
        assert_eq!(
            v.set("HandCraftedShare", Some("0")),
            Ok(OptionChange::Engine(PendingChange::Evaluation(
                Evaluation::embedded().with_hce_share(0)
            )))
        );
        assert!(v.set("HandCraftedShare", Some("101")).is_err());
        assert_eq!(
            v.set("EvalFile", Some("<embedded>")),
            Ok(OptionChange::Engine(PendingChange::Evaluation(
                Evaluation::embedded().with_hce_share(0)
            )))
        );
        v.set("UseNNUE", Some("false")).unwrap();
        assert_eq!(
            v.set("HandCraftedShare", Some("30")),
            Ok(OptionChange::Engine(PendingChange::Evaluation(
                Evaluation::HandCrafted
            )))
        );
    }

    #[test]
    fn bad_values_are_errors() {
        let mut v = Values::new(&EngineOptions::default());
        assert!(v.set("Hash", Some("0")).is_err());
        assert!(v.set("Hash", Some("lots")).is_err());
        assert!(v.set("Hash", None).is_err());
        assert!(v.set("Ponder", Some("maybe")).is_err());
        assert!(v.set("Nonsense", Some("1")).is_err());
        assert_eq!(
            v.set("hash", Some("32")),
            Ok(OptionChange::Engine(PendingChange::Hash(32)))
        );
        v.set("UCI_Elo", Some("2000")).unwrap();
        assert_eq!(
            v.set("UCI_LimitStrength", Some("true")),
            Ok(OptionChange::Engine(PendingChange::Strength(Some(2000))))
        );
    }
}
