//! Game analysis shared by `kibitzer annotate` and the TUI's whole-game analysis: grading moves
//! (`judgement`) and annotating a game's mainline with an engine (`annotate`).

pub mod annotate;
pub mod judgement;

pub use annotate::{AnalysisEngine, Annotator, GameSummary, MoveReport, PositionEval};
pub use judgement::{Judgement, SideStats, move_accuracy, winning_chances};
