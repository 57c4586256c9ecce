//! §2 The stake: the limits agreed for a match, the banker's choice within them for each hand,
//! and the bots' policy for that choice (`docs/rules/madiao.md` §2).
//!
//! A stake is a number of chips per stake; payoffs stay in stakes, and a match's ledger in chips
//! is each hand's payoffs times that hand's stake.

use std::fmt;

/// The largest stake a match may allow.
pub const MAX_STAKE: u32 = 1000;

/// The lowest and highest stake agreed for a match (§2): both even, the lowest at least 2, the
/// lowest not above the highest, neither above [`MAX_STAKE`]. Equal limits mean a fixed stake.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct StakeLimits {
    low: u32,
    high: u32,
}

/// Why limits or a stake are not allowed (§2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StakeError {
    /// A limit that is odd, below 2 or above [`MAX_STAKE`].
    #[error("stake must be an even number of chips from 2 to {MAX_STAKE}, not {0}")]
    BadLimit(u32),
    /// The lowest limit above the highest.
    #[error("the lowest stake ({low}) is above the highest ({high})")]
    Reversed {
        /// The lowest limit asked for.
        low: u32,
        /// The highest limit asked for.
        high: u32,
    },
    /// A stake that is odd.
    #[error("the stake must be an even number of chips, not {0}")]
    Odd(u32),
    /// A stake outside the limits.
    #[error("the stake must be from {low} to {high} chips, not {stake}")]
    OutOfRange {
        /// The stake asked for.
        stake: u32,
        /// The lowest limit.
        low: u32,
        /// The highest limit.
        high: u32,
    },
}

impl StakeLimits {
    /// Limits from `low` to `high` chips, checked.
    pub fn new(low: u32, high: u32) -> Result<StakeLimits, StakeError> {
        for x in [low, high] {
            if x < 2 || !x.is_multiple_of(2) || x > MAX_STAKE {
                return Err(StakeError::BadLimit(x));
            }
        }
        if low > high {
            return Err(StakeError::Reversed { low, high });
        }
        Ok(StakeLimits { low, high })
    }

    /// A fixed stake (equal limits).
    pub fn fixed(stake: u32) -> Result<StakeLimits, StakeError> {
        StakeLimits::new(stake, stake)
    }

    /// The lowest stake: the stake of a hand whose banker did not choose in time.
    pub fn low(self) -> u32 {
        self.low
    }

    /// The highest stake.
    pub fn high(self) -> u32 {
        self.high
    }

    /// True when the limits are equal: the stake is fixed and the banker is not asked.
    pub fn is_fixed(self) -> bool {
        self.low == self.high
    }

    /// The banker's choice checked: an even number of chips within the limits.
    pub fn check(self, stake: u32) -> Result<u32, StakeError> {
        if !stake.is_multiple_of(2) {
            return Err(StakeError::Odd(stake));
        }
        if stake < self.low || stake > self.high {
            return Err(StakeError::OutOfRange { stake, low: self.low, high: self.high });
        }
        Ok(stake)
    }

    /// Every stake the banker may choose, lowest first.
    pub fn choices(self) -> impl Iterator<Item = u32> {
        (self.low..=self.high).step_by(2)
    }

    /// The bots' choice, by the banker's standing in the match: `chips` is the banker's running
    /// total in chips before the hand. A bot that is behind (a negative total) names the
    /// highest stake, to catch up; one that is ahead names the lowest, to keep its lead; one
    /// that is level names the middle stake (the even stake halfway, rounded down).
    pub fn bot_choice(self, chips: f64) -> u32 {
        if chips < 0.0 {
            self.high
        } else if chips > 0.0 {
            self.low
        } else {
            self.low + ((self.high - self.low) / 4) * 2
        }
    }
}

impl fmt::Display for StakeLimits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_fixed() { write!(f, "{}", self.low) } else { write!(f, "{}–{}", self.low, self.high) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_even_at_least_two_and_in_order() {
        assert_eq!(StakeLimits::new(3, 8), Err(StakeError::BadLimit(3)));
        assert_eq!(StakeLimits::new(2, 9), Err(StakeError::BadLimit(9)));
        assert_eq!(StakeLimits::new(0, 4), Err(StakeError::BadLimit(0)));
        assert_eq!(StakeLimits::new(2, MAX_STAKE + 2), Err(StakeError::BadLimit(MAX_STAKE + 2)));
        assert_eq!(StakeLimits::new(8, 4), Err(StakeError::Reversed { low: 8, high: 4 }));
        let l = StakeLimits::new(2, 8).unwrap();
        assert!(!l.is_fixed());
        assert_eq!(l.choices().collect::<Vec<_>>(), [2, 4, 6, 8]);
        let f = StakeLimits::fixed(6).unwrap();
        assert!(f.is_fixed());
        assert_eq!(f.choices().collect::<Vec<_>>(), [6]);
        assert_eq!(f.to_string(), "6");
        assert_eq!(l.to_string(), "2–8");
    }

    #[test]
    fn a_stake_is_even_and_within_the_limits() {
        let l = StakeLimits::new(4, 10).unwrap();
        assert_eq!(l.check(5), Err(StakeError::Odd(5)));
        assert_eq!(l.check(2), Err(StakeError::OutOfRange { stake: 2, low: 4, high: 10 }));
        assert_eq!(l.check(12), Err(StakeError::OutOfRange { stake: 12, low: 4, high: 10 }));
        assert_eq!(l.check(4), Ok(4));
        assert_eq!(l.check(10), Ok(10));
        assert_eq!(l.check(12).unwrap_err().to_string(), "the stake must be from 4 to 10 chips, not 12");
    }

    #[test]
    fn bots_choose_by_their_standing() {
        let l = StakeLimits::new(2, 10).unwrap();
        assert_eq!(l.bot_choice(-4.0), 10);
        assert_eq!(l.bot_choice(6.0), 2);
        assert_eq!(l.bot_choice(0.0), 6);
        let l = StakeLimits::new(2, 8).unwrap();
        assert_eq!(l.bot_choice(0.0), 4, "halfway between 2 and 8 is 5: rounded down to an even 4");
        for c in [-1.0, 0.0, 1.0] {
            assert!(l.check(l.bot_choice(c)).is_ok());
        }
    }
}
