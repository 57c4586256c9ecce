//! Madiao for the bindings: the [`Core`] and the Python classes `yezi.madiao.Game` and `State`.
//!
//! Action ids: 0–39 play card `n` face up, 40–79 play card `n − 40` face down (slough), 80
//! decline a long-suit redeal, 81 force it. A card's number `n` is the engine's (`docs/python.md`).

use cards::{BySeat, Seat};
use madiao::{Action, ActionList, HandSetup, MatchProgress, Phase, State, Variants};

use crate::core::{CHANCE, Core, TERMINAL, one, rel};

/// What fixes every hand of a `Game`.
#[derive(Clone, Debug)]
pub struct Cfg {
    /// The rules preset the variants override.
    pub rules: &'static str,
    /// The rules.
    pub variants: Variants,
    /// The banker.
    pub banker: Seat,
    /// Chips per stake.
    pub stake: u32,
    /// The match so far.
    pub progress: MatchProgress,
}

/// A Madiao hand with its chance phase.
#[derive(Clone, Debug)]
pub struct MCore {
    pub cfg: Cfg,
    pub deck: Vec<madiao::Card>,
    pub dealt: u64,
    pub st: Option<State>,
}

pub const NUM_ACTIONS: usize = 82;
pub const DECLINE: usize = 80;
pub const FORCE: usize = 81;

// Observation layout (seats relative to the observer: 0 = self, then play order).
pub const O_HAND: usize = 0;
pub const O_UP: usize = 40; // 4 × 40: cards each seat played face up
pub const O_MY_DOWN: usize = 200; // 40: own face-down cards
pub const O_TRICK: usize = 240; // 4 × 40: the current trick's face-up cards by seat
pub const O_TRICK_DOWN: usize = 400; // 4: the seat played face down in the current trick
pub const O_DOWNS: usize = 404; // 4: face-down cards per seat / 8
pub const O_UPCARD: usize = 408; // 40
pub const O_BANKER: usize = 448; // 4
pub const O_FIRST: usize = 452; // 4: the first recipient
pub const O_TO_MOVE: usize = 456; // 4
pub const O_TRICKS_WON: usize = 460; // 4: / 8
pub const O_PHASE: usize = 464; // 3: redeal, play, over
pub const O_REDEAL: usize = 467; // 4 declined + 4 forced
pub const O_BEST: usize = 475; // 40: the best card of the current trick
pub const OBS_LEN: usize = 515;
// Information state: the observation, then the 32 plays in order, each 4 (seat) + 40 (card,
// when seen) + 1 (face down) + 1 (made).
pub const I_PLAYS: usize = OBS_LEN;
pub const PLAY_LEN: usize = 46;
pub const INFO_LEN: usize = OBS_LEN + 32 * PLAY_LEN;

impl MCore {
    pub fn new(cfg: Cfg) -> MCore {
        MCore { cfg, deck: Vec::with_capacity(40), dealt: 0, st: None }
    }

    /// The action of an id.
    pub fn action(id: usize) -> Option<Action> {
        let card = |n: usize| madiao::Card::new(n as u8);
        match id {
            0..40 => card(id).map(Action::Play),
            40..80 => card(id - 40).map(Action::Slough),
            DECLINE => Some(Action::Redeal(false)),
            FORCE => Some(Action::Redeal(true)),
            _ => None,
        }
    }

    /// The id of an action.
    pub fn id(a: Action) -> usize {
        match a {
            Action::Play(c) => c.number() as usize,
            Action::Slough(c) => 40 + c.number() as usize,
            Action::Redeal(false) => DECLINE,
            Action::Redeal(true) => FORCE,
        }
    }

    fn encode(&self, me: Seat, out: &mut [f32], info: bool) {
        match &self.st {
            Some(st) => encode_view(&st.view(me), out, info),
            None => out.fill(0.0),
        }
    }

    /// A short text of what `me` sees now.
    pub fn observation_string(&self, me: Seat) -> String {
        let Some(st) = &self.st else {
            return format!("dealing: {} of 40 cards placed", self.deck.len());
        };
        let v = st.view(me);
        let hand: Vec<&str> = v.hand.iter().map(|c| c.code()).collect();
        let mut s = format!(
            "seat {} banker {} phase {:?} to_move {} upcard {} hand [{}]",
            me.number(),
            v.banker.number(),
            v.phase,
            v.to_move.map_or("-".to_string(), |s| s.number().to_string()),
            v.upcard.code(),
            hand.join(" ")
        );
        if let Some(t) = v.tricks.last().filter(|t| t.winner.is_none()) {
            s.push_str(&format!(" trick {}:", t.number));
            for p in &t.plays {
                let c = p.card.map_or("??", |c| c.code());
                s.push_str(&format!(" {}{}{}", p.seat.number(), if p.face_up { "+" } else { "-" }, c));
            }
        }
        s.push_str(&format!(" tricks {:?}", v.tricks_won.0));
        s
    }

    /// Everything `me` has seen (its view, as JSON).
    pub fn information_state_string(&self, me: Seat) -> String {
        match &self.st {
            Some(st) => serde_json::to_string(&st.view(me)).unwrap_or_default(),
            None => format!("{{\"dealing\": {}}}", self.deck.len()),
        }
    }
}

impl Core for MCore {
    const NUM_ACTIONS: usize = NUM_ACTIONS;
    const DECK: usize = 40;
    const OBS_LEN: usize = OBS_LEN;
    const INFO_LEN: usize = INFO_LEN;

    fn dealt_mask(&self) -> u64 {
        self.dealt
    }
    fn deck_len(&self) -> usize {
        self.deck.len()
    }
    fn place(&mut self, id: usize) -> Result<(), String> {
        if self.deck.len() >= 40 {
            return Err("the deck is complete: this is not a chance node".into());
        }
        let Some(c) = madiao::Card::new(id as u8).filter(|_| id < 40) else {
            return Err(format!("a chance outcome is a card 0–39, not {id}"));
        };
        if self.dealt >> id & 1 == 1 {
            return Err(format!("card {} ({id}) is already in the deck", c.code()));
        }
        self.deck.push(c);
        self.dealt |= 1 << id;
        if self.deck.len() == 40 {
            let deck: [madiao::Card; 40] = self.deck.clone().try_into().expect("40 cards");
            let setup = HandSetup {
                banker: self.cfg.banker,
                stake: self.cfg.stake,
                deck,
                variants: self.cfg.variants,
                progress: self.cfg.progress,
            };
            self.st = Some(State::new(setup).map_err(|e| e.to_string())?);
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
        match &self.st {
            None => {
                for (c, o) in out.iter_mut().enumerate().take(40) {
                    *o = i8::from(self.dealt >> c & 1 == 0);
                }
            }
            Some(st) => {
                let mut list = ActionList::default();
                st.legal_actions_into(&mut list);
                for &a in list.as_slice() {
                    out[MCore::id(a)] = 1;
                }
            }
        }
    }
    fn apply_player(&mut self, id: usize) -> Result<(), String> {
        let st = self.st.as_mut().ok_or("the deck is not complete")?;
        let a = MCore::action(id).ok_or_else(|| format!("a Madiao action id is 0–81, not {id}"))?;
        st.apply(a).map_err(|e| e.to_string())
    }
    fn returns(&self) -> [f64; 4] {
        match &self.st {
            Some(st) if st.is_over() => st.payoffs().0.map(|h| f64::from(h.0) / 2.0),
            _ => [0.0; 4],
        }
    }
    fn observation(&self, seat: Seat, out: &mut [f32]) {
        self.encode(seat, out, false)
    }
    fn information_state(&self, seat: Seat, out: &mut [f32]) {
        self.encode(seat, out, true)
    }
}

/// The progress of a match from Python's arguments.
pub fn progress(hands_before: u32, banked: Option<Vec<bool>>) -> Result<MatchProgress, String> {
    let banked = match banked {
        None => BySeat([false; 4]),
        Some(v) => {
            BySeat(<[bool; 4]>::try_from(v).map_err(|_| "banked has one entry per seat (4)".to_string())?)
        }
    };
    Ok(MatchProgress { hands_before, banked })
}

/// The observation (`info`: information-state) tensor of a seat's view into `out`.
pub fn encode_view(v: &madiao::View, out: &mut [f32], info: bool) {
    out.fill(0.0);
    // Views are encoded for a seat; a spectator's (never asked for here) stays all zeros.
    let Some(me) = v.seat else { return };
    for c in &v.hand {
        one(out, O_HAND + c.number() as usize);
    }
    let mut downs = [0u8; 4];
    let mut i = 0usize;
    let current = v.tricks.last().filter(|t| t.winner.is_none()).map(|t| t.number);
    for t in &v.tricks {
        for p in &t.plays {
            let r = rel(me, p.seat);
            if p.face_up {
                if let Some(c) = p.card {
                    one(out, O_UP + 40 * r + c.number() as usize);
                }
            } else {
                downs[r] += 1;
                if let (0, Some(c)) = (r, p.card) {
                    one(out, O_MY_DOWN + c.number() as usize);
                }
            }
            if Some(t.number) == current {
                match (p.face_up, p.card) {
                    (true, Some(c)) => one(out, O_TRICK + 40 * r + c.number() as usize),
                    _ => one(out, O_TRICK_DOWN + r),
                }
            }
            if info && i < 32 {
                let b = I_PLAYS + PLAY_LEN * i;
                one(out, b + r);
                if let Some(c) = p.card.filter(|_| p.face_up || r == 0) {
                    one(out, b + 4 + c.number() as usize);
                }
                if !p.face_up {
                    one(out, b + 44);
                }
                one(out, b + 45);
            }
            i += 1;
        }
        if Some(t.number) == current
            && let Some(b) = t.best
        {
            one(out, O_BEST + b.number() as usize);
        }
    }
    for r in 0..4 {
        out[O_DOWNS + r] = f32::from(downs[r]) / 8.0;
    }
    one(out, O_UPCARD + v.upcard.number() as usize);
    one(out, O_BANKER + rel(me, v.banker));
    one(out, O_FIRST + rel(me, v.first_recipient));
    if let Some(s) = v.to_move {
        one(out, O_TO_MOVE + rel(me, s));
    }
    for s in Seat::ALL {
        out[O_TRICKS_WON + rel(me, s)] = f32::from(v.tricks_won[s]) / 8.0;
    }
    one(
        out,
        O_PHASE
            + match v.phase {
                Phase::Redeal => 0,
                Phase::Play => 1,
                Phase::Over => 2,
            },
    );
    for c in &v.redeal_choices {
        one(out, O_REDEAL + if c.redeal { 4 } else { 0 } + rel(me, c.seat));
    }
}
