//! How the shipped browser page (`web/js/socket.js`) paces its connection to a table, for the
//! clients that behave as it does: the terminal's remote driver, and the players of the cluster
//! tests. One place for the numbers; a test below holds them equal to the page's.
//!
//! A closed connection, an entry answered `unavailable` or unanswered in [`ENTRY_WAIT`], a move
//! answered `unavailable` and a `no_table` at a table already entered make the page enter the
//! table again on a new connection after [`backoff`]; a socket silent for [`PONG_WAIT`] after a
//! ping (sent every [`PING_EVERY`] while nothing else is awaited) is taken to be dead
//! (`docs/protocol.md`, "When the table's node fails").

use std::time::Duration;

/// The first delay before entering again; it doubles each attempt (`BACKOFF_FIRST`)…
pub const BACKOFF_FIRST: Duration = Duration::from_millis(500);
/// …up to this (`BACKOFF_MAX`).
pub const BACKOFF_MAX: Duration = Duration::from_millis(5000);
/// How long an entry (`join`, `watch`) may wait for its `sync` before the socket is given up
/// (`ENTRY_WAIT`).
pub const ENTRY_WAIT: Duration = Duration::from_millis(8000);
/// How long a move may wait for its answer, an `update` or an `error` (`MOVE_WAIT`).
pub const MOVE_WAIT: Duration = Duration::from_millis(4000);
/// How often a quiet socket is pinged (`PING_EVERY`)…
pub const PING_EVERY: Duration = Duration::from_millis(15000);
/// …and how long it may then stay silent before it is taken to be dead (`PONG_WAIT`).
pub const PONG_WAIT: Duration = Duration::from_millis(5000);

/// The whole delay before reconnection attempt `n` (from 0): [`BACKOFF_FIRST`] doubling up to
/// [`BACKOFF_MAX`].
pub fn backoff_full(n: u32) -> Duration {
    (BACKOFF_FIRST * 2u32.pow(n.min(10))).min(BACKOFF_MAX)
}

/// The delay before reconnection attempt `n` as the page draws it: between half and the whole
/// of [`backoff_full`], at `draw` (in `[0, 1)`, uniform) along the way, so that the players of a
/// node that died do not all come back at the same moment (`backoff` in `web/js/socket.js`).
pub fn backoff(n: u32, draw: f64) -> Duration {
    let full = backoff_full(n).as_millis() as f64;
    Duration::from_millis((full * (0.5 + draw.clamp(0.0, 1.0) / 2.0)).round() as u64)
}

/// [`backoff`] drawn from a seeded generator.
pub fn backoff_drawn(n: u32, rng: &mut cards::Rng) -> Duration {
    backoff(n, (rng.next_u64() % 1_000_000) as f64 / 1_000_000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page's constant `name` (`export const NAME = <ms>;` in `web/js/socket.js`).
    fn page_const(js: &str, name: &str) -> Duration {
        let start = format!("export const {name} = ");
        let line = js
            .lines()
            .find_map(|l| l.trim().strip_prefix(start.as_str()))
            .unwrap_or_else(|| panic!("web/js/socket.js has no `{start}…`"));
        let ms: u64 =
            line.trim_end_matches(';').trim().parse().unwrap_or_else(|e| panic!("{name}: {line}: {e}"));
        Duration::from_millis(ms)
    }

    #[test]
    fn the_numbers_are_the_pages() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/js/socket.js");
        let js = std::fs::read_to_string(path).unwrap();
        for (name, ours) in [
            ("BACKOFF_FIRST", BACKOFF_FIRST),
            ("BACKOFF_MAX", BACKOFF_MAX),
            ("ENTRY_WAIT", ENTRY_WAIT),
            ("MOVE_WAIT", MOVE_WAIT),
            ("PING_EVERY", PING_EVERY),
            ("PONG_WAIT", PONG_WAIT),
        ] {
            assert_eq!(page_const(&js, name), ours, "{name} differs from web/js/socket.js");
        }
        // The page's draw: half to the whole of the full delay, doubling up to the most.
        assert!(js.contains("Math.min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** Math.min(Math.max(n, 0), 10))"));
        assert!(js.contains("Math.round(full * (0.5 + random() / 2))"));
    }

    #[test]
    fn backoff_doubles_to_the_most_and_draws_half_to_whole() {
        let full: Vec<u64> = (0..6).map(|n| backoff_full(n).as_millis() as u64).collect();
        assert_eq!(full, [500, 1000, 2000, 4000, 5000, 5000]);
        assert_eq!(backoff_full(u32::MAX), BACKOFF_MAX);
        assert_eq!(backoff(0, 0.0), Duration::from_millis(250));
        assert_eq!(backoff(1, 0.5), Duration::from_millis(750));
        assert_eq!(backoff(3, 0.999_999), Duration::from_millis(4000));
        let mut rng = cards::Rng::from_seed(7);
        for n in 0..8 {
            let d = backoff_drawn(n, &mut rng);
            assert!((backoff_full(n) / 2..=backoff_full(n)).contains(&d), "{n}: {d:?}");
        }
    }
}
