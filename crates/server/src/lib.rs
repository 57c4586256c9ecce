//! The yezi game server (in progress).

pub mod ids;
pub mod store;
