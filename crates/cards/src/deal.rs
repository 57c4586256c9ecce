//! Verifiable deals (`docs/record.md`, "Deal verification"): the commitment a table sends every
//! seat before a hand is dealt, which the record's revealed seed must match afterwards.
//!
//! The commitment of hand `hand` (counted from 0 in the match) of table `table` dealt from `seed`
//! is the SHA-256 digest of these bytes, in this order, nothing between them:
//! 1. the 9 ASCII bytes `yezi-deal`;
//! 2. `seed` as 8 bytes, little-endian;
//! 3. `hand` as 4 bytes, little-endian;
//! 4. the table's id as UTF-8 (all the remaining bytes: its length is what is left).
//!
//! It is written as 64 lowercase hexadecimal digits. The deck itself follows from the seed by
//! each engine's documented shuffle (`madiao::deck_from_seed`, `dabaifen::deck_from_seed`).

use sha2::{Digest, Sha256};

/// The bytes a commitment begins with, before the seed.
pub const TAG: &[u8; 9] = b"yezi-deal";

/// The bytes the commitment hashes (see the module documentation).
pub fn commitment_input(seed: u64, hand: u32, table: &str) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(TAG.len() + 12 + table.len());
    bytes.extend_from_slice(TAG);
    bytes.extend_from_slice(&seed.to_le_bytes());
    bytes.extend_from_slice(&hand.to_le_bytes());
    bytes.extend_from_slice(table.as_bytes());
    bytes
}

/// The commitment to hand `hand` of table `table` dealt from `seed`: SHA-256 of
/// [`commitment_input`], as 64 lowercase hexadecimal digits.
pub fn commitment(seed: u64, hand: u32, table: &str) -> String {
    let digest = Sha256::digest(commitment_input(seed, hand, table));
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes a simulation's match seed hashes begin with (see [`sim_match_seed`]).
pub const SIM_TAG: &[u8; 8] = b"yezi-sim";

/// The seed match `m` (from 0) of a simulation run with seed `seed` deals its hands from
/// (`docs/record.md`, "Deal verification"): the run's seed itself for the first match, and for a
/// later one the first 8 bytes, read little-endian, of SHA-256 of the 8 ASCII bytes `yezi-sim`,
/// `seed` as 8 bytes little-endian and `m` as 4 bytes little-endian. Hand k of the match is then
/// hand k of that seed, as at a server's table, so each match's record verifies on its own.
pub fn sim_match_seed(seed: u64, m: u32) -> u64 {
    if m == 0 {
        return seed;
    }
    let mut bytes = Vec::with_capacity(SIM_TAG.len() + 12);
    bytes.extend_from_slice(SIM_TAG);
    bytes.extend_from_slice(&seed.to_le_bytes());
    bytes.extend_from_slice(&m.to_le_bytes());
    let digest = Sha256::digest(&bytes);
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(first)
}

/// The table id a simulation's record of match `m` (from 0) of the run with seed `seed` names,
/// which its commitments cover: `sim-SEED-N` with N = m + 1, the match's number as the record
/// files count it (`-m001`, `-m002`, …).
pub fn sim_table_id(seed: u64, m: u32) -> String {
    format!("sim-{seed}-{}", u64::from(m) + 1)
}

/// True when `text` has a commitment's form: 64 lowercase hexadecimal digits.
pub fn is_commitment(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_input_is_tag_seed_hand_table() {
        let b = commitment_input(0x0102_0304_0506_0708, 3, "t-ab");
        assert_eq!(&b[..9], b"yezi-deal");
        assert_eq!(&b[9..17], &[8, 7, 6, 5, 4, 3, 2, 1]);
        assert_eq!(&b[17..21], &[3, 0, 0, 0]);
        assert_eq!(&b[21..], b"t-ab");
    }

    #[test]
    fn a_sim_match_seed_is_the_run_seed_first_then_a_hash() {
        assert_eq!(sim_match_seed(7, 0), 7);
        let s1 = sim_match_seed(7, 1);
        let mut b = b"yezi-sim".to_vec();
        b.extend_from_slice(&7u64.to_le_bytes());
        b.extend_from_slice(&1u32.to_le_bytes());
        let d = Sha256::digest(&b);
        assert_eq!(s1, u64::from_le_bytes(d[..8].try_into().unwrap()));
        assert_ne!(s1, sim_match_seed(7, 2));
        assert_ne!(s1, sim_match_seed(8, 1));
        assert_eq!(sim_table_id(7, 0), "sim-7-1");
    }

    #[test]
    fn commitments_differ_by_seed_hand_and_table() {
        let c = commitment(42, 0, "t-1");
        assert!(is_commitment(&c), "{c}");
        assert_ne!(c, commitment(43, 0, "t-1"));
        assert_ne!(c, commitment(42, 1, "t-1"));
        assert_ne!(c, commitment(42, 0, "t-2"));
        assert_eq!(c, commitment(42, 0, "t-1"));
        // SHA-256 of the empty table's input is that of 21 known bytes (checked by hand against
        // the digest of "abc" as a sanity check of the hash itself).
        let abc: String = Sha256::digest(b"abc").iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(abc, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert!(!is_commitment(&c.to_uppercase()));
        assert!(!is_commitment(&c[1..]));
    }
}
