use cards::record::GameKind;
use tui::model::GameView;
use tui::testing::Harness;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let game =
        if args.get(1).map(String::as_str) == Some("d") { GameKind::Dabaifen } else { GameKind::Madiao };
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let hand: u32 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0);
    let mut cfg = tui::LocalConfig::new(seed);
    cfg.bots = std::array::from_fn(|_| "heuristic".to_string());
    let mut h = Harness::local(game, cfg, 100, 30).unwrap();
    let ok = h.play_until(100000, true, |a| {
        a.model.hand >= hand && a.model.view.as_ref().is_some_and(GameView::is_over)
    });
    eprintln!("reached: {ok}");
    print!("{}", h.screen());
}
