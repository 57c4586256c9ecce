//! §4 and §6 Settlement: every line that moves money, itemized in words, and the totals; §7 the
//! next banker and the end of the match.

use std::fmt;

use crate::format::{MadiaoOutcome, MadiaoResult};
use cards::{BySeat, Halves, Seat};
use serde::{Deserialize, Serialize, Serializer};

use crate::card::{Card, Cards, TOPS};
use crate::declare::MeldKind;
use crate::state::State;
use crate::variants::{
    BankerShortfall, BonusStacking, GameLength, HmBonusTricks, MostTricksTie, Slam, StockCheckPayer,
};

/// What a settlement line pays for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    /// §4.1 A meld, paid by every other seat except the HM holder (`exempt`).
    Meld {
        /// The meld counted (§4.1).
        meld: MeldKind,
        /// The HM (TB) holder, who pays no meld, when he is another seat than the meld's holder.
        exempt: Option<Seat>,
    },
    /// §4.1 `meld_extra_stake`: 1 more stake from each payer.
    MeldExtraStake {
        /// The HM (TB) holder, who pays nothing, when he is another seat than the meld's holder.
        exempt: Option<Seat>,
    },
    /// §4.2 The four lowest: 1 stake from each of the other three.
    FourLowest,
    /// §6.1 The stock check: `exposed` (under the upcard) is a top card; the seat that played its
    /// suit's `second` card face up (or was dealt it, under `holder`) pays 1 to each other seat.
    StockCheck {
        /// The card that lies under the upcard, the top card of its suit (§6.1, §9.7).
        exposed: Card,
        /// The second card of `exposed`'s suit, which the paying seat played face up or was dealt.
        second: Card,
        /// Whether the payer played `second` face up (otherwise he was only dealt it, and pays
        /// under `stock_check_payer: holder`).
        face_up: bool,
    },
    /// §6.2 Fewer than 2 tricks: −1.
    FewerThanTwoTricks {
        /// The tricks the seat won (0 or 1).
        tricks: u8,
    },
    /// §6.2 Exactly 2 tricks: 0.
    ExactlyTwoTricks,
    /// §6.2 3 or more tricks: +1.
    ThreeOrMoreTricks {
        /// The tricks the seat won (3 to 7, or 8 under `slam: adds`).
        tricks: u8,
    },
    /// §6.2 `each_plus_half`: two seats tied for the most tricks (3 or more) get +½ each.
    TiedForMostTricks {
        /// The tricks each of the two tied seats won.
        tricks: u8,
    },
    /// §6.2 All 8 tricks: +8.
    Slam,
    /// §6.2 A trick won with a reward card, by a seat with 2 or more tricks: +1.
    RewardTrick {
        /// The reward card that won the trick (a top, or the promoted second card of the upcard's
        /// suit).
        card: Card,
    },
    /// §6.2 The HM holder made fewer than 2 tricks: +1.
    HmConsolation,
    /// §6.2 The HM holder made the minimum without the +3 HM line: +2.
    HmMinimum,
    /// §6.2 The HM holder's HM won a trick and he meets `hm_bonus_tricks`: +3.
    HmWon {
        /// The tricks the HM holder won in all.
        tricks: u8,
    },
    /// §6.2 Won tricks with `TW`, `TQ` and `TB`: +3.
    ThreeHonours,
    /// §6.2 Won tricks with `TW`, `TQ`, `TB` and `W0`: +4.
    FourHonours,
    /// §6.4 The knock (敲門): a player with the +3 HM line takes 1 from each other player.
    Knock,
    /// §5 A face-up discard: 2 stakes (a player to the banker; the banker to each player).
    FaceUpDiscard {
        /// The card discarded face up (played face up without capturing).
        card: Card,
        /// The trick it was played to, counted from 0.
        trick: u8,
    },
}

impl Item {
    /// A short machine name for the line (`"reward_trick"`, `"knock"`, …).
    pub fn name(&self) -> &'static str {
        match self {
            Item::Meld { .. } => "meld",
            Item::MeldExtraStake { .. } => "meld_extra_stake",
            Item::FourLowest => "four_lowest",
            Item::StockCheck { .. } => "stock_check",
            Item::FewerThanTwoTricks { .. } => "fewer_than_2_tricks",
            Item::ExactlyTwoTricks => "exactly_2_tricks",
            Item::ThreeOrMoreTricks { .. } => "3_or_more_tricks",
            Item::TiedForMostTricks { .. } => "tied_for_most_tricks",
            Item::Slam => "slam",
            Item::RewardTrick { .. } => "reward_trick",
            Item::HmConsolation => "hm_fewer_than_2_tricks",
            Item::HmMinimum => "hm_minimum",
            Item::HmWon { .. } => "hm_won",
            Item::ThreeHonours => "tw_tq_tb",
            Item::FourHonours => "tw_tq_tb_w0",
            Item::Knock => "knock",
            Item::FaceUpDiscard { .. } => "faceup_discard",
        }
    }
}

/// One line of a settlement: whose line it is, what for, and the money it moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Line {
    /// The seat the line belongs to (who collects or pays).
    pub seat: Seat,
    /// The hand's banker (for the wording).
    pub banker: Seat,
    /// What it pays for.
    pub item: Item,
    /// False for a bonus line listed but not counted (`bonus_stacking: largest_only`).
    pub counted: bool,
    /// What each seat gains (negative: pays), in stakes; sums to zero.
    pub transfers: BySeat<Halves>,
}

/// A settlement: every line in order (§6: stock check, hand values between banker and players,
/// knock, penalties) and each seat's total.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Settlement {
    /// The lines, in the order the rules settle them.
    pub lines: Vec<Line>,
    /// Each seat's total, in stakes.
    pub totals: BySeat<Halves>,
}

/// Receives settlement lines: a list for the itemized account, or running totals for speed.
pub(crate) trait Ledger {
    fn push(&mut self, line: Line);
}

impl Ledger for Vec<Line> {
    #[inline]
    fn push(&mut self, line: Line) {
        Vec::push(self, line)
    }
}

/// Running totals in half-stakes.
#[derive(Default)]
pub(crate) struct Totals(pub [i32; 4]);

impl Ledger for Totals {
    #[inline]
    fn push(&mut self, line: Line) {
        for i in 0..4 {
            self.0[i] += line.transfers.0[i].0;
        }
    }
}

const ONE: i32 = 2; // one stake in half-stakes

fn seat_bit(s: Seat) -> u8 {
    1 << s.index()
}

impl State {
    /// The itemized settlement, once the hand is over (`None` before).
    pub fn settlement(&self) -> Option<Settlement> {
        self.is_over().then(|| {
            let mut lines = Vec::new();
            self.settle_into(&mut lines);
            let mut totals = [Halves::ZERO; 4];
            for l in &lines {
                for (t, x) in totals.iter_mut().zip(l.transfers.0) {
                    *t += x;
                }
            }
            Settlement { lines, totals: BySeat(totals) }
        })
    }

    /// Each seat's payoff in stakes, once the hand is over (all zero before).
    #[inline]
    pub fn payoffs(&self) -> BySeat<Halves> {
        let mut t = Totals::default();
        if self.is_over() {
            self.settle_into(&mut t);
        }
        BySeat(t.0.map(Halves))
    }

    /// The hand's result object (`yezi/1`), once it is over.
    pub fn to_record_result(&self) -> Option<MadiaoResult> {
        let outcome = self.outcome?;
        let unplayed = outcome != MadiaoOutcome::Played;
        Some(MadiaoResult {
            outcome,
            tricks: if unplayed { BySeat([0; 4]) } else { BySeat(self.tricks) },
            payoffs: self.payoffs(),
            next_banker: self.next_banker(),
            game_over: self.game_over(),
        })
    }

    /// §7 The next hand's banker once this hand is over: `None` when the banker is drawn again
    /// (after the four lowest) or while the hand goes on.
    pub fn next_banker(&self) -> Option<Seat> {
        let b = self.banker;
        match self.outcome? {
            // A banker who earned the +3 HM line keeps the bank.
            MadiaoOutcome::Played => Some(if self.hm_won_seat() == Some(b) { b } else { b.next() }),
            // The first meld holder in play order from the first recipient takes the bank.
            MadiaoOutcome::Meld => self.meld_holders().next(),
            MadiaoOutcome::FourLowest => None,
            // [I] A long-suit redeal keeps the banker.
            MadiaoOutcome::Redeal => Some(b),
        }
    }

    /// §7 True when this (finished) hand ends the match: under `each_banker_once`, the bank would
    /// pass (to another seat or to a draw) and every seat has banked, this hand included; under
    /// `hands:N`, this is the match's N-th hand, long-suit redeals not counted (a redeal deals the
    /// same hand again with the same banker, so it can never end the match).
    pub fn game_over(&self) -> bool {
        if !self.is_over() {
            return false;
        }
        match self.variants.game_length {
            GameLength::Hands(_) if self.outcome == Some(MadiaoOutcome::Redeal) => false,
            GameLength::Hands(n) => self.progress.hands_before.saturating_add(1) >= n,
            GameLength::EachBankerOnce => {
                let mut banked = self.progress.banked;
                banked[self.banker] = true;
                let passes = self.next_banker() != Some(self.banker);
                passes && banked.0.iter().all(|&b| b)
            }
        }
    }

    /// The seat that earned the +3 HM line (§6.2), in a played hand.
    pub fn hm_won_seat(&self) -> Option<Seat> {
        if self.outcome != Some(MadiaoOutcome::Played) {
            return None;
        }
        let h = self.hm_holder?;
        let t = self.tricks[h.index()];
        let cond = match self.variants.hm_bonus_tricks {
            HmBonusTricks::Exactly2 => t == 2,
            HmBonusTricks::AtLeast2 => t >= 2,
        };
        (cond && self.won[h.index()] & Card::TB.bit() != 0).then_some(h)
    }

    /// A line of the hand value `v(seat)` worth `amount`, settled between banker and players
    /// (§6.3): a player's line moves `amount` from the banker; the banker's from each player.
    #[inline]
    fn value_line(&self, seat: Seat, item: Item, amount: i32) -> Line {
        let mut t = [0i32; 4];
        if seat == self.banker {
            t = [-amount; 4];
            t[seat.index()] = 3 * amount;
        } else {
            t[seat.index()] = amount;
            t[self.banker.index()] = -amount;
        }
        Line { seat, banker: self.banker, item, counted: true, transfers: BySeat(t.map(Halves)) }
    }

    /// A line where `seat` collects `amount` from each seat of `payers` (negative: pays each).
    #[inline]
    fn collect_line(&self, seat: Seat, item: Item, payers: u8, amount: i32) -> Line {
        let mut t = [0i32; 4];
        for p in 0..4 {
            if payers & (1 << p) != 0 && p != seat.index() {
                t[p] -= amount;
                t[seat.index()] += amount;
            }
        }
        Line { seat, banker: self.banker, item, counted: true, transfers: BySeat(t.map(Halves)) }
    }

    /// Sends every line of the finished hand's settlement to `ledger`, in order.
    pub(crate) fn settle_into<L: Ledger>(&self, ledger: &mut L) {
        match self.outcome {
            Some(MadiaoOutcome::Played) => self.settle_played(ledger),
            Some(MadiaoOutcome::Meld) => self.settle_melds(ledger),
            Some(MadiaoOutcome::FourLowest) => {
                // §4.2, §9.4 Everyone pays the holder 1, the HM holder included.
                if let Some(h) = self.four_lowest {
                    ledger.push(self.collect_line(h, Item::FourLowest, 0xf, ONE));
                }
            }
            Some(MadiaoOutcome::Redeal) | None => {}
        }
    }

    /// §4.1, §9.2, §9.3 Each meld holder collects his counted melds from every other seat except
    /// the HM holder.
    fn settle_melds<L: Ledger>(&self, ledger: &mut L) {
        for h in self.meld_holders() {
            let exempt = self.hm_holder.filter(|&x| x != h);
            let payers = 0xf & !seat_bit(h) & !exempt.map_or(0, seat_bit);
            for meld in self.melds(h).counted(&self.variants) {
                ledger.push(self.collect_line(
                    h,
                    Item::Meld { meld, exempt },
                    payers,
                    ONE * i32::from(meld.stakes()),
                ));
            }
            if self.variants.meld_extra_stake {
                ledger.push(self.collect_line(h, Item::MeldExtraStake { exempt }, payers, ONE));
            }
        }
    }

    /// §6 The settlement of a played hand.
    fn settle_played<L: Ledger>(&self, ledger: &mut L) {
        let v = &self.variants;
        let b = self.banker;
        // 1. Stock check: the card under the upcard, if it is a suit's actual top card (§9.7).
        let exposed = self.deck[38];
        if TOPS.contains(exposed) {
            let second = exposed.suit().second();
            if self.stock & second.bit() == 0 {
                let holder = self.holder_of(second);
                let face_up = self.faceup_cards & second.bit() != 0;
                let pays = match v.stock_check_payer {
                    StockCheckPayer::FaceupOnly => face_up,
                    StockCheckPayer::Holder => true,
                };
                if pays {
                    let item = Item::StockCheck { exposed, second, face_up };
                    ledger.push(self.collect_line(holder, item, 0xf, -ONE));
                }
            }
        }
        // 2–3. Hand values, settled between the banker and each player; the banker first.
        let most = *self.tricks.iter().max().unwrap_or(&0);
        let at_most = self.tricks.iter().filter(|&&t| t == most).count();
        let hm_won = self.hm_won_seat();
        for p in b.from_here() {
            let t = self.tricks[p.index()];
            let won = self.won[p.index()];
            // The trick-count line.
            if t < 2 {
                let item = Item::FewerThanTwoTricks { tricks: t };
                if p == b && v.banker_shortfall == BankerShortfall::Winners {
                    // §6.3 `winners`: the banker's −1 goes only to the players who made the minimum.
                    let mut made = 0u8;
                    for q in Seat::ALL {
                        if q != b && self.tricks[q.index()] >= 2 {
                            made |= seat_bit(q);
                        }
                    }
                    ledger.push(self.collect_line(b, item, made, -ONE));
                } else {
                    ledger.push(self.value_line(p, item, -ONE));
                }
            } else if t == 2 {
                ledger.push(self.value_line(p, Item::ExactlyTwoTricks, 0));
            } else if t < 8 {
                if v.most_tricks_tie == MostTricksTie::EachPlusHalf && t == most && at_most == 2 {
                    ledger.push(self.value_line(p, Item::TiedForMostTricks { tricks: t }, ONE / 2));
                } else {
                    ledger.push(self.value_line(p, Item::ThreeOrMoreTricks { tricks: t }, ONE));
                }
            } else {
                if v.slam == Slam::Adds {
                    ledger.push(self.value_line(p, Item::ThreeOrMoreTricks { tricks: t }, ONE));
                }
                ledger.push(self.value_line(p, Item::Slam, 8 * ONE));
            }
            // The bonus lines.
            let mut bonus: [(Item, i32); 8] = [(Item::Slam, 0); 8];
            let mut n = 0;
            if t >= 2 {
                for card in Cards::from_bits(won & self.reward) {
                    bonus[n] = (Item::RewardTrick { card }, ONE);
                    n += 1;
                }
            }
            if self.hm_holder == Some(p) {
                bonus[n] = if t < 2 {
                    (Item::HmConsolation, ONE)
                } else if hm_won == Some(p) {
                    (Item::HmWon { tricks: t }, 3 * ONE)
                } else {
                    (Item::HmMinimum, 2 * ONE)
                };
                n += 1;
            }
            const THREE: u64 = Card::TW.bit() | Card::TQ.bit() | Card::TB.bit();
            if won & THREE == THREE {
                bonus[n] = (Item::ThreeHonours, 3 * ONE);
                n += 1;
                if won & Card::W0.bit() != 0 {
                    bonus[n] = (Item::FourHonours, 4 * ONE);
                    n += 1;
                }
            }
            // §9.12 `largest_only`: among the bonus lines only the largest counts.
            let keep = if v.bonus_stacking == BonusStacking::LargestOnly && n > 1 {
                let mut k = 0;
                for i in 1..n {
                    if bonus[i].1 > bonus[k].1 {
                        k = i;
                    }
                }
                Some(k)
            } else {
                None
            };
            for (i, &(item, amount)) in bonus[..n].iter().enumerate() {
                if keep.is_none_or(|k| k == i) {
                    ledger.push(self.value_line(p, item, amount));
                } else {
                    let mut l = self.value_line(p, item, 0);
                    l.counted = false;
                    ledger.push(l);
                }
            }
        }
        // 4. The knock: a player (not the banker) with the +3 HM line takes 1 from each other player.
        if let Some(h) = hm_won.filter(|&h| h != b) {
            ledger.push(self.collect_line(h, Item::Knock, 0xf & !seat_bit(b), ONE));
        }
        // 5. Face-up discard penalties (§5, §9.14): 2 stakes to the banker, or from the banker to each.
        let mut d = self.discards;
        while d != 0 {
            let i = d.trailing_zeros() as usize;
            d &= d - 1;
            let play = self.play_at(i);
            let item = Item::FaceUpDiscard { card: play.card, trick: play.trick };
            ledger.push(self.value_line(play.seat, item, -2 * ONE));
        }
    }

    /// The seat dealt `card` (the card must have been dealt, not in the stock).
    fn holder_of(&self, card: Card) -> Seat {
        Seat::ALL.into_iter().find(|s| self.dealt[s.index()] & card.bit() != 0).unwrap_or(self.banker)
    }
}

/// How a line's money reads from its owner's side: "+1 from the banker", "pays each player 2 (−6)".
fn amount_phrase(l: &Line) -> String {
    let me = l.seat;
    let gain = l.transfers[me];
    let others: Vec<(Seat, Halves)> = Seat::ALL
        .into_iter()
        .filter(|&s| s != me && l.transfers[s] != Halves::ZERO)
        .map(|s| (s, l.transfers[s]))
        .collect();
    if others.is_empty() {
        return "0".to_string();
    }
    let each = others[0].1;
    if others.iter().any(|&(_, x)| x != each) {
        let parts: Vec<String> = others.iter().map(|(s, x)| format!("{s} {x:+}")).collect();
        return format!("{gain:+} ({})", parts.join(", "));
    }
    let who = if others.len() == 1 {
        let s = others[0].0;
        if s == l.banker { "the banker".to_string() } else { s.to_string() }
    } else if me == l.banker && others.len() == 3 {
        "each player".to_string()
    } else {
        let list: Vec<String> = others.iter().map(|(s, _)| s.number().to_string()).collect();
        format!("each of seats {}", list.join(", "))
    };
    let amount = Halves(each.0.abs());
    match (each.0 < 0, others.len() == 1) {
        // The owner collects.
        (true, true) => format!("+{amount} from {who}"),
        (true, false) => format!("+{amount} from {who} ({gain:+})"),
        (false, true) => format!("pays {who} {amount}"),
        (false, false) => format!("pays {amount} to {who} ({gain:+})"),
    }
}

impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Item::Meld { meld, exempt } => {
                write!(f, "meld: {meld}")?;
                if let Some(e) = exempt {
                    write!(f, " ({e} holds TB and pays nothing)")?;
                }
                Ok(())
            }
            Item::MeldExtraStake { exempt } => {
                write!(f, "meld: 1 more stake (meld_extra_stake)")?;
                if let Some(e) = exempt {
                    write!(f, " ({e} holds TB and pays nothing)")?;
                }
                Ok(())
            }
            Item::FourLowest => f.write_str("the four lowest (T2 M1 S1 W9), everyone pays"),
            Item::StockCheck { exposed, second, face_up } => {
                let how =
                    if face_up { "played it face up" } else { "was dealt it (stock_check_payer: holder)" };
                write!(
                    f,
                    "stock check: under the upcard lies {exposed}, the top {}; {second} is its second card and this seat {how}",
                    exposed.suit()
                )
            }
            Item::FewerThanTwoTricks { tricks } => write!(f, "fewer than 2 tricks ({tricks})"),
            Item::ExactlyTwoTricks => f.write_str("exactly 2 tricks"),
            Item::ThreeOrMoreTricks { tricks } => write!(f, "3 or more tricks ({tricks})"),
            Item::TiedForMostTricks { tricks } => write!(
                f,
                "3 or more tricks ({tricks}), tied with another seat for the most: ½ (most_tricks_tie: each_plus_half)"
            ),
            Item::Slam => f.write_str("all 8 tricks (slam)"),
            Item::RewardTrick { card } if !TOPS.contains(card) => write!(
                f,
                "won a trick with the reward card {card} (promoted: the upcard is {}, the top {} card, so the second card {card} takes its place)",
                card.suit().top(),
                card.suit()
            ),
            Item::RewardTrick { card } => write!(f, "won a trick with the reward card {card}"),
            Item::HmConsolation => f.write_str("dealt the HM (TB), fewer than 2 tricks"),
            Item::HmMinimum => f.write_str("dealt the HM (TB), made the minimum"),
            Item::HmWon { tricks } => {
                write!(f, "won a trick with the HM (TB) and made {tricks} tricks")
            }
            Item::ThreeHonours => f.write_str("won tricks with TW, TQ and TB"),
            Item::FourHonours => f.write_str("won tricks with TW, TQ, TB and W0"),
            Item::Knock => f.write_str("knock (敲門) for the +3 HM line"),
            Item::FaceUpDiscard { card, trick } => {
                write!(f, "face-up discard of {card} in trick {}", trick + 1)
            }
        }
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let role = if self.seat == self.banker { " (banker)" } else { "" };
        if let Item::StockCheck { exposed, second, face_up } = self.item {
            let how = if face_up { "played" } else { "was dealt (stock_check_payer: holder)" };
            return write!(
                f,
                "stock check: under the upcard lies {exposed}, the top {}; {}{role} {how} {second}, its second card: {}",
                exposed.suit(),
                self.seat,
                amount_phrase(self)
            );
        }
        if self.counted {
            write!(f, "{}{role}: {}: {}", self.seat, self.item, amount_phrase(self))
        } else {
            write!(f, "{}{role}: {}: not counted (bonus_stacking: largest_only)", self.seat, self.item)
        }
    }
}

impl Serialize for Line {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        LineView::from(self).serialize(s)
    }
}

/// A settlement as a view shows it: each line with its words and particulars, each seat's total.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "Settlement"))]
pub struct SettlementView {
    /// The lines, in the order the rules settle them.
    pub lines: Vec<LineView>,
    /// Each seat's total, in stakes.
    pub totals: BySeat<Halves>,
}

impl From<&Settlement> for SettlementView {
    fn from(s: &Settlement) -> SettlementView {
        SettlementView { lines: s.lines.iter().map(LineView::from).collect(), totals: s.totals }
    }
}

/// One settlement line as a view shows it (and as [`Line`] is written): whose line, what for
/// (the item's machine name and its particulars), the money it moves, and the line in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineView {
    /// The seat the line belongs to.
    pub seat: Seat,
    /// The hand's banker.
    pub banker: Seat,
    /// What it pays for: [`Item::name`].
    pub item: String,
    /// False for a bonus line listed but not counted (`bonus_stacking: largest_only`).
    pub counted: bool,
    /// What each seat gains (negative: pays), in stakes.
    pub transfers: BySeat<Halves>,
    /// The line in words.
    pub text: String,
    /// The particulars of the item.
    pub detail: LineDetail,
}

impl From<&Line> for LineView {
    fn from(l: &Line) -> LineView {
        LineView {
            seat: l.seat,
            banker: l.banker,
            item: l.item.name().to_string(),
            counted: l.counted,
            transfers: l.transfers,
            text: l.to_string(),
            detail: LineDetail::of(l.item),
        }
    }
}

/// The particulars of a line's item, for a client that words the line itself (in another
/// language): each field is present only for the items it belongs to.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineDetail {
    /// The card that won the trick (`reward_trick`) or was discarded face up (`faceup_discard`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<Card>,
    /// `reward_trick`: true when the card is a suit's second card, promoted to reward card because
    /// the upcard is its suit's top card (§6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promoted: Option<bool>,
    /// The seat's tricks (the trick-count lines and `hm_won`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tricks: Option<u8>,
    /// `stock_check`: the top card under the upcard.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exposed: Option<Card>,
    /// `stock_check`: its suit's second card, whose player pays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second: Option<Card>,
    /// `stock_check`: true when the payer played it face up (false: he was dealt it, `holder`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub face_up: Option<bool>,
    /// `faceup_discard`: the trick, from 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trick: Option<u8>,
}

impl LineDetail {
    fn of(item: Item) -> LineDetail {
        let mut d = LineDetail::default();
        match item {
            Item::RewardTrick { card } => {
                d.card = Some(card);
                d.promoted = Some(!TOPS.contains(card));
            }
            Item::FaceUpDiscard { card, trick } => {
                d.card = Some(card);
                d.trick = Some(trick + 1);
            }
            Item::StockCheck { exposed, second, face_up } => {
                d.exposed = Some(exposed);
                d.second = Some(second);
                d.face_up = Some(face_up);
            }
            Item::FewerThanTwoTricks { tricks }
            | Item::ThreeOrMoreTricks { tricks }
            | Item::TiedForMostTricks { tricks }
            | Item::HmWon { tricks } => d.tricks = Some(tricks),
            _ => {}
        }
        d
    }
}

impl fmt::Display for Settlement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for l in &self.lines {
            writeln!(f, "  {l}")?;
        }
        let totals: Vec<String> = self.totals.iter().map(|(s, x)| format!("{s} {x:+}")).collect();
        write!(f, "  totals: {}", totals.join(", "))
    }
}
