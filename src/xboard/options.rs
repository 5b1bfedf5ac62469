//! The engine options xboard shows (`feature option=...`) and what setting one does: the settings
//! UCI offers too (`engines::settings`), under xboard's names.

use crate::engine::Engine;
use crate::engines::policy::PlayPolicy;
use crate::engines::settings::{self, Effect, Kind, Settings};

/// The declarations of `feature option="..."`: the same limits and defaults as the UCI
/// options', under xboard's names.
pub fn declarations() -> Vec<String> {
    settings::declarations()
        .into_iter()
        .map(|d| {
            let name = d.xboard;
            match d.kind {
                Kind::Spin { default, min, max } => format!("{name} -spin {default} {min} {max}"),
                Kind::Check { default } => format!("{name} -check {}", u8::from(default)),
                Kind::File { .. } => format!("{name} -file "),
                Kind::Path => format!("{name} -path "),
                Kind::Button => format!("{name} -button"),
            }
        })
        .collect()
}

/// Carries a change out on an idle engine; an error says what could not be done. A book or
/// tables that cannot be opened leave none in use.
pub fn apply(
    effect: Effect,
    engine: &mut Engine,
    policy: &mut PlayPolicy,
    settings: &Settings,
) -> Result<(), String> {
    match effect {
        Effect::Engine(change) => change.apply(engine)?,
        Effect::Book => {
            policy.load_book(settings.own_book, &settings.book_file)?;
        }
        Effect::Tables => {
            let loaded = policy.load_tables(&settings.syzygy_path);
            engine.set_tablebases(policy.search_tables(settings.probe_depth, settings.rule50));
            loaded?;
        }
        Effect::TableSettings => {
            engine.set_tablebases(policy.search_tables(settings.probe_depth, settings.rule50));
        }
    }
    Ok(())
}
