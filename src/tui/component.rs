//! The modes behind one trait: the commands each takes first, and what each tells the rest of
//! the interface (its name, which commands it takes and what its own keys do, whether the user
//! may move, what it wants the engine to search). Each mode's part implements it beside the
//! code that changes the mode's state: `play`, `edit` (analyse), `setup`, `browse`, `endgame`,
//! `learn`.

use crate::engines::service::GoLimits;
use crate::game::NodeId;

use super::app::{App, Purpose};
use super::keymap::Command;
use super::mode::{
    AnalyseState, BrowseState, EndgameState, LearnState, Mode, PlayState, SetupState,
};

/// A search a mode wants: why, at which node of the game, and how long.
pub type Wanted = (Purpose, NodeId, GoLimits);

pub trait Component {
    /// The name in the status line.
    fn name(&self) -> &'static str;

    /// Whether a command of the key map does something here, beside those that work in every
    /// mode (the help lists only those).
    fn takes(&self, command: Command) -> bool;

    /// What a command does here, where that differs from its usual meaning.
    fn command_help(&self, _command: Command) -> Option<&'static str> {
        None
    }

    /// The mode's keys that are not commands of the key map.
    fn own_keys(&self) -> &'static [&'static str] {
        BOARD_KEYS
    }

    /// The commands the bottom line suggests.
    fn suggested(&self) -> &'static [(Command, &'static str)] {
        &[]
    }

    /// Whether the user may move pieces on the shown position now.
    fn can_move(&self, app: &App) -> bool;

    /// What the engine should be searching now, if anything.
    fn wanted_search(&self, _app: &App) -> Option<Wanted> {
        None
    }

    /// Takes a command before the keys every mode shares: whether it did. (Not a method: the
    /// mode's state is part of the `App` it changes.)
    fn command(_app: &mut App, _command: Command) -> bool
    where
        Self: Sized,
    {
        false
    }
}

/// Hands a command to the current mode first: whether it took it.
pub fn mode_command(app: &mut App, command: Command) -> bool {
    match app.mode() {
        Mode::Play(_) => PlayState::command(app, command),
        Mode::Analyse(_) => AnalyseState::command(app, command),
        Mode::Setup(_) => SetupState::command(app, command),
        Mode::Browse => BrowseState::command(app, command),
        Mode::Endgame(_) => EndgameState::command(app, command),
        Mode::Learn(_) => LearnState::command(app, command),
    }
}

impl Mode {
    /// The mode as a component.
    pub fn component(&self) -> &dyn Component {
        match self {
            Mode::Play(p) => p,
            Mode::Analyse(a) => a,
            Mode::Setup(s) => s,
            Mode::Browse => &BrowseState,
            Mode::Endgame(e) => e,
            Mode::Learn(l) => l,
        }
    }
}

/// The keys of the board screens that are not commands of the key map.
const BOARD_KEYS: &[&str] = &[
    "      typing  a-h, N B R Q K, O start a move: e4, Nf3, O-O, e2e4",
    "         tab  completes a typed move",
    "  left/right  previous/next move;  up/down  start/end of the line",
    "shift+arrows  move the board cursor; enter picks up and drops a piece",
    "       mouse  click or drag pieces; click the graph; wheel steps",
    "      ctrl-c  quit",
];

/// Commands that work in every mode.
pub fn everywhere(command: Command) -> bool {
    use Command::*;
    matches!(
        command,
        Quit | Help
            | CommandLine
            | ModePlay
            | ModeAnalyse
            | ModeBrowse
            | ModeEndgame
            | Open
            | Setup
    )
}

/// Commands of every screen with a game on the board: moving through it, turning it, saving
/// and copying it.
pub fn board_command(command: Command) -> bool {
    use Command::*;
    matches!(
        command,
        Flip | NextMove | PrevMove | FirstMove | LastMove | Save | WriteGame | CopyFen | CopyPgn
    )
}

/// Commands that work on the game tree and its analysis.
pub fn tree_command(command: Command) -> bool {
    use Command::*;
    matches!(
        command,
        Undo | Redo
            | ToggleAnalysis
            | AnalyseGame
            | NextVariation
            | PrevVariation
            | LeaveVariation
            | PromoteVariation
            | MakeMainLine
            | DeleteVariation
            | CutLine
            | Comment
            | Nag(_)
            | NextMarked
            | PrevMarked
            | PvNext
            | PvPrev
    )
}
