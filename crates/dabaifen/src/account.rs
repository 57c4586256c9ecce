//! A readable, itemized account of a deal: why it went the way it did (declaration or kitty,
//! annulment, revoke), the points of every trick, the kitty bonus, the table row, the ranks, the
//! next starter.

use std::fmt;

use cards::Seat;
use serde::{Deserialize, Deserializer, Serialize};

use crate::card::{Card, Cards, Rank, codes, points};
use crate::score::DealResult;
use crate::score::Outcome;
use crate::state::{Phase, State};
use crate::trump::{Trump, sorted_plain};

/// One line of the account.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "AccountEvent"))]
pub enum Event {
    /// A trump-rank card was shown during the draw (§4).
    Declared {
        /// The seat that showed the card.
        seat: Seat,
        /// The trump-rank card shown; its suit is the trump suit.
        card: Card,
        /// How many cards had been drawn in all when it was shown (1–48).
        drawn: u8,
        /// Trumps as the declaration fixed them.
        trump: Trump,
        /// Whether the declarer became the starter (in the first deal and in an open deal, §4, §6).
        became_starter: bool,
    },
    /// Nobody declared; the kitty was turned (§5).
    KittyTurned {
        /// The (provisional) starter, who turned the kitty.
        starter: Seat,
        /// The kitty cards turned face up, in the order turned (`deck[48]` first).
        turned: Vec<Card>,
        /// The card that fixed the trump suit.
        card: Card,
        /// True when `card` is of the trump rank; false when none came and `card` is the highest
        /// non-joker of the six (§5, §12.4).
        by_rank: bool,
        /// Trumps as the turned card fixed them.
        trump: Trump,
    },
    /// An open deal in which nobody showed (§6): annulled again.
    NoShowing,
    /// A seat without trumps declined to annul.
    KeptDeal {
        /// The seat without trumps that chose to play the deal.
        seat: Seat,
    },
    /// A seat showed a hand with no trump and annulled the deal (§6).
    Annulled {
        /// The seat that annulled the deal.
        seat: Seat,
        /// The hand it showed (the twelve cards it drew, §12.5), sorted for showing.
        hand: Vec<Card>,
    },
    /// The starter buried six cards (§7).
    Buried {
        /// The starter, who took the kitty and buried.
        seat: Seat,
        /// The six cards buried, the new kitty.
        cards: Vec<Card>,
        /// The card points among them (§1), which go to the team of the last trick (§9).
        points: u32,
    },
    /// A complete trick (§8).
    Trick {
        /// The trick's number in the deal, from 1.
        number: u8,
        /// Each seat and the cards it played, in play order from the leader.
        plays: Vec<(Seat, Vec<Card>)>,
        /// The seat that won the trick.
        winner: Seat,
        /// The card points in the trick (§1).
        points: u32,
        /// Whether the winner is a defender, so that the points count towards `T` (§9).
        to_defenders: bool,
    },
    /// A revoking lead (§8): the non-top cards and a stronger card someone else held.
    Revoke {
        /// The seat that led.
        seat: Seat,
        /// The cards it led.
        cards: Vec<Card>,
        /// Each led card that is not a top card, with a seat that held a stronger card of its suit
        /// and that card.
        not_top: Vec<(Card, Seat, Card)>,
    },
    /// The kitty went to the last trick's team (§9).
    Kitty {
        /// The team that won (or, after a revoke, is taken to have won) the last trick: 0 for seats
        /// 0 and 2, 1 for seats 1 and 3.
        team: u8,
        /// Whether that team is the defenders, so that the kitty's points count towards `T`.
        to_defenders: bool,
        /// The card points buried in the kitty.
        kitty_points: u32,
        /// The multiplier of the kitty's points: 2, or 2 × the cards each player put on the last
        /// trick under `kitty_multiplier: per_card` (§9).
        multiplier: u32,
        /// What the kitty adds to `T`: `kitty_points × multiplier` for the defenders, 0 otherwise.
        bonus: u32,
    },
    /// The defenders' total and the table row (§9).
    Total {
        /// The defenders' points without the kitty bonus.
        in_tricks: u32,
        /// The kitty bonus added to them.
        bonus: u32,
        /// `T`, the defenders' points that decide the row of the table (§9).
        total: u32,
        /// Whether the deal ended with a revoke, which sets `T` (§12.8).
        revoke: bool,
        /// Whether the declarers won the deal (`T` under 40).
        declarers_win: bool,
        /// The ranks the winning team goes up by, as the table gives them (0, 1 or 2).
        levels: u8,
    },
    /// A team's rank moved (§10).
    RankUp {
        /// The team that won the deal: 0 for seats 0 and 2, 1 for seats 1 and 3.
        team: u8,
        /// Its rank before the deal.
        from: Rank,
        /// Its rank after it.
        to: Rank,
    },
    /// Who starts next and why (§10, §6).
    NextStarter {
        /// The starter of the next deal.
        seat: Seat,
        /// Why that seat starts, in words.
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        why: StarterReason,
    },
    /// The game is over (§10).
    GameOver {
        /// The team that won the game: 0 for seats 0 and 2, 1 for seats 1 and 3.
        team: u8,
    },
}

/// Why the next starter starts (§10, §6), in the account's words.
const NEXT_STARTER_REASONS: [&str; 3] = [
    "the starter's partner deals the open deal after an annulment",
    "the declarers won: the starter's partner",
    "the defenders won: the seat after the starter",
];

/// Why the next starter starts (§10, §6), in the account's words: one of a fixed few texts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct StarterReason(&'static str);

impl StarterReason {
    /// The reason in words.
    pub fn text(self) -> &'static str {
        self.0
    }
}

impl fmt::Display for StarterReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// Reads one of the account's reasons (any other text is an error).
impl<'de> Deserialize<'de> for StarterReason {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<StarterReason, D::Error> {
        let text = String::deserialize(d)?;
        NEXT_STARTER_REASONS
            .iter()
            .find(|r| **r == text)
            .map(|r| StarterReason(r))
            .ok_or_else(|| serde::de::Error::custom(format!("unknown reason for the next starter: {text:?}")))
    }
}

fn plays_text(plays: &[(Seat, Vec<Card>)]) -> String {
    let mut s = String::new();
    for (i, (seat, cards)) in plays.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(&format!("{seat} {}", codes(cards.iter().copied())));
    }
    s
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Declared { seat, card, drawn, trump, became_starter } => {
                write!(f, "{seat} declared {card} after {drawn} cards had been drawn: trumps are {trump}")?;
                if *became_starter {
                    write!(f, "; {seat} becomes the starter")?;
                }
                Ok(())
            }
            Event::KittyTurned { starter, turned, card, by_rank, trump } => {
                write!(f, "nobody declared: {starter} turned the kitty: {}", codes(turned.iter().copied()))?;
                if *by_rank {
                    write!(f, "; {card} is of the trump rank: trumps are {trump}")
                } else {
                    write!(
                        f,
                        "; no card of rank {} among them, the highest is {card}: trumps are {trump}",
                        trump.rank
                    )
                }
            }
            Event::NoShowing => {
                f.write_str("open deal: nobody showed his team's rank, so the deal is annulled again")
            }
            Event::KeptDeal { seat } => write!(f, "{seat} holds no trump but chose to play the deal"),
            Event::Annulled { seat, hand } => {
                write!(
                    f,
                    "{seat} showed a hand with no trump ({}) and annulled the deal",
                    codes(hand.iter().copied())
                )
            }
            Event::Buried { seat, cards, points } => {
                write!(
                    f,
                    "{seat} took the kitty and buried {} ({points} points)",
                    codes(cards.iter().copied())
                )
            }
            Event::Trick { number, plays, winner, points, to_defenders } => {
                write!(
                    f,
                    "trick {number}: {} → {winner} wins {points} point{} for the {}",
                    plays_text(plays),
                    if *points == 1 { "" } else { "s" },
                    if *to_defenders { "defenders" } else { "declarers" }
                )
            }
            Event::Revoke { seat, cards, not_top } => {
                write!(f, "{seat} led {}: a revoke", codes(cards.iter().copied()))?;
                for (c, holder, stronger) in not_top {
                    write!(f, "; {c} is not a top card ({holder} holds {stronger})")?;
                }
                write!(f, "; the deal ends and the other team is taken to have won every trick")
            }
            Event::Kitty { team, to_defenders, kitty_points, multiplier, bonus } => {
                if *to_defenders {
                    write!(
                        f,
                        "the kitty goes to team {team} (defenders), who won the last trick: \
                         {kitty_points} points × {multiplier} = +{bonus}"
                    )
                } else {
                    write!(
                        f,
                        "the kitty ({kitty_points} points) goes to team {team} (declarers), who won the last trick: \
                         no bonus for the defenders"
                    )
                }
            }
            Event::Total { in_tricks, bonus, total, revoke, declarers_win, levels } => {
                if *revoke {
                    write!(f, "defenders' points T = {total}")?;
                } else {
                    write!(f, "defenders' points T = {in_tricks} in tricks + {bonus} kitty bonus = {total}")?;
                }
                let row = match total {
                    0 => "0",
                    1..=39 => "5–35",
                    40..=79 => "40–75",
                    80..=99 => "80–95",
                    _ => "100 or more",
                };
                match (declarers_win, levels) {
                    (true, l) => {
                        write!(f, " ({row}): the declarers win, +{l} rank{}", if *l == 1 { "" } else { "s" })
                    }
                    (false, 0) => write!(f, " ({row}): the defenders win the deal but gain no rank"),
                    (false, l) => {
                        write!(f, " ({row}): the defenders win, +{l} rank{}", if *l == 1 { "" } else { "s" })
                    }
                }
            }
            Event::RankUp { team, from, to } => write!(f, "team {team}'s rank goes from {from} to {to}"),
            Event::NextStarter { seat, why } => write!(f, "next starter: {seat} ({why})"),
            Event::GameOver { team } => write!(f, "team {team} wins the game"),
        }
    }
}

/// The settlement of a deal, told as its account: its events in order (those so far, if the deal
/// is not over).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "Account"))]
pub struct Settlement {
    /// The lines, in order.
    pub lines: Vec<Event>,
}

impl fmt::Display for Settlement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for l in &self.lines {
            writeln!(f, "{l}")?;
        }
        Ok(())
    }
}

impl State {
    /// The readable account of the deal so far (complete once the deal is over).
    pub fn settlement(&self) -> Settlement {
        let mut lines = Vec::new();
        if let Some(d) = self.declaration {
            lines.push(Event::Declared {
                seat: d.seat,
                card: d.card,
                drawn: d.drawn,
                trump: self.trump.expect("a declaration fixes trumps"),
                became_starter: (self.first_deal || self.open),
            });
        }
        if let Some(k) = self.kitty_turn {
            lines.push(Event::KittyTurned {
                starter: self.provisional,
                turned: self.deck[48..48 + k.turned as usize].to_vec(),
                card: k.card,
                by_rank: k.by_rank,
                trump: self.trump.expect("turning the kitty fixes trumps"),
            });
        }
        if self.open && self.trump.is_none() && self.phase == Phase::Over {
            lines.push(Event::NoShowing);
        }
        for s in self.annul_declined() {
            lines.push(Event::KeptDeal { seat: s });
        }
        if let Some(s) = self.annulled_by {
            lines.push(Event::Annulled { seat: s, hand: self.tables.sorted(self.dealt(s)) });
        }
        if self.buried != 0 {
            lines.push(Event::Buried {
                seat: self.starter,
                cards: self.tables.sorted(self.buried()),
                points: points(self.buried()),
            });
        }
        let declarers = self.starter.team();
        for (i, t) in self.tricks().iter().enumerate() {
            if let Some(w) = t.winner {
                lines.push(Event::Trick {
                    number: i as u8 + 1,
                    plays: t.in_order().map(|(s, c)| (s, self.tables.sorted(c))).collect(),
                    winner: w,
                    points: t.points,
                    to_defenders: w.team() != declarers,
                });
            }
        }
        if let Some(seat) = self.revoke {
            let t = self.tricks().last().expect("a revoke is a lead");
            let lead = t.plays[seat.index()];
            let others: u64 =
                Seat::ALL.iter().filter(|&&s| s != seat).fold(0, |m, s| m | self.hands[s.index()]);
            let mut not_top = Vec::new();
            for c in self.tables.sorted(lead) {
                let stronger = self.tables.stronger[c.number() as usize] & others;
                if let Some(x) = Cards::from_bits(stronger).last() {
                    let holder = Seat::ALL
                        .into_iter()
                        .find(|s| self.hands[s.index()] >> x.number() & 1 != 0)
                        .expect("a stronger card is in someone's hand");
                    not_top.push((c, holder, x));
                }
            }
            lines.push(Event::Revoke { seat, cards: self.tables.sorted(lead), not_top });
        }
        if let Some(r) = &self.result {
            self.result_lines(r, &mut lines);
        }
        Settlement { lines }
    }

    fn result_lines(&self, r: &DealResult, lines: &mut Vec<Event>) {
        if r.outcome != Outcome::Annulled {
            let declarers = r.starter.team();
            let defenders = 1 - declarers;
            let last = r.last_trick.unwrap_or(declarers);
            lines.push(Event::Kitty {
                team: last,
                to_defenders: last == defenders,
                kitty_points: r.kitty_points.unwrap_or(0),
                multiplier: r.multiplier,
                bonus: r.kitty_bonus,
            });
            let total = r.defender_points.unwrap_or(0);
            lines.push(Event::Total {
                in_tricks: total - r.kitty_bonus,
                bonus: r.kitty_bonus,
                total,
                revoke: r.outcome == Outcome::Revoke,
                declarers_win: r.winner == Some(declarers),
                levels: r.levels,
            });
            if let Some(w) = r.winner
                && r.ranks[w as usize] != self.ranks[w as usize]
            {
                lines.push(Event::RankUp { team: w, from: self.ranks[w as usize], to: r.ranks[w as usize] });
            }
        }
        let why = match (r.outcome, r.winner) {
            (Outcome::Annulled, _) => StarterReason(NEXT_STARTER_REASONS[0]),
            (_, Some(w)) if w == r.starter.team() => StarterReason(NEXT_STARTER_REASONS[1]),
            _ => StarterReason(NEXT_STARTER_REASONS[2]),
        };
        lines.push(Event::NextStarter { seat: r.next_starter, why });
        if r.game_over
            && let Some(w) = r.winner
        {
            lines.push(Event::GameOver { team: w });
        }
    }
}

/// A hand before trumps are fixed, sorted for showing.
pub fn show_plain(set: Cards) -> String {
    codes(sorted_plain(set))
}
