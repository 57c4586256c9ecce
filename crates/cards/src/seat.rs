//! Seats around a four-player table and per-seat values.

use std::fmt;
use std::ops::{Index, IndexMut};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One of the four places at the table, numbered 0–3 in play order: seat `s + 1 (mod 4)` plays
/// after seat `s` (play runs counter-clockwise in both games, so `s + 1` sits on `s`'s right).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seat(u8);

impl Seat {
    /// The four seats in play order.
    pub const ALL: [Seat; 4] = [Seat(0), Seat(1), Seat(2), Seat(3)];

    /// The seat with this number, if it is 0–3.
    #[inline]
    pub const fn new(n: u8) -> Option<Seat> {
        if n < 4 { Some(Seat(n)) } else { None }
    }

    /// The seat `n mod 4`.
    #[inline]
    pub const fn wrapping(n: usize) -> Seat {
        Seat((n % 4) as u8)
    }

    /// The seat's number, 0–3.
    #[inline]
    pub const fn number(self) -> u8 {
        self.0
    }

    /// The seat's number as an index, 0–3.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The seat that plays after this one (on its right).
    #[inline]
    pub const fn next(self) -> Seat {
        Seat((self.0 + 1) & 3)
    }

    /// The seat that plays before this one (on its left).
    #[inline]
    pub const fn prev(self) -> Seat {
        Seat((self.0 + 3) & 3)
    }

    /// The seat `k` places after this one in play order.
    #[inline]
    pub const fn offset(self, k: u8) -> Seat {
        Seat((self.0 + (k & 3)) & 3)
    }

    /// How many places after `from` this seat plays (0–3).
    #[inline]
    pub const fn distance_from(self, from: Seat) -> u8 {
        (self.0 + 4 - from.0) & 3
    }

    /// The seat opposite (the partner in a partnership game).
    #[inline]
    pub const fn opposite(self) -> Seat {
        Seat((self.0 + 2) & 3)
    }

    /// The partnership this seat belongs to: 0 for seats 0 and 2, 1 for seats 1 and 3.
    #[inline]
    pub const fn team(self) -> u8 {
        self.0 & 1
    }

    /// The four seats in play order starting from this one.
    #[inline]
    pub fn from_here(self) -> [Seat; 4] {
        [self, self.offset(1), self.offset(2), self.offset(3)]
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

impl Serialize for Seat {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.0)
    }
}

impl<'de> Deserialize<'de> for Seat {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Seat, D::Error> {
        let n = i64::deserialize(d)?;
        u8::try_from(n)
            .ok()
            .and_then(Seat::new)
            .ok_or_else(|| serde::de::Error::custom(format!("seat must be 0, 1, 2 or 3, not {n}")))
    }
}

/// One value for each of the four seats, indexed by [`Seat`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BySeat<T>(pub [T; 4]);

impl<T> BySeat<T> {
    /// Values computed from each seat.
    #[inline]
    pub fn from_fn(mut f: impl FnMut(Seat) -> T) -> Self {
        BySeat([f(Seat(0)), f(Seat(1)), f(Seat(2)), f(Seat(3))])
    }

    /// Each seat with its value, in seat order.
    pub fn iter(&self) -> impl Iterator<Item = (Seat, &T)> {
        Seat::ALL.into_iter().zip(self.0.iter())
    }

    /// Each seat with its mutable value, in seat order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (Seat, &mut T)> {
        Seat::ALL.into_iter().zip(self.0.iter_mut())
    }

    /// The values transformed one by one.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> BySeat<U> {
        BySeat(self.0.map(f))
    }

    /// The values as a plain array in seat order.
    #[inline]
    pub fn as_array(&self) -> &[T; 4] {
        &self.0
    }
}

impl<T> Index<Seat> for BySeat<T> {
    type Output = T;
    #[inline]
    fn index(&self, s: Seat) -> &T {
        // A `Seat` is always 0–3, so this never goes out of bounds.
        &self.0[s.index()]
    }
}

impl<T> IndexMut<Seat> for BySeat<T> {
    #[inline]
    fn index_mut(&mut self, s: Seat) -> &mut T {
        &mut self.0[s.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_arithmetic_wraps_in_play_order() {
        let s = Seat::new(3).unwrap();
        assert_eq!(s.next(), Seat::new(0).unwrap());
        assert_eq!(s.prev(), Seat::new(2).unwrap());
        assert_eq!(s.offset(3), Seat::new(2).unwrap());
        assert_eq!(s.opposite(), Seat::new(1).unwrap());
        assert_eq!(s.team(), 1);
        assert_eq!(Seat::new(0).unwrap().distance_from(s), 1);
        assert_eq!(s.from_here().map(Seat::number), [3, 0, 1, 2]);
        assert!(Seat::new(4).is_none());
    }

    #[test]
    fn seat_serde_rejects_out_of_range() {
        assert_eq!(serde_json::from_str::<Seat>("2").unwrap(), Seat::new(2).unwrap());
        let e = serde_json::from_str::<Seat>("4").unwrap_err().to_string();
        assert!(e.contains("seat must be 0, 1, 2 or 3, not 4"), "{e}");
        assert!(serde_json::from_str::<Seat>("-1").is_err());
        assert!(serde_json::from_str::<Seat>("\"1\"").is_err());
    }

    #[test]
    fn by_seat_indexes_and_maps() {
        let mut b = BySeat::from_fn(|s| s.number() as i32 * 10);
        b[Seat::new(1).unwrap()] += 1;
        assert_eq!(b.0, [0, 11, 20, 30]);
        assert_eq!(b.map(|x| x * 2).0, [0, 22, 40, 60]);
        assert_eq!(serde_json::to_string(&b).unwrap(), "[0,11,20,30]");
    }
}

/// Who a view of a hand is for: the person (or bot) in a seat, who sees his own cards, or
/// someone watching, who sees only what every seat sees (and, once the hand is over, what the
/// rules reveal to everyone).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// The person (or bot) in a seat.
    Seat(Seat),
    /// Someone watching: only what is public.
    Spectator,
}
