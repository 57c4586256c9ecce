//! Amounts that may be whole or end in one half, kept exactly.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An amount counted in halves: `Halves(3)` is 1½. Written in JSON as a plain number (`2`, `-1.5`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Halves(pub i32);

impl Halves {
    /// Nothing.
    pub const ZERO: Halves = Halves(0);

    /// A whole amount.
    #[inline]
    pub const fn whole(n: i32) -> Halves {
        Halves(2 * n)
    }

    /// The amount as a floating-point number.
    pub fn to_f64(self) -> f64 {
        f64::from(self.0) / 2.0
    }

    /// The amount from a number, if it is a whole number or ends in exactly one half.
    pub fn from_f64(x: f64) -> Option<Halves> {
        let h = x * 2.0;
        if h.is_finite() && h.fract() == 0.0 && h.abs() <= f64::from(i32::MAX) {
            Some(Halves(h as i32))
        } else {
            None
        }
    }
}

impl fmt::Display for Halves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 {
            "-"
        } else if f.sign_plus() {
            "+"
        } else {
            ""
        };
        let a = self.0.unsigned_abs();
        if a.is_multiple_of(2) { write!(f, "{sign}{}", a / 2) } else { write!(f, "{sign}{}.5", a / 2) }
    }
}

impl Serialize for Halves {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0 % 2 == 0 { s.serialize_i64(i64::from(self.0 / 2)) } else { s.serialize_f64(self.to_f64()) }
    }
}

impl<'de> Deserialize<'de> for Halves {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Halves, D::Error> {
        let x = f64::deserialize(d)?;
        Halves::from_f64(x)
            .ok_or_else(|| serde::de::Error::custom(format!("{x} is not a whole number or a half")))
    }
}

impl Add for Halves {
    type Output = Halves;
    #[inline]
    fn add(self, o: Halves) -> Halves {
        Halves(self.0 + o.0)
    }
}
impl AddAssign for Halves {
    #[inline]
    fn add_assign(&mut self, o: Halves) {
        self.0 += o.0
    }
}
impl Sub for Halves {
    type Output = Halves;
    #[inline]
    fn sub(self, o: Halves) -> Halves {
        Halves(self.0 - o.0)
    }
}
impl SubAssign for Halves {
    #[inline]
    fn sub_assign(&mut self, o: Halves) {
        self.0 -= o.0
    }
}
impl Neg for Halves {
    type Output = Halves;
    #[inline]
    fn neg(self) -> Halves {
        Halves(-self.0)
    }
}
impl Mul<i32> for Halves {
    type Output = Halves;
    #[inline]
    fn mul(self, k: i32) -> Halves {
        Halves(self.0 * k)
    }
}
impl Sum for Halves {
    fn sum<I: Iterator<Item = Halves>>(it: I) -> Halves {
        Halves(it.map(|h| h.0).sum())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trip_and_display() {
        let v = [Halves(-3), Halves(4), Halves(0), Halves(1)];
        let s = serde_json::to_string(&v).unwrap();
        assert_eq!(s, "[-1.5,2,0,0.5]");
        assert_eq!(serde_json::from_str::<[Halves; 4]>(&s).unwrap(), v);
        assert_eq!(serde_json::from_str::<Halves>("2.0").unwrap(), Halves(4));
        assert!(serde_json::from_str::<Halves>("0.25").is_err());
        assert!(serde_json::from_str::<Halves>("\"1\"").is_err());
        assert_eq!(format!("{} {:+} {:+}", Halves(-3), Halves(2), Halves(-1)), "-1.5 +1 -0.5");
    }
}
