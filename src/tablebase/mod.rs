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
pub use tables::{Dtz, Tablebases};
pub use trainer::{
    Grade, Material, MaterialError, Summary, TrainerError, defender_move, generate, grade,
};
pub use view::{TbState, TbView};

#[cfg(test)]
pub(crate) mod tests {
    use super::Tablebases;

    /// The tables of ../shared/syzygy, or `None` (with a note) where the folder is absent.
    pub fn shared_tables() -> Option<Tablebases> {
        let syzygy = crate::test_data::shared_path("syzygy")?;
        Some(
            Tablebases::open(syzygy.as_os_str())
                .expect("shared tables")
                .0,
        )
    }
}
