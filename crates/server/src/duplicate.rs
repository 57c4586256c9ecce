//! Duplicate events' rules (`docs/events.md`): the boards' seeds, an event as it is stored, and
//! its scoring. Pure: no I/O.
//!
//! Every table of an event plays the same boards: board `k` is an ordinary one-hand table whose
//! seed is [`board_seed`]`(event seed, k)`, so that its deck, its banker and any redeal's deck are
//! the same at every table. A result on a board is compared only with the results of the same
//! seat on the same board ([`matchpoints`]).

use cards::record::GameKind;
use serde::{Deserialize, Serialize};

/// The seed of board `k` (from 0) of an event whose seed is `event_seed`: the table that plays the
/// board at every table of the event has this seed (`docs/events.md`, "Boards").
pub fn board_seed(event_seed: u64, board: u32) -> u64 {
    cards::Rng::from_seed_stream(event_seed, u64::from(board)).next_u64()
}

/// How an event ranks its players (`docs/events.md`, "Scoring").
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scoring {
    /// Matchpoints: on each board, 1 for every result of the same seat beaten, ½ for every tie,
    /// as a percentage of the results compared with; the standings average the percentages.
    #[default]
    Matchpoints,
    /// The raw sum of a seat's scores over the boards (Madiao: stakes; Da Bai Fen: card points).
    Total,
}

/// One result's matchpoints on a board, in halves (a tie is 1 half, a result beaten 2), and the
/// percentage of the most it could have had.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Matchpoints {
    /// Twice the matchpoints (ties count ½).
    pub halves: u32,
    /// `100 × matchpoints / (n − 1)` for `n` results compared; 50 when the result is alone.
    pub percent: f64,
}

/// The matchpoints of each of `scores`, the results of one seat on one board at every table that
/// played it (`docs/events.md`, "Scoring"): a result gets 1 for each other result it beats, ½ for
/// each it ties.
pub fn matchpoints(scores: &[f64]) -> Vec<Matchpoints> {
    let n = scores.len();
    scores
        .iter()
        .map(|&mine| {
            let halves: u32 = scores
                .iter()
                .map(|&other| {
                    if mine > other {
                        2
                    } else if mine == other {
                        1
                    } else {
                        0
                    }
                })
                .sum::<u32>()
                // The result is not compared with itself.
                - 1;
            let percent = if n <= 1 { 50.0 } else { 100.0 * f64::from(halves) / (2.0 * (n - 1) as f64) };
            Matchpoints { halves, percent }
        })
        .collect()
}

/// Who holds a seat of an event's table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Holder {
    /// A person: the guest and the name shown.
    Person {
        /// The guest's id.
        guest: String,
        /// The name.
        name: String,
    },
    /// A bot, by its registry name.
    Bot {
        /// The bot.
        bot: String,
    },
}

/// One table of an event: the same four holders play every board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Group {
    /// A table of bots only, playing the boards for the field's par.
    pub par: bool,
    /// The four seats.
    pub seats: [Holder; 4],
    /// The table that plays board `k`, once made.
    pub tables: Vec<Option<String>>,
    /// Each board's score per seat (Madiao: stakes; Da Bai Fen: card points), once its table is
    /// over.
    pub results: Vec<Option<[f64; 4]>>,
}

impl Group {
    /// The board being played (or next to be made): the first without a result; `None` when
    /// every board has one.
    pub fn board(&self) -> Option<usize> {
        self.results.iter().position(Option::is_none)
    }
}

/// Where an event is in its life.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventStatus {
    /// Taking entrants.
    Open,
    /// Its tables play the boards.
    Playing,
    /// Every board of every table has a result.
    Finished,
}

/// An entrant of an event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// The guest.
    pub guest: String,
    /// The name shown.
    pub name: String,
}

/// An event as it is stored (JSON); its seed stays secret until it is finished.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventDoc {
    /// The event's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The host's guest id (an account).
    pub host: String,
    /// The host's name.
    pub host_name: String,
    /// The game: Madiao, or Da Bai Fen (`docs/events.md`, "Da Bai Fen boards").
    pub game: GameKind,
    /// The rules preset.
    pub rules: String,
    /// The variants over the preset (the boards' tables play one hand each).
    pub variants: cards::record::Variants,
    /// The number of boards.
    pub boards: u32,
    /// The event's secret seed; board `k`'s is [`board_seed`]`(seed, k)`.
    pub seed: u64,
    /// Tables of people.
    pub tables: u32,
    /// People per table (seats 0…n−1; bots play the others).
    pub people_per_table: u8,
    /// Tables of `expert` bots only, the field's par.
    pub par_tables: u32,
    /// How the standings rank.
    pub scoring: Scoring,
    /// A rated event: when it is over, its people's ratings move by their comparisons with the
    /// field, once (`docs/events.md`, "Rated events"); the boards' own tables are not rated.
    pub rated: bool,
    /// A person's turn clock at the event's tables, in seconds.
    pub turn_seconds: u32,
    /// When it begins with whoever entered (milliseconds since the Unix epoch); without it, when
    /// full or when the host starts it.
    pub start_at_ms: Option<i64>,
    /// Made, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// Where it is.
    pub status: EventStatus,
    /// Who entered, in order of entry.
    pub entrants: Vec<Entrant>,
    /// Its tables, once it has begun: the people's, then the par's.
    pub groups: Vec<Group>,
    /// A private event for friends: the players its host invited (`name`: the username), the
    /// only ones besides him who see it and may enter it. `None`: a public event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invited: Option<Vec<Entrant>>,
}

impl EventDoc {
    /// Whether `viewer` may see and enter the event: anyone for a public one; its host and the
    /// players he invited for a private one.
    pub fn visible_to(&self, viewer: Option<&str>) -> bool {
        match &self.invited {
            None => true,
            Some(list) => viewer.is_some_and(|v| v == self.host || list.iter().any(|e| e.guest == v)),
        }
    }
}

impl EventDoc {
    /// How many people the event takes.
    pub fn capacity(&self) -> usize {
        self.tables as usize * usize::from(self.people_per_table)
    }

    /// Seats the entrants and the bots (`bot` in the people's tables' other seats, `expert` at the
    /// par's): entrant `i` at table `i / people_per_table`, seat `i mod people_per_table`.
    pub fn seat_groups(&mut self, bot: &str, par_bot: &str) {
        let boards = self.boards as usize;
        let per = usize::from(self.people_per_table).max(1);
        let mut groups = Vec::new();
        for t in 0..self.tables as usize {
            let seats = std::array::from_fn(|s| match self.entrants.get(t * per + s) {
                Some(e) if s < per => Holder::Person { guest: e.guest.clone(), name: e.name.clone() },
                _ => Holder::Bot { bot: bot.to_string() },
            });
            groups.push(Group { par: false, seats, tables: vec![None; boards], results: vec![None; boards] });
        }
        for _ in 0..self.par_tables {
            let seats = std::array::from_fn(|_| Holder::Bot { bot: par_bot.to_string() });
            groups.push(Group { par: true, seats, tables: vec![None; boards], results: vec![None; boards] });
        }
        self.groups = groups;
        self.status = EventStatus::Playing;
    }

    /// Each seat's matchpoints on board `k` at every table with a result for it (`None` for the
    /// others), by table.
    pub fn board_matchpoints(&self, k: usize) -> Vec<Option<[Matchpoints; 4]>> {
        let played: Vec<(usize, [f64; 4])> =
            self.groups.iter().enumerate().filter_map(|(g, gr)| Some((g, (*gr.results.get(k)?)?))).collect();
        let per_seat: Vec<Vec<Matchpoints>> =
            (0..4).map(|s| matchpoints(&played.iter().map(|(_, r)| r[s]).collect::<Vec<_>>())).collect();
        let mut out = vec![None; self.groups.len()];
        for (i, (g, _)) in played.iter().enumerate() {
            out[*g] = Some(std::array::from_fn(|s| per_seat[s][i]));
        }
        out
    }

    /// The event as ratings read it (`docs/events.md`, "Rated events"): holder `4 g + s` is
    /// seat `s` of table `g`; on every board, the holders of each seat at every two tables with
    /// a result for it are one comparison. A person's history row names his table on the last
    /// board.
    pub fn rated_event(&self) -> crate::ratings::RatedEvent {
        use crate::ratings::{Comparison, EventPlayer};
        use table::rated::RatedPlayer;
        let mut players = Vec::new();
        for gr in &self.groups {
            let table = gr.tables.last().cloned().flatten().unwrap_or_default();
            for h in &gr.seats {
                let player = match h {
                    Holder::Person { guest, name } => {
                        RatedPlayer::Person { guest: guest.clone(), name: name.clone() }
                    }
                    Holder::Bot { bot } => RatedPlayer::Bot(bot.clone()),
                };
                players.push(EventPlayer { player, table: table.clone() });
            }
        }
        let mut comparisons = Vec::new();
        for k in 0..self.boards as usize {
            for (g, a) in self.groups.iter().enumerate() {
                let Some(Some(ra)) = a.results.get(k) else { continue };
                for (h, b) in self.groups.iter().enumerate().skip(g + 1) {
                    let Some(Some(rb)) = b.results.get(k) else { continue };
                    for s in 0..4 {
                        comparisons.push(Comparison {
                            a: 4 * g + s,
                            b: 4 * h + s,
                            a_score: ra[s],
                            b_score: rb[s],
                        });
                    }
                }
            }
        }
        crate::ratings::RatedEvent { game: self.game, players, comparisons }
    }

    /// The standings: every seat of every table, with its boards scored and its score (the mean
    /// percentage, or the total in stakes), best first (ties by table and seat).
    pub fn standings(&self) -> Vec<Standing> {
        let mut rows: Vec<Standing> = Vec::new();
        let mps: Vec<_> = (0..self.boards as usize).map(|k| self.board_matchpoints(k)).collect();
        for (g, gr) in self.groups.iter().enumerate() {
            for s in 0..4 {
                let mut boards = 0u32;
                let (mut total, mut percent) = (0.0, 0.0);
                for (k, r) in gr.results.iter().enumerate() {
                    let (Some(r), Some(m)) = (r, mps[k][g]) else { continue };
                    boards += 1;
                    total += r[s];
                    percent += m[s].percent;
                }
                let score = match self.scoring {
                    Scoring::Total => total,
                    Scoring::Matchpoints if boards > 0 => percent / f64::from(boards),
                    Scoring::Matchpoints => 0.0,
                };
                rows.push(Standing { group: g, seat: s, boards, score, total });
            }
        }
        rows.sort_by(|a, b| {
            b.score.total_cmp(&a.score).then(a.group.cmp(&b.group)).then(a.seat.cmp(&b.seat))
        });
        rows
    }
}

/// One seat of one table in the standings.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Standing {
    /// The table (its index among the event's).
    pub group: usize,
    /// The seat.
    pub seat: usize,
    /// The boards it has a result on.
    pub boards: u32,
    /// Its score: the mean matchpoint percentage, or the total in stakes.
    pub score: f64,
    /// The total in stakes.
    pub total: f64,
}

/// The score of each seat on a board from its table's `yezi/1` record (`docs/events.md`,
/// "Scoring"); `None` when the record has no scored deal.
///
/// - Madiao: the sum of the hands' `result.payoffs` (a redeal's are 0), in stakes; `None` when a
///   hand has no four payoffs.
/// - Da Bai Fen: the board's deal is the one that was not annulled (the board's table plays until
///   one is); each seat scores its side's margin from the line of 40 in card points
///   ([`dabaifen::record::DabaifenResult::board_score`]).
pub fn record_scores(game: GameKind, record: &serde_json::Value) -> Option<[f64; 4]> {
    let hands = record.get("hands")?.as_array()?;
    if hands.is_empty() {
        return None;
    }
    match game {
        GameKind::Madiao => {
            let mut sum = [0.0; 4];
            for h in hands {
                let p = h.get("result")?.get("payoffs")?.as_array()?;
                if p.len() != 4 {
                    return None;
                }
                for (s, v) in sum.iter_mut().zip(p) {
                    *s += v.as_f64()?;
                }
            }
            Some(sum)
        }
        GameKind::Dabaifen => hands.iter().rev().find_map(|h| {
            let r: dabaifen::record::DabaifenResult =
                serde_json::from_value(h.get("result")?.clone()).ok()?;
            let scores: Vec<f64> =
                cards::Seat::ALL.iter().map(|&s| r.board_score(s).map(f64::from)).collect::<Option<_>>()?;
            scores.try_into().ok()
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(results: Vec<Vec<[f64; 4]>>, scoring: Scoring) -> EventDoc {
        let boards = results[0].len();
        EventDoc {
            id: "e".into(),
            name: "n".into(),
            host: "g".into(),
            host_name: "h".into(),
            game: GameKind::Madiao,
            rules: "standard".into(),
            variants: Default::default(),
            boards: boards as u32,
            seed: 1,
            tables: results.len() as u32,
            people_per_table: 1,
            par_tables: 0,
            scoring,
            rated: false,
            turn_seconds: 30,
            start_at_ms: None,
            created_ms: 0,
            status: EventStatus::Playing,
            entrants: vec![],
            groups: results
                .into_iter()
                .map(|r| Group {
                    par: false,
                    seats: std::array::from_fn(|_| Holder::Bot { bot: "b".into() }),
                    tables: vec![None; r.len()],
                    results: r.into_iter().map(Some).collect(),
                })
                .collect(),
            invited: None,
        }
    }

    /// `docs/events.md`, "A worked example": four tables, two boards, seat 0's results.
    fn worked_example(scoring: Scoring) -> EventDoc {
        // Table A, B, C, D; board 1 then board 2; seat 0's score first, the others balance it.
        let r = |a: f64, b: f64| vec![[a, -a, 0.0, 0.0], [b, -b, 0.0, 0.0]];
        doc(vec![r(3.0, -2.0), r(-1.0, 1.0), r(3.0, 0.0), r(0.0, 2.0)], scoring)
    }

    #[test]
    fn matchpoints_of_the_worked_example_board_1() {
        let m = matchpoints(&[3.0, -1.0, 3.0, 0.0]);
        let halves: Vec<u32> = m.iter().map(|m| m.halves).collect();
        assert_eq!(halves, [5, 0, 5, 2]);
        let pct: Vec<String> = m.iter().map(|m| format!("{:.2}", m.percent)).collect();
        assert_eq!(pct, ["83.33", "0.00", "83.33", "33.33"]);
    }

    #[test]
    fn the_worked_examples_standings_by_matchpoints_and_by_total() {
        let d = worked_example(Scoring::Matchpoints);
        let seat0: Vec<(usize, String)> = d
            .standings()
            .into_iter()
            .filter(|s| s.seat == 0)
            .map(|s| (s.group, format!("{:.2}", s.score)))
            .collect();
        assert_eq!(
            seat0,
            [(3, "66.67".into()), (2, "58.33".into()), (0, "41.67".into()), (1, "33.33".into())]
        );
        let d = worked_example(Scoring::Total);
        let seat0: Vec<(usize, f64)> =
            d.standings().into_iter().filter(|s| s.seat == 0).map(|s| (s.group, s.score)).collect();
        assert_eq!(seat0, [(2, 3.0), (3, 2.0), (0, 1.0), (1, 0.0)]);
    }

    /// `docs/events.md`, "Da Bai Fen boards", "Worked example": board 2 (starter seat 1), the
    /// defenders take 25, 55 and 25 at tables A, B and C.
    #[test]
    fn the_da_bai_fen_worked_example() {
        let margins = |t: u32| -> [f64; 4] {
            let r: dabaifen::record::DabaifenResult = serde_json::from_value(serde_json::json!({
                "outcome": "played", "trump": {"suit": "C", "rank": "2"}, "starter": 1,
                "defender_points": t, "kitty_points": 0, "last_trick": 0, "winner": 0, "levels": 0,
                "ranks": ["2", "2"], "next_starter": 2, "game_over": false}))
            .unwrap();
            std::array::from_fn(|s| f64::from(r.board_score(cards::Seat::ALL[s]).unwrap()))
        };
        let d = doc(vec![vec![margins(25)], vec![margins(55)], vec![margins(25)]], Scoring::Matchpoints);
        assert_eq!(d.groups[0].results[0], Some([-15.0, 15.0, -15.0, 15.0]));
        let m = d.board_matchpoints(0);
        let pct = |s: usize| -> Vec<f64> { m.iter().map(|m| m.unwrap()[s].percent).collect() };
        assert_eq!(pct(0), [25.0, 100.0, 25.0]);
        assert_eq!(pct(1), [75.0, 0.0, 75.0]);
    }

    #[test]
    fn a_result_alone_on_a_board_has_half_and_unplayed_boards_do_not_count() {
        assert_eq!(matchpoints(&[4.0])[0].percent, 50.0);
        let mut d = worked_example(Scoring::Matchpoints);
        // Table D has not finished board 2: board 2 compares A, B and C only.
        d.groups[3].results[1] = None;
        let m = d.board_matchpoints(1);
        assert!(m[3].is_none());
        let pct: Vec<f64> = m[..3].iter().map(|m| m.unwrap()[0].percent).collect();
        assert_eq!(pct, [0.0, 100.0, 50.0]);
        let st = d.standings();
        let d0 = st.iter().find(|s| s.group == 3 && s.seat == 0).unwrap();
        assert_eq!((d0.boards, d0.score), (1, 100.0 / 3.0));
    }

    #[test]
    fn board_seeds_differ_by_board_and_by_event() {
        assert_ne!(board_seed(7, 0), board_seed(7, 1));
        assert_ne!(board_seed(7, 0), board_seed(8, 0));
        assert_eq!(board_seed(7, 3), board_seed(7, 3));
    }

    #[test]
    fn a_records_scores_sum_its_hands() {
        let m = GameKind::Madiao;
        let rec = serde_json::json!({"hands": [
            {"result": {"payoffs": [0, 0, 0, 0]}},
            {"result": {"payoffs": [-1, 2.5, 0, -1.5]}}
        ]});
        assert_eq!(record_scores(m, &rec), Some([-1.0, 2.5, 0.0, -1.5]));
        assert_eq!(record_scores(m, &serde_json::json!({"hands": []})), None);
        assert_eq!(record_scores(m, &serde_json::json!({"hands": [{"result": {"payoffs": [1]}}]})), None);
    }

    /// A Da Bai Fen board scores its deal that was not annulled: the margin from 40 by side.
    #[test]
    fn a_da_bai_fen_records_scores_are_the_played_deals_margins() {
        let annulled = serde_json::json!({"outcome": "annulled", "trump": {"suit": "H", "rank": "3"},
            "starter": 1, "defender_points": null, "kitty_points": null, "last_trick": null,
            "winner": null, "levels": 0, "ranks": ["3", "3"], "next_starter": 3, "game_over": false});
        let played = serde_json::json!({"outcome": "played", "trump": {"suit": "S", "rank": "3"},
            "starter": 3, "defender_points": 55, "kitty_points": 5, "last_trick": 0,
            "winner": 0, "levels": 0, "ranks": ["3", "3"], "next_starter": 0, "game_over": false});
        let rec = serde_json::json!({"hands": [{"result": annulled}, {"result": played}]});
        // Team 1 (seats 1 and 3) declared; the defenders took 55: 15 over the line.
        assert_eq!(record_scores(GameKind::Dabaifen, &rec), Some([15.0, -15.0, 15.0, -15.0]));
        let rec = serde_json::json!({"hands": [{"result": annulled}]});
        assert_eq!(record_scores(GameKind::Dabaifen, &rec), None);
    }

    #[test]
    fn seating_puts_entrants_in_the_first_seats_and_bots_elsewhere() {
        let mut d = worked_example(Scoring::Matchpoints);
        d.tables = 2;
        d.people_per_table = 2;
        d.par_tables = 1;
        d.entrants =
            ["a", "b", "c"].iter().map(|n| Entrant { guest: n.to_string(), name: n.to_string() }).collect();
        d.seat_groups("heuristic", "expert");
        assert_eq!(d.groups.len(), 3);
        assert!(matches!(&d.groups[0].seats[1], Holder::Person { guest, .. } if guest == "b"));
        assert!(matches!(&d.groups[1].seats[0], Holder::Person { guest, .. } if guest == "c"));
        assert!(matches!(&d.groups[1].seats[1], Holder::Bot { bot } if bot == "heuristic"));
        assert!(d.groups[2].par && matches!(&d.groups[2].seats[3], Holder::Bot { bot } if bot == "expert"));
        assert_eq!(d.groups[2].board(), Some(0));
    }
}
