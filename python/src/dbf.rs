//! Da Bai Fen for the bindings: the [`Core`] and the Python classes `yezi.dabaifen.Game` and
//! `State`.
//!
//! Action ids: 0–53 pick card `n` (read by phase: during the draw, show it; during the burial and
//! the tricks, add it to the set being built, in ascending card-number order), 54 pass, 55 annul,
//! 56 end a multi-card lead (play the picks as they are). A set is played the moment the picks
//! form a legal set that no further pick could extend; the engine's `pick_options` says which
//! picks may come next.

use cards::Seat;
use dabaifen::{Action, Card, Cards, HandSetup, Phase, Rank, State, Variants};

use crate::core::{CHANCE, Core, TERMINAL, one, rel};
use crate::error::Error;

/// What fixes every deal of a `Game`.
#[derive(Clone, Debug)]
pub struct Cfg {
    pub variants: Variants,
    pub starter: Seat,
    pub ranks: [Rank; 2],
    pub first_deal: bool,
    pub open: bool,
}

/// A Da Bai Fen deal with its chance phase and the picks of the set being built.
#[derive(Clone, Debug)]
pub struct DCore {
    pub cfg: Cfg,
    pub deck: Vec<Card>,
    pub dealt: u64,
    pub st: Option<State>,
    /// The cards picked so far for a burial or play (the seat to move's).
    pub picked: u64,
}

pub const NUM_ACTIONS: usize = 57;
pub const PASS: usize = 54;
pub const ANNUL: usize = 55;
pub const END: usize = 56;

// Observation layout (seats relative to the observer: 0 = self, then play order; teams: us, them).
pub const O_HAND: usize = 0; // 54
pub const O_PICKED: usize = 54; // 54: own picks so far (only when the observer is to move)
pub const O_PLAYED: usize = 108; // 4 × 54: cards each seat played
pub const O_TRICK: usize = 324; // 4 × 54: the current trick's cards by seat
pub const O_KITTY: usize = 540; // 54: the kitty, when the observer has seen it
pub const O_BURIED: usize = 594; // 54: the burial, when the observer knows it
pub const O_TURNED: usize = 648; // 54: kitty cards turned face up
pub const O_DECL_CARD: usize = 702; // 54: the card shown to fix trumps
pub const O_DECLARER: usize = 756; // 4
pub const O_TRUMP_SUIT: usize = 760; // 4: S H D C
pub const O_TRUMP_RANK: usize = 764; // 13: 2 … A
pub const O_RANK_US: usize = 777; // 13
pub const O_RANK_THEM: usize = 790; // 13
pub const O_PHASE: usize = 803; // 5: drawing, annulling, burying, playing, over
pub const O_TO_MOVE: usize = 808; // 4 (when shown to the observer)
pub const O_STARTER: usize = 812; // 4
pub const O_FIRST_DRAWER: usize = 816; // 4
pub const O_DRAWN: usize = 820; // 1: cards drawn / 48
pub const O_SIZES: usize = 821; // 4: hand sizes / 18
pub const O_POINTS: usize = 825; // 2: card points won, us and them / 200
pub const O_LEAD_SIZE: usize = 827; // 1: cards in the current lead / 12
pub const O_TRICK_LEADER: usize = 828; // 4
pub const OBS_LEN: usize = 832;
// Information state: the observation, then the 12 tricks, each 4 (leader) + 4 × 54 (cards by seat).
pub const I_TRICKS: usize = OBS_LEN;
pub const TRICK_LEN: usize = 4 + 4 * 54;
pub const INFO_LEN: usize = OBS_LEN + 12 * TRICK_LEN;

fn bit(c: &Card) -> usize {
    c.number() as usize
}

impl DCore {
    pub fn new(cfg: Cfg) -> DCore {
        DCore { cfg, deck: Vec::with_capacity(54), dealt: 0, st: None, picked: 0 }
    }

    /// The state, or an error while the deck is being placed.
    pub fn state(&self) -> Result<&State, Error> {
        self.st.as_ref().ok_or(Error::Dealing)
    }

    /// True in the burial and the tricks, where sets are built by picks.
    fn picking(st: &State) -> bool {
        matches!(st.phase(), Phase::Burying | Phase::Playing)
    }

    /// Applies a whole set (a burial or a play) at once.
    pub fn apply_set(&mut self, set: u64) -> Result<(), Error> {
        let st = self.st.as_mut().ok_or(Error::Dealing)?;
        if self.picked != 0 {
            return Err(Error::AlreadyPicked);
        }
        let cards = Cards::from_bits(set);
        let a = match st.phase() {
            Phase::Burying => Action::Bury(cards),
            Phase::Playing => Action::Play(cards),
            phase => return Err(Error::NoSetInPhase(phase)),
        };
        Ok(st.apply(a)?)
    }

    /// Every legal burial or play (empty in the other phases).
    pub fn legal_sets(&self) -> Vec<u64> {
        let mut v = Vec::new();
        if let Some(st) = &self.st {
            st.for_each_legal_action(|a| {
                if let Action::Play(s) | Action::Bury(s) = a {
                    v.push(s.bits());
                }
            });
        }
        v
    }

    /// The one id of an action that is not a set (`[]` for a set, which takes picks).
    pub fn ids_of_unpicked(a: Action) -> Vec<usize> {
        match a {
            Action::Pass => vec![PASS],
            Action::Annul => vec![ANNUL],
            Action::Declare(c) => vec![bit(&c)],
            Action::Bury(_) | Action::Play(_) => Vec::new(),
        }
    }

    /// The action ids that play an engine action from no picks.
    pub fn ids_of(st: &State, a: Action) -> Vec<usize> {
        match a {
            Action::Bury(s) | Action::Play(s) => {
                let mut ids: Vec<usize> = s.iter().map(|c| bit(&c)).collect();
                if !st.pick_options(s).next.is_empty() {
                    ids.push(END);
                }
                ids
            }
            a => DCore::ids_of_unpicked(a),
        }
    }

    fn encode(&self, me: Seat, out: &mut [f32], info: bool) {
        match &self.st {
            Some(st) => {
                let picked = if st.to_move() == Some(me) { self.picked } else { 0 };
                encode_view(&st.view(me), picked, out, info)
            }
            None => out.fill(0.0),
        }
    }

    /// A short text of what `me` sees now.
    pub fn observation_string(&self, me: Seat) -> String {
        let Some(st) = &self.st else {
            return format!("dealing: {} of 54 cards placed", self.deck.len());
        };
        let v = st.view(me);
        let codes = |cs: &[Card]| cs.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ");
        let mut s = format!(
            "seat {} phase {:?} to_move {} drawn {} trump {} hand [{}]",
            me.number(),
            v.phase,
            v.to_move.map_or("-".to_string(), |s| s.number().to_string()),
            v.drawn,
            v.trump.map_or("-".to_string(), |t| format!("{}{}", t.rank, t.suit.letter())),
            codes(&v.hand)
        );
        if st.to_move() == Some(me) && self.picked != 0 {
            let picked: Vec<Card> = Cards::from_bits(self.picked).iter().collect();
            s.push_str(&format!(" picked [{}]", codes(&picked)));
        }
        if let Some(t) = v.tricks.last().filter(|t| t.winner.is_none()) {
            s.push_str(&format!(" trick {}:", v.tricks.len()));
            for p in &t.plays {
                s.push_str(&format!(" {}:[{}]", p.seat.number(), codes(&p.cards)));
            }
        }
        s.push_str(&format!(" points {:?}", v.team_points));
        s
    }

    /// Everything `me` has seen (its view as JSON, with its own picks when it is to move).
    pub fn information_state_string(&self, me: Seat) -> String {
        match &self.st {
            Some(st) => {
                let picked = if st.to_move() == Some(me) { self.picked } else { 0 };
                let picks: Vec<String> = Cards::from_bits(picked).iter().map(|c| c.to_string()).collect();
                format!(
                    "{{\"view\": {}, \"picked\": {}}}",
                    serde_json::to_string(&st.view(me)).unwrap_or_default(),
                    serde_json::to_string(&picks).unwrap_or_default()
                )
            }
            None => format!("{{\"dealing\": {}}}", self.deck.len()),
        }
    }
}

impl Core for DCore {
    const NUM_ACTIONS: usize = NUM_ACTIONS;
    const DECK: usize = 54;
    const OBS_LEN: usize = OBS_LEN;
    const INFO_LEN: usize = INFO_LEN;

    fn dealt_mask(&self) -> u64 {
        self.dealt
    }
    fn deck_len(&self) -> usize {
        self.deck.len()
    }
    fn place(&mut self, id: usize) -> Result<(), Error> {
        if self.deck.len() >= 54 {
            return Err(Error::DeckComplete);
        }
        let Some(c) = Card::from_number(id as u8).filter(|_| id < 54) else {
            return Err(Error::NotACard { id, deck: 54 });
        };
        if self.dealt >> id & 1 == 1 {
            return Err(Error::CardPlaced { card: c.to_string(), id });
        }
        self.deck.push(c);
        self.dealt |= 1 << id;
        if self.deck.len() == 54 {
            let deck: [Card; 54] = self.deck.clone().try_into().expect("54 cards");
            let setup = HandSetup {
                deck,
                starter: self.cfg.starter,
                first_deal: self.cfg.first_deal,
                open: self.cfg.open,
                ranks: self.cfg.ranks,
                variants: self.cfg.variants,
            };
            self.st = Some(State::new(&setup)?);
        }
        Ok(())
    }
    fn current_player(&self) -> i32 {
        match &self.st {
            None => CHANCE,
            Some(st) => st.to_move().map_or(TERMINAL, |s| i32::from(s.number())),
        }
    }
    fn legal_mask(&self, out: &mut [i8]) {
        out.fill(0);
        let Some(st) = &self.st else {
            for (c, o) in out.iter_mut().enumerate().take(54) {
                *o = i8::from(self.dealt >> c & 1 == 0);
            }
            return;
        };
        if st.to_move().is_none() {
            return;
        }
        if DCore::picking(st) {
            let o = st.pick_options(Cards::from_bits(self.picked));
            for c in o.next {
                out[bit(&c)] = 1;
            }
            if o.complete && !o.next.is_empty() {
                out[END] = 1;
            }
            return;
        }
        st.for_each_legal_action(|a| match a {
            Action::Pass => out[PASS] = 1,
            Action::Annul => out[ANNUL] = 1,
            Action::Declare(c) => out[bit(&c)] = 1,
            _ => {}
        });
    }
    fn apply_player(&mut self, id: usize) -> Result<(), Error> {
        let st = self.st.as_mut().ok_or(Error::Dealing)?;
        let bad_id = Error::ActionId { game: "Da Bai Fen", id, last: NUM_ACTIONS - 1 };
        if id >= NUM_ACTIONS {
            return Err(bad_id);
        }
        if DCore::picking(st) {
            let o = st.pick_options(Cards::from_bits(self.picked));
            let set = if id == END {
                if !o.complete || o.next.is_empty() {
                    return Err(Error::NoLeadToEnd);
                }
                self.picked
            } else if id < 54 {
                if o.next.bits() >> id & 1 == 0 {
                    return Err(Error::BadPick {
                        card: Card::from_number(id as u8).map_or(String::new(), |c| c.to_string()),
                        id,
                        set: if st.phase() == Phase::Burying { "burial" } else { "play" },
                    });
                }
                let p = self.picked | 1 << id;
                let o2 = st.pick_options(Cards::from_bits(p));
                if !(o2.complete && o2.next.is_empty()) {
                    self.picked = p;
                    return Ok(());
                }
                p
            } else {
                return Err(Error::NotAPick { id, phase: st.phase() });
            };
            let a = if st.phase() == Phase::Burying {
                Action::Bury(Cards::from_bits(set))
            } else {
                Action::Play(Cards::from_bits(set))
            };
            st.apply(a)?;
            self.picked = 0;
            return Ok(());
        }
        let a = match id {
            PASS => Action::Pass,
            ANNUL => Action::Annul,
            END => return Err(Error::NoLeadInPhase(st.phase())),
            _ => Action::Declare(Card::from_number(id as u8).ok_or(bad_id)?),
        };
        Ok(st.apply(a)?)
    }
    fn returns(&self) -> [f64; 4] {
        let Some(r) = self.st.as_ref().and_then(|st| st.result()) else { return [0.0; 4] };
        match r.winner {
            Some(w) => {
                let l = f64::from(r.levels);
                Seat::ALL.map(|s| if s.team() == w { l } else { -l })
            }
            None => [0.0; 4],
        }
    }
    fn observation(&self, seat: Seat, out: &mut [f32]) {
        self.encode(seat, out, false)
    }
    fn information_state(&self, seat: Seat, out: &mut [f32]) {
        self.encode(seat, out, true)
    }
}

/// The observation (`info`: information-state) tensor of a seat's view into `out`, with `picked`
/// the seat's own picks when it is to move.
pub fn encode_view(v: &dabaifen::View, picked: u64, out: &mut [f32], info: bool) {
    out.fill(0.0);
    // Views are encoded for a seat; a spectator's (never asked for here) stays all zeros.
    let Some(me) = v.seat else { return };
    let us = me.team() as usize;
    for c in &v.hand {
        one(out, O_HAND + bit(c));
    }
    for c in Cards::from_bits(picked) {
        one(out, O_PICKED + bit(&c));
    }
    let current = v.tricks.last().filter(|t| t.winner.is_none());
    for (i, t) in v.tricks.iter().enumerate() {
        for p in &t.plays {
            let r = rel(me, p.seat);
            for c in &p.cards {
                one(out, O_PLAYED + 54 * r + bit(c));
                if info && i < 12 {
                    one(out, I_TRICKS + TRICK_LEN * i + 4 + 54 * r + bit(c));
                }
            }
        }
        if info && i < 12 {
            one(out, I_TRICKS + TRICK_LEN * i + rel(me, t.leader));
        }
    }
    if let Some(t) = current {
        one(out, O_TRICK_LEADER + rel(me, t.leader));
        for p in &t.plays {
            for c in &p.cards {
                one(out, O_TRICK + 54 * rel(me, p.seat) + bit(c));
            }
        }
        if let Some(lead) = t.plays.first() {
            out[O_LEAD_SIZE] = lead.cards.len() as f32 / 12.0;
        }
    }
    for c in v.kitty.iter().flatten() {
        one(out, O_KITTY + bit(c));
    }
    for c in v.buried.iter().flatten() {
        one(out, O_BURIED + bit(c));
    }
    for c in &v.kitty_turned {
        one(out, O_TURNED + bit(c));
    }
    if let Some(d) = v.declaration {
        one(out, O_DECL_CARD + bit(&d.card));
        one(out, O_DECLARER + rel(me, d.seat));
    }
    if let Some(t) = v.trump {
        one(out, O_TRUMP_SUIT + t.suit.index() as usize);
        one(out, O_TRUMP_RANK + t.rank.index() as usize);
    }
    one(out, O_RANK_US + v.ranks[us].index() as usize);
    one(out, O_RANK_THEM + v.ranks[1 - us].index() as usize);
    one(
        out,
        O_PHASE
            + match v.phase {
                Phase::Drawing => 0,
                Phase::Annulling => 1,
                Phase::Burying => 2,
                Phase::Playing => 3,
                Phase::Over => 4,
            },
    );
    if let Some(s) = v.to_move {
        one(out, O_TO_MOVE + rel(me, s));
    }
    one(out, O_STARTER + rel(me, v.starter));
    one(out, O_FIRST_DRAWER + rel(me, v.first_drawer));
    out[O_DRAWN] = f32::from(v.drawn) / 48.0;
    for s in Seat::ALL {
        out[O_SIZES + rel(me, s)] = f32::from(v.hand_sizes[s.index()]) / 18.0;
    }
    out[O_POINTS] = v.team_points[us] as f32 / 200.0;
    out[O_POINTS + 1] = v.team_points[1 - us] as f32 / 200.0;
}
