//! Seeded randomness: the ChaCha8 stream cipher and our own shuffle.
//!
//! Everything random in yezi comes from an [`Rng`] made from a `u64` seed (and optionally a stream
//! number). The generator is ChaCha8 keyed by the seed's eight little-endian bytes followed by 24
//! zero bytes; the sampling and shuffling on top of it are defined here, not by a dependency, so a
//! seed gives the same decks and the same play forever (pinned by tests).

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng as _, SeedableRng};

/// A deterministic random number generator made from a seed.
#[derive(Clone, Debug)]
pub struct Rng(ChaCha8Rng);

impl Rng {
    /// The generator for `seed` (stream 0).
    pub fn from_seed(seed: u64) -> Rng {
        Rng::from_seed_stream(seed, 0)
    }

    /// The generator for `seed` on an independent numbered stream, e.g. one stream per hand or per
    /// bot so that adding a consumer never shifts the others' randomness.
    pub fn from_seed_stream(seed: u64, stream: u64) -> Rng {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        let mut r = ChaCha8Rng::from_seed(key);
        r.set_stream(stream);
        Rng(r)
    }

    /// A fresh generator seeded from this one's output (for handing to a sub-task).
    pub fn fork(&mut self) -> Rng {
        let seed = self.next_u64();
        Rng::from_seed(seed)
    }

    /// 32 uniformly random bits.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    /// 64 uniformly random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A uniformly random number in `0..n` (unbiased). `n` must be at least 1.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0, "below(0)");
        // Lemire's multiply-and-reject method.
        let mut m = u64::from(self.next_u32()) * u64::from(n);
        let mut low = m as u32;
        if low < n {
            let threshold = n.wrapping_neg() % n;
            while low < threshold {
                m = u64::from(self.next_u32()) * u64::from(n);
                low = m as u32;
            }
        }
        (m >> 32) as u32
    }

    /// A uniformly random index into a slice of length `len` (at least 1).
    #[inline]
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u32) as usize
    }

    /// A uniformly random number in `[0, 1)`.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability `p`.
    #[inline]
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// The position of a uniformly random set bit of `mask` (which must not be 0).
    #[inline]
    pub fn pick_bit(&mut self, mask: u64) -> u32 {
        debug_assert!(mask != 0);
        let k = self.below(mask.count_ones());
        let mut b = mask;
        for _ in 0..k {
            b &= b - 1;
        }
        b.trailing_zeros()
    }

    /// Shuffles a slice uniformly (Fisher–Yates, from the last position down).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let a: Vec<u64> = {
            let mut r = Rng::from_seed(7);
            (0..5).map(|_| r.next_u64()).collect()
        };
        let mut r = Rng::from_seed(7);
        let b: Vec<u64> = (0..5).map(|_| r.next_u64()).collect();
        assert_eq!(a, b);
        let mut other = Rng::from_seed_stream(7, 1);
        assert_ne!(other.next_u64(), a[0]);
    }

    /// A from-scratch ChaCha block function (D. J. Bernstein's original layout: 64-bit block
    /// counter, 64-bit stream number), for checking that `Rng` really is ChaCha8 keyed as documented.
    fn reference_chacha8_block(key: [u32; 8], counter: u64, stream: u64) -> [u32; 16] {
        fn qr(s: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
            s[a] = s[a].wrapping_add(s[b]);
            s[d] = (s[d] ^ s[a]).rotate_left(16);
            s[c] = s[c].wrapping_add(s[d]);
            s[b] = (s[b] ^ s[c]).rotate_left(12);
            s[a] = s[a].wrapping_add(s[b]);
            s[d] = (s[d] ^ s[a]).rotate_left(8);
            s[c] = s[c].wrapping_add(s[d]);
            s[b] = (s[b] ^ s[c]).rotate_left(7);
        }
        let mut init = [0u32; 16];
        init[..4].copy_from_slice(&[0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574]);
        init[4..12].copy_from_slice(&key);
        init[12] = counter as u32;
        init[13] = (counter >> 32) as u32;
        init[14] = stream as u32;
        init[15] = (stream >> 32) as u32;
        let mut s = init;
        for _ in 0..4 {
            qr(&mut s, 0, 4, 8, 12);
            qr(&mut s, 1, 5, 9, 13);
            qr(&mut s, 2, 6, 10, 14);
            qr(&mut s, 3, 7, 11, 15);
            qr(&mut s, 0, 5, 10, 15);
            qr(&mut s, 1, 6, 11, 12);
            qr(&mut s, 2, 7, 8, 13);
            qr(&mut s, 3, 4, 9, 14);
        }
        for i in 0..16 {
            s[i] = s[i].wrapping_add(init[i]);
        }
        s
    }

    #[test]
    fn rng_is_chacha8_keyed_by_the_seed() {
        for (seed, stream) in [(0u64, 0u64), (42, 0), (u64::MAX, 3), (20261121, 1 << 40)] {
            let key = [seed as u32, (seed >> 32) as u32, 0, 0, 0, 0, 0, 0];
            let mut r = Rng::from_seed_stream(seed, stream);
            for block in 0..3u64 {
                let want = reference_chacha8_block(key, block, stream);
                let got: Vec<u32> = (0..16).map(|_| r.next_u32()).collect();
                assert_eq!(got, want, "seed {seed} stream {stream} block {block}");
            }
        }
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut r = Rng::from_seed(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            let x = r.below(7);
            seen[x as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800 && n < 1200), "{seen:?}");
        for _ in 0..1000 {
            assert_eq!(r.below(1), 0);
        }
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut r = Rng::from_seed(3);
        let mut v: Vec<u32> = (0..54).collect();
        r.shuffle(&mut v);
        let mut s = v.clone();
        s.sort();
        assert_eq!(s, (0..54).collect::<Vec<_>>());
        assert_ne!(v, s);
    }

    #[test]
    fn pick_bit_picks_members() {
        let mut r = Rng::from_seed(9);
        let mask = 0b1010_0001u64 | 1 << 60;
        let mut hit = [false; 4];
        for _ in 0..200 {
            let b = r.pick_bit(mask);
            assert!(mask >> b & 1 == 1);
            hit[[0, 5, 7, 60].iter().position(|&x| x == b).unwrap()] = true;
        }
        assert!(hit.iter().all(|&h| h));
    }
}
