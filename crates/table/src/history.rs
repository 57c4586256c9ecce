//! A player's finished games as "my games" lists them: the match rebuilt from a table's log, and
//! where one seat finished it.

use cards::Seat;
use cards::record::GameKind;

use crate::game::TableGame;
use crate::log::{LoggedAction, replay};
use crate::settings::TableSettings;
use wire::MatchSummary;

use crate::standings::Standing;
pub use wire::history::*;

/// Where `seat` finished among the standings ([`MatchStandings::standings`](crate::standings::MatchStandings::standings)): above the average of
/// the four seats' results is won, below it lost, on it drawn. Madiao's results (chips) sum to
/// zero, so a seat that won chips over the match won it; Da Bai Fen's are 1 for the winning
/// partnership and 0 for the other.
pub fn outcome(standings: &[Standing; 4], seat: Seat) -> Outcome {
    let mean = standings.iter().map(|s| s.result).sum::<f64>() / 4.0;
    let mine = standings[seat.index()].result;
    if (mine - mean).abs() < 1e-9 {
        Outcome::Drawn
    } else if mine > mean {
        Outcome::Won
    } else {
        Outcome::Lost
    }
}

/// Why a table's match cannot be rebuilt.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RebuildError(pub String);

/// The match score of a table from its settings, seed and log, as the table had it.
pub fn match_summary(
    doc: &TableSettings,
    seed: u64,
    log: &[LoggedAction],
) -> Result<MatchSummary, RebuildError> {
    fn of<G: TableGame>(
        doc: &TableSettings,
        seed: u64,
        log: &[LoggedAction],
    ) -> Result<MatchSummary, RebuildError>
    where
        G::Action: serde::de::DeserializeOwned,
    {
        let settings = G::table_settings(doc).map_err(|e| RebuildError(format!("settings: {e}")))?;
        let r = replay::<G>(&settings, seed, log).map_err(|e| RebuildError(e.to_string()))?;
        let (mut m, mut results) = (r.m, r.results);
        // The replay leaves the match's last hand unscored when it ends the match (a hand waiting
        // for its banker's stake follows a scored one).
        if let Some(last) = r.states.last().filter(|st| r.stake_due.is_none() && G::to_move(st).is_none()) {
            results.extend(G::finish_hand(&mut m, last));
        }
        Ok(G::match_summary(&m, &results))
    }
    match doc.game {
        GameKind::Madiao => of::<ai::Madiao>(doc, seed, log),
        GameKind::Dabaifen => of::<ai::Dabaifen>(doc, seed, log),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::MatchStandings;

    fn seat(n: u8) -> Seat {
        Seat::new(n).unwrap()
    }

    #[test]
    fn above_the_average_won_below_lost_on_it_drawn() {
        let madiao = [4.0, 9.0, -13.0, 0.0].map(|r| Standing { side: None, result: r });
        assert_eq!(outcome(&madiao, seat(0)), Outcome::Won);
        assert_eq!(outcome(&madiao, seat(2)), Outcome::Lost);
        assert_eq!(outcome(&madiao, seat(3)), Outcome::Drawn);
        let dabaifen = [0.0, 1.0, 0.0, 1.0].map(|r| Standing { side: None, result: r });
        assert_eq!(outcome(&dabaifen, seat(1)), Outcome::Won);
        assert_eq!(outcome(&dabaifen, seat(2)), Outcome::Lost);
        assert_eq!(Outcome::parse("drawn"), Some(Outcome::Drawn));
        assert_eq!(Outcome::parse("tied"), None);
    }

    #[test]
    fn a_match_of_bots_is_rebuilt_from_its_log_with_its_standings() {
        use crate::machine::{Config, Request, Stage, Table};
        use crate::settings::{Pace, Timing};
        let mut v = cards::record::Variants::default();
        v.0.insert("game_length".into(), "hands:2".into());
        let doc = TableSettings {
            name: "t".into(),
            game: GameKind::Madiao,
            rules: "standard".into(),
            variants: v,
            stake: 2,
            stake_max: None,
            turn_seconds: 30,
            private: false,
            pace: Pace::Fast,
            grace_seconds: 15,
            untimed: true,
            bank_seconds: 0,
            zero_cash: Default::default(),
            rated: false,
            board: None,
            no_aids: false,
        };
        let timing = Timing {
            draw_ms: 1,
            window_ms: 1,
            bot_delay_ms: 0,
            trick_ms: 0,
            pause_ms: 1,
            retire_ms: 1000,
            park_ms: 1_000_000,
            poll_hold_ms: 0,
        };
        let config = Config {
            id: "t".into(),
            settings: doc.clone(),
            seed: 9,
            host: None,
            seats: std::array::from_fn(|_| crate::log::SeatRow::Bot("random".into())),
            status: crate::log::TableStatus::Waiting,
            created_ms: 0,
            timing,
        };
        let mut t = Table::<ai::Madiao>::new(config, &[], Vec::new(), 0).unwrap();
        let mut fx = t.start(0);
        let (_, f) = t.apply(Request::AutoStart.into(), 0);
        fx.jobs.extend(f.jobs);
        let mut now = 0;
        for _ in 0..100_000 {
            if matches!(t.stage(), Stage::MatchOver { .. }) {
                break;
            }
            let input = match fx.jobs.pop() {
                Some(j) => crate::machine::Input::Done(j.run()),
                None => {
                    now = fx.wake.unwrap_or(now + 1).max(now);
                    crate::machine::Input::Tick
                }
            };
            let (_, f) = t.apply(input, now);
            fx = f;
        }
        assert!(matches!(t.stage(), Stage::MatchOver { .. }));
        let rebuilt = match_summary(&doc, 9, &t.log()).unwrap();
        let live = t.match_state().map(|m| <ai::Madiao as TableGame>::match_summary(m, t.results()));
        assert_eq!(Some(rebuilt.clone()), live);
        let s = rebuilt.standings().expect("the match is over");
        let won = Seat::ALL.iter().filter(|&&x| outcome(&s, x) == Outcome::Won).count();
        assert!((1..=3).contains(&won), "zero-sum chips: someone won and someone lost: {s:?}");
        // A log that breaks the rules is an error, not a panic.
        let mut bad = t.log();
        bad[0].seat = (bad[0].seat + 1) % 4;
        assert!(match_summary(&doc, 9, &bad).is_err());
    }
}
