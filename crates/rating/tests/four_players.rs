//! Four-player matches checked against values computed by hand: Glickman's steps 2 to 8 worked
//! through for each rated player with a calculator, separately from this crate (τ 0.5, ε 10⁻⁶,
//! deviations capped at 350), rounded to 0.01.

use rating::{Config, Entrant, Rating, rate_match};

fn entrant(r: f64, rd: f64, side: Option<u8>, result: f64) -> Entrant {
    Entrant { rating: Rating::checked(r, rd, 0.06).unwrap(), fixed: false, side, result, forfeited: false }
}

fn assert_near(got: Rating, rating: f64, deviation: f64) {
    assert!(
        (got.rating - rating).abs() < 0.01 && (got.deviation - deviation).abs() < 0.01,
        "got {:.2} ± {:.2}, expected {rating} ± {deviation}",
        got.rating,
        got.deviation
    );
    assert!((got.volatility - 0.06).abs() < 1e-4, "{got:?}");
}

/// Madiao: four new players ranked by their stakes, 6, 2, −2 and −6: the first wins three
/// games, the second two, and so on.
#[test]
fn madiao_new_players_by_stakes() {
    let entrants: Vec<Entrant> =
        [6.0, 2.0, -2.0, -6.0].iter().map(|&s| entrant(1500.0, 350.0, None, s)).collect();
    let after = rate_match(&entrants, &Config::default()).unwrap();
    assert_near(after[0], 1799.63, 227.74);
    assert_near(after[1], 1599.88, 227.74);
    assert_near(after[2], 1400.12, 227.74);
    assert_near(after[3], 1200.37, 227.74);
}

/// Madiao with a bot of fixed rating and a leaver: seat 3 was ahead in stakes when it left, and
/// still loses to everyone; the bot's rating does not move.
#[test]
fn madiao_with_a_bot_and_a_leaver() {
    let mut entrants = vec![
        entrant(1620.0, 80.0, None, 2.0),
        entrant(1500.0, 350.0, None, -1.0),
        entrant(1700.0, 50.0, None, -6.0),
        entrant(1450.0, 120.0, None, 5.0),
    ];
    entrants[2].fixed = true;
    entrants[3].forfeited = true;
    let after = rate_match(&entrants, &Config::default()).unwrap();
    assert_near(after[0], 1658.10, 76.53);
    assert_near(after[1], 1668.42, 188.39);
    assert_eq!(after[2], entrants[2].rating);
    assert_near(after[3], 1397.52, 109.16);
}

/// Da Bai Fen: seats 0 and 2 against 1 and 3; the first side wins. Partners are not rated
/// against each other.
#[test]
fn dabaifen_by_side() {
    let entrants = vec![
        entrant(1550.0, 100.0, Some(0), 1.0),
        entrant(1500.0, 200.0, Some(1), 0.0),
        entrant(1480.0, 60.0, Some(0), 1.0),
        entrant(1600.0, 300.0, Some(1), 0.0),
    ];
    let after = rate_match(&entrants, &Config::default()).unwrap();
    assert_near(after[0], 1590.69, 95.76);
    assert_near(after[1], 1367.04, 157.55);
    assert_near(after[2], 1498.39, 59.80);
    assert_near(after[3], 1331.94, 197.55);
}

#[test]
fn a_result_that_is_not_a_number_is_refused() {
    let entrants = vec![entrant(1500.0, 350.0, None, f64::NAN), entrant(1500.0, 350.0, None, 0.0)];
    assert!(rate_match(&entrants, &Config::default()).is_err());
}
