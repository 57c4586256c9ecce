//! The TypeScript declarations of the protocol (`web/js/wire.d.ts`), generated from the Rust types
//! of this crate and the engines.

use cards::Seat;
use cards::record::GameKind;
use ts_rs::TS;

use crate::*;

/// The TypeScript declarations of every wire type, as one `.d.ts` file (`web/js/wire.d.ts`).
pub fn typescript() -> String {
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
        madiao::record::MadiaoResult,
        madiao::record::MadiaoOutcome,
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
        dabaifen::Settlement,
        dabaifen::Event,
        dabaifen::DealResult,
        dabaifen::record::DabaifenResult,
        dabaifen::record::DabaifenOutcome,
        dabaifen::record::TrumpRecord,
        // The server.
        TableStatus,
        SeatKind,
        Pace,
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
        crate::history::Outcome,
        crate::history::MyGame,
        crate::history::MyGames,
        ChatMsg,
        ChatRemovedMsg,
        AckWhat,
        AckMsg,
        ErrorMsg,
        HintReason,
        HintMsg,
        TrackerMsg,
        MovedMsg,
        DealMsg,
        GuestInfo,
        WelcomeMsg,
        ServerMsg,
        TableMsg,
        ClientMsg,
        NewGuestReply,
        GameInfo,
        GamesReply,
        LobbyReply,
        SeatChoice,
        NewTable,
        NewTableReply,
        crate::tutorial::Decision,
        crate::tutorial::Lesson,
        crate::tutorial::TutorialStep,
        crate::tutorial::Tutorial,
        StatsReply,
        ExternalBotCounts,
        TableStub,
        ShareReply,
        ReadyReply,
        ApiErrorBody,
        ApiErrorDetail,
        ApiCode,
        ApiReason,
        ReplayOutline,
        ReplayHandOutline,
        crate::replay::DealsChecked,
        crate::replay::DealProblem,
        crate::replay::DealMismatch,
        crate::replay::CardMismatch,
        ReplayHand,
        ReplayStep,
        ReplayEvent,
        AnalysisStatus,
        AnalysisReply,
        AnalysisRequest,
        MatchAccuracy,
        HandAccuracy,
        madiao::record::MadiaoAction,
        dabaifen::record::DabaifenAction,
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
        // Moderation.
        crate::moderation::Listed,
        crate::moderation::MyLists,
        crate::moderation::RelationReply,
        crate::moderation::NewReport,
        crate::moderation::ReportMade,
        crate::moderation::ReportView,
        crate::moderation::ReportsReply,
        crate::moderation::SanctionView,
        crate::moderation::SanctionsReply,
        crate::moderation::LogView,
        crate::moderation::LogReply,
        crate::moderation::NewSanction,
        crate::moderation::Because,
        crate::moderation::LiftedReply,
        crate::moderation::RemoveChat,
        crate::moderation::RemovedLine,
        crate::moderation::RemovedReply,
        crate::moderation::GameLine,
        crate::moderation::PlayerGames,
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
        crate::archive::ArchivedSeat,
        crate::archive::ArchivedGame,
        crate::archive::ArchivePage,
        // Puzzles.
        crate::puzzles::PuzzleChoice,
        crate::puzzles::PuzzlePosition,
        crate::puzzles::PuzzleText,
        crate::puzzles::PuzzleMoveValue,
        crate::puzzles::PuzzleLineStep,
        crate::puzzles::PuzzleVerdict,
        crate::puzzles::PuzzlePlayer,
        crate::puzzles::PuzzleAttempt,
        crate::puzzles::PuzzleRatingChange,
        crate::puzzles::PuzzleAttemptReply,
        // Live tables (the TV).
        crate::tv::TvTable,
        crate::tv::TvReply,
        // Friends.
        crate::friends::FriendTable,
        crate::friends::Friend,
        crate::friends::ChallengeStatus,
        crate::friends::Challenge,
        crate::friends::FriendsReply,
        crate::friends::NewChallenge,
        crate::friends::FriendMsg,
        crate::friends::InvitedMsg,
        // Duplicate events.
        crate::events::EventScoring,
        crate::events::NewEvent,
        crate::events::EventSeat,
        crate::events::EventTable,
        crate::events::TravellerLine,
        crate::events::Traveller,
        crate::events::EventStanding,
        crate::events::EventYou,
        crate::events::EventInfo,
        crate::events::EventSummary,
        crate::events::EventList,
        // Quick pairing.
        crate::tournaments::PlayNowRequest,
        crate::tournaments::PlayNowState,
        crate::tournaments::PlayNowStatus,
        crate::tournaments::TournamentKind,
        crate::tournaments::NewTournament,
        crate::tournaments::TournamentStanding,
        crate::tournaments::TournamentTable,
        crate::tournaments::TournamentInfo,
        crate::tournaments::TournamentList,
    );
    let mut out = String::from(
        "// The wire types of the yezi server (docs/protocol.md), generated from the Rust types by\n\
         // `wire::typescript::typescript` (crates/wire/src/typescript.rs). Do not edit: after changing a\n\
         // type, run `YEZI_BLESS=1 cargo test -p wire --test wire_types` to write this file again.\n",
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
/// [`typescript()`]'s list): empty when the file is complete.
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
