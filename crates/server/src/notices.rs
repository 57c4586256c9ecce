//! Notices to a person wherever he is connected (`docs/protocol.md`, "Friend notices"): a
//! followed player's state (`friend`), a challenge sent or answered (`challenge`), an invitation
//! to a private event (`invited`). They go to every connection of the person's account that said
//! `hello`, at a table or not, on this node and, over the bus, on the others: each node hears
//! [`CHANNEL`] and hands a notice to its own connections of the guests it names.
//!
//! The [`Hub`] also gathers the changes that make a `friend` notice: a guest's first connection
//! on this node opened or its last closed, or the people seated at a table changed. The friends'
//! worker (`crate::api::friends::spawn_worker`) hears them and tells the followers.

use std::collections::HashMap;
use std::sync::Mutex;

use axum::extract::ws::Utf8Bytes;
use table::machine::ConnId;
use tokio::sync::mpsc;

/// Where a connection's outgoing messages go.
pub type Out = mpsc::Sender<Utf8Bytes>;

/// The bus channel every node hears for notices.
pub const CHANNEL: &str = "yezi.notices";

/// What changed about a guest, for the friends' worker.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Change {
    /// His first connection on this node opened, or his last one closed.
    Presence(String),
    /// He sat down at a table, left it, or its match ended.
    Seat(String),
}

/// This node's connections by guest, and the changes for the friends' worker.
#[derive(Default)]
pub struct Hub {
    /// The connections of accounts that said `hello`, by guest.
    by_guest: Mutex<HashMap<String, HashMap<ConnId, Out>>>,
    /// Where changes go (none until the worker runs).
    changes: Mutex<Option<mpsc::UnboundedSender<Change>>>,
}

impl Hub {
    /// A connection of `guest` (an account's) that said `hello`.
    pub fn register(&self, guest: &str, conn: ConnId, out: Out) {
        if let Ok(mut m) = self.by_guest.lock() {
            m.entry(guest.to_string()).or_default().insert(conn, out);
        }
    }

    /// The connection closed.
    pub fn unregister(&self, guest: &str, conn: ConnId) {
        if let Ok(mut m) = self.by_guest.lock()
            && let Some(conns) = m.get_mut(guest)
        {
            conns.remove(&conn);
            if conns.is_empty() {
                m.remove(guest);
            }
        }
    }

    /// Hands `text` to every connection on this node of each of `guests`; how many connections
    /// it went to (a full queue drops it).
    pub fn deliver(&self, guests: &[String], text: &str) -> usize {
        let outs: Vec<Out> = match self.by_guest.lock() {
            Ok(m) => guests.iter().filter_map(|g| m.get(g)).flat_map(|c| c.values().cloned()).collect(),
            Err(_) => return 0,
        };
        outs.iter().filter(|o| o.try_send(text.to_string().into()).is_ok()).count()
    }

    /// The worker hears changes on `tx` from now on.
    pub fn set_worker(&self, tx: mpsc::UnboundedSender<Change>) {
        if let Ok(mut c) = self.changes.lock() {
            *c = Some(tx);
        }
    }

    /// Something changed about a guest (nothing without a worker).
    pub fn changed(&self, change: Change) {
        if let Ok(c) = self.changes.lock()
            && let Some(tx) = c.as_ref()
        {
            let _ = tx.send(change);
        }
    }
}
