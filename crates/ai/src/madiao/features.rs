//! The learned bot's features: a seat's view of a Madiao hand as a tensor of floats, and the
//! action ids (the encodings of `docs/python.md`, "Action encodings" and "Tensor layouts", which the
//! Python bindings use too: one encoder for both).
//!
//! Action ids: 0–39 play card `n` face up, 40–79 play card `n − 40` face down (slough, §5), 80
//! decline a long-suit redeal, 81 force it (§4). A card's number `n` is the engine's.

use cards::Seat;
use madiao::{Action, Phase, View};

/// The number of action ids.
pub const NUM_ACTIONS: usize = 82;
/// The id of declining a long-suit redeal.
pub const DECLINE: usize = 80;
/// The id of forcing a long-suit redeal.
pub const FORCE: usize = 81;

// Observation layout (seats relative to the observer: 0 = self, then play order).
/// Offset of own hand (40).
pub const O_HAND: usize = 0;
/// Offset of the cards each seat played face up.
pub const O_UP: usize = 40;
/// Offset of own face-down cards.
pub const O_MY_DOWN: usize = 200;
/// Offset of the current trick's face-up cards by seat.
pub const O_TRICK: usize = 240;
/// Offset of the seat that played face down in the current trick.
pub const O_TRICK_DOWN: usize = 400;
/// Offset of face-down cards per seat / 8.
pub const O_DOWNS: usize = 404;
/// Offset of the upcard (40).
pub const O_UPCARD: usize = 408;
/// Offset of the banker (4).
pub const O_BANKER: usize = 448;
/// Offset of the first recipient.
pub const O_FIRST: usize = 452;
/// Offset of the seat to move (4).
pub const O_TO_MOVE: usize = 456;
/// Offset of tricks won per seat / 8 (4).
pub const O_TRICKS_WON: usize = 460;
/// Offset of the phase (3): redeal, play, over.
pub const O_PHASE: usize = 464;
/// Offset of the redeal choices: 4 declined + 4 forced.
pub const O_REDEAL: usize = 467;
/// Offset of the best card of the current trick.
pub const O_BEST: usize = 475;
/// The length of the observation tensor.
pub const OBS_LEN: usize = 515;
// Information state: the observation, then the 32 plays in order, each 4 (seat) + 40 (card,
// when seen) + 1 (face down) + 1 (made).
/// Where the information state's plays begin.
pub const I_PLAYS: usize = OBS_LEN;
/// The length of one play in the information state.
pub const PLAY_LEN: usize = 46;
/// The length of the information-state tensor.
pub const INFO_LEN: usize = OBS_LEN + 32 * PLAY_LEN;

/// The action of an id, `None` outside 0–81.
pub fn action_of(id: usize) -> Option<Action> {
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
pub fn action_id(a: Action) -> usize {
    match a {
        Action::Play(c) => c.number() as usize,
        Action::Slough(c) => 40 + c.number() as usize,
        Action::Redeal(false) => DECLINE,
        Action::Redeal(true) => FORCE,
    }
}

/// Seat `s` relative to `me`: 0 is `me`, 1–3 the next seats in play order.
fn rel(me: Seat, s: Seat) -> usize {
    s.distance_from(me) as usize
}

#[inline]
fn one(out: &mut [f32], at: usize) {
    out[at] = 1.0;
}

/// The observation (`info`: information-state) tensor of a seat's view into `out`.
pub fn encode_view(v: &View, out: &mut [f32], info: bool) {
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
