//! `yezi play --connect`: the same interface at a real server (started in this process on a
//! loopback port, reached through a proxy that can cut every connection). A Madiao table opened
//! with bots is played through the keys; the connection is cut and comes back by itself to the
//! same seat; the player leaves and comes back with the invite link (the guest token kept in the
//! config file); the match is played to its end and its record, fetched from the server, replays.
//! A Da Bai Fen table is joined from the lobby and a deal played, the draw included.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ai::record::AnyRecord;
use cards::record::GameKind;
use serde_json::json;
use server::store::sqlite::SqliteStore;
use server::{Config, Limits};
use table::settings::Timing;
use tui::model::{Connection, GameView, Legal};
use tui::remote::{RemoteDriver, RemoteOptions};
use tui::testing::Harness;

struct TestServer {
    rt: tokio::runtime::Runtime,
    proxy: SocketAddr,
    conns: Arc<Mutex<Vec<tokio::task::AbortHandle>>>,
    _dir: tempfile::TempDir,
}

impl TestServer {
    fn start() -> TestServer {
        let dir = tempfile::tempdir().unwrap();
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let conns: Arc<Mutex<Vec<tokio::task::AbortHandle>>> = Arc::default();
        let db = dir.path().join("yezi.db");
        let c2 = conns.clone();
        let proxy = rt.block_on(async move {
            let store = Arc::new(SqliteStore::open(db.to_str().unwrap()).unwrap());
            let timing = Timing {
                draw_ms: 15,
                window_ms: 300,
                bot_delay_ms: 0,
                trick_ms: 0,
                pause_ms: 150,
                retire_ms: 600_000,
                park_ms: 600_000,
                poll_hold_ms: 0,
            };
            let limits = Limits { messages_per_second: 1000.0, message_burst: 1000.0, ..Limits::default() };
            let app =
                server::App::start(store, Config { timing, limits, ..Default::default() }).await.unwrap();
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            tokio::spawn(async move {
                let _ = server::serve(listener, app).await;
            });
            // The proxy: every connection forwarded, and cut on demand.
            let plistener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let paddr = plistener.local_addr().unwrap();
            tokio::spawn(async move {
                while let Ok((mut inbound, _)) = plistener.accept().await {
                    let task = tokio::spawn(async move {
                        if let Ok(mut out) = tokio::net::TcpStream::connect(addr).await {
                            let _ = tokio::io::copy_bidirectional(&mut inbound, &mut out).await;
                        }
                    });
                    c2.lock().unwrap().push(task.abort_handle());
                }
            });
            paddr
        });
        TestServer { rt, proxy, conns, _dir: dir }
    }

    fn cut(&self) {
        for c in self.conns.lock().unwrap().drain(..) {
            c.abort();
        }
    }
}

fn options(url: String, game: Option<GameKind>, dir: &Path) -> RemoteOptions {
    RemoteOptions {
        url,
        name: "Tester".into(),
        game,
        bot: Some("random".into()),
        rules: "standard".into(),
        variants: Default::default(),
        stakes: (2, 2),
        config: dir.join("client.json"),
        records: dir.join("records"),
        out: None,
        account: None,
        zero_cash: Default::default(),
    }
}

fn harness(opts: RemoteOptions) -> Harness {
    Harness::with_driver(Box::new(RemoteDriver::start(opts).unwrap()), "server", 100, 30)
}

/// Takes messages in real time until `pred` holds; false after `secs`.
fn wait(h: &mut Harness, secs: u64, pred: impl Fn(&tui::App) -> bool) -> bool {
    let end = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < end {
        h.now = Instant::now();
        h.app.tick(h.now);
        if pred(&h.app) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    false
}

/// Makes decisions with the keys until `pred` holds; false after `secs`.
fn play(h: &mut Harness, secs: u64, declare: bool, pred: impl Fn(&tui::App) -> bool) -> bool {
    let end = Instant::now() + Duration::from_secs(secs);
    let mut last = None;
    while Instant::now() < end {
        h.now = Instant::now();
        h.app.tick(h.now);
        if pred(&h.app) {
            return true;
        }
        // Decide once per decision (the server's answer changes it).
        let key = (
            h.app.model.move_no,
            h.app.model.hand,
            h.app.model.legal.clone(),
            h.app.model.view.as_ref().is_some_and(GameView::is_over),
        );
        if last.as_ref() != Some(&key) && h.auto_decide(declare) {
            last = Some(key);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    false
}

fn my_plays(a: &tui::App) -> usize {
    match &a.model.view {
        Some(GameView::Madiao(v)) => {
            v.tricks.iter().flat_map(|t| &t.plays).filter(|p| Some(p.seat) == a.model.me).count()
        }
        _ => 0,
    }
}

#[test]
fn madiao_at_a_server_reconnects_and_ends_with_the_record() {
    let srv = TestServer::start();
    let dir = tempfile::tempdir().unwrap();
    let opts = RemoteOptions {
        zero_cash: madiao::ZeroCash::WangYing,
        ..options(format!("http://{}", srv.proxy), Some(GameKind::Madiao), dir.path())
    };
    let mut h = harness(opts);
    assert!(wait(&mut h, 20, |a| a.model.view.is_some()), "no view: {:?}", h.app.model.connection);
    assert_eq!(h.app.game(), Some(GameKind::Madiao));
    // The table it opened draws the deck it asked for.
    assert_eq!(h.app.model.table.as_ref().unwrap().zero_cash, Some(madiao::ZeroCash::WangYing));
    assert_eq!(h.app.model.me, Some(cards::Seat::ALL[0]));
    let table = h.app.model.table.as_ref().unwrap().id.clone();
    // The guest token is kept per server.
    let cfg = tui::remote::load_config(&dir.path().join("client.json")).unwrap();
    assert!(cfg.servers.contains_key(&srv.proxy.to_string()), "{cfg:?}");
    // Play until two cards of ours are on the table.
    assert!(play(&mut h, 30, false, |a| my_plays(a) >= 2 || a.model.hand > 0), "no plays");
    let hand = h.app.model.hand;

    // Cut every connection: the client says so and comes back by itself, to the same seat.
    srv.cut();
    assert!(
        wait(&mut h, 10, |a| matches!(a.model.connection, Connection::Connecting(_))),
        "the drop was not seen"
    );
    let s = h.screen();
    assert!(s.contains("reconnecting"), "{s}");
    assert!(wait(&mut h, 20, |a| a.model.connection == Connection::Connected), "no reconnection");
    assert_eq!(h.app.model.me, Some(cards::Seat::ALL[0]));
    assert!(h.app.model.hand >= hand);
    assert!(
        play(&mut h, 30, false, |a| my_plays(a) >= 4 || a.model.hand > hand),
        "no plays after reconnecting"
    );

    // Leave, and come back with the invite link: the same seat of the same table.
    let lines = h.app.finish();
    assert!(lines.iter().any(|l| l.contains(&format!("/t/{table}"))), "{lines:?}");
    drop(h);
    let mut h = harness(options(format!("http://{}/t/{table}", srv.proxy), None, dir.path()));
    assert!(wait(&mut h, 20, |a| a.model.view.is_some()), "no view after coming back");
    assert_eq!(h.app.model.me, Some(cards::Seat::ALL[0]));
    assert_eq!(h.app.model.table.as_ref().unwrap().id, table);

    // To the end of the match: the record is fetched and saved, and it replays.
    assert!(
        play(&mut h, 120, false, |a| a.model.match_over() && a.record.is_some()),
        "the match did not end with a record: {:?} {:?}",
        h.app.model.status,
        h.app.model.summary
    );
    let path = h.app.record.clone().unwrap();
    let AnyRecord::Madiao(rec) = ai::record::parse(&std::fs::read_to_string(&path).unwrap()).unwrap() else {
        panic!()
    };
    let rep = madiao::record::replay(&rec);
    assert!(rep.is_clean(), "{:?}", rep.error);
    assert_eq!(rec.players.as_ref().unwrap().0[0], "Tester");
    assert!(rep.hands.last().unwrap().result.as_ref().unwrap().game_over);
    let lines = h.app.finish();
    assert!(lines.iter().any(|l| l.contains(path.to_str().unwrap())), "{lines:?}");
    srv.rt.shutdown_background();
}

#[test]
fn dabaifen_joined_from_the_lobby() {
    let srv = TestServer::start();
    let dir = tempfile::tempdir().unwrap();
    // Another guest opens a table with one open seat.
    let host = srv.proxy.to_string();
    let table = srv.rt.block_on(async {
        let c = client::Client::new(&host);
        let g = c.guest("Host").await.unwrap();
        let body = json!({ "game": "dabaifen", "name": "open table",
            "seats": [{"kind": "open"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}] });
        c.create_table(&g.token, &serde_json::from_value(body).unwrap()).await.unwrap().table.id
    });
    let mut h = harness(options(format!("http://{}", srv.proxy), None, dir.path()));
    assert!(wait(&mut h, 20, |a| a.model.lobby.is_some()), "no lobby");
    let s = h.screen();
    assert!(s.contains("open table") && s.contains("Enter joins"), "{s}");
    assert_eq!(h.app.model.lobby.as_ref().unwrap()[0].id, table);
    h.key(tui::testing::KeyCode::Enter);
    assert!(wait(&mut h, 20, |a| a.model.view.is_some()), "no view");
    assert_eq!(h.app.model.table.as_ref().unwrap().id, table);
    // The draw goes card by card. (A bot may declare on the first cards, which ends a draw
    // before it is seen, more often on a busy machine; then the terminal plays that deal out and
    // the next deal's draw is the one watched.)
    assert!(play(
        &mut h,
        90,
        true,
        |a| matches!(&a.model.view, Some(GameView::Dabaifen(v)) if v.phase == dabaifen::Phase::Drawing && v.drawn > 0 && v.drawn < 48)
    ));
    let watched = h.app.model.hand;
    assert!(watched <= 3, "no draw was seen card by card in the first deals");
    // Play that deal to its end (declaring when possible).
    assert!(
        play(&mut h, 90, true, |a| a.model.hand == watched
            && a.model.view.as_ref().is_some_and(GameView::is_over)),
        "the deal did not end"
    );
    let s = h.screen();
    let title = format!("Deal {}", watched + 1);
    assert!(s.contains(&title) && (s.contains("The deal, in order:") || s.contains("annulled")), "{s}");
    let _ = Legal::Annul { requested: false };
    srv.rt.shutdown_background();
}

/// `yezi play --connect URL --user NAME`: the terminal signs in with an account and plays as it.
/// The guest who claimed the account had opened a table; through its invite the signed-in
/// client takes back that guest's seat (the identity is the account's), and no token is written
/// to the config file. A wrong password stops with the server's answer.
#[test]
fn signing_in_with_an_account_plays_as_it() {
    let srv = TestServer::start();
    let dir = tempfile::tempdir().unwrap();
    let host = srv.proxy.to_string();
    let table = srv.rt.block_on(async {
        let c = client::Client::new(&host);
        let g = c.guest("Ann").await.unwrap();
        let body = json!({ "game": "madiao", "name": "Ann's table",
            "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}] });
        let table = c.create_table(&g.token, &serde_json::from_value(body).unwrap()).await.unwrap().table.id;
        c.claim_account(&g.token, "ann_tui", "terminal password").await.unwrap();
        table
    });
    let invite = format!("http://{}/t/{table}", srv.proxy);
    let mut opts = options(invite.clone(), None, dir.path());
    opts.account =
        Some(tui::remote::Account { username: "Ann_TUI".into(), password: "terminal password".into() });
    let mut h = harness(opts);
    assert!(wait(&mut h, 20, |a| a.model.view.is_some()), "no view: {}", h.screen());
    assert_eq!(h.app.model.me.map(|s| s.index()), Some(0), "not the account's own seat");
    assert_eq!(h.app.model.table.as_ref().unwrap().id, table);
    let seats = &h.app.model.table.as_ref().unwrap().seats;
    assert!(format!("{seats:?}").contains("Ann"), "{seats:?}");
    assert!(!dir.path().join("client.json").exists(), "a token was written to the config");
    drop(h);

    let mut opts = options(invite, None, dir.path());
    opts.account =
        Some(tui::remote::Account { username: "ann_tui".into(), password: "not it at all".into() });
    let mut h = harness(opts);
    assert!(wait(&mut h, 20, |a| a.fatal.is_some()), "no fatal notice: {}", h.screen());
    let why = h.app.fatal.clone().unwrap();
    assert!(why.contains("ann_tui") && why.contains("wrong username or password"), "{why}");
}
