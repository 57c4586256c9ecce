//! The Glicko-2 rating system (Mark Glickman, "Example of the Glicko-2 system", 2013): a rating,
//! its deviation (how uncertain the rating is) and a volatility (how erratic the player's results
//! are), updated once per rating period from the games played in it. yezi's rating period is one
//! match (`docs/ratings.md`).

use serde::{Deserialize, Serialize};

use crate::RatingError;

/// The factor between the Glicko scale (ratings around 1500) and the Glicko-2 scale (around 0).
const SCALE: f64 = 173.7178;

/// A player's rating on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating: 1500 is a new player's.
    pub rating: f64,
    /// The rating deviation: about a third of the range the true strength lies in with 95%
    /// confidence.
    pub deviation: f64,
    /// The volatility: the expected fluctuation of the player's strength.
    pub volatility: f64,
}

impl Rating {
    /// A new player's rating under `config`.
    pub fn new(config: &Config) -> Rating {
        Rating { rating: 1500.0, deviation: config.max_deviation, volatility: config.volatility }
    }

    /// A checked rating: finite, with a positive deviation and volatility.
    pub fn checked(rating: f64, deviation: f64, volatility: f64) -> Result<Rating, RatingError> {
        let r = Rating { rating, deviation, volatility };
        r.check()?;
        Ok(r)
    }

    pub(crate) fn check(&self) -> Result<(), RatingError> {
        let ok = self.rating.is_finite()
            && self.deviation.is_finite()
            && self.deviation > 0.0
            && self.volatility.is_finite()
            && self.volatility > 0.0;
        if ok { Ok(()) } else { Err(RatingError::Invalid(*self)) }
    }

    fn mu(&self) -> f64 {
        (self.rating - 1500.0) / SCALE
    }

    fn phi(&self) -> f64 {
        self.deviation / SCALE
    }
}

/// The system's constants.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// τ: how much the volatility may change in one period (Glickman suggests 0.3 to 1.2).
    pub tau: f64,
    /// A new player's volatility.
    pub volatility: f64,
    /// A new player's deviation, and the largest any deviation may grow to.
    pub max_deviation: f64,
    /// The tolerance of the volatility's iteration.
    pub epsilon: f64,
}

impl Default for Config {
    /// yezi's constants: τ 0.5, a new player at 1500 ± 350 with volatility 0.06.
    fn default() -> Config {
        Config { tau: 0.5, volatility: 0.06, max_deviation: 350.0, epsilon: 1e-6 }
    }
}

/// One game of a rating period, from the rated player's side.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Game {
    /// The opponent's rating before the period.
    pub opponent: Rating,
    /// The rated player's score: 1 a win, 0.5 a draw, 0 a loss.
    pub score: f64,
}

/// The rating after a period in which the player played `games` (Glickman's steps 2 to 8). A
/// period without games only widens the deviation.
pub fn update(player: Rating, games: &[Game], config: &Config) -> Result<Rating, RatingError> {
    player.check()?;
    for game in games {
        game.opponent.check()?;
        if !(0.0..=1.0).contains(&game.score) {
            return Err(RatingError::Score(game.score));
        }
    }
    let (mu, phi, sigma) = (player.mu(), player.phi(), player.volatility);
    let cap = config.max_deviation / SCALE;
    if games.is_empty() {
        let phi = (phi * phi + sigma * sigma).sqrt().min(cap);
        return Ok(Rating { deviation: phi * SCALE, ..player });
    }
    // Step 3: the estimated variance of the rating from the games alone.
    // Step 4: the estimated improvement.
    let mut inv_v = 0.0;
    let mut sum = 0.0;
    for game in games {
        let g = g(game.opponent.phi());
        let e = expected(mu, game.opponent.mu(), g);
        inv_v += g * g * e * (1.0 - e);
        sum += g * (game.score - e);
    }
    let v = 1.0 / inv_v;
    let delta = v * sum;
    // Step 5: the new volatility.
    let sigma = volatility(phi, sigma, v, delta, config);
    // Steps 6 and 7: the new deviation and rating.
    let phi_star = (phi * phi + sigma * sigma).sqrt();
    let phi = (1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v)).sqrt().min(cap);
    let mu = mu + phi * phi * sum;
    // Step 8: back to the Glicko scale.
    let rating = Rating { rating: mu * SCALE + 1500.0, deviation: phi * SCALE, volatility: sigma };
    rating.check()?;
    Ok(rating)
}

/// How much a game against an opponent of deviation `phi` counts.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// The expected score of a player at `mu` against one at `mu_j`.
fn expected(mu: f64, mu_j: f64, g: f64) -> f64 {
    1.0 / (1.0 + (-g * (mu - mu_j)).exp())
}

/// Step 5: the new volatility, the root of Glickman's f by the Illinois algorithm.
fn volatility(phi: f64, sigma: f64, v: f64, delta: f64, config: &Config) -> f64 {
    let tau = config.tau;
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 && k < 1000.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let (mut fa, mut fb) = (f(big_a), f(big_b));
    let mut rounds = 0;
    while (big_b - big_a).abs() > config.epsilon && rounds < 200 {
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = c;
        fb = fc;
        rounds += 1;
    }
    (big_a / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    /// Glickman's worked example: a player at 1500 ± 200 (volatility 0.06, τ 0.5) beats a 1400 ± 30
    /// and loses to a 1550 ± 100 and a 1700 ± 300; the paper gives 1464.06 ± 151.52, volatility
    /// 0.05999.
    #[test]
    fn the_papers_worked_example() {
        let config = Config { tau: 0.5, ..Config::default() };
        let player = Rating::checked(1500.0, 200.0, 0.06).unwrap();
        let opp = |r, rd| Rating::checked(r, rd, 0.06).unwrap();
        let games = [
            Game { opponent: opp(1400.0, 30.0), score: 1.0 },
            Game { opponent: opp(1550.0, 100.0), score: 0.0 },
            Game { opponent: opp(1700.0, 300.0), score: 0.0 },
        ];
        let after = update(player, &games, &config).unwrap();
        assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
        assert!(close(after.deviation, 151.52, 0.01), "{after:?}");
        assert!(close(after.volatility, 0.05999, 0.00001), "{after:?}");
    }

    /// The paper's intermediate quantities: v = 1.7785, Δ = −0.4834 (the paper rounds as it goes).
    #[test]
    fn the_papers_intermediate_values() {
        let mu = 0.0;
        let opponents = [(-0.5756, 0.1727, 1.0), (0.2878, 0.5756, 0.0), (1.1513, 1.7269, 0.0)];
        let mut inv_v = 0.0;
        let mut sum = 0.0;
        for (mu_j, phi_j, s) in opponents {
            let g = g(phi_j);
            let e = expected(mu, mu_j, g);
            inv_v += g * g * e * (1.0 - e);
            sum += g * (s - e);
        }
        let v = 1.0 / inv_v;
        assert!(close(v, 1.7785, 0.0005), "v = {v}");
        assert!(close(v * sum, -0.4834, 0.001), "delta = {}", v * sum);
    }

    #[test]
    fn a_period_without_games_widens_the_deviation_only() {
        let config = Config::default();
        let player = Rating::checked(1600.0, 100.0, 0.06).unwrap();
        let after = update(player, &[], &config).unwrap();
        assert_eq!(after.rating, 1600.0);
        assert_eq!(after.volatility, 0.06);
        // φ* = sqrt(φ² + σ²) on the Glicko-2 scale.
        let phi = 100.0 / SCALE;
        assert!(close(after.deviation, (phi * phi + 0.0036f64).sqrt() * SCALE, 1e-9));
        assert!(after.deviation > 100.0);
        let new = update(Rating::new(&config), &[], &config).unwrap();
        assert_eq!(new.deviation, 350.0, "the deviation never grows past the cap");
    }

    #[test]
    fn bad_input_is_refused() {
        let config = Config::default();
        let player = Rating::new(&config);
        let game = Game { opponent: player, score: 1.5 };
        assert_eq!(update(player, &[game], &config), Err(RatingError::Score(1.5)));
        assert!(Rating::checked(f64::NAN, 200.0, 0.06).is_err());
        assert!(Rating::checked(1500.0, 0.0, 0.06).is_err());
        assert!(Rating::checked(1500.0, 200.0, -1.0).is_err());
    }
}
