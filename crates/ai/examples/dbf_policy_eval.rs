//! Offline evaluation of the play rules of `ai::dabaifen::policy` (a study tool, not a test):
//! reads decisions recorded by `dbf_teacher` (`OUT=file`), each with the search's value of every
//! candidate play, and reports how much value the rules' choice gives up against the search's
//! best (the regret), by kind of decision, for each set of refinements given (`Rules` bits).
//!
//! ```sh
//! cargo run --release -p ai --example dbf_policy_eval -- teach.jsonl 0 1 2 3
//! ```
use std::collections::BTreeMap;

use ai::dabaifen::policy::{Ctx, Rules};
use ai::dabaifen::pos::Pos;
use ai::dabaifen::solver::classes;
use dabaifen::{Rank, Suit, Tables, Trump};

struct Rec {
    ctx: Ctx,
    cands: Vec<u64>,
    q: Vec<f64>,
}

fn u64s(v: &serde_json::Value) -> Vec<u64> {
    v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let text = std::fs::read_to_string(&args[0]).unwrap();
    let recs: Vec<Rec> = text
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let t = Tables::of(Trump {
                suit: Suit::from_index(v["suit"].as_u64().unwrap() as u8),
                rank: Rank::from_index(v["rank"].as_u64().unwrap() as u8),
            });
            let a4 = |k: &str| -> [u64; 4] { u64s(&v[k]).try_into().unwrap() };
            let void: Vec<u8> = u64s(&v["void"]).into_iter().map(|x| x as u8).collect();
            let ctx = Ctx {
                t,
                me: v["me"].as_u64().unwrap() as u8,
                hand: v["hand"].as_u64().unwrap(),
                maybe: a4("maybe"),
                void: void.try_into().unwrap(),
                leader: v["leader"].as_u64().unwrap() as u8,
                count: v["count"].as_u64().unwrap() as u8,
                size: v["size"].as_u64().unwrap() as u8,
                suit: v["lsuit"].as_u64().unwrap() as u8,
                plays: a4("plays"),
                defenders: v["defenders"].as_u64().unwrap() as u8,
                bonus: v["bonus"].as_u64().unwrap() as u32,
                def_points: v["def_points"].as_u64().unwrap() as u32,
                rules: Rules::NONE,
            };
            let q = v["q"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
            Rec { ctx, cands: u64s(&v["cands"]), q }
        })
        .collect();
    println!("{} decisions", recs.len());
    for spec in &args[1..] {
        let rules = Rules(spec.parse().unwrap());
        let mut by: BTreeMap<String, (u32, u32, f64)> = BTreeMap::new();
        let mut unmatched = 0;
        for r in &recs {
            let mut ctx = r.ctx;
            ctx.rules = rules;
            let m = ctx.choose();
            let Some(i) = find(&ctx, &r.cands, m) else {
                unmatched += 1;
                continue;
            };
            let best = r.q.iter().cloned().fold(f64::MIN, f64::max);
            let regret = best - r.q[i];
            let role = if ctx.me & 1 == ctx.defenders { "def " } else { "decl" };
            let kind = if ctx.count == 0 {
                "lead".to_string()
            } else {
                format!("f{}/{}", ctx.count, if ctx.size == 1 { "1" } else { "n" })
            };
            let left = ctx.hand.count_ones();
            let stage = if left >= 9 {
                "early"
            } else if left >= 5 {
                "mid"
            } else {
                "late"
            };
            let mut keys =
                vec!["all".to_string(), format!("{role} {kind}"), format!("{role} {kind} {stage}")];
            if std::env::var("DETAIL").is_ok_and(|d| keys[2].starts_with(&d)) {
                let bi = (0..r.q.len()).max_by(|&a, &b| r.q[a].partial_cmp(&r.q[b]).unwrap()).unwrap();
                keys.push(format!("  {} -> {}", describe(&ctx, m), describe(&ctx, r.cands[bi])));
                let tr = ctx.t.suit_mask[4];
                let unseen = (0..4).filter(|&s| s != ctx.me as usize).fold(0, |u, s| u | ctx.maybe[s]);
                let best = r.cands[bi];
                let bt = if best & tr != 0 {
                    // The rank of the led trump among mine, from the weakest (0).
                    let c = best.trailing_zeros() as usize;
                    let below = ai::dabaifen::pos::bits(ctx.hand & tr)
                        .filter(|&x| ctx.t.strength[x as usize] < ctx.t.strength[c])
                        .count();
                    format!("T{}", below.min(3))
                } else {
                    "p".to_string()
                };
                keys.push(format!(
                    "   mine {:2} out {:2} partner-maybe {:2} best {bt}",
                    (ctx.hand & tr).count_ones(),
                    (unseen & tr).count_ones(),
                    (ctx.maybe[((ctx.me + 2) & 3) as usize] & tr).count_ones().min(99)
                ));
            }
            for key in keys {
                let e = by.entry(key).or_default();
                e.0 += 1;
                e.1 += u32::from(regret > 1e-9);
                e.2 += regret;
            }
        }
        println!("rules {spec}: unmatched {unmatched}");
        for (k, (n, bad, sum)) in &by {
            println!("  {k:22} {n:6} {bad:6} regret {sum:9.2}  per decision {:.4}", sum / f64::from(*n));
        }
    }
}

/// A play in a few words: size, trump or plain, top or not, points.
fn describe(ctx: &Ctx, m: u64) -> String {
    let t = ctx.t;
    let unseen = (0..4).filter(|&s| s != ctx.me as usize).fold(0, |u, s| u | ctx.maybe[s]);
    let e = t.eff[m.trailing_zeros() as usize] as usize;
    let tops = t.tops(ctx.hand & t.suit_mask[e], unseen, e);
    let trump = m & t.suit_mask[4] != 0;
    let plain = m & !t.suit_mask[4] != 0;
    let top = m & !tops == 0;
    let p = ai::dabaifen::solver::pts(m);
    let led = ctx.count > 0 && e == ctx.suit as usize;
    format!(
        "{}{}{}{}{}",
        m.count_ones(),
        match (trump, plain) {
            (true, false) => "T",
            (false, true) => "p",
            _ => "m",
        },
        if top { "top" } else { "" },
        if p > 0 { format!("+{p}") } else { String::new() },
        if ctx.count > 0 && !led { " off" } else { "" }
    )
}

/// The candidate a play is equivalent to (same count from each class of interchangeable cards).
fn find(ctx: &Ctx, cands: &[u64], m: u64) -> Option<usize> {
    if let Some(i) = cands.iter().position(|&c| c == m) {
        return Some(i);
    }
    let me = ctx.me as usize;
    let mut hands = [0u64; 4];
    hands[me] = ctx.hand;
    hands[(me + 1) & 3] = (0..4).filter(|&s| s != me).fold(0, |u, s| u | ctx.maybe[s]);
    let pseudo = Pos {
        t: ctx.t,
        hands,
        plays: ctx.plays,
        leader: ctx.leader,
        count: ctx.count,
        size: if ctx.count == 0 { 0 } else { ctx.size },
        suit: if ctx.count == 0 { 0 } else { ctx.suit },
        defenders: 0,
        def_points: 0,
        kitty_points: 0,
        per_card: false,
        last_winner: 0,
        last_size: 1,
        buried: 0,
        starter: 0,
        void: [0; 4],
    };
    let mut cls = [0u64; 20];
    let n = classes(&pseudo, ctx.me, ctx.hand, &mut cls);
    let sig = |x: u64| -> Vec<u32> { cls[..n].iter().map(|c| (x & c).count_ones()).collect() };
    let s = sig(m);
    cands.iter().position(|&c| sig(c) == s)
}
