//! The dabaifen rules engine (being built).
