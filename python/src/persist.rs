//! Pickling: a `Game`, a `State` (at a chance node or mid-hand) and a `VecEnv` travel as JSON
//! text. A game is its setup (rules, variants, seats, ranks); a state is its game, the deck
//! placed so far and, once the deck is complete, the hand as a `yezi/1` record (the same text
//! `State.to_record()` gives), replayed through the engine on the way back, plus Da Bai Fen's
//! picks and the poll the draw has reached (a record keeps the showing, not the passes before
//! it). A `VecEnv` is its game, seed and each hand's state, and how many deals each hand's
//! generator has made (its generator is rebuilt from the seed and advanced past them).
//!
//! Restoring checks what it rebuilt: the record written again must equal the one saved, so a
//! payload that does not describe a reachable state is a `ValueError`, never a different state.

use cards::record::Record;
use dabaifen::record::DabaifenHand;
use madiao::record::MadiaoHand;
use serde::{Deserialize, Serialize};

use crate::core::{Core, seat};
use crate::dbf::{self, DCore};
use crate::error::Error;
use crate::md::{self, MCore};

/// A Madiao game's setup.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct MGameP {
    pub rules: String,
    pub variants: Vec<(String, String)>,
    pub banker: u8,
    pub stake: u32,
    pub hands_before: u32,
    pub banked: [bool; 4],
}

/// A Da Bai Fen game's setup.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct DGameP {
    pub variants: Vec<(String, String)>,
    pub starter: u8,
    pub ranks: [String; 2],
    pub first_deal: bool,
    pub open: bool,
}

/// A state: its game, the deck placed so far (card ids, top first), the hand's `yezi/1` record
/// once the deck is complete, the picks of the set being built, and (Da Bai Fen, during the
/// draw) the cards drawn and the seat asked.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct StateP<G, H> {
    pub game: G,
    pub deck: Vec<u8>,
    pub record: Option<Record<H>>,
    #[serde(default)]
    pub picked: Vec<u8>,
    #[serde(default)]
    pub poll: Option<(u8, Option<u8>)>,
}

pub type MStateP = StateP<MGameP, MadiaoHand>;
pub type DStateP = StateP<DGameP, DabaifenHand>;

impl MGameP {
    pub fn of(cfg: &md::Cfg) -> MGameP {
        MGameP {
            rules: cfg.rules.to_string(),
            variants: cfg.variants.entries().map(|(k, v)| (k.to_string(), v)).collect(),
            banker: cfg.banker.number(),
            stake: cfg.stake,
            hands_before: cfg.progress.hands_before,
            banked: cfg.progress.banked.0,
        }
    }

    pub fn cfg(&self) -> Result<md::Cfg, Error> {
        let rules = madiao::variants::PRESETS
            .iter()
            .copied()
            .find(|p| *p == self.rules)
            .ok_or_else(|| Error::UnknownRules(self.rules.clone()))?;
        let mut variants = madiao::Variants::preset(rules)?;
        for (k, v) in &self.variants {
            variants.set(k, v)?;
        }
        if self.stake == 0 || self.stake % 2 == 1 {
            return Err(Error::Stake(self.stake));
        }
        Ok(md::Cfg {
            rules,
            variants,
            banker: seat(i64::from(self.banker))?,
            stake: self.stake,
            progress: madiao::MatchProgress {
                hands_before: self.hands_before,
                banked: cards::BySeat(self.banked),
            },
        })
    }
}

impl DGameP {
    pub fn of(cfg: &dbf::Cfg) -> DGameP {
        DGameP {
            variants: cfg.variants.entries().iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            starter: cfg.starter.number(),
            ranks: cfg.ranks.map(|r| r.to_string()),
            first_deal: cfg.first_deal,
            open: cfg.open,
        }
    }

    pub fn cfg(&self) -> Result<dbf::Cfg, Error> {
        let mut variants = dabaifen::Variants::STANDARD;
        for (k, v) in &self.variants {
            variants.set(k, v)?;
        }
        let ranks =
            [dabaifen::card::parse_rank(&self.ranks[0])?, dabaifen::card::parse_rank(&self.ranks[1])?];
        Ok(dbf::Cfg {
            variants,
            starter: seat(i64::from(self.starter))?,
            ranks,
            first_deal: self.first_deal,
            open: self.open,
        })
    }
}

/// A core that pickles.
pub trait Persist: Core + Sized {
    /// The pickled form: the payload of `__reduce__`.
    type P: Serialize + for<'de> Deserialize<'de>;
    /// The state as its payload.
    fn save(&self) -> Result<Self::P, Error>;
    /// The state a payload describes, replayed through the engine and checked.
    fn restore(p: &Self::P) -> Result<Self, Error>;
}

fn place_deck<C: Core>(core: &mut C, deck: &[u8]) -> Result<(), Error> {
    if deck.len() > C::DECK {
        return Err(Error::DeckTooLong { deck: C::DECK, given: deck.len() });
    }
    for &c in deck {
        core.place(usize::from(c))?;
    }
    Ok(())
}

fn one_hand<H: Clone>(rec: &Record<H>) -> Result<&H, Error> {
    match rec.hands.as_slice() {
        [h] => Ok(h),
        hands => Err(Error::RecordHands(hands.len())),
    }
}

impl Persist for MCore {
    type P = MStateP;

    fn save(&self) -> Result<MStateP, Error> {
        let record = match &self.st {
            None => None,
            Some(st) => Some(madiao::record::to_record(self.cfg.rules, &self.cfg.variants, None, [st])?),
        };
        Ok(StateP {
            game: MGameP::of(&self.cfg),
            deck: self.deck.iter().map(|c| c.number()).collect(),
            record,
            picked: Vec::new(),
            poll: None,
        })
    }

    fn restore(p: &MStateP) -> Result<MCore, Error> {
        let mut core = MCore::new(p.game.cfg()?);
        place_deck(&mut core, &p.deck)?;
        match (&mut core.st, &p.record) {
            (None, None) => {}
            (Some(st), Some(rec)) => {
                let hand = one_hand(rec)?;
                for (i, a) in hand.actions.iter().enumerate() {
                    madiao::record::apply_record_action(st, a)
                        .map_err(|source| Error::MadiaoRecord { index: i, source })?;
                }
            }
            (None, Some(_)) => return Err(Error::RecordWithoutDeck),
            (Some(_), None) => return Err(Error::DeckWithoutRecord),
        }
        if core.save()? != *p {
            return Err(Error::ReplayDiffers);
        }
        Ok(core)
    }
}

/// The draw's position (cards drawn, seat asked) while Da Bai Fen's draw is on.
fn poll_of(st: &dabaifen::State) -> Option<(u8, Option<u8>)> {
    (st.phase() == dabaifen::Phase::Drawing).then(|| (st.drawn(), st.to_move().map(|s| s.number())))
}

impl Persist for DCore {
    type P = DStateP;

    fn save(&self) -> Result<DStateP, Error> {
        let record = self.st.as_ref().map(|st| {
            dabaifen::record::match_record(&self.cfg.variants, None, vec![dabaifen::record::hand_record(st)])
        });
        Ok(StateP {
            game: DGameP::of(&self.cfg),
            deck: self.deck.iter().map(|c| c.number()).collect(),
            record,
            picked: (0..54).filter(|c| self.picked >> c & 1 == 1).collect(),
            poll: self.st.as_ref().and_then(poll_of),
        })
    }

    fn restore(p: &DStateP) -> Result<DCore, Error> {
        let mut core = DCore::new(p.game.cfg()?);
        place_deck(&mut core, &p.deck)?;
        match (&mut core.st, &p.record) {
            (None, None) => {}
            (Some(st), Some(rec)) => {
                let hand = one_hand(rec)?;
                for (i, a) in hand.actions.iter().enumerate() {
                    dabaifen::record::apply_recorded(st, a)
                        .map_err(|source| Error::DabaifenRecord { index: i, source })?;
                }
                // A record keeps the showing, not the passes: pass the polls of the draw until
                // it is where the state was (or over, when every poll was passed).
                for _ in 0..4 * 54 {
                    if st.phase() != dabaifen::Phase::Drawing || poll_of(st) == p.poll {
                        break;
                    }
                    st.apply(dabaifen::Action::Pass)?;
                }
            }
            (None, Some(_)) => return Err(Error::RecordWithoutDeck),
            (Some(_), None) => return Err(Error::DeckWithoutRecord),
        }
        for &c in &p.picked {
            core.apply_player(usize::from(c))?;
        }
        if core.save()? != *p {
            return Err(Error::ReplayDiffers);
        }
        Ok(core)
    }
}

/// JSON text of a payload.
pub fn to_text<T: Serialize>(p: &T) -> Result<String, Error> {
    serde_json::to_string(p).map_err(Error::Json)
}

/// A payload from JSON text.
pub fn from_text<T: for<'de> Deserialize<'de>>(text: &str) -> Result<T, Error> {
    serde_json::from_str(text).map_err(Error::Pickle)
}
