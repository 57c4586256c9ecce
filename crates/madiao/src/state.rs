//! A hand of Madiao: the unvalidated [`HandSetup`], the validated [`State`], the one [`Action`]
//! type, legality (§4.3 redeal choices, §5 play) and the fast unchecked path.

use std::fmt;

use crate::format::MadiaoOutcome;
use cards::{BySeat, Seat};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::card::{Card, Cards, SUIT_BITS, SUIT_OF, Suit, TOPS};
use crate::deal::{counts_eight_reds, counts_flush, counts_long_suit, deal_hands_counted, first_recipient};
use crate::declare::{Melds, has_four_lowest};
use crate::variants::{FaceupDiscard, Variants};

/// Where a hand stands within its match: what `game_over` is counted from (§7).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct MatchProgress {
    /// Hands of the match played before this one, long-suit redeals not counted (§7).
    pub hands_before: u32,
    /// The seats that banked at least once before this hand.
    pub banked: BySeat<bool>,
}

/// Everything that fixes a hand before anyone acts, as given (not yet checked).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct HandSetup {
    /// The banker (樁家).
    pub banker: Seat,
    /// Chips per stake (an even number, at least 2). Payoffs stay in stakes.
    pub stake: u32,
    /// The pack after shuffling and cutting, top first; `deck[39]` is the cut card and upcard.
    pub deck: [Card; 40],
    /// The rules.
    pub variants: Variants,
    /// The match so far.
    pub progress: MatchProgress,
}

impl HandSetup {
    /// A setup with the default stake (2), the `standard` rules, and no hands before it.
    pub fn new(banker: Seat, deck: [Card; 40]) -> HandSetup {
        HandSetup { banker, stake: 2, deck, variants: Variants::STANDARD, progress: MatchProgress::default() }
    }
}

/// Why a setup is not a hand.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The same card twice in the deck.
    #[error("deck[{second}]: card {card} appears twice (also at deck[{first}])")]
    DuplicateCard {
        /// The card that appears twice.
        card: Card,
        /// Its first position in the deck, from 0.
        first: usize,
        /// Its second position in the deck.
        second: usize,
    },
    /// An odd or zero stake.
    #[error("stake must be a positive even number of chips, not {0}")]
    BadStake(u32),
}

/// The phase a hand is in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "MadiaoPhase"))]
pub enum Phase {
    /// §4.3 Long-suit holders are asked, in play order from the first recipient, whether they force
    /// a redeal.
    Redeal,
    /// §5 The eight tricks.
    Play,
    /// The hand is over (settled).
    Over,
}

/// The one way to change a hand. The acting seat is always [`State::to_move`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Put a card face up: a lead, a capture, or a face-up discard (§5).
    Play(Card),
    /// Put a card face down (滅, §5).
    Slough(Card),
    /// Force (`true`) or decline (`false`) a long-suit redeal (§4.3).
    Redeal(bool),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Play(c) => write!(f, "play {c}"),
            Action::Slough(c) => write!(f, "slough {c}"),
            Action::Redeal(true) => f.write_str("force a redeal"),
            Action::Redeal(false) => f.write_str("decline a redeal"),
        }
    }
}

/// Written as a record action without the seat: `{"play": "M9"}`, `{"slough": "S1"}`,
/// `{"redeal": true}`.
impl Serialize for Action {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(1))?;
        match self {
            Action::Play(c) => m.serialize_entry("play", c)?,
            Action::Slough(c) => m.serialize_entry("slough", c)?,
            Action::Redeal(b) => m.serialize_entry("redeal", b)?,
        }
        m.end()
    }
}

/// Read from the same shape: exactly one of `play`, `slough` (a card code) or `redeal` (a boolean).
impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Action, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Raw {
            play: Option<Card>,
            slough: Option<Card>,
            redeal: Option<bool>,
        }
        let r = Raw::deserialize(d)?;
        match (r.play, r.slough, r.redeal) {
            (Some(c), None, None) => Ok(Action::Play(c)),
            (None, Some(c), None) => Ok(Action::Slough(c)),
            (None, None, Some(b)) => Ok(Action::Redeal(b)),
            _ => Err(serde::de::Error::custom("an action has exactly one of `play`, `slough`, `redeal`")),
        }
    }
}

/// Why an action is not allowed now. The text names the seat and the card and gives the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalAction {
    /// Nothing can be done in a finished hand.
    #[error("the hand is over")]
    HandOver,
    /// A redeal choice outside the declarations.
    #[error("{seat} cannot choose a redeal now: the declarations are over and play has begun")]
    NoRedealNow {
        /// The seat that chose.
        seat: Seat,
    },
    /// A card played while a redeal choice is pending.
    #[error("{seat} must first say whether to force a redeal with a long suit (§4.3)")]
    RedealPending {
        /// The seat that played, and must say first whether to force a redeal (§4.3).
        seat: Seat,
    },
    /// A card the seat does not hold.
    #[error("{seat} does not hold {card}")]
    NotHeld {
        /// The seat that played.
        seat: Seat,
        /// The card it does not hold.
        card: Card,
    },
    /// §9.5 The leader sloughing.
    #[error("{seat} leads and must play face up, not slough {card} (§9.5)")]
    LeaderMustPlayFaceUp {
        /// The leader.
        seat: Seat,
        /// The card he tried to slough.
        card: Card,
    },
    /// A face-up card that is not a capture under `faceup_discard: forbidden`.
    #[error(
        "{seat} cannot {what} {card}: {why} (a face-up discard is forbidden under faceup_discard: \
         forbidden; slough it face down)",
        what = if card.suit() == *led { "capture with" } else { "play face up" },
        why = if card.suit() == *led {
            format!("the best {led} card so far is {best}")
        } else {
            format!("{led} were led and the best so far is {best}")
        }
    )]
    NotACapture {
        /// The seat that played.
        seat: Seat,
        /// The card played face up.
        card: Card,
        /// The suit led to the trick (§5).
        led: Suit,
        /// The best card of the led suit in the trick so far, which a capture must beat.
        best: Card,
    },
}

/// A list of legal actions without allocation (at most 16: each of 8 cards face up or down).
#[derive(Copy, Clone, Debug)]
pub struct ActionList {
    items: [Action; 16],
    len: u8,
}

impl Default for ActionList {
    fn default() -> Self {
        ActionList { items: [Action::Redeal(false); 16], len: 0 }
    }
}

impl ActionList {
    #[inline]
    fn push(&mut self, a: Action) {
        // At most 16 actions exist at any point (8 cards × 2 ways), so this stays in bounds.
        self.items[self.len as usize] = a;
        self.len += 1;
    }

    /// The actions.
    #[inline]
    pub fn as_slice(&self) -> &[Action] {
        &self.items[..self.len as usize]
    }

    /// How many actions.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// True when there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// How a card was played to a trick.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum PlayKind {
    /// The first card of the trick, face up.
    Lead,
    /// A face-up card of the led suit above the best so far (捉). At trick 8 by a seat without a
    /// trick, a capture in form only: it cannot win (§9.6).
    Capture,
    /// A face-down card (滅).
    Slough,
    /// A face-up card that is not a capture (§5, penalized under `penalty`).
    Discard,
}

/// One card played, as the history shows it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Play {
    /// The trick, 0–7.
    pub trick: u8,
    /// Who played it.
    pub seat: Seat,
    /// The card.
    pub card: Card,
    /// How it was played.
    pub kind: PlayKind,
    /// False for a card that cannot win: a face-down card, or at trick 8 the card of a seat that
    /// won none of the first seven tricks (§5, §9.6).
    pub can_win: bool,
}

/// A validated hand in progress or finished.
#[derive(Clone, Debug)]
pub struct State {
    pub(crate) deck: [Card; 40],
    pub(crate) variants: Variants,
    pub(crate) progress: MatchProgress,
    pub(crate) stake: u32,
    pub(crate) banker: Seat,
    pub(crate) first: Seat,
    /// The seat dealt `TB`, if it was dealt (§9.10).
    pub(crate) hm_holder: Option<Seat>,
    /// §6 The reward cards: the four tops, the upcard's suit promoted to its second card.
    pub(crate) reward: u64,
    pub(crate) stock: u64,
    pub(crate) dealt: [u64; 4],
    pub(crate) hands: [u64; 4],
    pub(crate) phase: Phase,
    pub(crate) outcome: Option<MadiaoOutcome>,
    /// Seats holding a meld (bit per seat).
    pub(crate) meld_holders: u8,
    /// The seat holding the four lowest, if the hand ended that way.
    pub(crate) four_lowest: Option<Seat>,
    /// Seats with a long suit (bit per seat).
    pub(crate) redeal_eligible: u8,
    /// Distance from the first recipient of the next seat to ask (4 when all were asked).
    pub(crate) redeal_ask: u8,
    pub(crate) redeal_forced: Option<Seat>,
    pub(crate) to_move: Seat,
    pub(crate) trick: u8,
    pub(crate) pos: u8,
    /// Mask of the led suit.
    pub(crate) led: u64,
    /// Number of the best counting card of the led suit so far.
    pub(crate) best: u8,
    pub(crate) best_seat: Seat,
    /// At trick 8, the seats without a trick whose cards do not count (bit per seat).
    pub(crate) ignored: u8,
    pub(crate) plays: [Card; 32],
    pub(crate) leaders: [Seat; 8],
    pub(crate) winners: [Seat; 8],
    /// Plays (by index trick·4 + position) made face up.
    pub(crate) face_up: u32,
    /// Plays (by index) that were face-up discards.
    pub(crate) discards: u32,
    pub(crate) tricks: [u8; 4],
    /// The winning cards of the tricks each seat won.
    pub(crate) won: [u64; 4],
    /// Every card played face up.
    pub(crate) faceup_cards: u64,
}

impl State {
    /// §3–§4 Checks the setup, deals, and settles the automatic declarations: a meld or the four
    /// lowest end the hand at once; otherwise long-suit holders are asked (phase [`Phase::Redeal`])
    /// or play begins.
    pub fn new(setup: HandSetup) -> Result<State, SetupError> {
        if setup.stake == 0 || !setup.stake.is_multiple_of(2) {
            return Err(SetupError::BadStake(setup.stake));
        }
        let mut seen = 0u64;
        for (i, c) in setup.deck.iter().enumerate() {
            if seen & c.bit() != 0 {
                // Only reachable for a duplicate; find its first place for the message.
                let first = setup.deck.iter().position(|d| d == c).unwrap_or(0);
                return Err(SetupError::DuplicateCard { card: *c, first, second: i });
            }
            seen |= c.bit();
        }
        Ok(State::new_from_valid(setup))
    }

    /// [`State::new`] for a deck known to hold each card once and a valid stake.
    #[inline]
    pub(crate) fn new_from_valid(setup: HandSetup) -> State {
        let deck = setup.deck;
        let banker = setup.banker;
        let upcard = deck[39];
        // §3 The cut card decides the first recipient, who leads trick 1.
        let first = first_recipient(banker, upcard);
        let (dealt, counts) = deal_hands_counted(&deck, first);
        let stock = deck[32..].iter().fold(0u64, |m, c| m | c.bit());
        let hm_holder = Seat::ALL.into_iter().find(|s| dealt[s.index()] & Card::TB.bit() != 0);
        let tops = TOPS.bits();
        let reward = crate::card::reward_cards(upcard).bits();
        let mut st = State {
            deck,
            variants: setup.variants,
            progress: setup.progress,
            stake: setup.stake,
            banker,
            first,
            hm_holder,
            reward,
            stock,
            dealt,
            hands: dealt,
            phase: Phase::Play,
            outcome: None,
            meld_holders: 0,
            four_lowest: None,
            redeal_eligible: 0,
            redeal_ask: 4,
            redeal_forced: None,
            to_move: first,
            trick: 0,
            pos: 0,
            led: 0,
            best: 0,
            best_seat: first,
            ignored: 0,
            plays: [Card::W9; 32],
            leaders: [first; 8],
            winners: [first; 8],
            face_up: 0,
            discards: 0,
            tricks: [0; 4],
            won: [0; 4],
            faceup_cards: 0,
        };
        // §4.1 Melds, checked first.
        // (From the packed suit and red counts: a meld needs the four tops, a flush or 8 reds.)
        for s in 0..4 {
            let c = counts[s];
            if dealt[s] & tops == tops || counts_flush(c) || counts_eight_reds(c) {
                st.meld_holders |= 1 << s;
            }
        }
        if st.meld_holders != 0 {
            st.end(MadiaoOutcome::Meld);
            return st;
        }
        // §4.2 The four lowest.
        if let Some(s) = Seat::ALL.into_iter().find(|s| has_four_lowest(Cards::from_bits(dealt[s.index()]))) {
            st.four_lowest = Some(s);
            st.end(MadiaoOutcome::FourLowest);
            return st;
        }
        // §4.3 Long suits: asked in play order from the first recipient.
        for (s, &c) in counts.iter().enumerate() {
            if counts_long_suit(c) {
                st.redeal_eligible |= 1 << s;
            }
        }
        if st.redeal_eligible != 0 {
            st.phase = Phase::Redeal;
            st.redeal_ask = 0;
            st.advance_redeal_ask();
        }
        st
    }

    fn end(&mut self, outcome: MadiaoOutcome) {
        self.phase = Phase::Over;
        self.outcome = Some(outcome);
    }

    /// Moves the redeal question to the next long-suit holder at or after `redeal_ask`, or starts
    /// play when there is none.
    #[inline]
    fn advance_redeal_ask(&mut self) {
        while self.redeal_ask < 4 {
            let s = self.first.offset(self.redeal_ask);
            if self.redeal_eligible & (1 << s.index()) != 0 {
                self.to_move = s;
                return;
            }
            self.redeal_ask += 1;
        }
        self.phase = Phase::Play;
        self.to_move = self.first;
    }

    /// The seat whose turn it is, or `None` when the hand is over.
    #[inline]
    pub fn to_move(&self) -> Option<Seat> {
        if self.phase == Phase::Over { None } else { Some(self.to_move) }
    }

    /// The phase.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// True when the hand is over.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// How the hand ended, once it is over.
    #[inline]
    pub fn outcome(&self) -> Option<MadiaoOutcome> {
        self.outcome
    }

    /// The rules.
    pub fn variants(&self) -> &Variants {
        &self.variants
    }

    /// The banker.
    pub fn banker(&self) -> Seat {
        self.banker
    }

    /// Chips per stake.
    pub fn stake(&self) -> u32 {
        self.stake
    }

    /// The match so far, before this hand.
    pub fn progress(&self) -> MatchProgress {
        self.progress
    }

    /// The deck as dealt, top first.
    pub fn deck(&self) -> &[Card; 40] {
        &self.deck
    }

    /// §3 The first recipient (頭家), who leads trick 1.
    pub fn first_recipient(&self) -> Seat {
        self.first
    }

    /// §3 The upcard: the stock's bottom card `deck[39]`, public during play.
    pub fn upcard(&self) -> Card {
        self.deck[39]
    }

    /// The eight stock cards `deck[32..40]`.
    pub fn stock(&self) -> Cards {
        Cards::from_bits(self.stock)
    }

    /// The seat dealt `TB` (the HM holder), or `None` when `TB` is in the stock.
    pub fn hm_holder(&self) -> Option<Seat> {
        self.hm_holder
    }

    /// §6 The reward cards (賞) of this hand.
    pub fn reward_cards(&self) -> Cards {
        Cards::from_bits(self.reward)
    }

    /// The cards `seat` was dealt.
    pub fn dealt(&self, seat: Seat) -> Cards {
        Cards::from_bits(self.dealt[seat.index()])
    }

    /// The cards `seat` still holds.
    #[inline]
    pub fn hand(&self, seat: Seat) -> Cards {
        Cards::from_bits(self.hands[seat.index()])
    }

    /// Tricks won so far by each seat.
    pub fn tricks(&self) -> BySeat<u8> {
        BySeat(self.tricks)
    }

    /// The seats that hold a meld (when the hand ended with melds).
    pub fn meld_holders(&self) -> impl Iterator<Item = Seat> + '_ {
        self.first.from_here().into_iter().filter(|s| self.meld_holders & (1 << s.index()) != 0)
    }

    /// The melds `seat` was dealt.
    pub fn melds(&self, seat: Seat) -> Melds {
        Melds::of(self.dealt(seat))
    }

    /// The seat that held the four lowest, when the hand ended that way.
    pub fn four_lowest_holder(&self) -> Option<Seat> {
        self.four_lowest
    }

    /// The long-suit holders' choices so far, in the order they were asked: `(seat, forced)`.
    pub fn redeal_choices(&self) -> Vec<(Seat, bool)> {
        let mut out = Vec::new();
        // Every long-suit holder asked before `redeal_ask` declined (it stays on a forcing seat).
        for k in 0..self.redeal_ask.min(4) {
            let s = self.first.offset(k);
            if self.redeal_eligible & (1 << s.index()) != 0 {
                out.push((s, false));
            }
        }
        if let Some(s) = self.redeal_forced {
            out.push((s, true));
        }
        out
    }

    /// The seats with a long suit (5 or more cards of a suit), who may force a redeal.
    pub fn long_suit_holders(&self) -> impl Iterator<Item = Seat> + '_ {
        self.first.from_here().into_iter().filter(|s| self.redeal_eligible & (1 << s.index()) != 0)
    }

    /// True when `seat` may still force a redeal (§4.3): the hand is at the long-suit question,
    /// `seat` holds 5 or more cards of a suit, and it has not answered yet.
    pub fn may_force_redeal(&self, seat: Seat) -> bool {
        self.phase == Phase::Redeal
            && self.redeal_eligible & (1 << seat.index()) != 0
            && !self.redeal_choices().iter().any(|&(s, _)| s == seat)
    }

    /// The seat that forced a redeal, if one did.
    pub fn redeal_forced_by(&self) -> Option<Seat> {
        self.redeal_forced
    }

    /// Every action taken so far, in order, with the seat that took it: the redeal choices, then
    /// the plays (what a record's `actions` hold, every decline explicit).
    pub fn history(&self) -> Vec<(Seat, Action)> {
        let mut out: Vec<(Seat, Action)> =
            self.redeal_choices().into_iter().map(|(s, r)| (s, Action::Redeal(r))).collect();
        out.extend(self.plays().map(|p| {
            (p.seat, if p.kind == PlayKind::Slough { Action::Slough(p.card) } else { Action::Play(p.card) })
        }));
        out
    }

    /// The trick being played (0–7), or 8 when all are done.
    pub fn trick_number(&self) -> u8 {
        self.trick
    }

    /// How many cards are in the current trick.
    pub fn cards_in_trick(&self) -> u8 {
        self.pos
    }

    /// The leader of trick `t`, once it has begun.
    pub fn trick_leader(&self, t: u8) -> Option<Seat> {
        let begun = t < self.trick || (t == self.trick && self.phase == Phase::Play);
        (t < 8 && begun).then(|| self.leaders[t as usize])
    }

    /// The winner of trick `t`, once it is complete.
    pub fn trick_winner(&self, t: u8) -> Option<Seat> {
        (t < self.trick).then(|| self.winners[t as usize])
    }

    /// The suit led in the current trick, once a card is led.
    pub fn led_suit(&self) -> Option<Suit> {
        (self.phase == Phase::Play && self.pos > 0).then(|| Suit::from_u8(SUIT_OF[self.best as usize]))
    }

    /// The best card of the led suit so far that can win the current trick.
    pub fn best_so_far(&self) -> Option<(Seat, Card)> {
        (self.phase == Phase::Play && self.pos > 0).then(|| (self.best_seat, Card::from_u8(self.best)))
    }

    /// Every card played, in order.
    pub fn plays(&self) -> impl Iterator<Item = Play> + '_ {
        let n = usize::from(self.trick) * 4 + usize::from(if self.trick < 8 { self.pos } else { 0 });
        (0..n.min(32)).map(move |i| self.play_at(i))
    }

    /// The play with index `i` (trick·4 + position), which must have been made.
    pub(crate) fn play_at(&self, i: usize) -> Play {
        let trick = (i / 4) as u8;
        let pos = (i % 4) as u8;
        let seat = self.leaders[trick as usize].offset(pos);
        let up = self.face_up & (1 << i) != 0;
        let kind = if pos == 0 {
            PlayKind::Lead
        } else if !up {
            PlayKind::Slough
        } else if self.discards & (1 << i) != 0 {
            PlayKind::Discard
        } else {
            PlayKind::Capture
        };
        let ignored = trick == 7 && self.tricks_before_last(seat) == 0;
        let can_win = matches!(kind, PlayKind::Lead | PlayKind::Capture) && !ignored;
        Play { trick, seat, card: self.plays[i], kind, can_win }
    }

    /// Tricks `seat` had won before trick 8 began (for the last-trick rule).
    fn tricks_before_last(&self, seat: Seat) -> u8 {
        let mut n = 0;
        for t in 0..7.min(self.trick as usize) {
            if self.winners[t] == seat {
                n += 1;
            }
        }
        n
    }

    /// True when playing `card` face up now would be a capture (in form, §9.6).
    #[inline]
    fn is_capture(&self, card: Card) -> bool {
        self.led & card.bit() != 0 && card.number() > self.best
    }

    /// What playing `card` face up now would be (§5): the `Lead` of the trick, a `Capture` (a
    /// card of the led suit above the best so far; at trick 8 by a seat without a trick, a capture
    /// in form only, §9.6), or a face-up `Discard`. `None` when no card is to be played now.
    pub fn face_up_kind(&self, card: Card) -> Option<PlayKind> {
        if self.phase != Phase::Play {
            return None;
        }
        Some(if self.pos == 0 {
            PlayKind::Lead
        } else if self.is_capture(card) {
            PlayKind::Capture
        } else {
            PlayKind::Discard
        })
    }

    /// The legal actions, written into `out` (cleared first); allocation-free.
    pub fn legal_actions_into(&self, out: &mut ActionList) {
        out.len = 0;
        match self.phase {
            Phase::Over => {}
            Phase::Redeal => {
                out.push(Action::Redeal(true));
                out.push(Action::Redeal(false));
            }
            Phase::Play => {
                let hand = self.hands[self.to_move.index()];
                if self.pos == 0 {
                    for c in Cards::from_bits(hand) {
                        out.push(Action::Play(c));
                    }
                    return;
                }
                let captures = hand & self.led & !((2u64 << self.best) - 1);
                let face_up =
                    if self.variants.faceup_discard == FaceupDiscard::Penalty { hand } else { captures };
                for c in Cards::from_bits(face_up) {
                    out.push(Action::Play(c));
                }
                for c in Cards::from_bits(hand) {
                    out.push(Action::Slough(c));
                }
            }
        }
    }

    /// The legal actions (a convenience; see [`State::legal_actions_into`]).
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut l = ActionList::default();
        self.legal_actions_into(&mut l);
        l.as_slice().to_vec()
    }

    /// Checks an action without applying it.
    pub fn check(&self, action: Action) -> Result<(), IllegalAction> {
        let seat = self.to_move;
        match (self.phase, action) {
            (Phase::Over, _) => Err(IllegalAction::HandOver),
            (Phase::Redeal, Action::Redeal(_)) => Ok(()),
            (Phase::Redeal, _) => Err(IllegalAction::RedealPending { seat }),
            (Phase::Play, Action::Redeal(_)) => Err(IllegalAction::NoRedealNow { seat }),
            (Phase::Play, Action::Play(card) | Action::Slough(card)) => {
                if self.hands[seat.index()] & card.bit() == 0 {
                    return Err(IllegalAction::NotHeld { seat, card });
                }
                match action {
                    Action::Slough(_) if self.pos == 0 => {
                        Err(IllegalAction::LeaderMustPlayFaceUp { seat, card })
                    }
                    Action::Play(_)
                        if self.pos > 0
                            && !self.is_capture(card)
                            && self.variants.faceup_discard == FaceupDiscard::Forbidden =>
                    {
                        Err(IllegalAction::NotACapture {
                            seat,
                            card,
                            led: Suit::from_u8(SUIT_OF[self.best as usize]),
                            best: Card::from_u8(self.best),
                        })
                    }
                    _ => Ok(()),
                }
            }
        }
    }

    /// Applies an action for the seat to move, or says why it is not allowed (the state is then
    /// unchanged).
    pub fn apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        self.check(action)?;
        self.apply_unchecked(action);
        Ok(())
    }

    /// Applies an action known to be legal (no checks: the fast path for search and benchmarks).
    /// An illegal action leaves the state meaningless but never causes undefined behaviour.
    #[inline]
    pub fn apply_unchecked(&mut self, action: Action) {
        match action {
            Action::Redeal(true) => {
                self.redeal_forced = Some(self.to_move);
                self.end(MadiaoOutcome::Redeal);
            }
            Action::Redeal(false) => {
                self.redeal_ask = self.redeal_ask.saturating_add(1);
                self.advance_redeal_ask();
            }
            Action::Play(c) => self.play_card(c, true),
            Action::Slough(c) => self.play_card(c, false),
        }
    }

    /// §5 One card to the trick.
    #[inline]
    fn play_card(&mut self, c: Card, face_up: bool) {
        let s = self.to_move;
        let bit = c.bit();
        self.hands[s.index()] &= !bit;
        let idx = (usize::from(self.trick) * 4 + usize::from(self.pos)) & 31;
        self.plays[idx] = c;
        if face_up {
            self.face_up |= 1 << idx;
            self.faceup_cards |= bit;
            if self.pos == 0 {
                self.led = SUIT_BITS[SUIT_OF[c.number() as usize] as usize];
                self.best = c.number();
                self.best_seat = s;
            } else if self.is_capture(c) {
                // §9.6 At trick 8 the card of a seat without a trick neither wins nor counts as
                // the best so far.
                if self.ignored & (1 << s.index()) == 0 {
                    self.best = c.number();
                    self.best_seat = s;
                }
            } else {
                self.discards |= 1 << idx;
            }
        }
        self.pos = self.pos.saturating_add(1);
        if self.pos < 4 {
            self.to_move = s.next();
            return;
        }
        // §5 The highest card of the led suit wins; the winner leads the next trick.
        let w = self.best_seat;
        let t = usize::from(self.trick) & 7;
        self.tricks[w.index()] = self.tricks[w.index()].wrapping_add(1);
        self.won[w.index()] |= 1 << self.best;
        self.winners[t] = w;
        self.trick = self.trick.saturating_add(1);
        self.pos = 0;
        if self.trick >= 8 {
            self.end(MadiaoOutcome::Played);
            return;
        }
        self.leaders[t + 1] = w;
        self.to_move = w;
        if self.trick == 7 {
            // §5 Last trick: a seat that won none of the first seven cannot win trick 8.
            self.ignored = 0;
            for p in 0..4 {
                if self.tricks[p] == 0 {
                    self.ignored |= 1 << p;
                }
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::card::canonical_deck;

    /// Builds the deck that deals `hands` (by seat) with `stock` (8 cards, `stock[7]` the upcard)
    /// under `banker`.
    pub(crate) fn deck_for(banker: u8, hands: [&str; 4], stock: &str) -> [Card; 40] {
        let parse = |s: &str| -> Vec<Card> { s.split_whitespace().map(|c| c.parse().unwrap()).collect() };
        let st = parse(stock);
        assert_eq!(st.len(), 8);
        let first = first_recipient(Seat::new(banker).unwrap(), st[7]);
        let hs: Vec<Vec<Card>> = hands.iter().map(|h| parse(h)).collect();
        let mut deck = canonical_deck();
        let mut next = [0usize; 4];
        for (i, off) in crate::deal::DEAL_OFFSET.iter().enumerate() {
            let s = first.offset(*off).index();
            deck[i] = hs[s][next[s]];
            next[s] += 1;
        }
        deck[32..].copy_from_slice(&st);
        let all = deck.iter().fold(0u64, |m, c| m | c.bit());
        assert_eq!(all.count_ones(), 40, "cards missing or repeated");
        deck
    }

    #[test]
    fn actions_read_and_write_as_json() {
        for a in
            [Action::Play(Card::TB), Action::Slough(Card::W9), Action::Redeal(true), Action::Redeal(false)]
        {
            let text = serde_json::to_string(&a).unwrap();
            assert_eq!(serde_json::from_str::<Action>(&text).unwrap(), a, "{text}");
        }
        assert_eq!(serde_json::to_string(&Action::Play(Card::TB)).unwrap(), r#"{"play":"TB"}"#);
        assert!(serde_json::from_str::<Action>(r#"{"play":"TB","slough":"TB"}"#).is_err());
        assert!(serde_json::from_str::<Action>(r#"{"play":"X1"}"#).is_err());
        assert!(serde_json::from_str::<Action>(r#"{}"#).is_err());
    }

    #[test]
    fn setup_errors() {
        let mut d = canonical_deck();
        d[7] = d[3];
        let e = State::new(HandSetup::new(Seat::ALL[0], d)).unwrap_err();
        assert_eq!(e.to_string(), "deck[7]: card W6 appears twice (also at deck[3])");
        let mut s = HandSetup::new(Seat::ALL[0], canonical_deck());
        s.stake = 3;
        assert_eq!(
            State::new(s).unwrap_err().to_string(),
            "stake must be a positive even number of chips, not 3"
        );
        s.stake = 0;
        assert!(State::new(s).is_err());
        s.stake = 4;
        assert!(State::new(s).is_ok());
    }

    /// Banker 0 with upcard W3 (a 3: the banker is dealt first and leads); seat 0 holds
    /// `M5 M2 S4 W1 T3 T4 T5 T6`.
    fn banker_leads_deck() -> [Card; 40] {
        deck_for(
            0,
            [
                "M5 M2 S4 W1 T3 T4 T5 T6",
                "M9 M1 S5 S6 W2 T7 T8 T9",
                "M3 M4 S7 S8 W4 W5 W6 W7",
                "M6 M7 M8 S1 S2 S3 W8 W9",
            ],
            "TW TQ TB T2 S9 W0 WH W3",
        )
    }

    #[test]
    fn leader_and_capture_rules() {
        // Banker 0, upcard W3 (a 3: the banker is dealt first and leads).
        let deck = banker_leads_deck();
        let mut st = State::new(HandSetup::new(Seat::ALL[0], deck)).unwrap();
        assert_eq!(st.phase(), Phase::Play);
        assert_eq!(st.to_move(), Some(Seat::ALL[0]));
        let c = |s: &str| s.parse::<Card>().unwrap();
        assert_eq!(
            st.apply(Action::Slough(c("M5"))).unwrap_err().to_string(),
            "seat 0 leads and must play face up, not slough M5 (§9.5)"
        );
        assert_eq!(st.apply(Action::Play(c("M9"))).unwrap_err().to_string(), "seat 0 does not hold M9");
        st.apply(Action::Play(c("M5"))).unwrap();
        // Seat 1 may capture with M9, discard M1 face up (penalty), or slough anything.
        let legal = st.legal_actions();
        assert_eq!(legal.len(), 8 + 8);
        st.apply(Action::Play(c("M1"))).unwrap(); // a face-up discard under `standard`
        st.apply(Action::Slough(c("M4"))).unwrap();
        st.apply(Action::Play(c("M8"))).unwrap();
        assert_eq!(st.trick_winner(0), Some(Seat::ALL[3]));
        assert_eq!(st.to_move(), Some(Seat::ALL[3]));
        let plays: Vec<PlayKind> = st.plays().map(|p| p.kind).collect();
        assert_eq!(plays, [PlayKind::Lead, PlayKind::Discard, PlayKind::Slough, PlayKind::Capture]);
    }

    #[test]
    fn hands_dealt_and_stock_are_card_sets() {
        let deck = banker_leads_deck();
        let mut st = State::new(HandSetup::new(Seat::ALL[0], deck)).unwrap();
        let c = |s: &str| s.parse::<Card>().unwrap();
        // The same generic set type as Da Bai Fen's hands, of Madiao's cards.
        let hand: cards::CardSet<Card> = st.hand(Seat::ALL[0]);
        assert_eq!(crate::card::mask_codes(hand), "T6 T5 T4 T3 M5 M2 S4 W1");
        assert_eq!(crate::card::mask_codes(st.stock()), "TW TQ TB T2 S9 W0 WH W3");
        assert!(Seat::ALL.iter().all(|&s| st.hand(s) == st.dealt(s) && st.hand(s).len() == 8));
        st.apply(Action::Play(c("M5"))).unwrap();
        assert_eq!(st.hand(Seat::ALL[0]), st.dealt(Seat::ALL[0]) - Cards::single(c("M5")));
        assert!(!st.hand(Seat::ALL[0]).contains(c("M5")));
        // §6 W3 is not a top card: the reward cards are the four tops.
        assert_eq!(st.reward_cards(), TOPS);
    }

    #[test]
    fn forbidden_discard_message() {
        let deck = banker_leads_deck();
        let mut setup = HandSetup::new(Seat::ALL[0], deck);
        setup.variants = Variants::FENG;
        let mut st = State::new(setup).unwrap();
        let c = |s: &str| s.parse::<Card>().unwrap();
        st.apply(Action::Play(c("M5"))).unwrap();
        assert_eq!(
            st.apply(Action::Play(c("M1"))).unwrap_err().to_string(),
            "seat 1 cannot capture with M1: the best myriads card so far is M5 (a face-up discard is \
             forbidden under faceup_discard: forbidden; slough it face down)"
        );
        assert_eq!(
            st.apply(Action::Play(c("S5"))).unwrap_err().to_string(),
            "seat 1 cannot play face up S5: myriads were led and the best so far is M5 (a face-up \
             discard is forbidden under faceup_discard: forbidden; slough it face down)"
        );
        assert_eq!(st.legal_actions().len(), 1 + 8);
        st.apply(Action::Play(c("M9"))).unwrap();
    }
}
