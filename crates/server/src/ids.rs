//! Identifiers and secrets drawn from the operating system's randomness, the hashing of
//! tokens (a token is stored only as its SHA-256), and the time of day.

use sha2::{Digest, Sha256};

/// How far this node's wall clock is set from the machine's (milliseconds): 0 but in tests
/// that play a node whose clock is wrong ([`set_clock_skew_ms`]).
static CLOCK_SKEW_MS: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(0);

/// Now by this node's wall clock, in milliseconds since the Unix epoch. What several nodes must
/// agree on (sessions' expiry, the lobby's order) takes the database's clock instead
/// (`crate::store::Beat`).
pub fn now_ms() -> i64 {
    machine_now_ms().saturating_add(CLOCK_SKEW_MS.load(std::sync::atomic::Ordering::Relaxed))
}

/// Now by the machine's clock, whatever [`set_clock_skew_ms`] says: the clock of a database
/// on this machine (SQLite).
pub fn machine_now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// For tests: this process's wall clock ([`now_ms`]) runs `skew` milliseconds from the
/// machine's, as a node whose clock was set wrong.
pub fn set_clock_skew_ms(skew: i64) {
    CLOCK_SKEW_MS.store(skew, std::sync::atomic::Ordering::Relaxed);
}

/// The operating system could not give random bytes.
#[derive(Debug, Clone, thiserror::Error)]
#[error("the operating system's random source failed: {0}")]
pub struct RandomError(String);

fn fill(buf: &mut [u8]) -> Result<(), RandomError> {
    getrandom::fill(buf).map_err(|e| RandomError(e.to_string()))
}

/// Letters of the identifiers: lower-case letters and digits without look-alikes (no 0, 1, l, o).
const ALPHABET: &[u8; 32] = b"23456789abcdefghijkmnpqrstuvwxyz";

/// A new identifier: `prefix` then 12 random characters (60 bits), e.g. `t7k2mq9xcv4ba`.
pub fn new_id(prefix: &str) -> Result<String, RandomError> {
    let mut buf = [0u8; 12];
    fill(&mut buf)?;
    let mut s = String::with_capacity(prefix.len() + 12);
    s.push_str(prefix);
    s.extend(buf.iter().map(|b| ALPHABET[(b & 31) as usize] as char));
    Ok(s)
}

/// A new secret token: 32 random bytes as 64 hexadecimal digits.
pub fn new_token() -> Result<String, RandomError> {
    let mut buf = [0u8; 32];
    fill(&mut buf)?;
    Ok(hex(&buf))
}

/// A new table seed, from the operating system (never from anything a client can see).
pub fn new_seed() -> Result<u64, RandomError> {
    let mut buf = [0u8; 8];
    fill(&mut buf)?;
    Ok(u64::from_le_bytes(buf))
}

/// How a token is stored: its SHA-256 as hexadecimal digits.
pub fn hash_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// How a client address is stored (`docs/ratings.md`, "Repeated results"): the SHA-256 of a
/// per-database secret `key` and the address's text, as hexadecimal digits: without the key, a
/// guessed address cannot be checked against the hash.
pub fn keyed_hash(key: &str, text: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"yezi-address/1\n");
    h.update(key.as_bytes());
    h.update(b"\n");
    h.update(text.as_bytes());
    hex(&h.finalize())
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_tokens_have_their_shape_and_differ() {
        let a = new_id("t").unwrap();
        let b = new_id("t").unwrap();
        assert_eq!(a.len(), 13);
        assert!(a.starts_with('t'));
        assert!(a[1..].bytes().all(|c| ALPHABET.contains(&c)));
        assert_ne!(a, b);
        let t = new_token().unwrap();
        assert_eq!(t.len(), 64);
        assert!(t.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(t, new_token().unwrap());
        assert_ne!(new_seed().unwrap(), new_seed().unwrap());
    }

    #[test]
    fn a_token_is_stored_as_its_sha256() {
        assert_eq!(hash_token("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert_ne!(hash_token("abc"), hash_token("abd"));
    }
}
