//! The messages of each direction round-trip, and a client message is read or refused with a
//! reason.

use super::*;
use cards::Seat;
use cards::record::GameKind;
use serde::Serialize;
use serde_json::Value;
use serde_json::json;

#[test]
fn messages_parse_or_say_why_not() {
    assert_eq!(parse(r#"{"type":"hello","token":"x"}"#).unwrap(), ClientMsg::Hello { token: "x".into() });
    assert_eq!(
        parse(r#"{"type":"act","action":{"play":"M9"},"move":7}"#).unwrap(),
        ClientMsg::Table(TableMsg::Act {
            action: ActAction::Madiao(madiao::Action::Play("M9".parse().unwrap())),
            move_no: Some(7),
            seat: None
        })
    );
    assert_eq!(
        parse(r#"{"type":"join","table":"t1"}"#).unwrap(),
        ClientMsg::Join { table: "t1".into(), seat: None }
    );
    let refused = |text: &str| {
        let e = parse(text).unwrap_err();
        (e.code(), e.to_string(), e)
    };
    let (code, msg, e) = refused("{nope");
    assert_eq!(code, ErrorCode::BadJson);
    assert!(matches!(e, ParseError::Json(_)) && msg.starts_with("not valid JSON: "), "{msg}");
    assert_eq!(refused("[1]").2, ParseError::NotObject);
    assert_eq!(refused("[1]").0, ErrorCode::BadMessage);
    assert_eq!(refused(r#"{"x":1}"#).2, ParseError::NoType);
    assert_eq!(refused(r#"{"x":1}"#).1, "a message needs a \"type\"");
    assert_eq!(refused(r#"{"type":3}"#).2, ParseError::TypeNotString);
    assert_eq!(refused(r#"{"type":3}"#).0, ErrorCode::BadMessage);
    let (code, msg, e) = refused(r#"{"type":"fly"}"#);
    assert_eq!(code, ErrorCode::UnknownType);
    assert_eq!(e, ParseError::UnknownType { shown: "fly".into() });
    assert!(msg.contains("\"fly\"") && msg.contains("hello, join"), "{msg}");
    let long = format!(r#"{{"type":"{}"}}"#, "x".repeat(100));
    assert_eq!(refused(&long).2, ParseError::UnknownType { shown: "x".repeat(40) });
    let (code, msg, e) = refused(r#"{"type":"join","seat":1}"#);
    assert_eq!(code, ErrorCode::BadMessage);
    assert!(matches!(&e, ParseError::Fields { ty, .. } if ty == "join"), "{e:?}");
    assert!(msg.starts_with("join: ") && msg.contains("missing field `table`"), "{msg}");
    let (code, _, _) = refused(r#"{"type":"join","table":"t","seat":9999}"#);
    assert_eq!(code, ErrorCode::BadMessage);
    // Read through serde (a message inside another document), the refusal is the same text.
    let e = serde_json::from_str::<ClientMsg>(r#"{"type":"fly"}"#).unwrap_err();
    assert!(e.to_string().starts_with("unknown message type \"fly\""), "{e}");
}

/// Serializes, deserializes and compares a message, and checks its JSON is unchanged.
fn round_trip<T: Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug>(m: &T) {
    let text = serde_json::to_string(m).unwrap();
    let back: T = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(&back, m, "{text}");
    assert_eq!(serde_json::to_string(&back).unwrap(), text);
}

fn seat(n: u8) -> Seat {
    Seat::new(n).unwrap()
}

#[test]
fn every_client_message_round_trips() {
    let md = ActAction::Madiao(madiao::Action::Play("M9".parse().unwrap()));
    let cards: dabaifen::Cards = ["AS", "KS"].iter().map(|c| c.parse::<dabaifen::Card>().unwrap()).collect();
    let dbf = ActAction::Dabaifen(dabaifen::Action::Play(cards));
    let msgs = [
        ClientMsg::Hello { token: "t".into() },
        ClientMsg::Join { table: "t1".into(), seat: Some(2) },
        ClientMsg::Join { table: "t1".into(), seat: None },
        ClientMsg::Watch { table: "t1".into() },
        ClientMsg::Table(TableMsg::Act { action: md, move_no: Some(3), seat: Some(1) }),
        ClientMsg::Table(TableMsg::Act { action: dbf, move_no: None, seat: None }),
        ClientMsg::Table(TableMsg::Act {
            action: ActAction::Other(json!({"fly": 1})),
            move_no: None,
            seat: None,
        }),
        ClientMsg::Table(TableMsg::Act {
            action: ActAction::Stake(StakeChoice { stake: 6 }),
            move_no: None,
            seat: None,
        }),
        ClientMsg::Table(TableMsg::Chat { text: "hi".into() }),
        ClientMsg::Table(TableMsg::Resync),
        ClientMsg::Table(TableMsg::Leave),
        ClientMsg::Table(TableMsg::Back),
        ClientMsg::Table(TableMsg::Start),
        ClientMsg::Table(TableMsg::Next),
        ClientMsg::Ping,
        ClientMsg::Table(TableMsg::Close { keep: false }),
        ClientMsg::Table(TableMsg::Close { keep: true }),
        ClientMsg::Table(TableMsg::TakeBack),
        ClientMsg::Table(TableMsg::Pause),
        ClientMsg::Table(TableMsg::Resume),
        ClientMsg::Table(TableMsg::Remove { seat: 2 }),
        ClientMsg::Table(TableMsg::Rematch),
    ];
    for m in &msgs {
        round_trip(m);
    }
    // Each game's actions are read as that game's, whatever the table.
    assert!(matches!(
        parse(r#"{"type":"act","action":{"declare":"2H"}}"#).unwrap(),
        ClientMsg::Table(TableMsg::Act { action: ActAction::Dabaifen(dabaifen::Action::Declare(_)), .. })
    ));
    assert!(matches!(
        parse(r#"{"type":"act","action":{"redeal":true}}"#).unwrap(),
        ClientMsg::Table(TableMsg::Act { action: ActAction::Madiao(madiao::Action::Redeal(true)), .. })
    ));
    assert!(matches!(
        parse(r#"{"type":"act","action":{"stake":6},"move":null,"seat":null}"#).unwrap(),
        ClientMsg::Table(TableMsg::Act { action: ActAction::Stake(StakeChoice { stake: 6 }), .. })
    ));
    assert!(matches!(
        parse(r#"{"type":"act","action":{"stake":6,"play":"M9"}}"#).unwrap(),
        ClientMsg::Table(TableMsg::Act { action: ActAction::Other(_), .. })
    ));
}

#[test]
fn every_server_message_round_trips() {
    let seat_info = SeatInfo {
        seat: 0,
        kind: SeatKind::Bot,
        name: Some("bot:x".into()),
        bot: Some("x".into()),
        guest: None,
        present: false,
        away: false,
        bot_plays: true,
        grace_ms: Some(1500),
        invited: Some("Ann".into()),
    };
    let table = TableSummary {
        id: "t1".into(),
        name: "n".into(),
        game: GameKind::Madiao,
        rules: "standard".into(),
        variants: serde_json::Map::new(),
        stake: Some(2),
        stake_max: Some(8),
        turn_seconds: 30,
        untimed: false,
        bank_seconds: 60,
        private: false,
        status: TableStatus::Playing,
        host: Some("g1".into()),
        seats: vec![seat_info.clone()],
        open_seats: 0,
        spectators: 1,
        hands: 0,
        created_ms: 5,
        pace: Pace::Relaxed,
        grace_seconds: 15,
        zero_cash: Some(madiao::ZeroCash::WangYing),
        rated: true,
        no_aids: false,
    };
    let madiao_match = MatchSummary::Madiao(MadiaoMatch {
        hands: 1,
        totals: [1.5, -0.5, -0.5, -0.5],
        stakes: vec![6],
        chips: [9.0, -3.0, -3.0, -3.0],
        banked: [true, false, false, false],
        next_banker: Some(seat(1)),
        over: false,
    });
    let dabaifen_match = MatchSummary::Dabaifen(DabaifenMatch {
        hands: 2,
        ranks: [serde_json::from_str("\"3\"").unwrap(), serde_json::from_str("\"5\"").unwrap()],
        next_starter: seat(2),
        deals_won: [1, 1],
        over: false,
        winner: None,
    });
    let chat = ChatMessage {
        seq: 0,
        at_ms: 1,
        name: "a".into(),
        seat: Some(1),
        guest: Some("g".into()),
        text: "hi".into(),
    };
    let legal = Legal::Redeal { requested: true };
    let sync = SyncMsg {
        v: 3,
        table,
        you: You { seat: Some(seat(0)), guest: "g1".into(), name: "a".into(), host: true },
        hand: 0,
        move_no: 4,
        view: Some(
            madiao::State::new(madiao::HandSetup::new(seat(0), madiao::deck_from_seed(1, 0)))
                .unwrap()
                .view_for(cards::Viewer::Spectator)
                .into(),
        ),
        legal: Some(legal.clone()),
        timer: Some(Timer::Turn { seat: seat(0), remaining_ms: Some(100), bank_ms: Some(20_000) }),
        match_: Some(madiao_match),
        results: Vec::new(),
        chat: vec![chat.clone()],
        watchers: vec!["Bo".into()],
        rematch: Some("t2".into()),
        commitment: Some("5c".repeat(32)),
    };
    let events = [
        TableEvent::Start,
        TableEvent::HandStart { hand: 1 },
        TableEvent::Draw { drawn: 7 },
        TableEvent::DrawEnd,
        TableEvent::Action {
            seat: seat(1),
            action: PublicAction::Madiao(madiao::Action::Slough("S1".parse().unwrap())),
            by_bot: true,
        },
        TableEvent::Action {
            seat: seat(1),
            action: PublicAction::Hidden(HiddenAction::Slough(())),
            by_bot: false,
        },
        TableEvent::Action {
            seat: seat(2),
            action: PublicAction::Hidden(HiddenAction::Bury(())),
            by_bot: false,
        },
        TableEvent::Action {
            seat: seat(3),
            action: PublicAction::Dabaifen(dabaifen::Action::Declare("2H".parse().unwrap())),
            by_bot: false,
        },
        TableEvent::Stake { seat: seat(0), stake: 6, by_bot: false },
        TableEvent::Window { closes_in_ms: 4000 },
        TableEvent::WindowClosed {
            outcome: WindowOutcome::Redeal(RedealOutcome { redeal_forced_by: Some(seat(2)) }),
        },
        TableEvent::WindowClosed { outcome: WindowOutcome::Annul(AnnulOutcome { annulled_by: None }) },
        TableEvent::WindowClosed { outcome: WindowOutcome::Redeal(RedealOutcome { redeal_forced_by: None }) },
    ];
    let mut msgs = vec![
        ServerMsg::Welcome(WelcomeMsg { guest: GuestInfo { id: "g1".into(), name: "a".into() } }),
        ServerMsg::Sync(Box::new(sync)),
        ServerMsg::Seats(SeatsMsg {
            v: 4,
            seats: vec![seat_info],
            spectators: 0,
            watchers: vec!["Cy".into()],
            status: TableStatus::Parked,
            timer: Some(Timer::NextHand { remaining_ms: Some(5), ready: vec![seat(2)] }),
        }),
        ServerMsg::Chat(ChatMsg { v: 5, message: chat }),
        ServerMsg::ChatRemoved(ChatRemovedMsg { v: 5, seq: 3 }),
        ServerMsg::Ack(AckMsg { v: 6, what: AckWhat::Request, legal: Some(Some(legal)) }),
        ServerMsg::Ack(AckMsg { v: 6, what: AckWhat::Request, legal: Some(None) }),
        ServerMsg::Ack(AckMsg {
            v: 6,
            what: AckWhat::Request,
            legal: Some(Some(Legal::Stake { low: 2, high: 8 })),
        }),
        ServerMsg::Ack(AckMsg { v: 6, what: AckWhat::Next, legal: None }),
        ServerMsg::Error(ErrorMsg { code: ErrorCode::Illegal, message: "no".into(), v: Some(2) }),
        ServerMsg::Error(ErrorMsg { code: ErrorCode::BadJson, message: "no".into(), v: None }),
        ServerMsg::Host(HostMsg {
            v: 7,
            event: HostEvent::Closed { by: "Ann".into(), hands: 2, kept: false },
        }),
        ServerMsg::Host(HostMsg { v: 8, event: HostEvent::Removed { seat: seat(1), name: "Bo".into() } }),
        ServerMsg::Host(HostMsg { v: 9, event: HostEvent::Rematch { table: "t2".into() } }),
        ServerMsg::Pong,
        ServerMsg::Moved(MovedMsg { table: "t2".into() }),
        ServerMsg::Deal(DealMsg { hand: 1, commitment: "5c".repeat(32) }),
    ];
    for (i, event) in events.into_iter().enumerate() {
        msgs.push(ServerMsg::Update(UpdateMsg {
            v: 10 + i as u64,
            event,
            hand: 0,
            move_no: 1,
            view: (i % 2 == 0).then(|| {
                let deck = dabaifen::deck_from_seed(3, i as u64);
                let setup = dabaifen::HandSetup::first(deck, seat(1), dabaifen::Variants::STANDARD);
                dabaifen::State::new(&setup).unwrap().view(seat(1)).into()
            }),
            legal: None,
            timer: Some(Timer::Draw { every_ms: 250 }),
            match_: Some(dabaifen_match.clone()),
        }));
    }
    for m in &msgs {
        round_trip(m);
    }
}

#[test]
fn errors_carry_code_message_and_version() {
    let e = error(ErrorCode::NotYourTurn, "it is seat 2's turn", Some(7));
    let v: Value = serde_json::from_str(&e).unwrap();
    assert_eq!(
        v,
        json!({"type": "error", "code": "not_your_turn", "message": "it is seat 2's turn", "v": 7})
    );
}

/// Messages of each direction as `docs/protocol.md` shows them (written compactly, as serde
/// writes JSON, with the optional fields a client may leave out written as `null`): read and
/// written again, each is the same text, byte for byte.
#[test]
fn the_documented_messages_of_each_direction_round_trip_byte_for_byte() {
    let client = [
        r#"{"type":"hello","token":"gt_x"}"#,
        r#"{"type":"join","table":"t1","seat":2}"#,
        r#"{"type":"join","table":"t1","seat":null}"#,
        r#"{"type":"watch","table":"t1"}"#,
        r#"{"type":"ping"}"#,
        r#"{"type":"act","action":{"play":"M9"},"move":7,"seat":1}"#,
        r#"{"type":"act","action":{"play":["KS","AS"]},"move":null,"seat":null}"#,
        r#"{"type":"act","action":{"stake":6},"move":null,"seat":null}"#,
        r#"{"type":"chat","text":"hi"}"#,
        r#"{"type":"resync"}"#,
        r#"{"type":"leave"}"#,
        r#"{"type":"back"}"#,
        r#"{"type":"start"}"#,
        r#"{"type":"next"}"#,
        r#"{"type":"close","keep":true}"#,
        r#"{"type":"take_back"}"#,
        r#"{"type":"pause"}"#,
        r#"{"type":"resume"}"#,
        r#"{"type":"remove","seat":1}"#,
        r#"{"type":"rematch"}"#,
        r#"{"type":"hint"}"#,
        r#"{"type":"tracker"}"#,
    ];
    for text in client {
        let m = parse(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        assert_eq!(serde_json::to_string(&m).unwrap(), text);
        let back: ClientMsg = serde_json::from_str(text).unwrap();
        assert_eq!(back, m, "{text}");
    }
    // A table's message is carried as the table's, the connection's own are not.
    assert!(matches!(parse(client[4]).unwrap(), ClientMsg::Ping));
    assert!(matches!(parse(client[9]).unwrap(), ClientMsg::Table(TableMsg::Resync)));
    let server = [
        r#"{"type":"welcome","guest":{"id":"ggtz6bpgbu8rg","name":"Ann"}}"#,
        r#"{"type":"host","v":40,"event":{"kind":"closed","by":"Ann","hands":3}}"#,
        r#"{"type":"host","v":40,"event":{"kind":"closed","by":"Ann","hands":3,"kept":true}}"#,
        r#"{"type":"host","v":41,"event":{"kind":"removed","seat":1,"name":"Bo"}}"#,
        r#"{"type":"host","v":42,"event":{"kind":"rematch","table":"tq3x9c2mfh4ka"}}"#,
        r#"{"type":"chat_removed","v":18,"seq":0}"#,
        r#"{"type":"ack","v":40,"what":"request","legal":{"kind":"declare","cards":["2H"],"requested":"2H"}}"#,
        r#"{"type":"ack","v":41,"what":"back"}"#,
        r#"{"type":"pong"}"#,
        r#"{"type":"error","code":"not_your_turn","message":"it is seat 2's turn, not yours (seat 0)","v":96}"#,
        r#"{"type":"hint","v":9,"move":4,"seat":0,"action":{"play":"M9"},"reason":{"kind":"capture","en":"capture","zh":"捉"}}"#,
        r#"{"type":"hint","v":9,"move":4,"seat":2,"action":{"play":["KS","AS"]},"reason":{"kind":"lead_tops","en":"lead","zh":"出"}}"#,
        r#"{"type":"tracker","v":9,"move":4,"tracker":null}"#,
    ];
    for text in server {
        let m: ServerMsg = serde_json::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(m.text(), text);
    }
}

/// The hint's action and the tracker are typed both ways: each game's reads back as that game's.
#[test]
fn hints_and_trackers_read_back_as_their_games() {
    let view = madiao::State::new(madiao::HandSetup::new(seat(0), madiao::deck_from_seed(1, 0)))
        .unwrap()
        .view(seat(0));
    let madiao_tracker = Tracker::Madiao(madiao::Tracker::from_view(&view));
    let dabaifen_tracker = Tracker::Dabaifen(dabaifen::Tracker {
        suits: vec![dabaifen::track::SuitTrack {
            suit: "S".into(),
            played: vec!["AS".parse().unwrap()],
            unseen: Vec::new(),
        }],
        voids: vec![dabaifen::track::Void { seat: seat(2), suit: "H".into() }],
        top: vec!["KS".parse().unwrap()],
    });
    for tracker in [Some(madiao_tracker), Some(dabaifen_tracker), None] {
        let m = ServerMsg::Tracker(TrackerMsg { v: 9, move_no: 4, tracker });
        let back: ServerMsg = serde_json::from_str(&m.text()).unwrap();
        assert_eq!(back, m);
    }
    let madiao_hint: ServerMsg = serde_json::from_str(
        r#"{"type":"hint","v":9,"move":4,"seat":0,"action":{"slough":"M9"},"reason":{"kind":"k","en":"e","zh":"z"}}"#,
    )
    .unwrap();
    let ServerMsg::Hint(h) = madiao_hint else { panic!("a hint") };
    assert_eq!(h.action, ActAction::Madiao(madiao::Action::Slough("M9".parse().unwrap())));
    let dabaifen_hint: ServerMsg = serde_json::from_str(
        r#"{"type":"hint","v":9,"move":4,"seat":0,"action":{"bury":["AS"]},"reason":{"kind":"k","en":"e","zh":"z"}}"#,
    )
    .unwrap();
    let ServerMsg::Hint(h) = dabaifen_hint else { panic!("a hint") };
    assert!(matches!(h.action, ActAction::Dabaifen(dabaifen::Action::Bury(_))), "{:?}", h.action);
}

#[test]
fn moderation_bodies_keep_their_json() {
    // A mute names its list by the field `mute`, a block by `block`: the other is absent.
    let mute =
        RelationReply { id: "g1".into(), name: "Ann".into(), mute: Some(true), block: None, changed: true };
    assert_eq!(
        serde_json::to_value(&mute).unwrap(),
        json!({"id": "g1", "name": "Ann", "mute": true, "changed": true})
    );
    let unblock =
        RelationReply { id: "g2".into(), name: "Bo".into(), mute: None, block: Some(false), changed: false };
    assert_eq!(
        serde_json::to_value(&unblock).unwrap(),
        json!({"id": "g2", "name": "Bo", "block": false, "changed": false})
    );
    // A report names a chat line by both table and chat, or neither; an unknown field is refused.
    let r: NewReport = serde_json::from_str(r#"{"player":"g1","reason":"rude"}"#).unwrap();
    assert_eq!((r.table, r.chat), (None, None));
    let r: NewReport =
        serde_json::from_str(r#"{"player":"g1","reason":"rude","table":"t1","chat":4}"#).unwrap();
    assert_eq!((r.table.as_deref(), r.chat), (Some("t1"), Some(4)));
    assert!(serde_json::from_str::<NewReport>(r#"{"player":"g1","reason":"x","why":1}"#).is_err());
    assert!(serde_json::from_str::<Because>(r#"{"reason":"x","by":"op","minutes":1}"#).is_err());
    let removed = RemovedReply { removed: RemovedLine { table: "t1".into(), chat: 3 } };
    assert_eq!(serde_json::to_value(&removed).unwrap(), json!({"removed": {"table": "t1", "chat": 3}}));
    assert_eq!(
        serde_json::to_value(ReadyReply { ready: true, reason: None }).unwrap(),
        json!({"ready": true})
    );
}
