//! Madiao for the bindings: the [`Core`] and the Python classes `yezi.madiao.Game` and `State`.
//!
//! Action ids: 0–39 play card `n` face up, 40–79 play card `n − 40` face down (slough), 80
//! decline a long-suit redeal, 81 force it. A card's number `n` is the engine's (`docs/python.md`).

use cards::{BySeat, Seat};
use madiao::{Action, ActionList, HandSetup, MatchProgress, State, Variants};

use crate::core::{CHANCE, Core, TERMINAL};
use crate::error::Error;

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

// The tensors and action ids are the learned bot's features (one encoder for both).
pub use ai::madiao::features::{INFO_LEN, NUM_ACTIONS, OBS_LEN, encode_view};

impl MCore {
    pub fn new(cfg: Cfg) -> MCore {
        MCore { cfg, deck: Vec::with_capacity(40), dealt: 0, st: None }
    }

    /// The action of an id.
    pub fn action(id: usize) -> Option<Action> {
        ai::madiao::features::action_of(id)
    }

    /// The id of an action.
    pub fn id(a: Action) -> usize {
        ai::madiao::features::action_id(a)
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
    fn place(&mut self, id: usize) -> Result<(), Error> {
        if self.deck.len() >= 40 {
            return Err(Error::DeckComplete);
        }
        let Some(c) = madiao::Card::new(id as u8).filter(|_| id < 40) else {
            return Err(Error::NotACard { id, deck: 40 });
        };
        if self.dealt >> id & 1 == 1 {
            return Err(Error::CardPlaced { card: c.code().to_string(), id });
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
            self.st = Some(State::new(setup)?);
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
    fn apply_player(&mut self, id: usize) -> Result<(), Error> {
        let st = self.st.as_mut().ok_or(Error::Dealing)?;
        let a = MCore::action(id).ok_or(Error::ActionId { game: "Madiao", id, last: NUM_ACTIONS - 1 })?;
        Ok(st.apply(a)?)
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
pub fn progress(hands_before: u32, banked: Option<Vec<bool>>) -> Result<MatchProgress, Error> {
    let banked = match banked {
        None => BySeat([false; 4]),
        Some(v) => BySeat(<[bool; 4]>::try_from(v).map_err(|_| Error::Banked)?),
    };
    Ok(MatchProgress { hands_before, banked })
}
