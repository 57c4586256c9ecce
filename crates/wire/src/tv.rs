//! Live tables (the TV, `docs/protocol.md`, "Live tables (TV)"): the live tables a watcher may
//! follow through their delayed stream, the highest-rated first.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::http::TableSummary;

/// A live table as the TV lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct TvTable {
    /// The table.
    pub table: TableSummary,
    /// The mean rating, in the table's game, of the rated people seated at it (`null` when none
    /// of them is rated).
    pub rating: Option<f64>,
    /// How many people (not bots) hold its seats.
    pub people: u32,
}

/// `GET /api/tv`: the live public tables, the highest-rated first (the TV shows the first).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct TvReply {
    /// How many trick boundaries the delayed stream is behind its table.
    pub delay_tricks: u32,
    /// The live tables, the highest-rated first (at most 20).
    pub tables: Vec<TvTable>,
}
