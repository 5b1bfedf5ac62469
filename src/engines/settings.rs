//! The engine settings both protocols offer, UCI's `setoption` and xboard's `option`: one table of
//! their names, kinds and limits, their values as last set, and what a change asks of the engine.
//! Each front end declares them in its own syntax and adds what only it has (UCI's MultiPV and
//! UCI_Chess960, xboard's `memory` and `cores` commands).

use std::time::Duration;

use crate::engine::{
    DEFAULT_ELO, DEFAULT_HCE_SHARE, Engine, EngineOptions, Evaluation, MAX_ELO, MAX_HASH_MB,
    MAX_MOVE_OVERHEAD_MS, MAX_THREADS, MIN_ELO,
};
use crate::engines::policy::{MAX_PROBE_DEPTH, PROBE_DEPTH, RULE50};

/// A setting both protocols offer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Setting {
    Hash,
    Threads,
    MoveOverhead,
    ClearHash,
    LimitStrength,
    Elo,
    SyzygyPath,
    SyzygyProbeDepth,
    Syzygy50MoveRule,
    OwnBook,
    BookFile,
    UseNnue,
    EvalFile,
    HandCraftedShare,
}

/// What kind of value a setting takes, with its default.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Spin {
        default: u64,
        min: u64,
        max: u64,
    },
    Check {
        default: bool,
    },
    /// A file's path; `empty` is how UCI shows the empty default.
    File {
        empty: &'static str,
    },
    /// Directories separated by ':' (';' on Windows).
    Path,
    Button,
}

/// A setting under each protocol's name.
#[derive(Clone, Copy, Debug)]
pub struct Declaration {
    pub setting: Setting,
    pub uci: &'static str,
    pub xboard: &'static str,
    pub kind: Kind,
}

/// How UCI shows the built-in network as `EvalFile`'s value.
const EMBEDDED_NET: &str = "<embedded>";

/// Every shared setting, in the order they are declared.
pub fn declarations() -> Vec<Declaration> {
    let d = EngineOptions::default();
    let declare = |setting, uci, xboard, kind| Declaration {
        setting,
        uci,
        xboard,
        kind,
    };
    let spin = |default: u64, min: u64, max: u64| Kind::Spin { default, min, max };
    vec![
        declare(
            Setting::Hash,
            "Hash",
            "Hash",
            spin(d.hash_mb as u64, 1, MAX_HASH_MB as u64),
        ),
        declare(
            Setting::Threads,
            "Threads",
            "Threads",
            spin(d.threads as u64, 1, MAX_THREADS as u64),
        ),
        declare(
            Setting::MoveOverhead,
            "Move Overhead",
            "Move Overhead",
            spin(d.move_overhead.as_millis() as u64, 0, MAX_MOVE_OVERHEAD_MS),
        ),
        declare(Setting::ClearHash, "Clear Hash", "Clear Hash", Kind::Button),
        declare(
            Setting::LimitStrength,
            "UCI_LimitStrength",
            "Limit Strength",
            Kind::Check { default: false },
        ),
        declare(
            Setting::Elo,
            "UCI_Elo",
            "Elo",
            spin(DEFAULT_ELO.into(), MIN_ELO.into(), MAX_ELO.into()),
        ),
        declare(Setting::SyzygyPath, "SyzygyPath", "Syzygy Path", Kind::Path),
        declare(
            Setting::SyzygyProbeDepth,
            "SyzygyProbeDepth",
            "Syzygy Probe Depth",
            spin(PROBE_DEPTH as u64, 1, MAX_PROBE_DEPTH as u64),
        ),
        declare(
            Setting::Syzygy50MoveRule,
            "Syzygy50MoveRule",
            "Syzygy 50 Move Rule",
            Kind::Check { default: RULE50 },
        ),
        declare(
            Setting::OwnBook,
            "OwnBook",
            "Own Book",
            Kind::Check { default: false },
        ),
        declare(
            Setting::BookFile,
            "BookFile",
            "Book File",
            Kind::File { empty: "<empty>" },
        ),
        declare(
            Setting::UseNnue,
            "UseNNUE",
            "Use NNUE",
            Kind::Check {
                default: d.evaluation != Evaluation::HandCrafted,
            },
        ),
        declare(
            Setting::EvalFile,
            "EvalFile",
            "Eval File",
            Kind::File {
                empty: EMBEDDED_NET,
            },
        ),
        declare(
            Setting::HandCraftedShare,
            "HandCraftedShare",
            "Hand Crafted Share",
            spin(DEFAULT_HCE_SHARE.into(), 0, 100),
        ),
    ]
}

/// The declaration under `name` in UCI (`uci` true) or xboard; names ignore case.
pub fn find(name: &str, uci: bool) -> Option<Declaration> {
    declarations().into_iter().find(|d| {
        let declared = if uci { d.uci } else { d.xboard };
        declared.eq_ignore_ascii_case(name.trim())
    })
}

/// What a change asks of the engine, the book or the tables (the new values are in `Settings`).
#[derive(Clone, PartialEq, Debug)]
pub enum Effect {
    Engine(EngineChange),
    /// SyzygyPath changed: reopen the tables.
    Tables,
    /// The probe depth or the 50-move rule changed.
    TableSettings,
    /// OwnBook or BookFile changed: reload the book.
    Book,
}

/// A change the engine makes itself, when it is idle.
#[derive(Clone, PartialEq, Debug)]
pub enum EngineChange {
    Hash(usize),
    Threads(usize),
    MoveOverhead(Duration),
    ClearHash,
    Strength(Option<u32>),
    Evaluation(Evaluation),
}

impl EngineChange {
    /// Makes the change on an idle engine; what could not be done comes back as a message.
    pub fn apply(self, engine: &mut Engine) -> Result<(), String> {
        match self {
            EngineChange::Hash(mb) => {
                let kept = engine.options().hash_mb;
                return engine
                    .set_hash(mb)
                    .map_err(|e| format!("Hash {mb}: {e}; keeping {kept} MiB"));
            }
            EngineChange::Threads(n) => engine.set_threads(n),
            EngineChange::MoveOverhead(d) => engine.set_move_overhead(d),
            EngineChange::ClearHash => engine.clear_hash(),
            EngineChange::Strength(elo) => engine.set_strength(elo),
            EngineChange::Evaluation(e) => engine.set_evaluation(e),
        }
        Ok(())
    }
}

impl From<EngineChange> for Effect {
    fn from(change: EngineChange) -> Effect {
        Effect::Engine(change)
    }
}

/// The shared settings' values as last set.
#[derive(Clone, Debug)]
pub struct Settings {
    limit_strength: bool,
    elo: u32,
    pub syzygy_path: String,
    pub probe_depth: i32,
    pub rule50: bool,
    pub own_book: bool,
    pub book_file: String,
    use_nnue: bool,
    eval_file: String,
    hce_share: u8,
}

impl Settings {
    /// The defaults, with the evaluation the engine starts on.
    pub fn new(engine: &EngineOptions) -> Settings {
        Settings {
            limit_strength: false,
            elo: DEFAULT_ELO,
            syzygy_path: String::new(),
            probe_depth: PROBE_DEPTH,
            rule50: RULE50,
            own_book: false,
            book_file: String::new(),
            use_nnue: engine.evaluation != Evaluation::HandCrafted,
            eval_file: String::new(),
            hce_share: match engine.evaluation {
                Evaluation::Nnue { hce_share, .. } => hce_share,
                Evaluation::HandCrafted => DEFAULT_HCE_SHARE,
            },
        }
    }

    /// Sets `declared` to `value` (`None` for a button, or where the GUI sent none). `name` is the
    /// option as the GUI wrote it, for errors. Checks take `true`/`false` or `1`/`0`; a file's
    /// `<empty>` (or `<embedded>`) is no file. A network file that cannot be used is an error,
    /// and the evaluation settings stay as they were.
    pub fn set(
        &mut self,
        declared: Declaration,
        name: &str,
        value: Option<&str>,
    ) -> Result<Effect, String> {
        let text = || value.map(str::trim).unwrap_or_default();
        let number = || match declared.kind {
            Kind::Spin { min, max, .. } => spin(name, value, min, max),
            _ => Err(format!("option {name} takes no number")),
        };
        Ok(match declared.setting {
            Setting::Hash => EngineChange::Hash(number()? as usize).into(),
            Setting::Threads => EngineChange::Threads(number()? as usize).into(),
            Setting::MoveOverhead => {
                EngineChange::MoveOverhead(Duration::from_millis(number()?)).into()
            }
            Setting::ClearHash => EngineChange::ClearHash.into(),
            Setting::LimitStrength => {
                self.limit_strength = check(name, value)?;
                self.strength()
            }
            Setting::Elo => {
                self.elo = number()? as u32;
                self.strength()
            }
            Setting::SyzygyPath => {
                self.syzygy_path = file(text());
                Effect::Tables
            }
            Setting::SyzygyProbeDepth => {
                self.probe_depth = number()? as i32;
                Effect::TableSettings
            }
            Setting::Syzygy50MoveRule => {
                self.rule50 = check(name, value)?;
                Effect::TableSettings
            }
            Setting::OwnBook => {
                self.own_book = check(name, value)?;
                Effect::Book
            }
            Setting::BookFile => {
                self.book_file = file(text());
                Effect::Book
            }
            Setting::UseNnue | Setting::EvalFile | Setting::HandCraftedShare => {
                let kept = self.clone();
                match declared.setting {
                    Setting::UseNnue => self.use_nnue = check(name, value)?,
                    Setting::EvalFile => self.eval_file = file(text()),
                    _ => self.hce_share = number()? as u8,
                }
                match self.evaluation(name) {
                    Ok(evaluation) => EngineChange::Evaluation(evaluation).into(),
                    Err(e) => {
                        *self = kept;
                        return Err(e);
                    }
                }
            }
        })
    }

    fn strength(&self) -> Effect {
        EngineChange::Strength(self.limit_strength.then_some(self.elo)).into()
    }

    /// The evaluation the settings ask for: the network file (or the built-in one) mixed with
    /// the hand-crafted evaluation by its share, or the hand-crafted one alone.
    fn evaluation(&self, name: &str) -> Result<Evaluation, String> {
        let network = if self.eval_file.is_empty() {
            Evaluation::embedded()
        } else {
            Evaluation::from_file(self.eval_file.as_ref())
                .map_err(|e| format!("{name}: {e}; keeping the current network"))?
        };
        Ok(if self.use_nnue {
            network.with_hce_share(self.hce_share)
        } else {
            Evaluation::HandCrafted
        })
    }
}

/// A number in `min..=max`.
pub fn spin(name: &str, value: Option<&str>, min: u64, max: u64) -> Result<u64, String> {
    let v = value
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .ok_or_else(|| format!("option {name} needs a value"))?;
    let n: u64 = v
        .parse()
        .map_err(|_| format!("option {name}: '{v}' is not a number"))?;
    if !(min..=max).contains(&n) {
        return Err(format!("option {name}: {n} is outside {min}..{max}"));
    }
    Ok(n)
}

/// `true` or `false`, as UCI writes them, or xboard's `1` or `0`.
pub fn check(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value.map(str::trim) {
        Some(v) if v.eq_ignore_ascii_case("true") || v == "1" => Ok(true),
        Some(v) if v.eq_ignore_ascii_case("false") || v == "0" => Ok(false),
        other => Err(format!(
            "option {name}: '{}' is not true or false",
            other.unwrap_or_default()
        )),
    }
}

/// A file or path value; the placeholders UCI shows for none mean none.
fn file(text: &str) -> String {
    match text {
        "<empty>" | EMBEDDED_NET => String::new(),
        path => path.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(s: &mut Settings, name: &str, value: Option<&str>) -> Result<Effect, String> {
        let declared = find(name, true)
            .or_else(|| find(name, false))
            .ok_or_else(|| format!("no option {name}"))?;
        s.set(declared, name, value)
    }

    #[test]
    fn each_setting_has_one_name_per_protocol() {
        let all = declarations();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(a.setting, b.setting);
                assert!(!a.uci.eq_ignore_ascii_case(b.uci), "{}", a.uci);
                assert!(!a.xboard.eq_ignore_ascii_case(b.xboard), "{}", a.xboard);
            }
            assert_eq!(find(a.uci, true).unwrap().setting, a.setting);
            assert_eq!(
                find(&a.xboard.to_uppercase(), false).unwrap().setting,
                a.setting
            );
        }
        assert!(find("Hand Crafted Share", true).is_none());
        assert!(find("HandCraftedShare", false).is_none());
    }

    #[test]
    fn values_are_checked_against_their_kind() {
        let mut s = Settings::new(&EngineOptions::default());
        assert_eq!(
            set(&mut s, "Hash", Some(" 32 ")),
            Ok(EngineChange::Hash(32).into())
        );
        for bad in [None, Some(""), Some("0"), Some("lots"), Some("-5")] {
            let err = set(&mut s, "Hash", bad).unwrap_err();
            assert!(err.starts_with("option Hash"), "{err}");
        }
        assert!(set(&mut s, "Own Book", Some("maybe")).is_err());
        assert_eq!(set(&mut s, "Own Book", Some("1")), Ok(Effect::Book));
        assert!(s.own_book);
        assert_eq!(set(&mut s, "OwnBook", Some("FALSE")), Ok(Effect::Book));
        assert!(!s.own_book);
        set(&mut s, "BookFile", Some("<empty>")).unwrap();
        assert_eq!(s.book_file, "");
        set(&mut s, "UCI_Elo", Some("2000")).unwrap();
        assert_eq!(
            set(&mut s, "Limit Strength", Some("true")),
            Ok(EngineChange::Strength(Some(2000)).into())
        );
        assert_eq!(
            set(&mut s, "Syzygy Probe Depth", Some("5")),
            Ok(Effect::TableSettings)
        );
        assert_eq!(s.probe_depth, 5);
    }

    #[test]
    fn the_evaluation_settings_mix_or_keep_what_they_had() {
        let mut s = Settings::new(&EngineOptions::default());
        assert_eq!(
            set(&mut s, "HandCraftedShare", Some("0")),
            Ok(EngineChange::Evaluation(Evaluation::embedded().with_hce_share(0)).into())
        );
        assert!(set(&mut s, "HandCraftedShare", Some("101")).is_err());
        assert_eq!(
            set(&mut s, "EvalFile", Some("<embedded>")),
            Ok(EngineChange::Evaluation(Evaluation::embedded().with_hce_share(0)).into())
        );
        let path = std::env::temp_dir().join(format!("kibitzer-bad-{}.nnue", std::process::id()));
        std::fs::write(&path, [0u8; 100]).unwrap();
        let err = set(&mut s, "Eval File", path.to_str()).unwrap_err();
        std::fs::remove_file(&path).unwrap();
        assert!(
            err.starts_with("Eval File: ") && err.contains("bad magic") && err.contains("keeping"),
            "{err}"
        );
        // The bad file was not kept: the next change still builds on the built-in network.
        assert_eq!(
            set(&mut s, "Use NNUE", Some("0")),
            Ok(EngineChange::Evaluation(Evaluation::HandCrafted).into())
        );
        assert_eq!(
            set(&mut s, "UseNNUE", Some("true")),
            Ok(EngineChange::Evaluation(Evaluation::embedded().with_hce_share(0)).into())
        );
    }
}
