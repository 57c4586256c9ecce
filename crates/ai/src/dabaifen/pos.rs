//! The play phase (§8–9) as search sees it: four hands as card bitsets, the trick in progress and
//! the defenders' points so far — a small `Copy` value that search copies instead of undoing.
//!
//! It replays the engine's rules for tricks (leads of one card or of top cards, following one or
//! several cards, the trick winner, the end of the deal when the hands are empty, `T` with the
//! kitty bonus under both `kitty_multiplier` variants); a test plays thousands of random deals on
//! both and compares every trick. Revoking leads are not part of this model: search never plays
//! them (under `revoke: penalize` a revoke is scored as losing every trick, so it is never better
//! for the team that makes it than its best other lead — see `docs/dabaifen-bots.md`).

use dabaifen::card::points;
use dabaifen::{Cards, KittyMultiplier, Phase, State, Tables};

/// The five effective suits' index of trumps.
pub const TRUMPS: usize = 4;

/// A play-phase position with every hand known.
#[derive(Copy, Clone, Debug)]
pub struct Pos {
    /// The card order of the deal's trumps.
    pub t: &'static Tables,
    /// The cards each seat holds.
    pub hands: [u64; 4],
    /// The cards each seat has played to the trick in progress.
    pub plays: [u64; 4],
    /// Who led (or leads) the trick in progress.
    pub leader: u8,
    /// How many seats have played to it.
    pub count: u8,
    /// How many cards the lead had (0 before the lead).
    pub size: u8,
    /// The effective suit of the lead (0–3 plain, 4 trumps).
    pub suit: u8,
    /// The defenders' team (the starter's opponents).
    pub defenders: u8,
    /// Card points the defenders have taken in completed tricks.
    pub def_points: u32,
    /// Card points in the buried kitty.
    pub kitty_points: u32,
    /// `kitty_multiplier: per_card` (else `double`).
    pub per_card: bool,
    /// The winner of the last completed trick (meaningful once a trick is complete).
    pub last_winner: u8,
    /// The size of the last completed trick.
    pub last_size: u8,
    /// The buried cards (what rollouts let the starter know).
    pub buried: u64,
    /// The starter.
    pub starter: u8,
    /// Voids shown so far (bit per effective suit, by seat), kept up to date by [`Pos::play`].
    pub void: [u8; 4],
}

/// What a completed trick gave.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TrickEnd {
    /// The seat that won it.
    pub winner: u8,
    /// Its card points.
    pub points: u32,
}

impl Pos {
    /// The position of an engine state in the play phase (`None` in any other phase).
    pub fn from_state(st: &State) -> Option<Pos> {
        if st.phase() != Phase::Playing {
            return None;
        }
        let t = st.tables()?;
        let trick = st.tricks().last()?;
        let defenders = 1 - st.starter().team();
        let mut plays = [0u64; 4];
        for (s, c) in trick.in_order() {
            plays[s.index()] = c.bits();
        }
        Some(Pos {
            t,
            hands: std::array::from_fn(|i| st.hand(cards::Seat::ALL[i]).bits()),
            plays,
            leader: trick.leader.number(),
            count: trick.count,
            size: if trick.count == 0 { 0 } else { trick.size },
            suit: if trick.count == 0 { 0 } else { trick.suit.index() as u8 },
            defenders,
            def_points: st.team_points()[defenders as usize],
            kitty_points: points(st.buried()),
            per_card: st.variants().kitty_multiplier == KittyMultiplier::PerCard,
            last_winner: 0,
            last_size: 1,
            buried: st.buried().bits(),
            starter: st.starter().number(),
            void: [0; 4],
        })
    }

    /// The seat to play.
    #[inline]
    pub fn to_move(&self) -> u8 {
        (self.leader + self.count) & 3
    }

    /// True once every card has been played.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.count == 0 && (self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]) == 0
    }

    /// The most cards any seat holds (at a trick boundary, every seat holds as many).
    #[inline]
    pub fn cards_per_hand(&self) -> u32 {
        self.hands.iter().map(|h| h.count_ones()).max().unwrap_or(0)
    }

    /// The cards held by seats other than `seat`.
    #[inline]
    pub fn others(&self, seat: u8) -> u64 {
        let mut o = 0;
        for s in 0..4 {
            if s != seat as usize {
                o |= self.hands[s];
            }
        }
        o
    }

    /// The top cards (§8) of `seat` in effective suit `suit`.
    #[inline]
    pub fn tops(&self, seat: u8, suit: usize) -> u64 {
        let mine = self.hands[seat as usize] & self.t.suit_mask[suit];
        if mine == 0 {
            return 0;
        }
        self.t.tops(mine, self.others(seat), suit)
    }

    /// True when `set` is a legal, non-revoking play for the seat to move.
    pub fn is_legal(&self, set: u64) -> bool {
        let seat = self.to_move();
        let hand = self.hands[seat as usize];
        if set == 0 || set & !hand != 0 {
            return false;
        }
        let t = self.t;
        if self.count == 0 {
            if set & (set - 1) == 0 {
                return true;
            }
            let suit = t.eff[set.trailing_zeros() as usize] as usize;
            return set & !t.suit_mask[suit] == 0 && set & !self.tops(seat, suit) == 0;
        }
        let n = u32::from(self.size);
        if set.count_ones() != n {
            return false;
        }
        let led = t.suit_mask[self.suit as usize];
        (set & led).count_ones() == (hand & led).count_ones().min(n)
    }

    /// Plays `set` (legal, not checked) for the seat to move; returns the trick's result when it
    /// completes it.
    #[inline]
    pub fn play(&mut self, set: u64) -> Option<TrickEnd> {
        let seat = self.to_move() as usize;
        if self.count == 0 {
            self.size = set.count_ones() as u8;
            self.suit = self.t.eff[set.trailing_zeros() as usize];
        } else if (set & self.t.suit_mask[self.suit as usize]).count_ones() < u32::from(self.size) {
            self.void[seat] |= 1 << self.suit;
        }
        self.hands[seat] &= !set;
        self.plays[seat] = set;
        self.count += 1;
        if self.count < 4 {
            return None;
        }
        let winner = self.winner_of_plays();
        let pts = points(Cards::from_bits(self.plays[0] | self.plays[1] | self.plays[2] | self.plays[3]));
        if winner & 1 == self.defenders {
            self.def_points += pts;
        }
        self.last_winner = winner;
        self.last_size = self.size;
        self.leader = winner;
        self.count = 0;
        self.size = 0;
        self.plays = [0; 4];
        Some(TrickEnd { winner, points: pts })
    }

    /// The winner of the complete trick in `plays` (§8: the greatest key among eligible plays,
    /// ties to the earliest).
    #[inline]
    fn winner_of_plays(&self) -> u8 {
        let t = self.t;
        let trumps = t.suit_mask[TRUMPS];
        let led = t.suit_mask[self.suit as usize];
        let mut best = 0u64;
        let mut winner = self.leader;
        for i in 0..4u8 {
            let s = (self.leader + i) & 3;
            let p = self.plays[s as usize];
            if p & !trumps == 0 || p & !led == 0 {
                let k = t.key(p);
                if k > best {
                    best = k;
                    winner = s;
                }
            }
        }
        winner
    }

    /// The seat currently winning the trick in progress and the key of its play (the leader and
    /// 0 before the lead).
    #[inline]
    pub fn current_winner(&self) -> (u8, u64) {
        trick_winner(self.t, self.leader, self.count, self.suit, &self.plays)
    }

    /// The kitty multiplier if the last trick has `size` cards per player.
    #[inline]
    pub fn multiplier(&self, size: u8) -> u32 {
        if self.per_card { 2 * u32::from(size) } else { 2 }
    }

    /// `T` (§9) once the deal is over: the defenders' trick points plus the kitty bonus if they won
    /// the last trick.
    #[inline]
    pub fn final_t(&self) -> u32 {
        let bonus = if self.last_winner & 1 == self.defenders {
            self.multiplier(self.last_size) * self.kitty_points
        } else {
            0
        };
        self.def_points + bonus
    }

    /// Calls `f` with every legal, non-revoking play of the seat to move (the engine's enumeration
    /// without revokes: single cards, every subset of two or more top cards of one suit; follows
    /// of the right size with the required cards of the led suit).
    pub fn for_each_play(&self, mut f: impl FnMut(u64)) {
        let seat = self.to_move();
        let hand = self.hands[seat as usize];
        let t = self.t;
        if self.count == 0 {
            let mut b = hand;
            while b != 0 {
                f(b & b.wrapping_neg());
                b &= b - 1;
            }
            for suit in 0..5 {
                let tops = self.tops(seat, suit);
                if tops.count_ones() >= 2 {
                    let mut sub = tops;
                    while sub != 0 {
                        if sub & (sub - 1) != 0 {
                            f(sub);
                        }
                        sub = (sub - 1) & tops;
                    }
                }
            }
            return;
        }
        let n = u32::from(self.size);
        let led = hand & t.suit_mask[self.suit as usize];
        if led.count_ones() >= n {
            k_subsets(led, n, f);
        } else {
            let k = led.count_ones();
            k_subsets(hand & !led, n - k, |s| f(led | s));
        }
    }
}

/// Calls `f` with every `k`-member subset of `mask`.
pub fn k_subsets(mask: u64, k: u32, mut f: impl FnMut(u64)) {
    fn rec(mask: u64, k: u32, acc: u64, f: &mut impl FnMut(u64)) {
        if k == 0 {
            f(acc);
            return;
        }
        if mask.count_ones() < k {
            return;
        }
        let low = mask & mask.wrapping_neg();
        rec(mask & !low, k - 1, acc | low, f);
        rec(mask & !low, k, acc, f);
    }
    rec(mask, k, 0, &mut f);
}

/// Iterates over the cards of a mask as bit numbers.
#[inline]
pub fn bits(mut m: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let b = m.trailing_zeros();
            m &= m - 1;
            Some(b)
        }
    })
}

/// The seat winning a trick led by `leader` in effective suit `suit` after `count` plays, and the
/// key of its play (the leader and 0 before the lead): the strongest play that is all trumps or
/// all of the led suit.
#[inline]
pub fn trick_winner(t: &Tables, leader: u8, count: u8, suit: u8, plays: &[u64; 4]) -> (u8, u64) {
    let trumps = t.suit_mask[TRUMPS];
    let led = t.suit_mask[suit as usize];
    let mut best = 0u64;
    let mut winner = leader;
    for i in 0..count {
        let s = (leader + i) & 3;
        let p = plays[s as usize];
        if p & !trumps == 0 || p & !led == 0 {
            let k = t.key(p);
            if k > best {
                best = k;
                winner = s;
            }
        }
    }
    (winner, best)
}
