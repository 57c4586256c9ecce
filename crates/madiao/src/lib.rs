//! The madiao rules engine (being built).
