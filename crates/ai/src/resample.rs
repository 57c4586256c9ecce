//! Whole engine states drawn from what one seat knows: the hidden cards placed by the bots'
//! samplers ([`crate::madiao::know`], [`crate::dabaifen::sample`]), the deck rebuilt from them,
//! the public history replayed on it through the engine, and the result kept only when the seat's
//! view of it is exactly its view of the true state. A finished hand, where nothing is left to
//! decide, is its own only resample. Used for search over information sets
//! (IS-MCTS, determinized search) from outside the bots.

use cards::{BySeat, Rng, Seat};

use crate::dabaifen::know::{KITTY, Know};
use crate::dabaifen::sample::Problem;
use crate::madiao::know::Knowledge;

/// Proposals tried before giving up.
const TRIES: u32 = 2000;

/// No consistent state was found within the tries (it does not happen for a real deal's view in
/// practice; it is reported rather than hidden).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no state consistent with seat {seat}'s information was found in {tries} tries")]
pub struct ResampleError {
    /// The seat whose information was kept.
    pub seat: Seat,
    /// How many proposals were tried.
    pub tries: u32,
}

fn bits(mut m: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let c = m.trailing_zeros() as u8;
        m &= m - 1;
        Some(c)
    })
}

/// A Madiao hand that `seat` cannot tell from `state`: same view, the hidden cards (other hands,
/// others' face-down cards, the hidden stock) drawn with the bots' sampler.
pub fn madiao(state: &madiao::State, seat: Seat, rng: &mut Rng) -> Result<madiao::State, ResampleError> {
    use madiao::{Action, Card, HandSetup, State};
    if state.is_over() {
        return Ok(state.clone());
    }
    let view = state.view(seat);
    let k = Knowledge::from_view(&view);
    let history = state.history();
    for _ in 0..TRIES {
        let w = k.sample(rng, 50);
        let card = |n: u8| Card::new(n).expect("a card number below 40");
        let mut hands = BySeat([[Card::TB; 8]; 4]);
        let mut dealt_all = 0u64;
        for s in Seat::ALL {
            let mut cs: Vec<Card> = bits(w.dealt[s.index()]).map(card).collect();
            if cs.len() != 8 {
                break;
            }
            rng.shuffle(&mut cs);
            hands[s].copy_from_slice(&cs);
            dealt_all |= w.dealt[s.index()];
        }
        let upcard = state.upcard();
        let rest =
            madiao::card::ALL_CARDS.bits() & !dealt_all & !(1u64 << upcard.number()) & !(1u64 << w.exposed);
        let mut stock: Vec<Card> = bits(rest).map(card).collect();
        if stock.len() != 6 || dealt_all.count_ones() != 32 || w.exposed == upcard.number() {
            continue;
        }
        rng.shuffle(&mut stock);
        stock.push(card(w.exposed));
        stock.push(upcard);
        let stock: [Card; 8] = stock.try_into().expect("8 stock cards");
        let Some(deck) = madiao::deck_from_hands(state.banker(), &hands, &stock) else { continue };
        let setup = HandSetup {
            banker: state.banker(),
            stake: state.stake(),
            deck,
            variants: *state.variants(),
            progress: state.progress(),
        };
        let Ok(mut st) = State::new(setup) else { continue };
        // Others' face-down cards: drawn from what each was dealt and did not show or keep.
        let mut down: [Vec<Card>; 4] = Default::default();
        for s in Seat::ALL {
            let i = s.index();
            let shown: u64 = state
                .plays()
                .filter(|p| p.seat == s && p.kind != madiao::PlayKind::Slough)
                .fold(0, |m, p| m | 1u64 << p.card.number());
            down[i] = bits(w.dealt[i] & !w.hands[i] & !shown).map(card).collect();
            rng.shuffle(&mut down[i]);
        }
        let mut ok = true;
        for &(s, a) in &history {
            let a = match a {
                Action::Slough(c) if s != seat => match down[s.index()].pop() {
                    Some(d) => Action::Slough(d),
                    None => Action::Slough(c),
                },
                a => a,
            };
            if st.apply(a).is_err() {
                ok = false;
                break;
            }
        }
        if ok && st.view(seat) == view {
            return Ok(st);
        }
    }
    Err(ResampleError { seat, tries: TRIES })
}

/// A Da Bai Fen deal that `seat` cannot tell from `state`: same view, the hidden cards (others'
/// hands, the kitty or the burial, the order of the draw) drawn with the bots' sampler.
pub fn dabaifen(
    state: &dabaifen::State,
    seat: Seat,
    rng: &mut Rng,
) -> Result<dabaifen::State, ResampleError> {
    use dabaifen::{Card, Phase, State};
    if state.to_move().is_none() {
        return Ok(state.clone());
    }
    let view = state.view(seat);
    let legal = if state.to_move() == Some(seat) { state.legal_actions() } else { Vec::new() };
    let know = if view.trump.is_some() { Know::from_view(&view, &legal) } else { None };
    let problem = know.as_ref().map(Problem::of);
    let setup = state.setup();
    let card = |n: u8| Card::from_number(n).expect("a card number below 54");
    for _ in 0..TRIES {
        // Each seat's twelve drawn cards and the kitty, as sets.
        let mut drawn = [0u64; 4];
        let kitty: u64;
        let mut burial = None;
        match (&know, &problem) {
            (Some(k), Some(p)) => {
                let w = p.sample(rng);
                let me = seat.index();
                let mut hold = [0u64; 4];
                for s in 0..4 {
                    hold[s] = if s == me { k.hand } else { w[s] } | k.played_by[s];
                }
                let starter = state.starter().index();
                let place = w[KITTY];
                let buried = k.buried.unwrap_or(place);
                let (with_kitty, b) = match view.phase {
                    Phase::Annulling => (false, 0),
                    Phase::Burying => (true, 0),
                    _ => (true, buried),
                };
                if !with_kitty {
                    drawn = hold;
                    kitty = place;
                } else {
                    // The starter holds his draw and the kitty (less the burial): choose which six
                    // were the kitty, the turned cards among them.
                    let mut all18 = hold[starter] | b;
                    if view.phase == Phase::Burying && seat.index() != starter {
                        all18 |= place;
                    }
                    let known_kitty =
                        view.kitty.as_ref().map(|v| v.iter().fold(0u64, |m, c| m | 1 << c.number()));
                    let turned = view.kitty_turned.iter().fold(0u64, |m, c| m | 1 << c.number());
                    let kit = match known_kitty {
                        Some(kk) => kk,
                        None => {
                            let mut pool: Vec<u8> = bits(all18 & !turned).collect();
                            rng.shuffle(&mut pool);
                            pool.iter()
                                .take(6 - turned.count_ones() as usize)
                                .fold(turned, |m, &c| m | 1 << c)
                        }
                    };
                    drawn = hold;
                    drawn[starter] = all18 & !kit;
                    kitty = kit;
                    if view.phase != Phase::Burying {
                        burial = Some(buried);
                    }
                }
            }
            _ => {
                // The draw: this seat's drawn cards are its own; the rest is shuffled.
                let mine = view.hand.iter().fold(0u64, |m, c| m | 1 << c.number());
                let mut rest: Vec<u8> = bits(dabaifen::card::Cards::full().bits() & !mine).collect();
                rng.shuffle(&mut rest);
                let mut it = rest.into_iter();
                let mut k = 0u64;
                for p in 0..54usize {
                    let drawer = view.first_drawer.offset((p % 4) as u8);
                    if p < 48 && drawer == seat && p < usize::from(view.drawn) {
                        continue;
                    }
                    let Some(c) = it.next() else { break };
                    if p < 48 {
                        drawn[drawer.index()] |= 1 << c;
                    } else {
                        k |= 1 << c;
                    }
                }
                drawn[seat.index()] |= mine;
                kitty = k;
            }
        }
        // Order: each seat's cards over its draw positions, a declared card by its declaration,
        // the cards this seat drew before now where they were; the kitty's turned cards first.
        let mut deck = [Card::BIG_JOKER; 54];
        let mut ok = true;
        for s in Seat::ALL {
            let j = s.distance_from(state.first_drawer()) as usize;
            let positions: Vec<usize> = (0..12).map(|i| 4 * i + j).collect();
            let mut cs: Vec<u8> = bits(drawn[s.index()]).collect();
            if cs.len() != 12 {
                ok = false;
                break;
            }
            if s == seat {
                // Its own draw so far is known to it, in order: kept where it was.
                let seen = usize::from(view.drawn);
                let mut rest = drawn[s.index()];
                for &p in positions.iter().filter(|&&p| p < seen) {
                    let c = state.deck()[p];
                    deck[p] = c;
                    rest &= !(1u64 << c.number());
                }
                let mut later: Vec<u8> = bits(rest).collect();
                rng.shuffle(&mut later);
                let open: Vec<usize> = positions.iter().copied().filter(|&p| p >= seen).collect();
                if later.len() != open.len() {
                    ok = false;
                    break;
                }
                for (&p, &c) in open.iter().zip(&later) {
                    deck[p] = card(c);
                }
                continue;
            }
            rng.shuffle(&mut cs);
            if let Some(d) = state.declaration().filter(|d| d.seat == s) {
                let n = d.card.number();
                let Some(i) = cs.iter().position(|&c| c == n) else {
                    ok = false;
                    break;
                };
                let before = positions.iter().filter(|&&p| p < usize::from(d.drawn)).count();
                if before == 0 {
                    ok = false;
                    break;
                }
                cs.swap(i, rng.index(before));
            }
            for (&p, &c) in positions.iter().zip(&cs) {
                deck[p] = card(c);
            }
        }
        if !ok || kitty.count_ones() != 6 {
            continue;
        }
        let turned: Vec<u8> = view.kitty_turned.iter().map(|c| c.number()).collect();
        let mut rest: Vec<u8> = bits(kitty).filter(|c| !turned.contains(c)).collect();
        rng.shuffle(&mut rest);
        for (p, c) in (48..54).zip(turned.iter().chain(rest.iter())) {
            deck[p] = card(*c);
        }
        let mut s2 = setup.clone();
        s2.deck = deck;
        let Ok(mut st) = State::new(&s2) else { continue };
        // The public history on the new deck; a burial this seat has not seen is the sampled one.
        let mut actions = dabaifen::record::record_actions(state);
        if let (Some(b), false) = (burial, view.buried.is_some()) {
            for a in &mut actions {
                if let cards::record::DabaifenAction::Bury { cards, .. } = a {
                    *cards = bits(b).map(|c| card(c).to_string()).collect();
                }
            }
        }
        if dabaifen::record::replay_actions_unfinished(&mut st, &actions).is_err() {
            continue;
        }
        // Polls answered since the last recorded action: pass until the same seat is asked.
        let mut steps = 0;
        while st.view(seat) != view
            && (st.phase() == state.phase() || st.phase() == Phase::Drawing)
            && st.to_move().is_some()
            && steps < 600
        {
            if st.apply(dabaifen::Action::Pass).is_err() {
                break;
            }
            steps += 1;
        }
        if st.view(seat) == view && st.to_move() == state.to_move() {
            return Ok(st);
        }
    }
    Err(ResampleError { seat, tries: TRIES })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn madiao_states() -> Vec<madiao::State> {
        let mut out = Vec::new();
        let sampler = madiao::random::Sampler::from(madiao::random::RandomPolicy::default());
        for k in 0..40 {
            let deck = madiao::deck_from_seed(11, k);
            let mut st =
                madiao::State::new(madiao::HandSetup::new(Seat::ALL[(k % 4) as usize], deck)).unwrap();
            let mut rng = Rng::from_seed(k);
            let stop = rng.below(34);
            for _ in 0..stop {
                match sampler.choose(&st, &mut rng) {
                    Some(a) => st.apply(a).unwrap(),
                    None => break,
                }
            }
            out.push(st);
        }
        out
    }

    #[test]
    fn madiao_resamples_keep_the_view_and_vary_the_hidden_cards() {
        let mut varied = 0;
        for st in madiao_states() {
            for seat in Seat::ALL {
                let mut rng = Rng::from_seed(3);
                let a = madiao(&st, seat, &mut rng).unwrap();
                let b = madiao(&st, seat, &mut rng).unwrap();
                assert_eq!(a.view(seat), st.view(seat));
                assert_eq!(b.view(seat), st.view(seat));
                assert_eq!(a.to_move(), st.to_move());
                if !st.is_over() && a.deck() != b.deck() {
                    varied += 1;
                }
            }
        }
        assert!(varied > 50, "{varied}");
    }

    #[test]
    fn dabaifen_resamples_keep_the_view_and_vary_the_hidden_cards() {
        let mut varied = 0;
        let mut phases = std::collections::HashSet::new();
        for k in 0..40u64 {
            let m = dabaifen::Match::new(dabaifen::Variants::STANDARD, Seat::ALL[(k % 4) as usize]);
            let (deck, rng) = dabaifen::deal_from_seed(5, k);
            let mut st = dabaifen::State::new(&m.setup(deck)).unwrap();
            let mut policy = dabaifen::random::RandomPolicy::new(rng);
            let mut r = Rng::from_seed(k);
            let stop = r.below(60);
            for _ in 0..stop {
                if st.to_move().is_none() {
                    break;
                }
                let a = policy.choose(&st);
                st.apply(a).unwrap();
            }
            phases.insert(format!("{:?}", st.phase()));
            for seat in Seat::ALL {
                let a =
                    dabaifen(&st, seat, &mut r).unwrap_or_else(|e| panic!("deal {k} {:?}: {e}", st.phase()));
                let b = dabaifen(&st, seat, &mut r).unwrap();
                assert_eq!(a.view(seat), st.view(seat));
                assert_eq!(b.view(seat), st.view(seat));
                assert_eq!(a.to_move(), st.to_move());
                if a.deck() != b.deck() {
                    varied += 1;
                }
            }
        }
        assert!(phases.len() >= 3 && phases.contains("Playing"), "{phases:?}");
        assert!(varied > 60, "{varied}");
    }
}
