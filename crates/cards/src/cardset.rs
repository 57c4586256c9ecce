//! Sets of cards as 64-bit masks.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub, SubAssign};

/// A card of some game, identified by a number below 64.
///
/// Each game numbers its own cards; a [`CardSet`] of that game's cards is one `u64`.
pub trait Card: Copy + Eq {
    /// How many distinct cards the game has (at most 64).
    const COUNT: u8;
    /// The card's number, below [`Card::COUNT`].
    fn index(self) -> u8;
    /// The card with this number. Only called with numbers below [`Card::COUNT`].
    fn from_index(index: u8) -> Self;
}

/// A set of cards of one game.
pub struct CardSet<C> {
    bits: u64,
    _card: PhantomData<fn() -> C>,
}

impl<C> Clone for CardSet<C> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}
impl<C> Copy for CardSet<C> {}
impl<C> PartialEq for CardSet<C> {
    #[inline]
    fn eq(&self, o: &Self) -> bool {
        self.bits == o.bits
    }
}
impl<C> Eq for CardSet<C> {}
impl<C> Hash for CardSet<C> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.bits.hash(h)
    }
}
impl<C> Default for CardSet<C> {
    #[inline]
    fn default() -> Self {
        Self::EMPTY
    }
}
impl<C> PartialOrd for CardSet<C> {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl<C> Ord for CardSet<C> {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.bits.cmp(&o.bits)
    }
}

impl<C> CardSet<C> {
    /// The empty set.
    pub const EMPTY: Self = CardSet { bits: 0, _card: PhantomData };

    /// The set whose members are the set bits of `bits`.
    #[inline]
    pub const fn from_bits(bits: u64) -> Self {
        CardSet { bits, _card: PhantomData }
    }

    /// The set as a mask: bit `i` is set when card number `i` is a member.
    #[inline]
    pub const fn bits(self) -> u64 {
        self.bits
    }

    /// Number of cards in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        self.bits.count_ones()
    }

    /// True when the set has no cards.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.bits == 0
    }

    /// True when every card of `self` is in `other`.
    #[inline]
    pub const fn is_subset(self, other: Self) -> bool {
        self.bits & !other.bits == 0
    }

    /// True when the two sets share a card.
    #[inline]
    pub const fn intersects(self, other: Self) -> bool {
        self.bits & other.bits != 0
    }
}

impl<C: Card> CardSet<C> {
    /// The set of all the game's cards.
    #[inline]
    pub fn full() -> Self {
        Self::from_bits(if C::COUNT >= 64 { u64::MAX } else { (1u64 << C::COUNT) - 1 })
    }

    /// The set with only `card`.
    #[inline]
    pub fn single(card: C) -> Self {
        Self::from_bits(1u64 << card.index())
    }

    /// True when `card` is in the set.
    #[inline]
    pub fn contains(self, card: C) -> bool {
        self.bits >> card.index() & 1 != 0
    }

    /// Adds `card`; returns whether it was new.
    #[inline]
    pub fn insert(&mut self, card: C) -> bool {
        let m = 1u64 << card.index();
        let new = self.bits & m == 0;
        self.bits |= m;
        new
    }

    /// Removes `card`; returns whether it was there.
    #[inline]
    pub fn remove(&mut self, card: C) -> bool {
        let m = 1u64 << card.index();
        let had = self.bits & m != 0;
        self.bits &= !m;
        had
    }

    /// The member with the lowest number.
    #[inline]
    pub fn first(self) -> Option<C> {
        if self.bits == 0 { None } else { Some(C::from_index(self.bits.trailing_zeros() as u8)) }
    }

    /// The member with the highest number.
    #[inline]
    pub fn last(self) -> Option<C> {
        if self.bits == 0 { None } else { Some(C::from_index(63 - self.bits.leading_zeros() as u8)) }
    }

    /// The `k`-th member counting from the lowest number (0-based).
    #[inline]
    pub fn nth(self, k: u32) -> Option<C> {
        let mut b = self.bits;
        for _ in 0..k {
            if b == 0 {
                return None;
            }
            b &= b - 1;
        }
        if b == 0 { None } else { Some(C::from_index(b.trailing_zeros() as u8)) }
    }

    /// The members in increasing order of number.
    #[inline]
    pub fn iter(self) -> Iter<C> {
        Iter { bits: self.bits, _card: PhantomData }
    }
}

/// The members of a [`CardSet`], lowest number first.
pub struct Iter<C> {
    bits: u64,
    _card: PhantomData<fn() -> C>,
}

impl<C: Card> Iterator for Iter<C> {
    type Item = C;
    #[inline]
    fn next(&mut self) -> Option<C> {
        if self.bits == 0 {
            return None;
        }
        let i = self.bits.trailing_zeros() as u8;
        self.bits &= self.bits - 1;
        Some(C::from_index(i))
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.bits.count_ones() as usize;
        (n, Some(n))
    }
}

impl<C: Card> ExactSizeIterator for Iter<C> {}

impl<C: Card> DoubleEndedIterator for Iter<C> {
    #[inline]
    fn next_back(&mut self) -> Option<C> {
        if self.bits == 0 {
            return None;
        }
        let i = 63 - self.bits.leading_zeros() as u8;
        self.bits &= !(1u64 << i);
        Some(C::from_index(i))
    }
}

impl<C: Card> IntoIterator for CardSet<C> {
    type Item = C;
    type IntoIter = Iter<C>;
    fn into_iter(self) -> Iter<C> {
        self.iter()
    }
}

impl<C: Card> FromIterator<C> for CardSet<C> {
    fn from_iter<I: IntoIterator<Item = C>>(it: I) -> Self {
        let mut s = Self::EMPTY;
        for c in it {
            s.insert(c);
        }
        s
    }
}

impl<C: Card> Extend<C> for CardSet<C> {
    fn extend<I: IntoIterator<Item = C>>(&mut self, it: I) {
        for c in it {
            self.insert(c);
        }
    }
}

impl<C> BitOr for CardSet<C> {
    type Output = Self;
    #[inline]
    fn bitor(self, o: Self) -> Self {
        Self::from_bits(self.bits | o.bits)
    }
}
impl<C> BitOrAssign for CardSet<C> {
    #[inline]
    fn bitor_assign(&mut self, o: Self) {
        self.bits |= o.bits
    }
}
impl<C> BitAnd for CardSet<C> {
    type Output = Self;
    #[inline]
    fn bitand(self, o: Self) -> Self {
        Self::from_bits(self.bits & o.bits)
    }
}
impl<C> BitAndAssign for CardSet<C> {
    #[inline]
    fn bitand_assign(&mut self, o: Self) {
        self.bits &= o.bits
    }
}
/// Set difference: the cards of the left side that are not in the right side.
impl<C> Sub for CardSet<C> {
    type Output = Self;
    #[inline]
    fn sub(self, o: Self) -> Self {
        Self::from_bits(self.bits & !o.bits)
    }
}
impl<C> SubAssign for CardSet<C> {
    #[inline]
    fn sub_assign(&mut self, o: Self) {
        self.bits &= !o.bits
    }
}
/// Complement within the game's cards.
impl<C: Card> Not for CardSet<C> {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        Self::full() - self
    }
}

impl<C: Card + fmt::Display> fmt::Display for CardSet<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl<C: Card + fmt::Display> fmt::Debug for CardSet<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{self}}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[derive(Copy, Clone, PartialEq, Eq, Debug)]
    struct C(u8);
    impl Card for C {
        const COUNT: u8 = 54;
        fn index(self) -> u8 {
            self.0
        }
        fn from_index(i: u8) -> C {
            C(i)
        }
    }
    impl fmt::Display for C {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "c{}", self.0)
        }
    }

    #[test]
    fn basic_set_operations() {
        let mut s = CardSet::<C>::EMPTY;
        assert!(s.insert(C(3)));
        assert!(!s.insert(C(3)));
        s.insert(C(53));
        s.insert(C(0));
        assert_eq!(s.len(), 3);
        assert_eq!(s.first(), Some(C(0)));
        assert_eq!(s.last(), Some(C(53)));
        assert_eq!(s.nth(1), Some(C(3)));
        assert_eq!(s.nth(3), None);
        assert_eq!(s.iter().rev().collect::<Vec<_>>(), vec![C(53), C(3), C(0)]);
        assert!(s.remove(C(3)));
        assert!(!s.contains(C(3)));
        assert_eq!(format!("{s:?}"), "{c0 c53}");
        assert_eq!((!s).len(), 52);
        assert_eq!(CardSet::<C>::full().len(), 54);
    }

    proptest! {
        #[test]
        fn iteration_matches_membership(bits in 0u64..(1 << 54)) {
            let s = CardSet::<C>::from_bits(bits);
            let v: Vec<C> = s.iter().collect();
            prop_assert_eq!(v.len() as u32, s.len());
            for w in v.windows(2) { prop_assert!(w[0].0 < w[1].0); }
            for i in 0..54u8 { prop_assert_eq!(s.contains(C(i)), v.contains(&C(i))); }
            prop_assert_eq!(v.iter().copied().collect::<CardSet<C>>(), s);
            for (k, c) in v.iter().enumerate() { prop_assert_eq!(s.nth(k as u32), Some(*c)); }
        }
    }
}
