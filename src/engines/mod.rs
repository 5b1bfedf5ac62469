//! The engines the interface plays and analyses with, below it: today the client for external
//! UCI engines (the built-in engine is `crate::engine`). Issue 46's engine service, one interface
//! for both with events tagged by search, grows here.

pub mod external;
