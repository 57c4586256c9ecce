//! Every type of yezi that crosses a process boundary (`docs/protocol.md`): the WebSocket
//! messages of each direction ([`client`]: what a client sends, [`server`]: what the server
//! sends), the values both carry ([`game`]), the refusals ([`error`](mod@error)), and the HTTP API's bodies
//! ([`http`], [`accounts`], [`moderation`], [`ratings`], [`history`], [`archive`], [`replay`],
//! [`analysis`], [`puzzles`], [`tutorial`]). The browser client's TypeScript declarations (`web/js/wire.d.ts`) are
//! generated from these and the engines' types ([`typescript`]); a test fails when the committed
//! file is not what the generator gives now.
//!
//! Every WebSocket message is one JSON object in a text frame with a `type`. The client's
//! messages are [`ClientMsg`]; the server's are [`ServerMsg`], each at a table carrying the
//! table's version `v`.
//!
//! This crate depends on the vocabulary (`cards`) and the engines' own types (`madiao`,
//! `dabaifen`: their views, actions and trackers travel as they are), and on nothing that runs a
//! table or a server. Every item is also re-exported here, at the crate's root.

pub mod accounts;
pub mod analysis;
pub mod archive;
pub mod client;
pub mod error;
pub mod events;
pub mod friends;
pub mod game;
pub mod history;
pub mod http;
pub mod moderation;
pub mod puzzles;
pub mod ratings;
pub mod replay;
pub mod server;
pub mod tournaments;
pub mod tutorial;
pub mod tv;
pub mod typescript;

pub use accounts::*;
pub use analysis::*;
pub use archive::*;
pub use client::*;
pub use error::*;
pub use events::*;
pub use friends::*;
pub use game::*;
pub use history::*;
pub use http::*;
pub use moderation::*;
pub use puzzles::*;
pub use ratings::*;
pub use replay::*;
pub use server::*;
pub use tournaments::*;
pub use tutorial::*;
pub use tv::*;

use serde::Deserialize;

/// A field that is present, even as `null` (`Some(None)`), or absent (`None`).
fn present<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

#[cfg(test)]
mod tests;
