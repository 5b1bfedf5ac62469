//! The UCI options: their declarations, parsing `setoption` values, and what each change does.
//! The settings xboard offers too come from `engines::settings`; this adds UCI's own.

use crate::engine::{Engine, EngineOptions, MAX_MULTIPV, TablebaseConfig};
use crate::engines::settings::{self, Effect, EngineChange, Kind, Settings};

/// A change that needs an idle engine (applied when the running search ends).
#[derive(Clone, PartialEq, Debug)]
pub enum PendingChange {
    /// One of the settings xboard offers too.
    Setting(EngineChange),
    MultiPv(usize),
    NewGame,
    Tablebases(Option<TablebaseConfig>),
}

impl PendingChange {
    /// Applies the change; what could not be done comes back as a message for the GUI.
    pub fn apply(self, engine: &mut Engine) -> Result<(), String> {
        match self {
            PendingChange::Setting(change) => return change.apply(engine),
            PendingChange::MultiPv(n) => engine.set_multipv(n),
            PendingChange::NewGame => engine.new_game(),
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
    pub shared: Settings,
}

pub fn declarations() -> Vec<String> {
    let shared = settings::declarations().into_iter().map(|d| {
        let name = d.uci;
        match d.kind {
            Kind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            Kind::Check { default } => format!("option name {name} type check default {default}"),
            Kind::File { empty } => format!("option name {name} type string default {empty}"),
            Kind::Path => format!("option name {name} type string default <empty>"),
            Kind::Button => format!("option name {name} type button"),
        }
    });
    let own = [
        format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
        "option name Ponder type check default false".to_owned(),
        "option name UCI_Chess960 type check default false".to_owned(),
        "option name UCI_ShowWDL type check default false".to_owned(),
    ];
    shared.chain(own).chain(tunable_declarations()).collect()
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

impl Values {
    pub fn new(options: &EngineOptions) -> Values {
        Values {
            chess960: false,
            shared: Settings::new(options),
        }
    }

    /// Applies `setoption name <name> [value <value>]`; option names ignore case.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<OptionChange, String> {
        if let Some(declared) = settings::find(name, true) {
            return Ok(match self.shared.set(declared, name, value)? {
                Effect::Engine(change) => OptionChange::Engine(PendingChange::Setting(change)),
                Effect::Tables => OptionChange::Tablebases,
                Effect::TableSettings => OptionChange::TablebaseSettings,
                Effect::Book => OptionChange::Book,
            });
        }
        Ok(match name.trim().to_ascii_lowercase().as_str() {
            "multipv" => OptionChange::Engine(PendingChange::MultiPv(settings::spin(
                name,
                value,
                1,
                MAX_MULTIPV as u64,
            )? as usize)),
            "ponder" => {
                settings::check(name, value)?;
                OptionChange::None
            }
            "uci_chess960" => {
                self.chess960 = settings::check(name, value)?;
                OptionChange::Chess960(self.chess960)
            }
            "uci_showwdl" => OptionChange::ShowWdl(settings::check(name, value)?),
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
        assert!(v.chess960 && v.shared.own_book);
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
            Ok(OptionChange::Engine(PendingChange::Setting(
                EngineChange::Hash(32)
            )))
        );
        v.set("UCI_Elo", Some("2000")).unwrap();
        assert_eq!(
            v.set("UCI_LimitStrength", Some("true")),
            Ok(OptionChange::Engine(PendingChange::Setting(
                EngineChange::Strength(Some(2000))
            )))
        );
    }
}
