//! Syzygy endgame tablebases through shakmaty-syzygy: one shared set of tables (`tables`), our
//! positions converted to shakmaty's (`convert`, the only place shakmaty types appear), and the
//! root-move ranking by DTZ that the engine searches from (`root`).

mod convert;
mod error;
mod root;
mod tables;

pub use error::TbError;
pub use root::{RankedMove, RootRanking};
pub use tables::{Dtz, Tablebases, Wdl};
