//! "My games" (`GET /api/account/games`): the finished matches a player played, a page at a time.

use cards::record::GameKind;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::game::MatchSummary;

/// How one seat came out of a finished match.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Above the table's average result (Madiao: chips won overall; Da Bai Fen: the winning side).
    Won,
    /// Below it.
    Lost,
    /// Exactly on it (Madiao: even in chips).
    Drawn,
}

impl Outcome {
    /// Reads `won`, `lost` or `drawn`.
    pub fn parse(s: &str) -> Option<Outcome> {
        match s {
            "won" => Some(Outcome::Won),
            "lost" => Some(Outcome::Lost),
            "drawn" => Some(Outcome::Drawn),
            _ => None,
        }
    }
}

/// One game of "my games" (`GET /api/account/games`): a finished match the guest played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct MyGame {
    /// The table's id.
    pub id: String,
    /// The game played.
    pub game: GameKind,
    /// The table's name.
    pub name: String,
    /// The guest's seat (0–3).
    pub seat: u8,
    /// The name in each seat as the match ended (`bot:NAME` for a bot).
    pub players: [String; 4],
    /// How the guest's seat came out.
    pub result: Outcome,
    /// The match's final score (Madiao: each seat's chips; Da Bai Fen: the teams' ranks, the
    /// deals each won and the winner).
    pub score: MatchSummary,
    /// A rated match.
    pub rated: bool,
    /// When the table was made, milliseconds since the Unix epoch.
    #[ts(type = "number")]
    pub created_ms: i64,
    /// The page of its replay (`/replay/{id}`; `GET /api/replays/{id}` serves it).
    pub replay: String,
    /// The guest's accuracy over the match from the analyses of its hands made so far
    /// (`docs/analysis.md`, "Accuracy"); `null` when it could not be worked out.
    #[serde(default)]
    pub accuracy: Option<crate::analysis::MatchAccuracy>,
}

/// One page of "my games", newest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct MyGames {
    /// The games of this page.
    pub games: Vec<MyGame>,
    /// How many games pass the filters.
    pub total: u32,
    /// How many games of the filtered list come before this page.
    pub offset: u32,
    /// The most games a page holds.
    pub limit: u32,
    /// The `offset` of the next page, `null` on the last.
    pub next: Option<u32>,
}
