//! Syzygy endgame tablebases through shakmaty-syzygy: one shared set of tables (`tables`), our
//! positions converted to shakmaty's (`convert`, the only place shakmaty types appear), and the
//! root-move ranking by DTZ that the engine searches from (`root`), the per-move verdicts shown
//! to people (`view`), and the endgame trainer's positions and grades (`trainer`).

mod convert;
mod error;
mod root;
mod tables;
mod trainer;
mod view;

pub use error::TbError;
pub use root::{RankedMove, RootRanking};
pub use tables::{Dtz, Tablebases, Wdl};
pub use trainer::{
    Grade, Material, MaterialError, Summary, TrainerError, defender_move, generate, grade,
};
pub use view::{TbState, TbView};

#[cfg(test)]
pub(crate) mod tests {
    use super::Tablebases;

    /// `relative` in ../shared (or `$KIBITZER_SHARED`), or `None` with a note where it is
    /// absent (tests/skips.rs reports such a run).
    pub fn shared_path(relative: &str) -> Option<std::path::PathBuf> {
        let dir = std::env::var("KIBITZER_SHARED")
            .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../shared").to_owned());
        let path = std::path::Path::new(&dir).join(relative);
        if !path.exists() {
            eprintln!("skipping: {} not found", path.display());
            return None;
        }
        Some(path)
    }

    /// The tables of ../shared/syzygy, or `None` (with a note) where the folder is absent.
    pub fn shared_tables() -> Option<Tablebases> {
        let syzygy = shared_path("syzygy")?;
        Some(
            Tablebases::open(syzygy.as_os_str())
                .expect("shared tables")
                .0,
        )
    }
}
