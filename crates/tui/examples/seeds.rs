//! Finds seeds where each phase the snapshot tests show comes up (a development aid).
use cards::record::GameKind;
use tui::model::{GameView, Legal};
use tui::testing::Harness;

fn cfg(seed: u64, seat: u8) -> tui::LocalConfig {
    let mut c = tui::LocalConfig::new(seed);
    c.bots = std::array::from_fn(|_| "heuristic".to_string());
    c.seat = cards::Seat::new(seat).unwrap();
    c
}

fn main() {
    // Madiao redeal prompt in hand 0.
    for seed in 0..300 {
        let mut h = Harness::local(GameKind::Madiao, cfg(seed, 0), 100, 30).unwrap();
        h.until_decision();
        if matches!(h.legal(), Some(Legal::Redeal { .. })) {
            println!("madiao redeal: seed {seed}");
            break;
        }
    }
    // Da Bai Fen: annul prompt (any seat), burial for the person, multi-card lead with A K.
    let mut annul = None;
    let mut bury = None;
    let mut lead = None;
    for seed in 0..3000u64 {
        if annul.is_some() && bury.is_some() && lead.is_some() {
            break;
        }
        for seat in 0..4u8 {
            let mut h = Harness::local(GameKind::Dabaifen, cfg(seed, seat), 100, 30).unwrap();
            let mut found_lead = false;
            let ok = h.play_until(3000, true, |a| {
                a.model.hand > 0 || matches!(a.model.legal, Some(Legal::Annul { .. }) | Some(Legal::Cards { .. })) && false
                    || matches!(a.model.legal, Some(Legal::Annul { .. }))
                    || (matches!(&a.model.legal, Some(Legal::Cards { action, .. }) if action == "bury"))
                    || matches!(&a.model.legal, Some(Legal::Lead { groups, .. }) if groups.iter().any(|g| g.suit != "trumps" && g.cards.len() >= 2 && g.cards[0].starts_with('A') && g.cards[1].starts_with('K')))
            });
            if !ok || h.app.model.hand > 0 {
                continue;
            }
            match h.legal() {
                Some(Legal::Annul { .. }) if annul.is_none() => {
                    annul = Some((seed, seat));
                    println!("annul: seed {seed} seat {seat}");
                }
                Some(Legal::Cards { .. }) if bury.is_none() => {
                    bury = Some((seed, seat));
                    println!("bury: seed {seed} seat {seat}");
                }
                Some(Legal::Lead { .. }) => {
                    found_lead = true;
                }
                _ => {}
            }
            if found_lead && lead.is_none() {
                lead = Some((seed, seat));
                println!("lead AK: seed {seed} seat {seat}");
            }
            let _ = GameView::is_over;
        }
    }
}
