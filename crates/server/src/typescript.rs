//! The TypeScript declarations of the protocol (`web/js/wire.d.ts`), generated from the Rust types
//! of the protocol, the engines and the replay API.

use cards::Seat;
use cards::record::GameKind;
use table::game::{LeadGroup, Legal};
use table::log::TableStatus;
use table::protocol::*;
use ts_rs::TS;

/// The TypeScript declarations of every wire type, as one `.d.ts` file (`web/js/wire.d.ts`).
pub fn typescript() -> String {
    use crate::replay::{ReplayEvent, ReplayHand, ReplayHandOutline, ReplayOutline, ReplayStep};

    let cfg = ts_rs::Config::new().with_large_int("number");
    let mut decls: Vec<(String, String)> = Vec::new();
    macro_rules! decl {
        ($($t:ty),* $(,)?) => {$(
            decls.push((<$t as TS>::ident(&cfg), <$t as TS>::decl(&cfg)));
        )*};
    }
    decl!(
        // The vocabulary.
        Seat,
        cards::BySeat<()>,
        cards::Halves,
        cards::record::Variants,
        madiao::Variants,
        dabaifen::Variants,
        GameKind,
        // Madiao.
        madiao::Card,
        madiao::ZeroCash,
        madiao::Action,
        madiao::Phase,
        madiao::PlayKind,
        madiao::View,
        madiao::view::RedealChoice,
        madiao::view::TrickView,
        madiao::view::PlayView,
        madiao::view::Declared,
        madiao::Tracker,
        madiao::track::SuitTrack,
        madiao::track::Void,
        madiao::SettlementView,
        madiao::LineView,
        cards::record::MadiaoResult,
        cards::record::MadiaoOutcome,
        // Da Bai Fen.
        dabaifen::Card,
        dabaifen::Rank,
        dabaifen::Action,
        dabaifen::Phase,
        dabaifen::Outcome,
        dabaifen::Declaration,
        dabaifen::KittyTurn,
        dabaifen::Trump,
        dabaifen::View,
        dabaifen::view::TrickView,
        dabaifen::view::PlayView,
        dabaifen::Tracker,
        dabaifen::track::SuitTrack,
        dabaifen::track::Void,
        dabaifen::Account,
        dabaifen::Event,
        dabaifen::DealResult,
        cards::record::DabaifenResult,
        cards::record::DabaifenOutcome,
        cards::record::TrumpRecord,
        // The server.
        TableStatus,
        SeatKind,
        table::settings::Pace,
        SeatInfo,
        TableSummary,
        LeadSuit,
        LeadGroup,
        CardsAction,
        RevokeRule,
        Legal,
        ErrorCode,
        ChatMessage,
        Timer,
        TableEvent,
        You,
        MadiaoMatch,
        DabaifenMatch,
        MatchSummary,
        HandResult,
        HiddenAction,
        PublicAction,
        RedealOutcome,
        AnnulOutcome,
        WindowOutcome,
        SyncMsg,
        UpdateMsg,
        SeatsMsg,
        HostEvent,
        HostMsg,
        table::history::Outcome,
        table::history::MyGame,
        table::history::MyGames,
        ChatMsg,
        ChatRemovedMsg,
        AckWhat,
        AckMsg,
        ErrorMsg,
        HintReason,
        HintMsg,
        TrackerMsg,
        GuestInfo,
        WelcomeMsg,
        ServerMsg,
        ClientMsg,
        NewGuestReply,
        GameInfo,
        GamesReply,
        LobbyReply,
        SeatChoice,
        NewTable,
        NewTableReply,
        table::tutorial::Decision,
        table::tutorial::Lesson,
        table::tutorial::TutorialStep,
        table::tutorial::Tutorial,
        StatsReply,
        ExternalBotCounts,
        TableStub,
        ApiErrorBody,
        ApiErrorDetail,
        ApiCode,
        ReplayOutline,
        ReplayHandOutline,
        ReplayHand,
        ReplayStep,
        ReplayEvent,
        crate::analysis::AnalysisStatus,
        crate::analysis::AnalysisReply,
        crate::analysis::AnalysisRequest,
        cards::record::MadiaoAction,
        cards::record::DabaifenAction,
        // Accounts.
        NewAccount,
        SignIn,
        SessionReply,
        AccountInfo,
        NewPassword,
        DeleteAccount,
        SignedOut,
        AccountTable,
        AccountTables,
        // Ratings.
        LeaderboardEntry,
        LeaderboardReply,
        GameRating,
        RatedOutcome,
        RatedResult,
        PlayerProfile,
        RatingChange,
        TableRatings,
        // The public archive.
        table::archive::ArchivedSeat,
        table::archive::ArchivedGame,
        table::archive::ArchivePage,
    );
    let mut out = String::from(
        "// The wire types of the yezi server (docs/protocol.md), generated from the Rust types by\n\
         // `server::typescript::typescript` (crates/server/src/typescript.rs). Do not edit: after changing a\n\
         // type, run `YEZI_BLESS=1 cargo test -p server --test wire_types` to write this file again.\n",
    );
    for (_, d) in &decls {
        out.push('\n');
        out.push_str("export ");
        out.push_str(d);
        out.push('\n');
    }
    out
}

/// Every type named in the declarations that is not declared (a type left out of
/// [`typescript`]'s list): empty when the file is complete.
pub fn undeclared(ts: &str) -> Vec<String> {
    let declared: std::collections::BTreeSet<&str> = ts
        .lines()
        .filter_map(|l| l.strip_prefix("export type "))
        .filter_map(|l| l.split([' ', '<']).next())
        .collect();
    let builtin = ["Array", "Record", "Partial", "string", "number", "boolean", "null", "true", "false", "T"];
    let mut missing = std::collections::BTreeSet::new();
    let mut word = String::new();
    let mut in_string = false;
    let code = |l: &&str| {
        let t = l.trim_start();
        !(t.starts_with("//") || t.starts_with("/**") || t.starts_with('*'))
    };
    for c in ts.lines().filter(code).flat_map(|l| l.chars().chain(std::iter::once('\n'))) {
        if c == '"' {
            in_string = !in_string;
            word.clear();
            continue;
        }
        if in_string {
            continue;
        }
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        // A type name begins with a capital letter and is not a field (followed by `:` or `?`).
        if word.starts_with(|ch: char| ch.is_ascii_uppercase())
            && c != ':'
            && c != '?'
            && !declared.contains(word.as_str())
            && !builtin.contains(&word.as_str())
        {
            missing.insert(word.clone());
        }
        word.clear();
    }
    missing.into_iter().collect()
}
