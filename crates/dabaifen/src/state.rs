//! The state of one deal and the only way to change it: [`Action`]s.
//!
//! A deal runs through phases: the draw with its declaration polls (§4), the kitty turned when
//! nobody declares (§5), the annulment polls (§6), the burial (§7), the tricks (§8; at most twelve, fewer after multi-card leads), and the
//! score (§9–10), which is computed the moment the deal ends.
//!
//! ## Polls during the draw (engine timing, §4)
//! After each card drawn, the seats are asked in play order starting from the one who just drew
//! it; a seat is asked only while it holds a card it may show (a card of the trump rank — in an open
//! deal, of its own team's rank — among the cards it has drawn so far). The asked seat answers
//! [`Action::Pass`] or [`Action::Declare`]. Draws with nobody to ask happen at once. So a record's
//! `declare` at `drawn: k` by seat `s` means every earlier poll passed; passes are not recorded.
//!
//! ## Annulment polls (§6)
//! After trumps are fixed, the seats whose 12 cards hold no trump are asked in play order from the
//! starter (not the starter under `annul: non_starters_only`): [`Action::Annul`] or
//! [`Action::Pass`].
//!
//! ## Leads (§8) and how they are enumerated
//! A lead is a single card or two or more top cards of one effective suit; every non-empty subset
//! of a suit's top cards is a distinct lead (singles included). Under `revoke: penalize` a one-suit
//! lead of two or more cards containing a non-top card is also a legal, accepted action — a revoke,
//! which ends the deal at once. Under `refuse` it is rejected. A lead mixing suits is always
//! illegal. [`State::for_each_legal_action`] enumerates without allocating.

use std::fmt;

use cards::Seat;

use crate::card::{Card, Cards, Rank, codes, points};
use crate::score::{self, DealEnd, DealResult, Outcome};
use crate::setup::{self, HandSetup, SetupError};
use crate::trump::{EffSuit, Tables, Trump};
use crate::variants::{Annul, FirstDrawer, Revoke, Variants};

/// The phase of a deal.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "DabaifenPhase"))]
pub enum Phase {
    /// Cards are being drawn; a seat that may show a trump-rank card is asked (§4).
    Drawing,
    /// Trumps are fixed; seats without a trump are asked whether they annul (§6).
    Annulling,
    /// The starter has taken the kitty and buries six cards (§7).
    Burying,
    /// Tricks are being played (§8).
    Playing,
    /// The deal is over; see [`State::result`].
    Over,
}

/// A choice of the seat to move; the only way to change a [`State`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Decline: not to declare now (draw poll), or not to annul (annulment poll).
    Pass,
    /// Show this trump-rank card to fix the trump suit (§4); in an open deal also the rank (§6).
    Declare(Card),
    /// Show a hand with no trump and annul the deal (§6).
    Annul,
    /// The starter's six buried cards (§7).
    Bury(Cards),
    /// Cards played to a trick: a lead or a follow (§8).
    Play(Cards),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Pass => f.write_str("pass"),
            Action::Declare(c) => write!(f, "declare {c}"),
            Action::Annul => f.write_str("annul"),
            Action::Bury(s) => write!(f, "bury {s}"),
            Action::Play(s) => write!(f, "play {s}"),
        }
    }
}

/// Written as a record action without the seat: `{"pass": true}`, `{"declare": "2H"}`,
/// `{"annul": true}`, `{"bury": ["3C", …]}`, `{"play": ["AS", "KS"]}`.
impl serde::Serialize for Action {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(1))?;
        match self {
            Action::Pass => m.serialize_entry("pass", &true)?,
            Action::Declare(c) => m.serialize_entry("declare", c)?,
            Action::Annul => m.serialize_entry("annul", &true)?,
            Action::Bury(set) => m.serialize_entry("bury", &set.iter().collect::<Vec<Card>>())?,
            Action::Play(set) => m.serialize_entry("play", &set.iter().collect::<Vec<Card>>())?,
        }
        m.end()
    }
}

/// Read from the same shape: exactly one of `pass: true`, `declare` (a card), `annul: true`
/// (`annul: false` is a pass), `bury` or `play` (lists of distinct cards).
impl<'de> serde::Deserialize<'de> for Action {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Action, D::Error> {
        use serde::de::Error;
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Raw {
            pass: Option<bool>,
            declare: Option<Card>,
            annul: Option<bool>,
            bury: Option<Vec<Card>>,
            play: Option<Vec<Card>>,
        }
        fn set<E: Error>(cards: Vec<Card>) -> Result<Cards, E> {
            let mut out = Cards::EMPTY;
            for c in cards {
                if !out.insert(c) {
                    return Err(E::custom(format!("{c} is listed twice")));
                }
            }
            Ok(out)
        }
        let r = Raw::deserialize(d)?;
        match (r.pass, r.declare, r.annul, r.bury, r.play) {
            (Some(true), None, None, None, None) | (None, None, Some(false), None, None) => Ok(Action::Pass),
            (None, Some(c), None, None, None) => Ok(Action::Declare(c)),
            (None, None, Some(true), None, None) => Ok(Action::Annul),
            (None, None, None, Some(v), None) => Ok(Action::Bury(set(v)?)),
            (None, None, None, None, Some(v)) => Ok(Action::Play(set(v)?)),
            _ => Err(D::Error::custom(
                "an action has exactly one of `pass: true`, `declare`, `annul`, `bury`, `play`",
            )),
        }
    }
}

/// A trump-rank card shown during the draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Declaration {
    /// Who showed it.
    pub seat: Seat,
    /// The card shown (it stays in his hand).
    pub card: Card,
    /// How many cards had been drawn in all when it was shown (1–48).
    pub drawn: u8,
}

/// How the kitty fixed the trump suit when nobody declared (§5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct KittyTurn {
    /// How many kitty cards were turned face up (`deck[48]` first).
    pub turned: u8,
    /// The card that fixed the suit.
    pub card: Card,
    /// True when it was a trump-rank card; false when no such card came and the highest non-joker
    /// of the six decided (§12.4).
    pub by_rank: bool,
}

/// One trick (§8).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Trick {
    /// Who led.
    pub leader: Seat,
    /// What each seat played (empty while it has not played).
    pub plays: [Cards; 4],
    /// How many seats have played.
    pub count: u8,
    /// The effective suit of the lead.
    pub suit: EffSuit,
    /// How many cards the lead had (each follower plays as many).
    pub size: u8,
    /// The winner, once all four have played.
    pub winner: Option<Seat>,
    /// The card points in the trick.
    pub points: u32,
}

impl Trick {
    const EMPTY: Trick = Trick {
        leader: Seat::ALL[0],
        plays: [Cards::EMPTY; 4],
        count: 0,
        suit: EffSuit(0),
        size: 0,
        winner: None,
        points: 0,
    };

    /// The plays in the order they were made, with their seats.
    pub fn in_order(&self) -> impl Iterator<Item = (Seat, Cards)> + '_ {
        (0..self.count).map(|i| {
            let s = self.leader.offset(i);
            (s, self.plays[s.index()])
        })
    }
}

/// Why an action cannot be taken now; its text names the seat and the cards.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalAction {
    /// Nothing can be done: the deal is over.
    #[error("the deal is over")]
    DealOver,
    /// The action is not one of this phase's.
    #[error("{seat} cannot {what} now: {why}")]
    WrongPhase {
        /// The seat that acted.
        seat: Seat,
        /// What it tried to do, as a verb (`"bury"`, `"play"`, …).
        what: &'static str,
        /// Why the phase does not allow it, in words.
        why: &'static str,
    },
    /// A declaration that the rules do not allow.
    #[error("{seat} cannot declare {card}: {why}")]
    BadDeclaration {
        /// The seat that declared.
        seat: Seat,
        /// The card it tried to show.
        card: Card,
        /// Why it may not show that card (a joker, not the trump rank, not drawn yet), in words.
        why: String,
    },
    /// Cards the seat does not hold.
    #[error("{seat} does not hold {cards}")]
    NotHeld {
        /// The seat that acted.
        seat: Seat,
        /// The codes of the cards it named but does not hold.
        cards: String,
    },
    /// A burial of the wrong size.
    #[error("{seat} must bury exactly 6 cards, not {count}")]
    BuryCount {
        /// The starter, who buries.
        seat: Seat,
        /// How many cards it tried to bury (the rule is 6, §7).
        count: u32,
    },
    /// A play with no card.
    #[error("{seat} must play at least one card")]
    EmptyPlay {
        /// The seat that played.
        seat: Seat,
    },
    /// A multi-card lead of several suits (§12.7).
    #[error("{seat} cannot lead {cards} together: a lead of several cards must be of one suit")]
    MixedLead {
        /// The leader.
        seat: Seat,
        /// The codes of the cards led.
        cards: String,
    },
    /// A multi-card lead with a card that is not a top card, under `revoke: refuse`.
    #[error("{seat} cannot lead {cards}: {card} is not a top card ({holder} holds {stronger})")]
    NotTop {
        /// The leader.
        seat: Seat,
        /// The codes of the cards led.
        cards: String,
        /// A led card that is not a top card of its suit.
        card: Card,
        /// A seat that holds a stronger card of that suit.
        holder: Seat,
        /// That stronger card.
        stronger: Card,
    },
    /// A follow with the wrong number of cards.
    #[error("{seat} must play {size} card{s} to this trick, not {count}", s = if *size == 1 { "" } else { "s" })]
    WrongCount {
        /// The seat that followed.
        seat: Seat,
        /// The number of cards led, which every follow must match (§8).
        size: u8,
        /// How many it played.
        count: u32,
    },
    /// A follow that does not follow suit as §8 requires.
    #[error("{seat} must follow {suit} (holds {held})")]
    MustFollow {
        /// The seat that followed.
        seat: Seat,
        /// The suit led (the trumps counting as one suit).
        suit: EffSuit,
        /// The codes of the cards of that suit it holds.
        held: String,
    },
    /// A follow of a multi-card lead with too few cards of the led suit.
    #[error(
        "{seat} must play {need} of its {suit} to follow this lead of {size}, not {played} (holds {held})"
    )]
    MustFollowMany {
        /// The seat that followed.
        seat: Seat,
        /// The suit led (the trumps counting as one suit).
        suit: EffSuit,
        /// The number of cards led.
        size: u8,
        /// How many cards of the led suit it must play: all it holds, up to `size`.
        need: u32,
        /// How many cards of the led suit it played.
        played: u32,
        /// The codes of the cards of that suit it holds.
        held: String,
    },
}

const NEVER: u8 = 99;

/// The points of each card by number (§1).
const CARD_POINTS: [u8; 54] = {
    let mut p = [0u8; 54];
    let mut c = 0;
    while c < 52 {
        p[c] = match c % 13 {
            3 => 5,
            8 | 11 => 10,
            _ => 0,
        };
        c += 1;
    }
    p
};

/// A deal in progress (or over).
#[derive(Clone, Debug)]
pub struct State {
    pub(crate) deck: [Card; 54],
    pub(crate) variants: Variants,
    pub(crate) first_deal: bool,
    pub(crate) open: bool,
    pub(crate) ranks: [Rank; 2],
    pub(crate) provisional: Seat,
    pub(crate) first_drawer: Seat,
    /// Each seat's twelve cards once the draw is complete.
    pub(crate) dealt: [u64; 4],
    pub(crate) kitty: u64,
    /// The cards each seat may show.
    pub(crate) eligible: [u64; 4],
    /// The draw count at which each seat first holds a card it may show (`NEVER` if none).
    pub(crate) first_eligible: [u8; 4],
    pub(crate) min_first_eligible: u8,
    pub(crate) drawn: u8,
    /// Index of the asked seat, counted from the drawer of card `drawn` (draw) or the starter (annul).
    pub(crate) poll: u8,
    pub(crate) declaration: Option<Declaration>,
    pub(crate) kitty_turn: Option<KittyTurn>,
    pub(crate) trump: Option<Trump>,
    pub(crate) tables: &'static Tables,
    pub(crate) starter: Seat,
    /// Seats (bit per seat) asked in the annulment polls.
    pub(crate) annul_candidates: u8,
    pub(crate) annul_passed: u8,
    pub(crate) annulled_by: Option<Seat>,
    pub(crate) hands: [u64; 4],
    pub(crate) buried: u64,
    pub(crate) tricks: [Trick; 12],
    pub(crate) trick_no: u8,
    pub(crate) team_points: [u32; 2],
    pub(crate) revoke: Option<Seat>,
    pub(crate) phase: Phase,
    /// The seat to move (kept up to date by every transition).
    pub(crate) mover: Option<Seat>,
    pub(crate) result: Option<DealResult>,
}

#[inline]
fn bit(c: Card) -> u64 {
    1u64 << c.number()
}

#[inline]
fn set_codes(set: u64, t: Option<&Tables>) -> String {
    match t {
        Some(t) => codes(t.sorted(Cards::from_bits(set))),
        None => codes(crate::trump::sorted_plain(Cards::from_bits(set))),
    }
}

impl State {
    /// Checks a setup and deals: the state waits for the first poll of the draw (or has gone on
    /// to the kitty, the annulment polls or the burial if nobody can be asked).
    pub fn new(setup: &HandSetup) -> Result<State, SetupError> {
        setup::check(setup)?;
        Ok(State::new_unchecked(setup))
    }

    /// [`State::new`] without the checks, for a setup known to be valid (e.g. made by a
    /// [`crate::Match`] from a shuffled deck).
    #[inline]
    pub fn new_unchecked(setup: &HandSetup) -> State {
        let first_drawer = match setup.variants.first_drawer {
            FirstDrawer::Starter => setup.starter,
            FirstDrawer::StarterRight => setup.starter.next(),
        };
        let mut eligible = [0u64; 4];
        for s in Seat::ALL {
            // §4 / §12.2: the (provisional) starter's team rank; in an open deal, one's own team's.
            let team = if setup.open { s.team() } else { setup.starter.team() };
            eligible[s.index()] = setup.ranks[team as usize].mask().bits();
        }
        // §4: the first drawer takes deck[0], the next seat deck[1], …; deck[48..54] is the kitty.
        let mut by_turn = [0u64; 4];
        for i in 0..12 {
            for (j, d) in by_turn.iter_mut().enumerate() {
                *d |= bit(setup.deck[4 * i + j]);
            }
        }
        let mut dealt = [0u64; 4];
        let mut first_eligible = [NEVER; 4];
        for (j, &drawn) in by_turn.iter().enumerate() {
            let s = first_drawer.offset(j as u8).index();
            dealt[s] = drawn;
            if drawn & eligible[s] != 0 {
                // The seat draws deck[j], deck[j + 4], …: find its first card it may show.
                let i = (0..12).find(|&i| eligible[s] & bit(setup.deck[4 * i + j]) != 0).unwrap_or(12);
                first_eligible[s] = (4 * i + j + 1) as u8;
            }
        }
        let kitty = setup.deck[48..].iter().fold(0, |m, &c| m | bit(c));
        let mut st = State {
            deck: setup.deck,
            variants: setup.variants,
            first_deal: setup.first_deal,
            open: setup.open,
            ranks: setup.ranks,
            provisional: setup.starter,
            first_drawer,
            dealt,
            kitty,
            eligible,
            first_eligible,
            min_first_eligible: *first_eligible.iter().min().unwrap_or(&NEVER),
            drawn: 0,
            poll: 0,
            declaration: None,
            kitty_turn: None,
            trump: None,
            tables: Tables::of(Trump { suit: crate::Suit::Spades, rank: Rank::Two }),
            starter: setup.starter,
            annul_candidates: 0,
            annul_passed: 0,
            annulled_by: None,
            hands: [0; 4],
            buried: 0,
            tricks: [Trick::EMPTY; 12],
            trick_no: 0,
            team_points: [0; 2],
            revoke: None,
            phase: Phase::Drawing,
            mover: None,
            result: None,
        };
        st.seek_poll(1, 0);
        st
    }

    // -----------------------------------------------------------------------------------------
    // Reading the state

    /// The current phase.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The rules variants of the deal.
    pub fn variants(&self) -> &Variants {
        &self.variants
    }

    /// The deck as dealt.
    pub fn deck(&self) -> &[Card; 54] {
        &self.deck
    }

    /// The setup this deal was made from.
    pub fn setup(&self) -> HandSetup {
        HandSetup {
            deck: self.deck,
            starter: self.provisional,
            first_deal: self.first_deal,
            open: self.open,
            ranks: self.ranks,
            variants: self.variants,
        }
    }

    /// The seat that drew first (who took `deck[0]`).
    pub fn first_drawer(&self) -> Seat {
        self.first_drawer
    }

    /// The starter who drew first (the record's `starter`): provisional in first and open deals.
    pub fn provisional_starter(&self) -> Seat {
        self.provisional
    }

    /// The starter as things stand: after a declaration in a first or open deal, the declarer.
    pub fn starter(&self) -> Seat {
        self.starter
    }

    /// True for the match's first deal.
    pub fn is_first_deal(&self) -> bool {
        self.first_deal
    }

    /// True for an open deal (§6).
    pub fn is_open(&self) -> bool {
        self.open
    }

    /// The team ranks before the deal.
    pub fn ranks(&self) -> [Rank; 2] {
        self.ranks
    }

    /// The trumps, once fixed.
    pub fn trump(&self) -> Option<Trump> {
        self.trump
    }

    /// The card order of the fixed trumps.
    pub fn tables(&self) -> Option<&'static Tables> {
        self.trump.map(|_| self.tables)
    }

    /// How many cards have been drawn in all (48 once the draw is complete).
    pub fn drawn(&self) -> u8 {
        self.drawn
    }

    /// The declaration, if someone declared.
    pub fn declaration(&self) -> Option<Declaration> {
        self.declaration
    }

    /// How the kitty was turned, if it was.
    pub fn kitty_turn(&self) -> Option<KittyTurn> {
        self.kitty_turn
    }

    /// Who annulled the deal by showing a hand with no trump.
    pub fn annulled_by(&self) -> Option<Seat> {
        self.annulled_by
    }

    /// The seats that were asked whether to annul and declined.
    pub fn annul_declined(&self) -> impl Iterator<Item = Seat> + '_ {
        self.starter.from_here().into_iter().filter(|s| self.annul_passed >> s.index() & 1 != 0)
    }

    /// The seat that made a revoking lead.
    pub fn revoke(&self) -> Option<Seat> {
        self.revoke
    }

    /// The cards a seat holds now (during the draw: the cards it has drawn so far).
    pub fn hand(&self, seat: Seat) -> Cards {
        Cards::from_bits(match self.phase {
            Phase::Drawing => self.dealt[seat.index()] & self.drawn_mask(),
            Phase::Annulling => self.dealt[seat.index()],
            _ if self.trump.is_none() => self.dealt[seat.index()] & self.drawn_mask(),
            _ => self.hands[seat.index()],
        })
    }

    /// The seat's twelve drawn cards.
    pub fn dealt(&self, seat: Seat) -> Cards {
        Cards::from_bits(self.dealt[seat.index()])
    }

    /// The six kitty cards as dealt (`deck[48..54]`).
    pub fn kitty(&self) -> Cards {
        Cards::from_bits(self.kitty)
    }

    /// The six buried cards (empty before the burial).
    pub fn buried(&self) -> Cards {
        Cards::from_bits(self.buried)
    }

    /// The tricks played or begun, in order.
    pub fn tricks(&self) -> &[Trick] {
        let begun = matches!(self.phase, Phase::Playing | Phase::Over) && self.buried != 0;
        &self.tricks[..if begun { self.trick_no as usize + 1 } else { 0 }]
    }

    /// The card points each team has taken in tricks so far.
    pub fn team_points(&self) -> [u32; 2] {
        self.team_points
    }

    /// The cards a seat may show now if it is asked in the draw (§4, §12.2).
    pub fn declarable(&self, seat: Seat) -> Cards {
        if self.phase != Phase::Drawing {
            return Cards::EMPTY;
        }
        let held = self.dealt[seat.index()] & self.eligible[seat.index()];
        if held == 0 {
            return Cards::EMPTY;
        }
        Cards::from_bits(held & self.drawn_mask())
    }

    /// The seat to act, or `None` once the deal is over.
    #[inline]
    pub fn to_move(&self) -> Option<Seat> {
        self.mover
    }

    /// The result, once the deal is over.
    pub fn result(&self) -> Option<&DealResult> {
        self.result.as_ref()
    }

    /// The result as the record format's result object, once the deal is over.
    pub fn to_record_result(&self) -> Option<crate::format::DabaifenResult> {
        self.result.as_ref().map(DealResult::to_record)
    }

    /// The seat that draws card number `k` (1-based).
    #[inline]
    fn drawer_of(&self, k: u8) -> Seat {
        self.first_drawer.offset(k.wrapping_sub(1) & 3)
    }

    /// The cards held by the players other than `seat` (the kitty and played cards excluded).
    #[inline]
    pub(crate) fn others(&self, seat: Seat) -> u64 {
        (self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]) & !self.hands[seat.index()]
    }

    /// The top cards (§8) a seat holds: no strictly stronger card of the same effective suit in
    /// another player's hand (played cards, his own cards and the buried kitty do not count).
    pub fn top_cards(&self, seat: Seat) -> Cards {
        if self.trump.is_none() {
            return Cards::EMPTY;
        }
        Cards::from_bits(self.tops_in(seat, self.hands[seat.index()]))
    }

    #[inline]
    pub(crate) fn tops_in(&self, seat: Seat, cards: u64) -> u64 {
        let others = self.others(seat);
        let t = self.tables;
        let mut out = 0;
        let mut b = cards;
        while b != 0 {
            let suit = t.eff[b.trailing_zeros() as usize] as usize;
            let mine = cards & t.suit_mask[suit];
            out |= t.tops(mine, others, suit);
            b &= !mine;
        }
        out
    }

    // -----------------------------------------------------------------------------------------
    // The draw (§4, §5)

    /// The cards drawn so far (`deck[..drawn]`).
    fn drawn_mask(&self) -> u64 {
        self.deck[..self.drawn as usize].iter().fold(0, |m, &c| m | bit(c))
    }

    fn set_drawn(&mut self, k: u8) {
        self.drawn = k;
    }

    /// Moves to the first poll at or after (card `k`, index `i`), drawing as needed; ends the
    /// draw when there is none.
    #[inline]
    fn seek_poll(&mut self, mut k: u8, mut i: u8) {
        loop {
            if k < self.min_first_eligible {
                k = self.min_first_eligible;
                i = 0;
            }
            if k > 48 {
                self.set_drawn(48);
                self.end_draw_without_declaration();
                return;
            }
            // The seats asked at card k: those already holding a card they may show, as a mask
            // rotated so that bit j is the seat j places after the drawer of card k.
            let f = &self.first_eligible;
            let m = u32::from(f[0] <= k)
                | u32::from(f[1] <= k) << 1
                | u32::from(f[2] <= k) << 2
                | u32::from(f[3] <= k) << 3;
            let d = self.drawer_of(k);
            let rot = ((m | m << 4) >> d.index()) & 0xF;
            let rest = rot >> i << i;
            if rest != 0 {
                let j = rest.trailing_zeros() as u8;
                self.set_drawn(k);
                self.poll = j;
                self.mover = Some(d.offset(j));
                return;
            }
            k += 1;
            i = 0;
        }
    }

    fn declare(&mut self, seat: Seat, card: Card) {
        self.declaration = Some(Declaration { seat, card, drawn: self.drawn });
        // §4: its suit becomes trumps; §6: in an open deal also its rank (his own team's).
        let (Some(suit), Some(rank)) = (card.suit(), card.rank()) else {
            // Only trump-rank cards can be declared; jokers have no rank.
            unreachable!("a declared card is never a joker")
        };
        self.trump = Some(Trump { suit, rank });
        // §12.3: first and open deals: the declarer becomes the starter.
        if self.first_deal || self.open {
            self.starter = seat;
        }
        self.set_drawn(48);
        self.fix_trumps();
    }

    fn end_draw_without_declaration(&mut self) {
        if self.open {
            // §6 / §12.5: an open deal with no showing is annulled again, no action needed.
            self.phase = Phase::Over;
            self.finish(Outcome::Annulled);
            return;
        }
        // §5 / §12.4: turn the kitty, deck[48] first; the first trump-rank card fixes the suit;
        // else the highest non-joker (first turned among equals).
        let rank = self.ranks[self.provisional.team() as usize];
        let mut best: Option<(Card, u8)> = None;
        let mut turn = None;
        for p in 48..54 {
            let c = self.deck[p];
            let (Some(_), Some(r)) = (c.suit(), c.rank()) else { continue };
            if r == rank {
                turn = Some(KittyTurn { turned: (p - 47) as u8, card: c, by_rank: true });
                break;
            }
            if best.is_none_or(|(b, _)| r > b.rank().unwrap_or(Rank::Two)) {
                best = Some((c, (p - 47) as u8));
            }
        }
        let turn = turn.unwrap_or_else(|| {
            // At most two of the six are jokers, so a highest non-joker exists.
            let (card, _) = best.expect("the kitty holds at least four non-jokers");
            KittyTurn { turned: 6, card, by_rank: false }
        });
        self.kitty_turn = Some(turn);
        let suit = turn.card.suit().expect("a turned card that decides is never a joker");
        self.trump = Some(Trump { suit, rank });
        // §5: the provisional starter becomes the starter.
        self.starter = self.provisional;
        self.fix_trumps();
    }

    fn fix_trumps(&mut self) {
        let trump = self.trump.expect("fix_trumps is called once trumps are fixed");
        self.tables = Tables::of(trump);
        self.hands = self.dealt;
        // §6 / §12.5: seats whose 12 drawn cards hold no trump are asked, from the starter.
        let trumps = self.tables.suit_mask[4];
        let mut cand = 0u8;
        for s in Seat::ALL {
            let may = !(self.variants.annul == Annul::NonStartersOnly && s == self.starter);
            if may && self.dealt[s.index()] & trumps == 0 {
                cand |= 1 << s.index();
            }
        }
        self.annul_candidates = cand;
        if cand == 0 {
            self.start_burial();
        } else {
            self.phase = Phase::Annulling;
            self.seek_annul(0);
        }
    }

    fn seek_annul(&mut self, mut i: u8) {
        while i < 4 {
            if self.annul_candidates >> self.starter.offset(i).index() & 1 != 0 {
                self.poll = i;
                self.mover = Some(self.starter.offset(i));
                return;
            }
            i += 1;
        }
        self.start_burial();
    }

    fn start_burial(&mut self) {
        // §7: the starter adds the kitty to his hand.
        self.hands[self.starter.index()] |= self.kitty;
        self.phase = Phase::Burying;
        self.mover = Some(self.starter);
    }

    // -----------------------------------------------------------------------------------------
    // Legality

    /// Checks an action for the seat to move without applying it.
    pub fn check(&self, action: Action) -> Result<(), IllegalAction> {
        let Some(seat) = self.to_move() else { return Err(IllegalAction::DealOver) };
        let wrong =
            |what: &'static str, why: &'static str| Err(IllegalAction::WrongPhase { seat, what, why });
        match (self.phase, action) {
            (Phase::Drawing, Action::Pass) => Ok(()),
            (Phase::Drawing, Action::Declare(card)) => self.check_declare(seat, card),
            (Phase::Drawing, Action::Annul) => wrong("annul", "trumps are not fixed yet"),
            (Phase::Drawing, Action::Bury(_)) => wrong("bury", "the draw is not over"),
            (Phase::Drawing, Action::Play(_)) => wrong("play", "the draw is not over"),
            (Phase::Annulling, Action::Pass | Action::Annul) => Ok(()),
            (Phase::Annulling, Action::Declare(_)) => wrong("declare", "trumps are already fixed"),
            (Phase::Annulling, Action::Bury(_)) => wrong("bury", "it is asked whether it annuls the deal"),
            (Phase::Annulling, Action::Play(_)) => wrong("play", "it is asked whether it annuls the deal"),
            (Phase::Burying, Action::Bury(set)) => {
                let hand = self.hands[seat.index()];
                if set.bits() & !hand != 0 {
                    return Err(IllegalAction::NotHeld {
                        seat,
                        cards: set_codes(set.bits() & !hand, Some(self.tables)),
                    });
                }
                if set.len() != 6 {
                    return Err(IllegalAction::BuryCount { seat, count: set.len() });
                }
                Ok(())
            }
            (Phase::Burying, Action::Declare(_)) => wrong("declare", "trumps are already fixed"),
            (Phase::Burying, Action::Pass) => wrong("pass", "the starter must bury six cards"),
            (Phase::Burying, Action::Annul) => wrong("annul", "the starter has taken the kitty"),
            (Phase::Burying, Action::Play(_)) => wrong("play", "the starter must bury six cards first"),
            (Phase::Playing, Action::Play(set)) => self.check_play(seat, set.bits()),
            (Phase::Playing, Action::Declare(_)) => wrong("declare", "trumps are already fixed"),
            (Phase::Playing, Action::Annul) => wrong("annul", "play has begun"),
            (Phase::Playing, Action::Bury(_)) => wrong("bury", "the kitty is already buried"),
            (Phase::Playing, Action::Pass) => wrong("pass", "it must play"),
            (Phase::Over, _) => Err(IllegalAction::DealOver),
        }
    }

    /// The rank of the cards `seat` may show (§12.2): the (provisional) starter's team rank; in an
    /// open deal, the seat's own team's rank.
    pub fn declaration_rank(&self, seat: Seat) -> Rank {
        let team = if self.open { seat.team() } else { self.provisional.team() };
        self.ranks[team as usize]
    }

    /// Why `seat` may not show `card` whatever it holds (a joker, or a card of another rank).
    pub fn declaration_rank_error(&self, seat: Seat, card: Card) -> Option<IllegalAction> {
        let bad = |why: String| Some(IllegalAction::BadDeclaration { seat, card, why });
        let Some(rank) = card.rank() else { return bad("jokers cannot be declared".into()) };
        let want = self.declaration_rank(seat);
        if rank == want {
            None
        } else if self.open {
            bad(format!("in this open deal {seat} may show only his team's rank {want}"))
        } else {
            bad(format!("the trump rank is {want}"))
        }
    }

    fn check_declare(&self, seat: Seat, card: Card) -> Result<(), IllegalAction> {
        let bad = |why: String| Err(IllegalAction::BadDeclaration { seat, card, why });
        if let Some(e) = self.declaration_rank_error(seat, card) {
            return Err(e);
        }
        if self.dealt[seat.index()] & bit(card) == 0 {
            return Err(IllegalAction::NotHeld { seat, cards: card.to_string() });
        }
        if self.drawn_mask() & bit(card) == 0 {
            let p = self.deck.iter().position(|&c| c == card).unwrap_or(0);
            return bad(format!("{seat} has not drawn it yet (it is card {} of the draw)", p + 1));
        }
        Ok(())
    }

    fn check_play(&self, seat: Seat, set: u64) -> Result<(), IllegalAction> {
        let t = self.tables;
        let hand = self.hands[seat.index()];
        if set == 0 {
            return Err(IllegalAction::EmptyPlay { seat });
        }
        if set & !hand != 0 {
            return Err(IllegalAction::NotHeld { seat, cards: set_codes(set & !hand, Some(t)) });
        }
        let trick = &self.tricks[self.trick_no as usize];
        if trick.count == 0 {
            if set.count_ones() == 1 {
                return Ok(());
            }
            // §8 / §12.7: several cards must be of one effective suit.
            let suit = t.eff[set.trailing_zeros() as usize];
            if set & !t.suit_mask[suit as usize] != 0 {
                return Err(IllegalAction::MixedLead { seat, cards: set_codes(set, Some(t)) });
            }
            if self.variants.revoke == Revoke::Refuse {
                let bad = set & !self.tops_in(seat, set);
                if bad != 0 {
                    let card = Cards::from_bits(bad).first().expect("bad is not empty");
                    let others = self.others(seat) & t.stronger[card.number() as usize];
                    let stronger =
                        Cards::from_bits(others).last().expect("a non-top card has a stronger one");
                    let holder = Seat::ALL
                        .into_iter()
                        .find(|s| self.hands[s.index()] & bit(stronger) != 0)
                        .expect("the stronger card is in a hand");
                    return Err(IllegalAction::NotTop {
                        seat,
                        cards: set_codes(set, Some(t)),
                        card,
                        holder,
                        stronger,
                    });
                }
            }
            return Ok(());
        }
        let n = trick.size as u32;
        if set.count_ones() != n {
            return Err(IllegalAction::WrongCount { seat, size: trick.size, count: set.count_ones() });
        }
        let suit_mask = t.suit_mask[trick.suit.index()];
        let held = hand & suit_mask;
        let need = held.count_ones().min(n);
        let played = (set & suit_mask).count_ones();
        if played != need {
            let held = set_codes(held, Some(t));
            return Err(if n == 1 {
                IllegalAction::MustFollow { seat, suit: trick.suit, held }
            } else {
                IllegalAction::MustFollowMany { seat, suit: trick.suit, size: trick.size, need, played, held }
            });
        }
        Ok(())
    }

    // -----------------------------------------------------------------------------------------
    // Applying

    /// Applies an action of the seat to move after checking it.
    pub fn apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        self.check(action)?;
        self.apply_unchecked(action);
        Ok(())
    }

    /// Applies an action of the seat to move without checking it (the fast path for search and
    /// benchmarks). The action must be legal (see [`State::check`]); an illegal one may panic or
    /// leave the state meaningless (it is safe code: never undefined behaviour).
    #[inline]
    pub fn apply_unchecked(&mut self, action: Action) {
        let Some(seat) = self.mover else { return };
        match action {
            Action::Play(set) if self.phase == Phase::Playing => self.play(seat, set.bits()),
            Action::Pass if self.phase == Phase::Drawing => self.seek_poll(self.drawn, self.poll + 1),
            _ => self.apply_other(seat, action),
        }
    }

    /// The less frequent actions, kept out of line so the two hot paths stay small.
    #[inline(never)]
    fn apply_other(&mut self, seat: Seat, action: Action) {
        match (self.phase, action) {
            (Phase::Drawing, Action::Pass) => self.seek_poll(self.drawn, self.poll + 1),
            (Phase::Drawing, Action::Declare(card)) => self.declare(seat, card),
            (Phase::Annulling, Action::Annul) => {
                self.annulled_by = Some(seat);
                self.phase = Phase::Over;
                self.finish(Outcome::Annulled);
            }
            (Phase::Annulling, Action::Pass) => {
                self.annul_passed |= 1 << seat.index();
                self.seek_annul(self.poll + 1);
            }
            (Phase::Burying, Action::Bury(set)) => {
                self.hands[seat.index()] &= !set.bits();
                self.buried = set.bits();
                self.phase = Phase::Playing;
                self.trick_no = 0;
                self.tricks[0] = Trick { leader: seat, ..Trick::EMPTY };
                self.mover = Some(seat);
            }
            (Phase::Playing, Action::Play(set)) => self.play(seat, set.bits()),
            _ => {}
        }
    }

    #[inline]
    fn play(&mut self, seat: Seat, set: u64) {
        let ti = self.trick_no as usize;
        let trick = &mut self.tricks[ti];
        if trick.count == 0 {
            trick.suit = EffSuit(self.tables.eff[set.trailing_zeros() as usize]);
            trick.size = 1;
            // §8 Revoke: a multi-card lead with a non-top card (under `penalize`; `refuse`
            // rejected it in `check`).
            if set & (set - 1) != 0 && self.multi_lead(seat, set) {
                return;
            }
        }
        let trick = &mut self.tricks[ti];
        trick.plays[seat.index()] = Cards::from_bits(set);
        trick.count += 1;
        self.hands[seat.index()] &= !set;
        if trick.count < 4 {
            self.mover = Some(seat.next());
            return;
        }
        self.end_trick(ti);
    }

    /// A lead of several cards: records its size; true if it is a revoke (which ends the deal).
    #[inline(never)]
    fn multi_lead(&mut self, seat: Seat, set: u64) -> bool {
        let ti = self.trick_no as usize;
        self.tricks[ti].size = set.count_ones() as u8;
        if self.tops_in(seat, set) == set {
            return false;
        }
        self.tricks[ti].plays[seat.index()] = Cards::from_bits(set);
        self.tricks[ti].count = 1;
        self.hands[seat.index()] &= !set;
        self.revoke = Some(seat);
        self.phase = Phase::Over;
        self.finish(Outcome::Revoke);
        true
    }

    /// Decides a complete trick and moves on to the next one or the score.
    #[inline(never)]
    fn end_trick(&mut self, ti: usize) {
        let t = self.tables;
        let trick = &mut self.tricks[ti];
        // §8 Who wins: a play is eligible if all its cards are trumps or all are of the led
        // suit; the greatest key wins, ties to the earliest player.
        let mut winner = trick.leader;
        let pts;
        if trick.size == 1 {
            // The same rule for single cards: strength + 1 if a trump or of the led suit, else 0.
            // Packed as key × 4 + (3 − position) so that the maximum is the winner, ties to the
            // earlier player, without branches.
            let lead = trick.suit.0;
            let mut best = 0u32;
            let mut p = 0;
            for i in 0..4u8 {
                let s = trick.leader.offset(i);
                let c = trick.plays[s.index()].bits().trailing_zeros() as usize;
                let e = t.eff[c];
                let eligible = u32::from(e == 4) | u32::from(e == lead);
                let k = (u32::from(t.strength[c]) + 1) * eligible;
                best = best.max(k << 2 | u32::from(3 - i));
                p += u32::from(CARD_POINTS[c]);
            }
            winner = trick.leader.offset(3 - (best & 3) as u8);
            pts = p;
        } else {
            let trumps = t.suit_mask[4];
            let led = t.suit_mask[trick.suit.index()];
            let mut best = 0u64;
            let mut all = 0u64;
            for i in 0..4 {
                let s = trick.leader.offset(i);
                let p = trick.plays[s.index()].bits();
                all |= p;
                if p & !trumps == 0 || p & !led == 0 {
                    let k = t.key(p);
                    if k > best {
                        best = k;
                        winner = s;
                    }
                }
            }
            pts = points(Cards::from_bits(all));
        }
        trick.winner = Some(winner);
        trick.points = pts;
        self.team_points[winner.team() as usize] += pts;
        // Multi-card tricks use several cards each, so the deal ends when the hands are empty
        // (after 12 tricks at most).
        if self.hands[winner.index()] == 0 {
            self.phase = Phase::Over;
            self.finish(Outcome::Played);
        } else {
            self.trick_no += 1;
            self.tricks[ti + 1] = Trick { leader: winner, ..Trick::EMPTY };
            self.mover = Some(winner);
        }
    }

    fn finish(&mut self, outcome: Outcome) {
        self.mover = None;
        let last = &self.tricks[self.trick_no as usize];
        let end = DealEnd {
            starter: self.starter,
            trump: self.trump,
            ranks: self.ranks,
            buried: self.buried,
            revoke: self.revoke,
            last_winner: last.winner,
            last_size: last.size,
            team_points: self.team_points,
            kitty_multiplier: self.variants.kitty_multiplier,
            game_end: self.variants.game_end,
        };
        self.result = Some(score::score(&end, outcome));
    }

    // -----------------------------------------------------------------------------------------
    // Legal actions

    /// Calls `f` with every legal action of the seat to move, without allocating. Bury actions
    /// are the C(18, 6) = 18,564 six-card subsets of the starter's hand; leads are every single
    /// card, every subset of two or more top cards of one suit, and under `revoke: penalize`
    /// every other one-suit subset of two or more cards (a revoke); follows are every set of the
    /// right size with the required cards of the led suit.
    pub fn for_each_legal_action(&self, mut f: impl FnMut(Action)) {
        let Some(seat) = self.to_move() else { return };
        match self.phase {
            Phase::Drawing => {
                f(Action::Pass);
                for c in self.declarable(seat) {
                    f(Action::Declare(c));
                }
            }
            Phase::Annulling => {
                f(Action::Pass);
                f(Action::Annul);
            }
            Phase::Burying => {
                for_each_k_subset(self.hands[seat.index()], 6, |s| f(Action::Bury(Cards::from_bits(s))));
            }
            Phase::Playing => {
                let t = self.tables;
                let hand = self.hands[seat.index()];
                let trick = &self.tricks[self.trick_no as usize];
                if trick.count == 0 {
                    let mut b = hand;
                    while b != 0 {
                        f(Action::Play(Cards::from_bits(b & b.wrapping_neg())));
                        b &= b - 1;
                    }
                    for suit in 0..5 {
                        let mine = hand & t.suit_mask[suit];
                        if mine.count_ones() < 2 {
                            continue;
                        }
                        let tops = self.tops_in(seat, mine);
                        let revokes = self.variants.revoke == Revoke::Penalize;
                        let pool = if revokes { mine } else { tops };
                        for_each_subset_of_at_least_two(pool, |s| {
                            if s & !tops == 0 || revokes {
                                f(Action::Play(Cards::from_bits(s)));
                            }
                        });
                    }
                } else {
                    let n = trick.size as u32;
                    let led = hand & t.suit_mask[trick.suit.index()];
                    if led.count_ones() >= n {
                        for_each_k_subset(led, n, |s| f(Action::Play(Cards::from_bits(s))));
                    } else {
                        let rest = hand & !led;
                        for_each_k_subset(rest, n - led.count_ones(), |s| {
                            f(Action::Play(Cards::from_bits(led | s)))
                        });
                    }
                }
            }
            Phase::Over => {}
        }
    }

    /// Every legal action of the seat to move (a convenience; see
    /// [`State::for_each_legal_action`] for the allocation-free path).
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut v = Vec::new();
        self.legal_actions_into(&mut v);
        v
    }

    /// Fills `buf` (cleared first) with every legal action, reusing its allocation.
    pub fn legal_actions_into(&self, buf: &mut Vec<Action>) {
        buf.clear();
        self.for_each_legal_action(|a| buf.push(a));
    }

    /// How many legal actions the seat to move has.
    pub fn legal_action_count(&self) -> usize {
        let mut n = 0;
        self.for_each_legal_action(|_| n += 1);
        n
    }
}

/// Calls `f` with every subset of `mask` having exactly `k` members (Gosper's hack over the
/// compressed positions).
pub(crate) fn for_each_k_subset(mask: u64, k: u32, mut f: impl FnMut(u64)) {
    let m = mask.count_ones();
    if k > m {
        return;
    }
    if k == 0 {
        f(0);
        return;
    }
    let mut pos = [0u8; 64];
    let mut b = mask;
    let mut i = 0;
    while b != 0 {
        pos[i] = b.trailing_zeros() as u8;
        b &= b - 1;
        i += 1;
    }
    let limit = 1u64 << m;
    let mut x: u64 = (1 << k) - 1;
    while x < limit {
        let mut out = 0u64;
        let mut y = x;
        while y != 0 {
            out |= 1 << pos[y.trailing_zeros() as usize];
            y &= y - 1;
        }
        f(out);
        let c = x & x.wrapping_neg();
        let r = x + c;
        x = (((r ^ x) >> 2) / c) | r;
    }
}

/// Calls `f` with every subset of `mask` having two or more members.
pub(crate) fn for_each_subset_of_at_least_two(mask: u64, mut f: impl FnMut(u64)) {
    let mut sub = mask;
    while sub != 0 {
        if sub & (sub - 1) != 0 {
            f(sub);
        }
        sub = (sub - 1) & mask;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_subsets_are_all_and_distinct() {
        let mask = 0b1011_0110_1000_0001u64 << 7;
        for k in 0..=8 {
            let mut seen = std::collections::HashSet::new();
            for_each_k_subset(mask, k, |s| {
                assert_eq!(s & !mask, 0);
                assert_eq!(s.count_ones(), k);
                assert!(seen.insert(s));
            });
            let n = mask.count_ones() as u64;
            let binom = (0..k as u64).fold(1u64, |a, i| a * (n - i) / (i + 1));
            assert_eq!(seen.len() as u64, binom, "k={k}");
        }
        let mut n = 0;
        for_each_subset_of_at_least_two(0b1111, |s| {
            assert!(s.count_ones() >= 2);
            n += 1
        });
        assert_eq!(n, 11);
    }
}

#[cfg(test)]
mod action_serde_tests {
    use super::*;

    #[test]
    fn actions_round_trip_as_record_actions() {
        let two: Cards = ["AS", "KS"].iter().map(|c| c.parse::<Card>().unwrap()).collect();
        for a in [Action::Pass, Action::Declare("2H".parse().unwrap()), Action::Annul, Action::Play(two)] {
            let j = serde_json::to_string(&a).unwrap();
            assert_eq!(serde_json::from_str::<Action>(&j).unwrap(), a, "{j}");
        }
        assert_eq!(
            serde_json::to_string(&Action::Declare("2H".parse().unwrap())).unwrap(),
            r#"{"declare":"2H"}"#
        );
        let e = serde_json::from_str::<Action>(r#"{"play":["AS","AS"]}"#).unwrap_err().to_string();
        assert!(e.contains("AS is listed twice"), "{e}");
        assert!(serde_json::from_str::<Action>(r#"{"play":["AS"],"annul":true}"#).is_err());
        assert!(serde_json::from_str::<Action>(r#"{"play":["ZZ"]}"#).is_err());
        assert_eq!(serde_json::from_str::<Action>(r#"{"annul":false}"#).unwrap(), Action::Pass);
    }
}
