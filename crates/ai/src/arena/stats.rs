//! The statistics of a duplicate comparison: the mean difference with its 95% confidence interval
//! (Student's t), the win rate (ties count half) and an Elo estimate derived from it.
//!
//! Observations are summed in the order given (deal order in the arena), so a summary is the same
//! bit for bit whatever the number of threads that produced them.

use serde::Serialize;

/// The two-sided 95% quantile of Student's t distribution with `df` degrees of freedom (the
/// normal quantile 1.959964 as `df` grows). Exact to the printed digits of the usual tables for
/// `df ≤ 30`; above, the Cornish–Fisher expansion, within 1e-4.
pub fn t975(df: u64) -> f64 {
    const TABLE: [f64; 30] = [
        12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157, 2.228139,
        2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905, 2.109816, 2.100922, 2.093024, 2.085963,
        2.079614, 2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831, 2.048407, 2.045230, 2.042272,
    ];
    const Z: f64 = 1.959_963_984_540_054;
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[(df - 1) as usize],
        _ => {
            let d = df as f64;
            let z3 = Z * Z * Z;
            let z5 = z3 * Z * Z;
            let z7 = z5 * Z * Z;
            Z + (z3 + Z) / (4.0 * d)
                + (5.0 * z5 + 16.0 * z3 + 3.0 * Z) / (96.0 * d * d)
                + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * Z) / (384.0 * d * d * d)
        }
    }
}

/// The Elo difference that corresponds to an expected score `p` (0 < p < 1):
/// `400 · log10(p / (1 − p))`. Scores of 0 and 1 give ∓∞.
pub fn elo_from_score(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        400.0 * (p / (1.0 - p)).log10()
    }
}

/// A mean with its 95% confidence interval.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// The sample mean.
    pub mean: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

/// Everything reported about one series of paired differences (one measure, one role).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Number of observations.
    pub n: u64,
    /// The mean difference (candidate − baseline) and its 95% interval (Student's t).
    pub diff: Interval,
    /// The sample standard deviation of the differences.
    pub sd: f64,
    /// The standard error of the mean.
    pub se: f64,
    /// Observations above zero (the candidate did better).
    pub wins: u64,
    /// Observations equal to zero.
    pub ties: u64,
    /// Observations below zero.
    pub losses: u64,
    /// `(wins + ties / 2) / n` and its 95% interval (normal approximation on the per-observation
    /// scores 1, ½, 0).
    pub win_rate: Interval,
    /// The Elo difference of the win rate, `400 · log10(w / (1 − w))`, with the interval mapped
    /// from the win rate's (infinite at a rate of 0 or 1; written `null` in JSON).
    pub elo: Interval,
    /// True when the interval of the mean difference lies wholly above zero.
    pub significant_gain: bool,
}

/// Running sums of a series, in the order observations arrive.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Accumulator {
    n: u64,
    mean: f64,
    m2: f64,
    wins: u64,
    ties: u64,
    losses: u64,
}

impl Accumulator {
    /// An empty series.
    pub fn new() -> Accumulator {
        Accumulator::default()
    }

    /// Adds one observation (Welford's update: stable for long series).
    pub fn push(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
        if x > 0.0 {
            self.wins += 1;
        } else if x < 0.0 {
            self.losses += 1;
        } else {
            self.ties += 1;
        }
    }

    /// Number of observations so far.
    pub fn n(&self) -> u64 {
        self.n
    }

    /// The mean and its 95% interval so far (an infinite interval below two observations).
    pub fn interval(&self) -> Interval {
        let h = self.half_width();
        Interval { mean: self.mean, low: self.mean - h, high: self.mean + h }
    }

    fn sd(&self) -> f64 {
        if self.n < 2 { 0.0 } else { (self.m2 / (self.n - 1) as f64).max(0.0).sqrt() }
    }

    fn half_width(&self) -> f64 {
        if self.n < 2 { f64::INFINITY } else { t975(self.n - 1) * self.sd() / (self.n as f64).sqrt() }
    }

    /// The summary of the series so far.
    pub fn summary(&self) -> Summary {
        let n = self.n;
        let nf = n.max(1) as f64;
        let sd = self.sd();
        let se = if n == 0 { f64::INFINITY } else { sd / nf.sqrt() };
        let score = (self.wins as f64 + self.ties as f64 / 2.0) / nf;
        // Variance of the per-observation scores (1, ½, 0) about their mean, unbiased.
        let sum_sq = self.wins as f64 + self.ties as f64 / 4.0;
        let var = if n < 2 { 0.0 } else { ((sum_sq - nf * score * score) / (nf - 1.0)).max(0.0) };
        let hw = if n < 2 { f64::INFINITY } else { t975(n - 1) * (var / nf).sqrt() };
        let win_rate =
            Interval { mean: score, low: (score - hw).clamp(0.0, 1.0), high: (score + hw).clamp(0.0, 1.0) };
        let elo = Interval {
            mean: elo_from_score(score),
            low: elo_from_score(win_rate.low),
            high: elo_from_score(win_rate.high),
        };
        let diff = self.interval();
        Summary {
            n,
            diff,
            sd,
            se,
            wins: self.wins,
            ties: self.ties,
            losses: self.losses,
            win_rate,
            elo,
            significant_gain: n >= 2 && diff.low > 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn t_quantiles_match_the_tables() {
        assert!(close(t975(1), 12.7062, 1e-4));
        assert!(close(t975(10), 2.2281, 1e-4));
        assert!(close(t975(30), 2.0423, 1e-4));
        // Published values for larger samples.
        assert!(close(t975(40), 2.0211, 1e-4));
        assert!(close(t975(60), 2.0003, 1e-4));
        assert!(close(t975(120), 1.9799, 1e-4));
        assert!(close(t975(1000), 1.9623, 1e-4));
        assert!(close(t975(1_000_000), 1.95996, 1e-5));
        assert!(t975(0).is_infinite());
    }

    #[test]
    fn mean_sd_and_interval_of_a_small_sample() {
        // 1, 2, 3, 4: mean 2.5, sd √(5/3) = 1.290994, se 0.645497, t(3) = 3.182446: ± 2.054260.
        let mut a = Accumulator::new();
        for x in [1.0, 2.0, 3.0, 4.0] {
            a.push(x);
        }
        let s = a.summary();
        assert_eq!(s.n, 4);
        assert!(close(s.diff.mean, 2.5, 1e-12));
        assert!(close(s.sd, 1.290_994_4, 1e-6));
        assert!(close(s.se, 0.645_497_2, 1e-6));
        assert!(close(s.diff.low, 2.5 - 2.054_260, 1e-5));
        assert!(close(s.diff.high, 2.5 + 2.054_260, 1e-5));
        assert!(s.significant_gain);
        assert_eq!((s.wins, s.ties, s.losses), (4, 0, 0));
        assert_eq!(s.win_rate.mean, 1.0);
        assert!(s.elo.mean.is_infinite());
    }

    #[test]
    fn win_rate_counts_ties_half_and_elo_follows_the_logistic_formula() {
        // 6 wins, 2 ties, 2 losses: score (6 + 1) / 10 = 0.7.
        let mut a = Accumulator::new();
        for x in [1.0, 2.0, 0.5, 3.0, 1.0, 1.0, 0.0, 0.0, -1.0, -2.0] {
            a.push(x);
        }
        let s = a.summary();
        assert_eq!((s.wins, s.ties, s.losses), (6, 2, 2));
        assert!(close(s.win_rate.mean, 0.7, 1e-12));
        // Elo of 0.7: 400 log10(7/3) = 147.19.
        assert!(close(s.elo.mean, 147.19, 0.01));
        // Scores 1×6, ½×2, 0×2: variance (6 + 0.5 − 10·0.49) / 9 = 0.177…; se = 0.1333.
        let hw = t975(9) * (((6.0 + 0.5 - 10.0 * 0.49) / 9.0) / 10.0f64).sqrt();
        assert!(close(s.win_rate.low, 0.7 - hw, 1e-12));
        assert!(close(s.elo.low, elo_from_score(0.7 - hw), 1e-9));
        assert!(!s.significant_gain || s.diff.low > 0.0);
    }

    #[test]
    fn elo_known_values() {
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        assert!(close(elo_from_score(0.75), 190.848_501_9, 1e-6));
        assert!(close(elo_from_score(0.25), -190.848_501_9, 1e-6));
        assert!(close(elo_from_score(10.0 / 11.0), 400.0, 1e-9));
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn a_zero_mean_series_is_not_a_gain_and_order_does_not_matter_beyond_rounding() {
        let xs: Vec<f64> = (0..1000).map(|i| ((i * 7919) % 13) as f64 - 6.0).collect();
        let mut a = Accumulator::new();
        xs.iter().for_each(|&x| a.push(x));
        let s = a.summary();
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        assert!(close(s.diff.mean, mean, 1e-12));
        assert!(s.diff.low < mean && s.diff.high > mean);
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / 999.0;
        assert!(close(s.sd, var.sqrt(), 1e-9));
    }
}
