// The wire types of the yezi server (docs/protocol.md), generated from the Rust types by
// `wire::typescript::typescript` (crates/wire/src/typescript.rs). Do not edit: after changing a
// type, run `YEZI_BLESS=1 cargo test -p wire --test wire_types` to write this file again.

export type Seat = number;

export type BySeat<T> = [T, T, T, T];

export type Halves = number;

export type VariantOverrides = Record<string, string>;

export type MadiaoVariants = { faceup_discard: string, banker_shortfall: string, hm_bonus_tricks: string, most_tricks_tie: string, stock_check_payer: string, meld_extra_stake: string, meld_stacking: string, bonus_stacking: string, slam: string, game_length: string };

export type DabaifenVariants = { revoke: "penalize" | "refuse", kitty_multiplier: "double" | "per_card", first_drawer: "starter" | "starter_right", game_end: "reach_ace" | "win_as_declarers_at_ace", annul: "any_player" | "non_starters_only" };

export type GameKind = "madiao" | "dabaifen";

export type MadiaoCard = "TW" | "TQ" | "TB" | "T9" | "T8" | "T7" | "T6" | "T5" | "T4" | "T3" | "T2" | "M9" | "M8" | "M7" | "M6" | "M5" | "M4" | "M3" | "M2" | "M1" | "S9" | "S8" | "S7" | "S6" | "S5" | "S4" | "S3" | "S2" | "S1" | "W0" | "WH" | "W1" | "W2" | "W3" | "W4" | "W5" | "W6" | "W7" | "W8" | "W9";

export type ZeroCash = "unnamed" | "blank" | "wang_ying";

export type MadiaoAction = { "play": MadiaoCard } | { "slough": MadiaoCard } | { "redeal": boolean };

export type MadiaoPhase = "redeal" | "play" | "over";

export type PlayKind = "lead" | "capture" | "slough" | "discard";

export type MadiaoView = { 
/**
 * Whose view this is (`null` for a spectator).
 */
seat: Seat | null, 
/**
 * The banker.
 */
banker: Seat, 
/**
 * Chips per stake.
 */
stake: number, 
/**
 * The rules.
 */
variants: MadiaoVariants, 
/**
 * The first recipient, who leads trick 1.
 */
first_recipient: Seat, 
/**
 * The stock's face-up bottom card.
 */
upcard: MadiaoCard, 
/**
 * The hand's phase.
 */
phase: MadiaoPhase, 
/**
 * Whose turn it is (`None` once the hand is over).
 */
to_move: Seat | null, 
/**
 * The seat's own cards, highest first.
 */
hand: Array<MadiaoCard>, 
/**
 * How many cards each seat holds.
 */
hand_sizes: BySeat<number>, 
/**
 * The long-suit redeal choices so far, in order.
 */
redeal_choices: Array<RedealChoice>, 
/**
 * Every trick begun, in order, with its plays.
 */
tricks: Array<MadiaoTrickView>, 
/**
 * Tricks won so far by each seat.
 */
tricks_won: BySeat<number>, 
/**
 * The seat's legal actions when it is to move (empty otherwise).
 */
legal_actions: Array<MadiaoAction>, 
/**
 * Among the cards of the seat's legal face-up plays, those that would lead or capture
 * (§5); the others would be face-up discards (empty when the seat is not to move).
 */
captures: Array<MadiaoCard>, 
/**
 * Once the hand is over: the cards shown for a meld, the four lowest or a long suit.
 */
declared: Array<Declared>, 
/**
 * Once a played hand is over: the stock card under the upcard (exposed by the stock check).
 */
exposed_stock_card: MadiaoCard | null, 
/**
 * Once the hand is over: its result.
 */
result: MadiaoResult | null, 
/**
 * Once the hand is over: the itemized settlement.
 */
settlement: Settlement | null, };

export type RedealChoice = { 
/**
 * Who chose.
 */
seat: Seat, 
/**
 * True: forced a redeal.
 */
redeal: boolean, };

export type MadiaoTrickView = { 
/**
 * 1–8.
 */
number: number, 
/**
 * Who led.
 */
leader: Seat, 
/**
 * The cards played so far, in order.
 */
plays: Array<MadiaoPlayView>, 
/**
 * Who won it, once complete.
 */
winner: Seat | null, 
/**
 * Who is winning it so far: the player of `best` (§5: the highest card of the led suit
 * wins); the winner once complete.
 */
leading: Seat | null, 
/**
 * The best card so far: the highest face-up card of the led suit that can win (§5, §9.6).
 * A card played face up now captures when it is of the same suit and higher.
 */
best: MadiaoCard | null, };

export type MadiaoPlayView = { 
/**
 * Who played it.
 */
seat: Seat, 
/**
 * Lead, capture, slough or discard (public: everyone sees how a card is played).
 */
kind: PlayKind, 
/**
 * Face up or face down.
 */
face_up: boolean, 
/**
 * The card, or `None` when it is face down and not the viewer's while the hand goes on.
 */
card: MadiaoCard | null, 
/**
 * False when the card cannot win the trick (face down, or §9.6 at trick 8).
 */
can_win: boolean, };

export type Declared = { 
/**
 * Who showed them.
 */
seat: Seat, 
/**
 * What they are: `"meld"`, `"four_lowest"`, `"long_suit"`, or `"hm_exemption"` (the HM
 * holder shows `TB` so as not to pay for a meld).
 */
what: "meld" | "four_lowest" | "long_suit" | "hm_exemption", 
/**
 * The cards, highest first.
 */
cards: Array<MadiaoCard>, };

export type MadiaoTracker = { 
/**
 * The four suits, tens first (`T`, `M`, `S`, `W`).
 */
suits: Array<MadiaoSuitTrack>, 
/**
 * How many cards other seats played face down that the viewer has not seen.
 */
hidden_plays: number, 
/**
 * The voids shown, by seat then suit (never the viewer's own).
 */
voids: Array<MadiaoVoid>, 
/**
 * The viewer's top cards now, highest first.
 */
top: Array<MadiaoCard>, };

export type MadiaoSuitTrack = { 
/**
 * The suit's letter: `T`, `M`, `S` or `W`.
 */
suit: "T" | "M" | "S" | "W", 
/**
 * The cards of the suit the viewer has seen played (face up by anyone, and its own face-down
 * cards), highest first.
 */
played: Array<MadiaoCard>, 
/**
 * The cards of the suit the viewer has not seen (other hands, others' face-down cards, the
 * hidden stock), highest first.
 */
unseen: Array<MadiaoCard>, };

export type MadiaoVoid = { 
/**
 * The seat.
 */
seat: Seat, 
/**
 * The suit's letter.
 */
suit: "T" | "M" | "S" | "W", };

export type Settlement = { 
/**
 * The lines, in the order the rules settle them.
 */
lines: Array<SettlementLine>, 
/**
 * Each seat's total, in stakes.
 */
totals: BySeat<Halves>, };

export type SettlementLine = { seat: Seat, banker: Seat, item: string, counted: boolean, transfers: [number, number, number, number], text: string, detail: { card?: MadiaoCard, promoted?: boolean, tricks?: number, exposed?: MadiaoCard, second?: MadiaoCard, face_up?: boolean, trick?: number } };

export type MadiaoResult = { 
/**
 * How the hand ended.
 */
outcome: MadiaoOutcome, 
/**
 * Tricks won per seat (all zero when the hand was not played).
 */
tricks: BySeat<number>, 
/**
 * Payoff per seat in stakes; they sum to zero.
 */
payoffs: BySeat<Halves>, 
/**
 * The next banker, or `None` when the banker is drawn again.
 */
next_banker: Seat | null, 
/**
 * True on the hand that ends the match.
 */
game_over: boolean, };

export type MadiaoOutcome = "played" | "meld" | "four_lowest" | "redeal";

export type DabaifenCard = "2S" | "3S" | "4S" | "5S" | "6S" | "7S" | "8S" | "9S" | "TS" | "JS" | "QS" | "KS" | "AS" | "2H" | "3H" | "4H" | "5H" | "6H" | "7H" | "8H" | "9H" | "TH" | "JH" | "QH" | "KH" | "AH" | "2D" | "3D" | "4D" | "5D" | "6D" | "7D" | "8D" | "9D" | "TD" | "JD" | "QD" | "KD" | "AD" | "2C" | "3C" | "4C" | "5C" | "6C" | "7C" | "8C" | "9C" | "TC" | "JC" | "QC" | "KC" | "AC" | "SJ" | "BJ";

export type DabaifenRank = "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "T" | "J" | "Q" | "K" | "A";

export type DabaifenAction = { "pass": true } | { "declare": DabaifenCard } | { "annul": true } | { "bury": Array<DabaifenCard> } | { "play": Array<DabaifenCard> };

export type DabaifenPhase = "drawing" | "annulling" | "burying" | "playing" | "over";

export type DabaifenDealOutcome = "played" | "annulled" | "revoke";

export type Declaration = { 
/**
 * Who showed it.
 */
seat: Seat, 
/**
 * The card shown (it stays in his hand).
 */
card: DabaifenCard, 
/**
 * How many cards had been drawn in all when it was shown (1–48).
 */
drawn: number, };

export type KittyTurn = { 
/**
 * How many kitty cards were turned face up (`deck[48]` first).
 */
turned: number, 
/**
 * The card that fixed the suit.
 */
card: DabaifenCard, 
/**
 * True when it was a trump-rank card; false when no such card came and the highest non-joker
 * of the six decided (§12.4).
 */
by_rank: boolean, };

export type Trump = { 
/**
 * The trump suit.
 */
suit: "S" | "H" | "D" | "C", 
/**
 * The trump rank.
 */
rank: DabaifenRank, };

export type DabaifenView = { 
/**
 * The seat this view is for (`null` for a spectator).
 */
seat: Seat | null, 
/**
 * The phase.
 */
phase: DabaifenPhase, 
/**
 * Whose turn it is; during the draw and annulment polls, set only in the asked seat's view.
 */
to_move: Seat | null, 
/**
 * The rules variants in force (public: every player knows the rules of the table).
 */
variants: DabaifenVariants, 
/**
 * The match's first deal.
 */
first_deal: boolean, 
/**
 * An open deal (§6).
 */
open: boolean, 
/**
 * Team ranks before the deal.
 */
ranks: [DabaifenRank, DabaifenRank], 
/**
 * The starter who drew first (provisional in a first or open deal).
 */
provisional_starter: Seat, 
/**
 * The starter as things stand.
 */
starter: Seat, 
/**
 * The seat that took `deck[0]`.
 */
first_drawer: Seat, 
/**
 * Cards drawn so far in all (48 once the draw is complete).
 */
drawn: number, 
/**
 * This seat's cards (strongest first once trumps are fixed).
 */
hand: Array<DabaifenCard>, 
/**
 * How many cards each seat holds.
 */
hand_sizes: [number, number, number, number], 
/**
 * The declaration, if any.
 */
declaration: Declaration | null, 
/**
 * How the kitty was turned, if it was.
 */
kitty_turn: KittyTurn | null, 
/**
 * The kitty cards turned face up (public).
 */
kitty_turned: Array<DabaifenCard>, 
/**
 * Trumps, once fixed.
 */
trump: Trump | null, 
/**
 * A hand shown to annul the deal: the seat and its twelve cards.
 */
annulment: [Seat, Array<DabaifenCard>] | null, 
/**
 * The six kitty cards as taken: only for the starter, once he has taken them.
 */
kitty: Array<DabaifenCard> | null, 
/**
 * The six buried cards: for the starter once buried; for everyone once the deal is scored.
 */
buried: Array<DabaifenCard> | null, 
/**
 * The tricks so far, the current one last.
 */
tricks: Array<DabaifenTrickView>, 
/**
 * Card points taken in tricks by each team.
 */
team_points: [number, number], 
/**
 * The seat that revoked, if one did.
 */
revoke: Seat | null, 
/**
 * The result, once the deal is over.
 */
result: DealResult | null, 
/**
 * The account, once the deal is over.
 */
account: Account | null, };

export type DabaifenTrickView = { 
/**
 * Who led.
 */
leader: Seat, 
/**
 * The plays so far, in order.
 */
plays: Array<DabaifenPlayView>, 
/**
 * The winner, once complete.
 */
winner: Seat | null, 
/**
 * Who is winning the trick with the plays made so far (§8 "Who wins the trick"); the
 * winner once complete.
 */
leading: Seat | null, 
/**
 * The card points in the trick, once complete.
 */
points: number | null, };

export type DabaifenPlayView = { 
/**
 * Who played.
 */
seat: Seat, 
/**
 * The cards played.
 */
cards: Array<DabaifenCard>, };

export type DabaifenTracker = { 
/**
 * The five effective suits, trumps first, then `S`, `H`, `D`, `C`.
 */
suits: Array<DabaifenSuitTrack>, 
/**
 * The voids shown, in the order they were shown.
 */
voids: Array<DabaifenVoid>, 
/**
 * The viewer's top cards now, strongest first (trumps first).
 */
top: Array<DabaifenCard>, };

export type DabaifenSuitTrack = { 
/**
 * `trumps`, or a plain suit's letter `S`, `H`, `D`, `C`.
 */
suit: "trumps" | "S" | "H" | "D" | "C", 
/**
 * The cards of the suit played to tricks, strongest first.
 */
played: Array<DabaifenCard>, 
/**
 * The cards of the suit the viewer has not seen, strongest first.
 */
unseen: Array<DabaifenCard>, };

export type DabaifenVoid = { 
/**
 * The seat.
 */
seat: Seat, 
/**
 * The suit, as in [`SuitTrack::suit`].
 */
suit: "trumps" | "S" | "H" | "D" | "C", };

export type Account = { 
/**
 * The lines, in order.
 */
lines: Array<AccountEvent>, };

export type AccountEvent = { "event": "declared", 
/**
 * The seat that showed the card.
 */
seat: Seat, 
/**
 * The trump-rank card shown; its suit is the trump suit.
 */
card: DabaifenCard, 
/**
 * How many cards had been drawn in all when it was shown (1–48).
 */
drawn: number, 
/**
 * Trumps as the declaration fixed them.
 */
trump: Trump, 
/**
 * Whether the declarer became the starter (in the first deal and in an open deal, §4, §6).
 */
became_starter: boolean, } | { "event": "kitty_turned", 
/**
 * The (provisional) starter, who turned the kitty.
 */
starter: Seat, 
/**
 * The kitty cards turned face up, in the order turned (`deck[48]` first).
 */
turned: Array<DabaifenCard>, 
/**
 * The card that fixed the trump suit.
 */
card: DabaifenCard, 
/**
 * True when `card` is of the trump rank; false when none came and `card` is the highest
 * non-joker of the six (§5, §12.4).
 */
by_rank: boolean, 
/**
 * Trumps as the turned card fixed them.
 */
trump: Trump, } | { "event": "no_showing" } | { "event": "kept_deal", 
/**
 * The seat without trumps that chose to play the deal.
 */
seat: Seat, } | { "event": "annulled", 
/**
 * The seat that annulled the deal.
 */
seat: Seat, 
/**
 * The hand it showed (the twelve cards it drew, §12.5), sorted for showing.
 */
hand: Array<DabaifenCard>, } | { "event": "buried", 
/**
 * The starter, who took the kitty and buried.
 */
seat: Seat, 
/**
 * The six cards buried, the new kitty.
 */
cards: Array<DabaifenCard>, 
/**
 * The card points among them (§1), which go to the team of the last trick (§9).
 */
points: number, } | { "event": "trick", 
/**
 * The trick's number in the deal, from 1.
 */
number: number, 
/**
 * Each seat and the cards it played, in play order from the leader.
 */
plays: Array<[Seat, Array<DabaifenCard>]>, 
/**
 * The seat that won the trick.
 */
winner: Seat, 
/**
 * The card points in the trick (§1).
 */
points: number, 
/**
 * Whether the winner is a defender, so that the points count towards `T` (§9).
 */
to_defenders: boolean, } | { "event": "revoke", 
/**
 * The seat that led.
 */
seat: Seat, 
/**
 * The cards it led.
 */
cards: Array<DabaifenCard>, 
/**
 * Each led card that is not a top card, with a seat that held a stronger card of its suit
 * and that card.
 */
not_top: Array<[DabaifenCard, Seat, DabaifenCard]>, } | { "event": "kitty", 
/**
 * The team that won (or, after a revoke, is taken to have won) the last trick: 0 for seats
 * 0 and 2, 1 for seats 1 and 3.
 */
team: number, 
/**
 * Whether that team is the defenders, so that the kitty's points count towards `T`.
 */
to_defenders: boolean, 
/**
 * The card points buried in the kitty.
 */
kitty_points: number, 
/**
 * The multiplier of the kitty's points: 2, or 2 × the cards each player put on the last
 * trick under `kitty_multiplier: per_card` (§9).
 */
multiplier: number, 
/**
 * What the kitty adds to `T`: `kitty_points × multiplier` for the defenders, 0 otherwise.
 */
bonus: number, } | { "event": "total", 
/**
 * The defenders' points without the kitty bonus.
 */
in_tricks: number, 
/**
 * The kitty bonus added to them.
 */
bonus: number, 
/**
 * `T`, the defenders' points that decide the row of the table (§9).
 */
total: number, 
/**
 * Whether the deal ended with a revoke, which sets `T` (§12.8).
 */
revoke: boolean, 
/**
 * Whether the declarers won the deal (`T` under 40).
 */
declarers_win: boolean, 
/**
 * The ranks the winning team goes up by, as the table gives them (0, 1 or 2).
 */
levels: number, } | { "event": "rank_up", 
/**
 * The team that won the deal: 0 for seats 0 and 2, 1 for seats 1 and 3.
 */
team: number, 
/**
 * Its rank before the deal.
 */
from: DabaifenRank, 
/**
 * Its rank after it.
 */
to: DabaifenRank, } | { "event": "next_starter", 
/**
 * The starter of the next deal.
 */
seat: Seat, 
/**
 * Why that seat starts, in words.
 */
why: string, } | { "event": "game_over", 
/**
 * The team that won the game: 0 for seats 0 and 2, 1 for seats 1 and 3.
 */
team: number, };

export type DealResult = { 
/**
 * How the deal ended.
 */
outcome: DabaifenDealOutcome, 
/**
 * Trumps as fixed (`None` when an open deal saw no showing).
 */
trump: Trump | null, 
/**
 * The starter who played the deal (after any declaration in a first or open deal).
 */
starter: Seat, 
/**
 * `T`: the defenders' points, kitty bonus included (`None` when annulled).
 */
defender_points: number | null, 
/**
 * The card points buried in the kitty (`None` when annulled).
 */
kitty_points: number | null, 
/**
 * The team that won (or, after a revoke, is taken to have won) the last trick.
 */
last_trick: number | null, 
/**
 * The team that won the deal.
 */
winner: number | null, 
/**
 * The game points of the table (§9), as the table gives them (§12.9).
 */
levels: number, 
/**
 * The team ranks after the deal.
 */
ranks: [DabaifenRank, DabaifenRank], 
/**
 * The starter of the next deal.
 */
next_starter: Seat, 
/**
 * True when a team has won the game with this deal.
 */
game_over: boolean, 
/**
 * The kitty bonus added to `T` (0 unless the defenders took the last trick).
 */
kitty_bonus: number, 
/**
 * The kitty multiplier used (2 under `double`; 2 × cards per player in the last trick
 * under `per_card`).
 */
multiplier: number, };

export type DabaifenResult = { 
/**
 * How the deal ended.
 */
outcome: DabaifenOutcome, 
/**
 * Trumps as fixed, or `None` if an open deal saw no showing.
 */
trump: TrumpRecord | null, 
/**
 * The starter who played the deal.
 */
starter: Seat, 
/**
 * The defenders' points `T`, kitty bonus included.
 */
defender_points: number | null, 
/**
 * The card points buried in the kitty.
 */
kitty_points: number | null, 
/**
 * The team (0 or 1) that won the last trick.
 */
last_trick: number | null, 
/**
 * The team (0 or 1) that won the deal.
 */
winner: number | null, 
/**
 * The game points of the scoring table.
 */
levels: number, 
/**
 * The team ranks after the deal.
 */
ranks: [string, string], 
/**
 * The starter of the next deal.
 */
next_starter: Seat, 
/**
 * True when a team has won the game.
 */
game_over: boolean, };

export type DabaifenOutcome = "played" | "annulled" | "revoke";

export type TrumpRecord = { 
/**
 * `S`, `H`, `D` or `C`.
 */
suit: string, 
/**
 * `2`…`9`, `T`, `J`, `Q`, `K`, `A`.
 */
rank: string, };

export type TableStatus = "waiting" | "playing" | "parked" | "finished" | "closed";

export type SeatKind = "person" | "bot" | "open";

export type Pace = "relaxed" | "normal" | "fast";

export type SeatInfo = { 
/**
 * 0–3.
 */
seat: number, 
/**
 * Who holds the seat.
 */
kind: SeatKind, 
/**
 * The name shown (`bot:NAME` for a bot).
 */
name: string | null, 
/**
 * The bot's name, for a bot seat.
 */
bot: string | null, 
/**
 * The guest holding a person's seat.
 */
guest: string | null, 
/**
 * A person's seat has a live connection.
 */
present: boolean, 
/**
 * A bot is playing for the person after his clock ran out (until he is back).
 */
away: boolean, 
/**
 * A bot plays this seat now (a bot seat, an open seat, or an absent or away person); false
 * during a disconnected person's grace period.
 */
bot_plays: boolean, 
/**
 * For a seated person with no connection: the time left before a bot stands in for him
 * (`null` otherwise).
 */
grace_ms: number | null, 
/**
 * An open seat kept for a person invited to a rematch: his name (only he may take it,
 * until the match begins).
 */
invited?: string, };

export type TableSummary = { 
/**
 * The table's id.
 */
id: string, 
/**
 * Its name.
 */
name: string, 
/**
 * The game.
 */
game: GameKind, 
/**
 * The preset.
 */
rules: string, 
/**
 * Every variant in force.
 */
variants: Record<string, string>, 
/**
 * Madiao: chips per stake (the lowest stake when the banker names it).
 */
stake?: number, 
/**
 * Madiao: the highest stake the banker may name, when it is above `stake`.
 */
stake_max?: number, 
/**
 * The turn clock, in seconds.
 */
turn_seconds: number, 
/**
 * The people play without a clock.
 */
untimed: boolean, 
/**
 * Each person's time bank for the match, in seconds (0: none).
 */
bank_seconds: number, 
/**
 * How fast the table's fixed clocks run.
 */
pace: Pace, 
/**
 * How long after a seated person's connection drops a bot stands in for him, in seconds.
 */
grace_seconds: number, 
/**
 * Not listed in the lobby.
 */
private: boolean, 
/**
 * Waiting, playing or finished.
 */
status: TableStatus, 
/**
 * The guest who created it.
 */
host: string | null, 
/**
 * The four seats.
 */
seats: Array<SeatInfo>, 
/**
 * How many seats are open.
 */
open_seats: number, 
/**
 * How many connections watch.
 */
spectators: number, 
/**
 * Hands finished.
 */
hands: number, 
/**
 * Creation time, milliseconds since the Unix epoch.
 */
created_ms: number, 
/**
 * Madiao: how the table's deck draws the zero cash, so that every viewer draws the same
 * deck (absent for Da Bai Fen; a client reads an absent value as `unnamed`).
 */
zero_cash?: ZeroCash, 
/**
 * A rated table: its match changes its players' ratings; only guests with an account sit
 * at it (`docs/ratings.md`).
 */
rated: boolean, 
/**
 * A board of a rated event: not rated itself, but with no hints, tracker, take-backs or
 * pauses, as at a rated table (`docs/events.md`, "Rated events"). Absent: false.
 */
no_aids?: boolean, };

export type LeadSuit = "trumps" | "S" | "H" | "D" | "C";

export type LeadGroup = { 
/**
 * The trumps, or a plain suit.
 */
suit: LeadSuit, 
/**
 * The seat's cards of that suit, strongest first.
 */
cards: Array<DabaifenCard>, 
/**
 * Under `revoke: refuse` only: the top cards among them (a multi-card lead must use only
 * these). Under `penalize` this is absent: any two or more may be led, and a lead with a card
 * that is not a top card is a revoke, which ends the deal.
 */
tops?: Array<DabaifenCard>, };

export type CardsAction = "bury" | "play";

export type RevokeRule = "penalize" | "refuse";

export type Legal = { "kind": "actions", 
/**
 * The actions.
 */
actions: Array<MadiaoAction>, 
/**
 * The cards of the `play` actions that would lead or capture (§5); any other `play` is a
 * face-up discard.
 */
captures: Array<MadiaoCard>, } | { "kind": "cards", 
/**
 * Burying or following.
 */
action: CardsAction, 
/**
 * How many cards.
 */
count: number, 
/**
 * Cards that must be among them.
 */
must: Array<DabaifenCard>, 
/**
 * Cards to choose the others from.
 */
from: Array<DabaifenCard>, } | { "kind": "lead", 
/**
 * Every card of the hand.
 */
singles: Array<DabaifenCard>, 
/**
 * The suits with two or more cards.
 */
groups: Array<LeadGroup>, 
/**
 * The `revoke` variant.
 */
revoke: RevokeRule, } | { "kind": "declare", 
/**
 * Your cards drawn so far that you may show.
 */
cards: Array<DabaifenCard>, 
/**
 * The card you asked to show, if any.
 */
requested: DabaifenCard | null, } | { "kind": "annul", 
/**
 * True when you have asked to annul.
 */
requested: boolean, } | { "kind": "stake", 
/**
 * The lowest stake (also the stake if you do not choose in time).
 */
low: number, 
/**
 * The highest stake.
 */
high: number, } | { "kind": "redeal", 
/**
 * True when you have asked for a redeal.
 */
requested: boolean, };

export type ErrorCode = "bad_json" | "bad_message" | "unknown_type" | "too_large" | "binary" | "rate_limited" | "not_authenticated" | "already_authenticated" | "bad_token" | "signed_out" | "no_table" | "not_at_table" | "already_at_table" | "no_seat" | "seat_taken" | "not_seated" | "not_host" | "not_started" | "already_started" | "not_your_turn" | "not_your_seat" | "illegal" | "stale" | "too_late" | "nothing_to_decide" | "bad_chat" | "storage" | "finished" | "unavailable" | "hello_timeout" | "too_many_connections" | "not_away" | "removed" | "not_over" | "closed" | "rematch_offered" | "account_required" | "hints_off" | "not_alone" | "paused" | "nothing_to_take_back" | "nothing_to_keep" | "banned" | "chat_muted" | "blocked" | "board_unfinished";

export type ChatMessage = { 
/**
 * Position in the table's chat, from 0.
 */
seq: number, 
/**
 * When it was said, milliseconds since the Unix epoch.
 */
at_ms: number, 
/**
 * The name shown.
 */
name: string, 
/**
 * The speaker's seat, if seated.
 */
seat: number | null, 
/**
 * The speaker.
 */
guest: string | null, 
/**
 * The text.
 */
text: string, };

export type Timer = { "what": "turn", 
/**
 * The seat whose turn it is.
 */
seat: Seat, 
/**
 * What is left of the turn clock, in milliseconds (absent at an untimed table).
 */
remaining_ms?: number, 
/**
 * What is left of the seat's time bank, in milliseconds (only at a table with time banks).
 */
bank_ms?: number, } | { "what": "bot", 
/**
 * The seat the bot plays.
 */
seat: Seat, } | { "what": "draw", 
/**
 * The time between two cards of the draw, in milliseconds.
 */
every_ms: number, } | { "what": "window", 
/**
 * Until the window closes, in milliseconds.
 */
remaining_ms: number, } | { "what": "next_hand", 
/**
 * Until the next hand is dealt, in milliseconds (absent at an untimed table).
 */
remaining_ms?: number, 
/**
 * The seats that pressed ready so far.
 */
ready: Array<Seat>, } | { "what": "trick", 
/**
 * Until the trick is cleared and the next lead is due, in milliseconds.
 */
remaining_ms: number, } | { "what": "grace", 
/**
 * The seat whose person is disconnected.
 */
seat: Seat, 
/**
 * Until a bot stands in, in milliseconds.
 */
remaining_ms: number, } | { "what": "paused" };

export type TableEvent = { "kind": "start" } | { "kind": "hand_start", 
/**
 * The hand dealt, from 0.
 */
hand: number, } | { "kind": "draw", 
/**
 * How many cards have been drawn in all.
 */
drawn: number, } | { "kind": "draw_end" } | { "kind": "action", 
/**
 * The seat that moved.
 */
seat: Seat, 
/**
 * The move as the recipient may see it (another seat's slough or burial is hidden).
 */
action: PublicAction, 
/**
 * A bot made it (a bot's seat, or a bot standing in for a person).
 */
by_bot: boolean, } | { "kind": "stake", 
/**
 * The banker.
 */
seat: Seat, 
/**
 * The stake named, in chips.
 */
stake: number, 
/**
 * A bot named it, or the banker's clock ran out and it is the lowest.
 */
by_bot: boolean, } | { "kind": "window", 
/**
 * Until the window closes, in milliseconds.
 */
closes_in_ms: number, } | { "kind": "take_back", 
/**
 * The seat that took back its play.
 */
seat: Seat, 
/**
 * How many actions were undone.
 */
actions: number, } | { "kind": "window_closed", 
/**
 * Who forced a redeal (Madiao) or annulled (Da Bai Fen), if anyone.
 */
outcome: WindowOutcome, };

export type You = { 
/**
 * The seat, `null` for a spectator.
 */
seat: Seat | null, 
/**
 * The guest.
 */
guest: string, 
/**
 * The guest's name.
 */
name: string, 
/**
 * True for the table's host.
 */
host: boolean, };

export type MadiaoMatch = { 
/**
 * Hands finished.
 */
hands: number, 
/**
 * Each seat's total, in stakes.
 */
totals: [number, number, number, number], 
/**
 * The stake of each finished hand, in order (chips per stake, named by its banker).
 */
stakes: Array<number>, 
/**
 * Each seat's total in chips: the sum over hands of the payoffs times the hand's stake.
 */
chips: [number, number, number, number], 
/**
 * The seats that have banked.
 */
banked: [boolean, boolean, boolean, boolean], 
/**
 * The next banker, `null` when he is drawn.
 */
next_banker: Seat | null, 
/**
 * The match is over.
 */
over: boolean, };

export type DabaifenMatch = { 
/**
 * Deals finished.
 */
hands: number, 
/**
 * The team ranks (team 0: seats 0 and 2).
 */
ranks: [DabaifenRank, DabaifenRank], 
/**
 * The next starter.
 */
next_starter: Seat, 
/**
 * Deals won by each team.
 */
deals_won: [number, number], 
/**
 * The game is over.
 */
over: boolean, 
/**
 * The team that won the game.
 */
winner: number | null, };

export type MatchSummary = MadiaoMatch | DabaifenMatch;

export type HandResult = MadiaoResult | DabaifenResult;

export type HiddenAction = { "slough": null } | { "bury": null };

export type PublicAction = MadiaoAction | DabaifenAction | HiddenAction;

export type RedealOutcome = { 
/**
 * The seat that forced a redeal, if one did.
 */
redeal_forced_by: Seat | null, };

export type AnnulOutcome = { 
/**
 * The seat that annulled, if one did.
 */
annulled_by: Seat | null, };

export type WindowOutcome = RedealOutcome | AnnulOutcome;

export type SyncMsg = { 
/**
 * The table's version: the number of events it has broadcast.
 */
v: number, 
/**
 * The table: its name, game, settings and seats.
 */
table: TableSummary, 
/**
 * Who this connection is at the table.
 */
you: You, 
/**
 * The hand of the match, from 0.
 */
hand: number, 
/**
 * The moves everyone has seen in the match (an `act` may quote it).
 */
move: number, 
/**
 * What this connection may see of the hand (`null` before the match begins, and before a
 * Madiao hand whose stake is still to be named is dealt).
 */
view: MadiaoView | DabaifenView | null, 
/**
 * The legal actions of this connection's seat now (`null` when it has nothing to decide, and
 * for a spectator).
 */
legal: Legal | null, 
/**
 * What the table waits for (`null` when waiting for the match to begin, or finished).
 */
timer: Timer | null, 
/**
 * The running score of the match (`null` before it begins).
 */
match: MatchSummary | null, 
/**
 * The results of the finished hands, in the record format.
 */
results: Array<HandResult>, 
/**
 * The last chat lines (at most 30).
 */
chat: Array<ChatMessage>, 
/**
 * The names of the people watching (not seated), one per person, at most
 * [`WATCHERS_SHOWN`] (`table.spectators` counts every connection watching).
 */
watchers: Array<string>, 
/**
 * The table of the rematch the host offered at the end of this match, if he did.
 */
rematch?: string, 
/**
 * The commitment to the current hand's deal (as its `deal` message gave it), once the
 * match has begun.
 */
commitment?: string, };

export type UpdateMsg = { 
/**
 * The table's version after this event (one more than the previous event's).
 */
v: number, 
/**
 * What happened.
 */
event: TableEvent, 
/**
 * The hand of the match, from 0.
 */
hand: number, 
/**
 * The moves everyone has seen in the match (an `act` may quote it).
 */
move: number, 
/**
 * The recipient's view of the hand after the event.
 */
view: MadiaoView | DabaifenView | null, 
/**
 * The recipient's legal actions after the event.
 */
legal: Legal | null, 
/**
 * What the table waits for now.
 */
timer: Timer | null, 
/**
 * The running score of the match.
 */
match: MatchSummary | null, };

export type SeatsMsg = { 
/**
 * The table's version after this event.
 */
v: number, 
/**
 * Who holds each seat, seat 0 first.
 */
seats: Array<SeatInfo>, 
/**
 * How many connections watch the table.
 */
spectators: number, 
/**
 * The names of the people watching, as in a `sync`.
 */
watchers: Array<string>, 
/**
 * Where the table is in its life (waiting, playing, finished).
 */
status: TableStatus, 
/**
 * What the table waits for now.
 */
timer: Timer | null, };

export type HostEvent = { "kind": "closed", 
/**
 * The host's name.
 */
by: string, 
/**
 * The hands completed before it was closed.
 */
hands: number, 
/**
 * The host ended the match and kept it: its finished hands are stored as a record (the
 * match is `finished`, an ended match in replays and My games).
 */
kept?: boolean, } | { "kind": "removed", 
/**
 * The seat.
 */
seat: Seat, 
/**
 * The person's name.
 */
name: string, } | { "kind": "rematch", 
/**
 * The new table's id.
 */
table: string, };

export type HostMsg = { 
/**
 * The table's version after this event.
 */
v: number, 
/**
 * What the host did.
 */
event: HostEvent, };

export type Outcome = "won" | "lost" | "drawn";

export type MyGame = { 
/**
 * The table's id.
 */
id: string, 
/**
 * The game played.
 */
game: GameKind, 
/**
 * The table's name.
 */
name: string, 
/**
 * The guest's seat (0–3).
 */
seat: number, 
/**
 * The name in each seat as the match ended (`bot:NAME` for a bot).
 */
players: [string, string, string, string], 
/**
 * How the guest's seat came out.
 */
result: Outcome, 
/**
 * The match's final score (Madiao: each seat's chips; Da Bai Fen: the teams' ranks, the
 * deals each won and the winner).
 */
score: MatchSummary, 
/**
 * A rated match.
 */
rated: boolean, 
/**
 * When the table was made, milliseconds since the Unix epoch.
 */
created_ms: number, 
/**
 * The page of its replay (`/replay/{id}`; `GET /api/replays/{id}` serves it).
 */
replay: string, 
/**
 * The guest's accuracy over the match from the analyses of its hands made so far
 * (`docs/analysis.md`, "Accuracy"); `null` when it could not be worked out.
 */
accuracy: MatchAccuracy | null, };

export type MyGames = { 
/**
 * The games of this page.
 */
games: Array<MyGame>, 
/**
 * How many games pass the filters.
 */
total: number, 
/**
 * How many games of the filtered list come before this page.
 */
offset: number, 
/**
 * The most games a page holds.
 */
limit: number, 
/**
 * The `offset` of the next page, `null` on the last.
 */
next: number | null, };

export type ChatMsg = { 
/**
 * The table's version after this event.
 */
v: number, 
/**
 * The line said.
 */
message: ChatMessage, };

export type ChatRemovedMsg = { 
/**
 * The table's version after this event.
 */
v: number, 
/**
 * The number (`seq`) of the line removed.
 */
seq: number, };

export type AckWhat = "request" | "back" | "next";

export type AckMsg = { 
/**
 * The table's version now (an `ack` does not raise it).
 */
v: number, 
/**
 * What was taken.
 */
what: AckWhat, 
/**
 * For a request: the seat's legal actions as they now stand.
 */
legal?: Legal | null, };

export type ErrorMsg = { 
/**
 * Why it was refused, for programs.
 */
code: ErrorCode, 
/**
 * Why it was refused, in words, naming the seat and the cards.
 */
message: string, 
/**
 * The table's version now, when the connection is at a table.
 */
v?: number, };

export type HintReason = { 
/**
 * The situation: `lead_top`, `capture`, `slough_fellow_wins`, `lead_tops`, `trump_in`, …
 */
kind: string, 
/**
 * In English.
 */
en: string, 
/**
 * In Chinese.
 */
zh: string, };

export type HintMsg = { 
/**
 * The table's version now.
 */
v: number, 
/**
 * The move it answers (the `move` of the last update).
 */
move: number, 
/**
 * The seat the hint is for.
 */
seat: Seat, 
/**
 * The action, in the engine's JSON shape (as an `act` sends it).
 */
action: MadiaoAction | DabaifenAction, 
/**
 * Why the hint bot makes that move.
 */
reason: HintReason, };

export type TrackerMsg = { 
/**
 * The table's version now.
 */
v: number, 
/**
 * The move it answers (the `move` of the last update).
 */
move: number, 
/**
 * `null` before the tracker means anything (Da Bai Fen: before trumps are fixed).
 */
tracker: MadiaoTracker | DabaifenTracker | null, };

export type MovedMsg = { 
/**
 * The table's id.
 */
table: string, };

export type DealMsg = { 
/**
 * The hand about to be dealt, from 0.
 */
hand: number, 
/**
 * The commitment, 64 lowercase hexadecimal digits.
 */
commitment: string, };

export type GuestInfo = { 
/**
 * The guest's id.
 */
id: string, 
/**
 * The name shown for the guest.
 */
name: string, };

export type WelcomeMsg = { 
/**
 * The guest the connection is identified as.
 */
guest: GuestInfo, };

export type ServerMsg = { "type": "welcome" } & WelcomeMsg | { "type": "sync" } & SyncMsg | { "type": "update" } & UpdateMsg | { "type": "deal" } & DealMsg | { "type": "seats" } & SeatsMsg | { "type": "chat" } & ChatMsg | { "type": "chat_removed" } & ChatRemovedMsg | { "type": "ack" } & AckMsg | { "type": "error" } & ErrorMsg | { "type": "pong" } | { "type": "host" } & HostMsg | { "type": "hint" } & HintMsg | { "type": "tracker" } & TrackerMsg | { "type": "moved" } & MovedMsg | { "type": "friend" } & FriendMsg | { "type": "challenge" } & Challenge | { "type": "invited" } & InvitedMsg;

export type TableMsg = { "type": "act", 
/**
 * The action.
 */
action: MadiaoAction | DabaifenAction, 
/**
 * The move number the action answers (the `move` of the last update); when given and no
 * longer current, the action is refused as stale.
 */
move?: number, 
/**
 * The seat acting, if the client names it: refused unless it is the connection's own.
 */
seat?: number, } | { "type": "chat", 
/**
 * The text (1–500 characters, no control characters).
 */
text: string, } | { "type": "resync" } | { "type": "leave" } | { "type": "back" } | { "type": "start" } | { "type": "next" } | { "type": "close", 
/**
 * End the match and keep its finished hands.
 */
keep?: boolean, } | { "type": "take_back" } | { "type": "pause" } | { "type": "resume" } | { "type": "remove", 
/**
 * The seat (0–3).
 */
seat: number, } | { "type": "rematch" } | { "type": "hint" } | { "type": "tracker" };

export type ClientMsg = { "type": "hello", 
/**
 * The token `POST /api/guests` gave.
 */
token: string, } | { "type": "join", 
/**
 * The table's id.
 */
table: string, 
/**
 * The seat wanted (0–3).
 */
seat?: number, } | { "type": "watch", 
/**
 * The table's id.
 */
table: string, } | { "type": "tv", 
/**
 * The table's id.
 */
table: string, } | { "type": "ping" } | TableMsg;

export type NewGuestReply = { 
/**
 * The new guest's id.
 */
id: string, 
/**
 * The name given to the guest.
 */
name: string, 
/**
 * The guest's secret.
 */
token: string, };

export type GameInfo = { 
/**
 * The game.
 */
game: GameKind, 
/**
 * Each preset's variants, by name.
 */
presets: Record<string, Record<string, string>>, 
/**
 * The names of the bots that may play a seat.
 */
bots: Array<string>, 
/**
 * The bot a seat gets when none is named.
 */
default_bot: string, 
/**
 * The bots of `bots` kept for research (Madiao's `pimc-coalition`, `pimc-mixed` and
 * `learned`): a seat may name them through the API, but a lobby does not offer them.
 */
research_bots: Array<string>, };

export type GamesReply = { 
/**
 * Each game the server plays.
 */
games: Array<GameInfo>, };

export type LobbyReply = { 
/**
 * The tables of this page, in the lobby's order (most open seats first, then oldest).
 */
tables: Array<TableSummary>, 
/**
 * How many tables the whole lobby lists.
 */
total: number, 
/**
 * The position of this page's first table in the lobby.
 */
offset: number, 
/**
 * The page size used.
 */
limit: number, 
/**
 * The `offset` of the next page, or null when this is the last.
 */
next: number | null, };

export type SeatChoice = { "kind": "me" } | { "kind": "bot", 
/**
 * The bot's name.
 */
bot?: string, } | { "kind": "open" };

export type NewTable = { 
/**
 * The game.
 */
game: GameKind, 
/**
 * The rules preset.
 */
rules?: string, 
/**
 * Variants overriding the preset.
 */
variants?: VariantOverrides, 
/**
 * Madiao: chips per stake; with `stake_max`, the lowest stake the banker may name.
 */
stake?: number, 
/**
 * Madiao: the highest stake the banker may name for a hand (§2); absent or equal to
 * `stake`, the stake is fixed.
 */
stake_max?: number, 
/**
 * The turn clock, in seconds.
 */
turn_seconds?: number, 
/**
 * No clock for the people (`turn_seconds` and `bank_seconds` are then unused). Absent: untimed
 * when the creator is the only person and the other three seats are bots, timed otherwise.
 */
untimed?: boolean, 
/**
 * Each person's time bank for the match, in seconds (0–600): drawn on when a turn clock runs
 * out, before a bot stands in. Absent: 60.
 */
bank_seconds?: number, 
/**
 * The table's name (default: "NAME's table", after its creator).
 */
name?: string, 
/**
 * Not listed in the lobby.
 */
private?: boolean, 
/**
 * The four seats (default: the creator, then three of the default bot).
 */
seats?: Array<SeatChoice>, 
/**
 * How fast the table's fixed clocks run (default `normal`).
 */
pace?: Pace, 
/**
 * Seconds before a bot stands in for a seated person whose connection dropped (0–120,
 * default 15).
 */
grace_seconds?: number, 
/**
 * Madiao: how the table's deck draws the zero cash (`unnamed`, the default, `blank` or
 * `wang_ying`; the figures are presentation only, `docs/rules/madiao.md` §1).
 */
zero_cash?: ZeroCash, 
/**
 * A rated table: its match changes its players' ratings (`docs/ratings.md`). Only a guest
 * with an account may create one or take a seat at one (`account_required`).
 */
rated?: boolean, };

export type NewTableReply = { 
/**
 * The new table.
 */
table: TableSummary, 
/**
 * The invite link.
 */
invite: string, };

export type Decision = "redeal" | "lead" | "capture" | "slough" | "discard" | "pass" | "declare" | "bury" | "lead_one" | "lead_several" | "follow";

export type Lesson = { 
/**
 * The lesson's text key (`tut.madiao.lead`; `…_again` for a kind met before;
 * `tut.madiao.slough_keep` for a Madiao slough while a capture was possible).
 */
id: string, 
/**
 * The kind of decision.
 */
kind: Decision, 
/**
 * The section of the rules page it is about (`play`, `settlement`, …).
 */
rules: string, 
/**
 * What seat 0 may do, as a table sends it; the step's action is the one expected.
 */
legal: Legal, };

export type TutorialStep = { 
/**
 * Who acts.
 */
seat: Seat, 
/**
 * The action as seat 0 sees it; `null` for another seat's answer to a hidden poll (a
 * redeal or annulment question, a draw poll), which a table never shows.
 */
action: PublicAction | null, 
/**
 * Seat 0's view after the action.
 */
view: MadiaoView | DabaifenView, 
/**
 * At seat 0's decisions: the lesson (the view before it is the previous step's).
 */
lesson: Lesson | null, };

export type Tutorial = { 
/**
 * The game.
 */
game: GameKind, 
/**
 * The preset.
 */
rules: string, 
/**
 * Every variant in force, by name.
 */
variants: Record<string, string>, 
/**
 * Seat 0's view as the hand is dealt.
 */
start: MadiaoView | DabaifenView, 
/**
 * The steps, one per action.
 */
steps: Array<TutorialStep>, 
/**
 * The lesson that reads the hand's end (the settlement, the account).
 */
end_lesson: string, 
/**
 * The rules section of the hand's end.
 */
end_rules: string, };

export type StatsReply = { 
/**
 * Tables loaded.
 */
tables: number, 
/**
 * Open WebSocket connections.
 */
connections: number, 
/**
 * The server's resident memory (bytes), where the system tells it.
 */
rss_bytes: number | null, 
/**
 * The server's peak resident memory (bytes), where the system tells it.
 */
peak_rss_bytes: number | null, 
/**
 * The storage backend (`sqlite`, `postgres`).
 */
backend: string, 
/**
 * Steps of a table's writes this node tried after another node had taken the table's lease
 * over, all refused by the database (fencing): a stale owner's attempts since the node
 * started; always 0 on SQLite.
 */
fenced_writes: number, 
/**
 * Tables this node stopped since it started because it found it no longer held their lease
 * (at a renewal, or when it claimed one again in a newer epoch), or because it had not
 * renewed their lease for nearly a lease's length by its own clock; always 0 on SQLite.
 */
leases_lost: number, 
/**
 * The operator's external bots that have played since the server started (`--bots`), with
 * the decisions they failed (played for them as the first legal action), by cause.
 */
external_bots: Array<ExternalBotCounts>, };

export type ExternalBotCounts = { 
/**
 * The bot's name in the operator's file.
 */
name: string, 
/**
 * Decisions asked of it.
 */
decisions: number, 
/**
 * Answers naming an action that was not legal.
 */
illegal: number, 
/**
 * Answers that were not a `yezi-bot/1` message of the expected shape.
 */
malformed: number, 
/**
 * No answer within the time limit.
 */
timeouts: number, 
/**
 * The process could not start, exited or closed its output.
 */
crashes: number, };

export type TableStub = { 
/**
 * The table's id.
 */
id: string, 
/**
 * The game (`madiao` or `dabaifen`).
 */
game: GameKind, 
/**
 * Where the table is in its life.
 */
status: TableStatus, 
/**
 * When the table was made, milliseconds since the Unix epoch.
 */
created_ms: number, };

export type ShareReply = { 
/**
 * The table.
 */
table: string, 
/**
 * Whether the table is private (a public table's game needs no token).
 */
private: boolean, 
/**
 * The share token: whoever holds it may see the game once it is finished.
 */
token: string, 
/**
 * Whether the match is finished (the token opens nothing before).
 */
finished: boolean, 
/**
 * The replay's path with the token.
 */
replay: string, 
/**
 * The record's path with the token.
 */
record: string, };

export type ReadyReply = { 
/**
 * The node is ready.
 */
ready: boolean, 
/**
 * Why it is not (absent when it is).
 */
reason?: string, };

export type ApiErrorBody = { 
/**
 * What went wrong.
 */
error: ApiErrorDetail, };

export type ApiErrorDetail = { 
/**
 * What kind of error.
 */
code: ApiCode, 
/**
 * What went wrong, in words (English).
 */
message: string, 
/**
 * Which of the code's refusals, where one code has several (`event_closed`); absent
 * otherwise.
 */
reason?: ApiReason, };

export type ApiCode = "bad_request" | "bad_name" | "bad_token" | "no_table" | "not_finished" | "closed" | "too_many_tables" | "no_replay" | "no_hand" | "not_json" | "record_too_large" | "too_many_posts" | "rate_limited" | "busy" | "too_many_connections" | "unavailable" | "internal" | "bad_username" | "bad_password" | "username_taken" | "already_account" | "no_account" | "bad_credentials" | "wrong_password" | "session_expired" | "session_revoked" | "account_required" | "no_player" | "analysis_off" | "no_analysis" | "banned" | "admin_off" | "not_admin" | "no_puzzle" | "too_many_reports" | "no_challenge" | "bad_origin" | "too_large" | "no_event" | "event_closed" | "not_invited";

export type ApiReason = "event_begun" | "event_entered" | "event_full" | "event_host_only" | "event_started";

export type ReplayOutline = { 
/**
 * What the hands are fetched by: a finished table's id, or the id given to a posted record
 * (kept for a while after its last use: half an hour unless the server says otherwise).
 */
id: string, 
/**
 * The game.
 */
game: GameKind, 
/**
 * The record's preset.
 */
rules: string, 
/**
 * Every variant in force, by name.
 */
variants: Record<string, string>, 
/**
 * The players' names, if the record names them (`bot:NAME` for bots).
 */
players: [string, string, string, string] | null, 
/**
 * The seed the decks came from, if the record gives it.
 */
seed: number | null, 
/**
 * The hands, in order.
 */
hands: Array<ReplayHandOutline>, 
/**
 * The verification of the deals (`docs/record.md`, "Deal verification"), when the record
 * carries a seed or a commitment for any hand; absent otherwise.
 */
deals?: DealsChecked, };

export type ReplayHandOutline = { 
/**
 * How many steps the hand has (what `GET /api/replays/{id}?hand=K` gives).
 */
steps: number, 
/**
 * The hand's result (the record's result object), once it is over.
 */
result: MadiaoResult | DabaifenResult | null, };

export type DealsChecked = { 
/**
 * How many hands were checked (all of the record's).
 */
hands: number, 
/**
 * The hands that fail, in order (empty when every deal verifies).
 */
problems: Array<DealProblem>, };

export type DealProblem = { 
/**
 * The hand, from 0.
 */
hand: number, 
/**
 * What fails: `missing` (no seed, commitment or table), `deck` (the deck is not the seed's)
 * or `commitment` (the commitment is not the seed's).
 */
fault: 'missing' | 'deck' | 'commitment', 
/**
 * What differs, in words (English).
 */
detail: string, 
/**
 * What differs, as a code and its figures (`detail` says the same in English): what a page
 * says in its own language.
 */
why: DealMismatch, };

export type DealMismatch = { "code": "no_seed" } | { "code": "no_commitment" } | { "code": "no_table" } | { "code": "deck_size", 
/**
 * The cards of the recorded deck.
 */
cards: number, 
/**
 * The cards the seed deals.
 */
dealt: number, } | { "code": "deck_cards", 
/**
 * How many places differ.
 */
places: number, 
/**
 * The first places that differ, in deck order.
 */
first: Array<CardMismatch>, } | { "code": "commitment", 
/**
 * The commitment the record carries.
 */
commitment: string, 
/**
 * The hand's seed, in decimal digits (a seed may exceed the integers a JSON number
 * keeps exactly).
 */
seed: string, 
/**
 * The record's table.
 */
table: string, 
/**
 * The commitment the seed, hand and table give.
 */
expected: string, };

export type CardMismatch = { 
/**
 * The place in the deck, from 0.
 */
index: number, 
/**
 * The card the record has there.
 */
card: string, 
/**
 * The card the seed deals there.
 */
seed_card: string, };

export type ReplayHand = { 
/**
 * The hand's index in the record, from 0.
 */
hand: number, 
/**
 * The cards nobody holds: Madiao's stock (the upcard last), Da Bai Fen's kitty as dealt.
 */
undealt: Array<string>, 
/**
 * The states of the hand: as dealt, then after each event.
 */
steps: Array<ReplayStep>, 
/**
 * The hand's result (the record's result object), once it is over.
 */
result: MadiaoResult | DabaifenResult | null, };

export type ReplayStep = { 
/**
 * What led to this state.
 */
event: ReplayEvent, 
/**
 * Every seat's cards now, strongest first (during the Da Bai Fen draw: the twelve it draws).
 */
hands: [Array<string>, Array<string>, Array<string>, Array<string>], 
/**
 * The hand as an all-seeing spectator sees it: the engine's view with every card played face
 * up and `hand` empty (the cards are in `hands`); `seat` is `null`.
 */
view: MadiaoView | DabaifenView, };

export type ReplayEvent = { "kind": "deal" } | { "kind": "draw_end" } | { "kind": "end" } | { "kind": "action", 
/**
 * The record's action, with its seat.
 */
action: MadiaoRecordAction | DabaifenRecordAction, };

export type AnalysisStatus = "queued" | "running" | "done" | "failed";

export type AnalysisReply = { 
/**
 * The game (table) id.
 */
game: string, 
/**
 * The hand, from 0.
 */
hand: number, 
/**
 * The seat analysed.
 */
seat: Seat, 
/**
 * Where the analysis is.
 */
status: AnalysisStatus, 
/**
 * Decisions analysed so far.
 */
done: number, 
/**
 * Decisions of the seat in the hand (0 until the job has begun).
 */
total: number, 
/**
 * While queued: how many jobs are ahead of this one.
 */
ahead: number | null, 
/**
 * When failed: why.
 */
error: string | null, 
/**
 * When done: the analysis (docs/analysis.md, "JSON").
 */
analysis: unknown, };

export type AnalysisRequest = { 
/**
 * The hand, from 0.
 */
hand: number, 
/**
 * The seat whose decisions are analysed (0–3).
 */
seat: number, };

export type MatchAccuracy = { 
/**
 * The game (table) id.
 */
game: string, 
/**
 * The seat.
 */
seat: number, 
/**
 * The match's hands played to their end (those an analysis can be asked for), in order.
 */
hands: Array<HandAccuracy>, 
/**
 * How many of them have been analysed for the seat.
 */
analysed: number, 
/**
 * The searched moves the accuracy is computed from.
 */
moves: number, 
/**
 * The accuracy in percent, to 1/10, over the analysed hands; `null` when none of them has a
 * searched move (none analysed yet, or only forced moves).
 */
accuracy: number | null, };

export type HandAccuracy = { 
/**
 * The hand, from 0.
 */
hand: number, 
/**
 * Its analysis for the seat is stored.
 */
analysed: boolean, 
/**
 * The searched moves of the seat in it (0 until analysed).
 */
moves: number, 
/**
 * The hand's accuracy (the analysis's summary), `null` until analysed or without a searched
 * move.
 */
accuracy: number | null, };

export type MadiaoRecordAction = { seat: Seat } & ({ play: MadiaoCard } | { slough: MadiaoCard } | { redeal: boolean });

export type DabaifenRecordAction = { seat: Seat } & ({ declare: DabaifenCard, drawn: number } | { annul: boolean } | { bury: Array<DabaifenCard> } | { play: Array<DabaifenCard> });

export type NewAccount = { 
/**
 * 3 to 20 ASCII letters, digits, `_` or `-`, beginning with a letter; unique regardless of
 * case.
 */
username: string, 
/**
 * 8 to 256 characters.
 */
password: string, };

export type SignIn = { 
/**
 * The username, in any case.
 */
username: string, 
/**
 * The password.
 */
password: string, };

export type SessionReply = { 
/**
 * The account's guest id (its seats and tables are the account's).
 */
id: string, 
/**
 * The name shown at tables.
 */
name: string, 
/**
 * The account's username, as written when it was claimed.
 */
username: string, 
/**
 * The session's secret: the bearer token of the API and the `hello` of the WebSocket.
 */
token: string, 
/**
 * When the session ends (milliseconds since the Unix epoch).
 */
expires_ms: number, };

export type AccountInfo = { 
/**
 * The account's guest id.
 */
id: string, 
/**
 * The name shown at tables.
 */
name: string, 
/**
 * The username it signs in with.
 */
username: string, 
/**
 * When the account was claimed (milliseconds since the Unix epoch).
 */
created_ms: number, 
/**
 * When this session ends (milliseconds since the Unix epoch).
 */
expires_ms: number, };

export type NewPassword = { 
/**
 * The password now.
 */
current: string, 
/**
 * The new password (8 to 256 characters).
 */
password: string, };

export type DeleteAccount = { 
/**
 * The account's password.
 */
password: string, };

export type SignedOut = { 
/**
 * How many sessions were signed out (this one included).
 */
revoked: number, };

export type AccountTable = { 
/**
 * The table's id.
 */
id: string, 
/**
 * The game.
 */
game: GameKind, 
/**
 * The table's name.
 */
name: string, 
/**
 * Where the table is in its life.
 */
status: TableStatus, 
/**
 * The account's seat, if it holds one.
 */
seat: number | null, 
/**
 * When the table was made, milliseconds since the Unix epoch.
 */
created_ms: number, };

export type AccountTables = { 
/**
 * The tables, newest first.
 */
tables: Array<AccountTable>, };

export type Listed = { 
/**
 * The guest id.
 */
id: string, 
/**
 * The name shown.
 */
name: string, };

export type MyLists = { 
/**
 * The players whose chat lines are hidden to this one.
 */
muted: Array<Listed>, 
/**
 * The players who never sit at a table with this one.
 */
blocked: Array<Listed>, };

export type RelationReply = { 
/**
 * The other player's guest id.
 */
id: string, 
/**
 * His name shown.
 */
name: string, 
/**
 * For the mutes: whether he is muted now.
 */
mute?: boolean, 
/**
 * For the blocks: whether he is blocked now.
 */
block?: boolean, 
/**
 * Whether the list changed (false: he was in it, or out of it, already).
 */
changed: boolean, };

export type NewReport = { 
/**
 * The guest id of the player reported.
 */
player: string, 
/**
 * With `chat`: the table the line was said at.
 */
table?: string, 
/**
 * With `table`: the number (`seq`) of the chat line reported.
 */
chat?: number, 
/**
 * Why: 1 to 500 characters, no control characters.
 */
reason: string, };

export type ReportMade = { 
/**
 * The report's id.
 */
id: string, };

export type ReportView = { 
/**
 * The report.
 */
id: string, 
/**
 * When, milliseconds since the Unix epoch.
 */
created_ms: number, 
/**
 * The guest who reports.
 */
reporter: string, 
/**
 * The guest reported.
 */
player: string, 
/**
 * The reported player's name now.
 */
player_name: string | null, 
/**
 * The table of the line reported.
 */
table: string | null, 
/**
 * The line's number.
 */
chat: number | null, 
/**
 * The line's text when reported.
 */
chat_text: string | null, 
/**
 * Why.
 */
reason: string, };

export type ReportsReply = { 
/**
 * The reports.
 */
reports: Array<ReportView>, };

export type SanctionView = { 
/**
 * The sanction.
 */
id: string, 
/**
 * `mute_chat`, `ban_account` or `ban_address`.
 */
kind: string, 
/**
 * The guest id or the address.
 */
subject: string, 
/**
 * When it was given, milliseconds since the Unix epoch.
 */
created_ms: number, 
/**
 * When it ends, milliseconds since the Unix epoch.
 */
until_ms: number, 
/**
 * When it was lifted, milliseconds since the Unix epoch.
 */
lifted_ms: number | null, 
/**
 * Whether it holds now.
 */
in_force: boolean, 
/**
 * Why.
 */
reason: string, 
/**
 * The operator.
 */
by: string, };

export type SanctionsReply = { 
/**
 * The sanctions.
 */
sanctions: Array<SanctionView>, };

export type LogView = { 
/**
 * The line.
 */
id: string, 
/**
 * When, milliseconds since the Unix epoch.
 */
at_ms: number, 
/**
 * The operator.
 */
by: string, 
/**
 * What was done (`mute_chat`, `ban_account`, `ban_address`, `lift`, `remove_chat`).
 */
action: string, 
/**
 * To whom or what.
 */
subject: string, 
/**
 * Why.
 */
reason: string, };

export type LogReply = { 
/**
 * The lines.
 */
log: Array<LogView>, };

export type NewSanction = { 
/**
 * `mute_chat`, `ban_account` or `ban_address`.
 */
kind: string, 
/**
 * The username or guest id (`mute_chat`, `ban_account`), or the address (`ban_address`).
 */
target: string, 
/**
 * For how long, in minutes.
 */
minutes: number, 
/**
 * Why.
 */
reason: string, 
/**
 * The operator's name.
 */
by: string, };

export type Because = { 
/**
 * Why.
 */
reason: string, 
/**
 * The operator's name.
 */
by: string, };

export type LiftedReply = { 
/**
 * The sanction lifted.
 */
lifted: string, };

export type RemoveChat = { 
/**
 * The table.
 */
table: string, 
/**
 * The line's number (`seq`).
 */
chat: number, 
/**
 * Why.
 */
reason: string, 
/**
 * The operator's name.
 */
by: string, };

export type RemovedLine = { 
/**
 * The table.
 */
table: string, 
/**
 * The line's number (`seq`).
 */
chat: number, };

export type RemovedReply = { 
/**
 * The line removed.
 */
removed: RemovedLine, };

export type GameLine = { 
/**
 * The table.
 */
id: string, 
/**
 * `madiao` or `dabaifen`.
 */
game: string, 
/**
 * Where the table is in its life (`waiting`, `playing`, `finished`, `closed`).
 */
status: string, 
/**
 * When it was created, milliseconds since the Unix epoch.
 */
created_ms: number, 
/**
 * The seats: a person's name and guest id, a bot's name, or empty.
 */
seats: Array<string>, };

export type PlayerGames = { 
/**
 * The player's name shown.
 */
name: string, 
/**
 * His tables.
 */
games: Array<GameLine>, };

export type LeaderboardEntry = { 
/**
 * The place on the leaderboard, from 1.
 */
rank: number, 
/**
 * The account's username.
 */
username: string, 
/**
 * The Glicko-2 rating.
 */
rating: number, 
/**
 * Its deviation.
 */
deviation: number, 
/**
 * Rated matches played.
 */
games: number, 
/**
 * The deviation is still high: the rating is provisional.
 */
provisional: boolean, };

export type LeaderboardReply = { 
/**
 * The game.
 */
game: GameKind, 
/**
 * The accounts of this page, best first.
 */
entries: Array<LeaderboardEntry>, 
/**
 * How many accounts the leaderboard holds.
 */
total: number, 
/**
 * How many accounts come before this page.
 */
offset: number, 
/**
 * The most entries a page holds.
 */
limit: number, 
/**
 * The offset of the next page, if there is one.
 */
next: number | null, };

export type GameRating = { 
/**
 * The game.
 */
game: GameKind, 
/**
 * The Glicko-2 rating.
 */
rating: number, 
/**
 * Its deviation.
 */
deviation: number, 
/**
 * Its volatility (how much the rating is expected to move).
 */
volatility: number, 
/**
 * Rated matches played.
 */
games: number, 
/**
 * Matches won (by the player's score against the others of the match).
 */
wins: number, 
/**
 * Matches lost.
 */
losses: number, 
/**
 * Matches drawn.
 */
draws: number, 
/**
 * The deviation is still high: the rating is provisional.
 */
provisional: boolean, };

export type RatedOutcome = "win" | "draw" | "loss";

export type RatedResult = { 
/**
 * The table (its record and replay are under this id).
 */
table: string, 
/**
 * The game.
 */
game: GameKind, 
/**
 * When the match ended, milliseconds since the Unix epoch.
 */
at_ms: number, 
/**
 * The rating before the match.
 */
rating_before: number, 
/**
 * The rating after it.
 */
rating_after: number, 
/**
 * The deviation after it.
 */
deviation_after: number, 
/**
 * The points of the match's games (1 a win, ½ a draw).
 */
score: number, 
/**
 * How many games `score` is out of: one against each other seat the player was scored against.
 */
opponents: number, 
/**
 * How the match went for the player.
 */
outcome: RatedOutcome, 
/**
 * The player forfeited (left, or lost on the clock).
 */
forfeited: boolean, };

export type PlayerProfile = { 
/**
 * The account's username.
 */
username: string, 
/**
 * The account's guest id: how seats and chat lines name him, and what muting, blocking and
 * reporting him take.
 */
guest: string, 
/**
 * When the account was made, milliseconds since the Unix epoch.
 */
joined_ms: number, 
/**
 * The games it has a rating in.
 */
ratings: Array<GameRating>, 
/**
 * Its latest rated matches, newest first.
 */
recent: Array<RatedResult>, 
/**
 * Its rated matches for the rating history, oldest first (at most the latest
 * [`PROFILE_HISTORY`]).
 */
history: Array<RatedResult>, };

export type RatingChange = { 
/**
 * The seat the person played (0–3).
 */
seat: number, 
/**
 * The name shown at the table.
 */
name: string, 
/**
 * The rating before the match.
 */
rating_before: number, 
/**
 * The rating after it.
 */
rating_after: number, 
/**
 * How the match went for the person.
 */
outcome: RatedOutcome, 
/**
 * The person forfeited (left, or lost on the clock).
 */
forfeited: boolean, };

export type TableRatings = { 
/**
 * The table's id.
 */
table: string, 
/**
 * One entry per person with an account.
 */
changes: Array<RatingChange>, };

export type ArchivedSeat = { 
/**
 * The person's name, or the bot's name.
 */
name: string, 
/**
 * A bot played the seat.
 */
bot: boolean, };

export type ArchivedGame = { 
/**
 * The table's id (its record: `GET /api/archive/games/{id}`; its replay: `/replay/{id}`).
 */
id: string, 
/**
 * The game.
 */
game: GameKind, 
/**
 * The table's name.
 */
name: string, 
/**
 * When the match ended, milliseconds since the Unix epoch.
 */
finished_ms: number, 
/**
 * The four seats, in seat order.
 */
seats: Array<ArchivedSeat>, 
/**
 * The match's final score, as the archive's list shows it (Madiao: each seat's chips; Da
 * Bai Fen: the teams' ranks, the deals each won and the winner); `null` where the server
 * could not work it out from the table's log.
 */
score: MatchSummary | null, };

export type ArchivePage = { 
/**
 * The games of this page, newest first.
 */
games: Array<ArchivedGame>, 
/**
 * The `before` of the next page (older games), or null when this is the last.
 */
next: string | null, };

export type PuzzleChoice = { 
/**
 * The action, as a table's `act` sends it.
 */
action: MadiaoAction | DabaifenAction, 
/**
 * In words (`play TW`, `play AS KS`).
 */
label: string, };

export type PuzzlePosition = { 
/**
 * The puzzle.
 */
id: string, 
/**
 * The game.
 */
game: GameKind, 
/**
 * Its place in the game's list (from 0, easiest first) and the list's length.
 */
index: number, 
/**
 * How many puzzles the game has.
 */
count: number, 
/**
 * The seat to move: the player's.
 */
seat: Seat, 
/**
 * What that seat sees, as at a table.
 */
view: MadiaoView | DabaifenView, 
/**
 * Its legal actions, as at a table.
 */
legal: Legal, 
/**
 * Every legal action in words.
 */
choices: Array<PuzzleChoice>, 
/**
 * What it teaches (`capture_or_slough`, `ruff`, …).
 */
themes: Array<string>, 
/**
 * 1 (easiest) to 5.
 */
difficulty: number, 
/**
 * The puzzle's rating (its starting rating until players have tried it).
 */
rating: number, 
/**
 * The least lead of the answer over any other move, in `unit`.
 */
margin: number, 
/**
 * `stakes` (Madiao) or `levels` (Da Bai Fen).
 */
unit: string, };

export type PuzzleText = { 
/**
 * English.
 */
en: string, 
/**
 * Chinese.
 */
zh: string, };

export type PuzzleMoveValue = { 
/**
 * The move.
 */
action: MadiaoAction | DabaifenAction, 
/**
 * In words.
 */
label: string, 
/**
 * Its exact value with every card face up.
 */
face_up: number, 
/**
 * Its average value over deals consistent with what the seat knows.
 */
expected: number, };

export type PuzzleLineStep = { 
/**
 * Who plays.
 */
seat: Seat, 
/**
 * What.
 */
action: MadiaoAction | DabaifenAction, 
/**
 * In words.
 */
label: string, };

export type PuzzleVerdict = { 
/**
 * The puzzle.
 */
id: string, 
/**
 * True when the choice is the answer (or a card equivalent to it).
 */
right: boolean, 
/**
 * The answer.
 */
answer: MadiaoAction | DabaifenAction, 
/**
 * The answer in words.
 */
answer_label: string, 
/**
 * Why the answer is best.
 */
reason: PuzzleText, 
/**
 * What the choice does and what it costs, when it is not the answer.
 */
mistake: PuzzleText | null, 
/**
 * How much less the choice is worth than the answer with every card face up, in `unit`
 * (`null` when it is the answer, or a move the puzzle does not value).
 */
loss: number | null, 
/**
 * Every distinct move valued, best first.
 */
moves: Array<PuzzleMoveValue>, 
/**
 * The line after the answer.
 */
line: Array<PuzzleLineStep>, 
/**
 * `stakes` or `levels`.
 */
unit: string, };

export type PuzzlePlayer = { 
/**
 * The rating (1500 for a new player).
 */
rating: number, 
/**
 * Its deviation.
 */
deviation: number, 
/**
 * Puzzles tried.
 */
attempts: number, 
/**
 * Of them, solved at the first try.
 */
solved: number, };

export type PuzzleAttempt = { 
/**
 * The action chosen, as a table's `act` sends it.
 */
action: MadiaoAction | DabaifenAction, 
/**
 * Rate the attempt (default true); the tutorials' practice sends false.
 */
rated?: boolean, };

export type PuzzleRatingChange = { 
/**
 * The player's puzzle rating before.
 */
before: number, 
/**
 * After.
 */
after: number, 
/**
 * The puzzle's rating before.
 */
puzzle_before: number, 
/**
 * After.
 */
puzzle_after: number, };

export type PuzzleAttemptReply = { 
/**
 * Right or wrong, why, and the line.
 */
verdict: PuzzleVerdict, 
/**
 * The ratings' change; `null` when the attempt is not rated (not the player's first at
 * this puzzle, or `rated: false`).
 */
rating: PuzzleRatingChange | null, };

export type TvTable = { 
/**
 * The table.
 */
table: TableSummary, 
/**
 * The mean rating, in the table's game, of the rated people seated at it (`null` when none
 * of them is rated).
 */
rating: number | null, 
/**
 * How many people (not bots) hold its seats.
 */
people: number, };

export type TvReply = { 
/**
 * How many trick boundaries the delayed stream is behind its table.
 */
delay_tricks: number, 
/**
 * The live tables, the highest-rated first (at most 20).
 */
tables: Array<TvTable>, };

export type FriendTable = { 
/**
 * The table's id.
 */
id: string, 
/**
 * Its name.
 */
name: string, 
/**
 * Its game.
 */
game: GameKind, 
/**
 * Where it is in its life (waiting for players, playing).
 */
status: TableStatus, };

export type Friend = { 
/**
 * His username.
 */
username: string, 
/**
 * The name he is shown by.
 */
name: string, 
/**
 * He has a connection open to the server now.
 */
online: boolean, 
/**
 * The public table he is seated at, if any (a private table is not named).
 */
table: FriendTable | null, 
/**
 * He is seated at a private table.
 */
at_private_table: boolean, 
/**
 * Followed since, milliseconds since the Unix epoch.
 */
since_ms: number, };

export type ChallengeStatus = "pending" | "accepted" | "declined" | "withdrawn";

export type Challenge = { 
/**
 * Its id.
 */
id: string, 
/**
 * The sender's username.
 */
from: string, 
/**
 * The recipient's username.
 */
to: string, 
/**
 * The game.
 */
game: GameKind, 
/**
 * Where it stands.
 */
status: ChallengeStatus, 
/**
 * Once accepted: the table made for it (the sender sits in seat 0, the recipient's seat 2
 * is kept for him, bots play seats 1 and 3).
 */
table: string | null, 
/**
 * When it was sent, milliseconds since the Unix epoch.
 */
created_ms: number, 
/**
 * True when the caller is its recipient.
 */
incoming: boolean, };

export type FriendsReply = { 
/**
 * The players followed, in the order they were followed.
 */
friends: Array<Friend>, 
/**
 * The challenges sent or received in the last 24 hours, the newest first.
 */
challenges: Array<Challenge>, };

export type NewChallenge = { 
/**
 * The player's username.
 */
username: string, 
/**
 * The game.
 */
game: GameKind, };

export type FriendMsg = { 
/**
 * His username.
 */
username: string, 
/**
 * The name he is shown by.
 */
name: string, 
/**
 * He has a connection open to the server (any of its nodes) now.
 */
online: boolean, 
/**
 * The public table he is seated at, if any.
 */
table: FriendTable | null, 
/**
 * He is seated at a private table.
 */
at_private_table: boolean, };

export type InvitedMsg = { 
/**
 * The event's id (`GET /api/events/{id}`, the page `/events/{id}`).
 */
event: string, 
/**
 * The event's name.
 */
name: string, 
/**
 * The host's username.
 */
host: string, };

export type EventScoring = "matchpoints" | "total";

export type NewEvent = { 
/**
 * A name (the host's name and "event" when absent).
 */
name?: string, 
/**
 * The game (`madiao`).
 */
game: GameKind, 
/**
 * The rules preset.
 */
rules?: string, 
/**
 * Variants over the preset (not `game_length`: a board is one hand).
 */
variants?: VariantOverrides, 
/**
 * How many boards, 1 to 32.
 */
boards: number, 
/**
 * Tables of people, 1 to 16.
 */
tables: number, 
/**
 * People at each table, 1 to 4 (bots play the other seats).
 */
people_per_table?: number, 
/**
 * Tables of `expert` bots only (the field's par), 0 to 2.
 */
par_tables?: number, 
/**
 * How the standings rank.
 */
scoring?: EventScoring, 
/**
 * Rated: when it is over, each person's rating moves by his comparisons with the field
 * (`docs/events.md`, "Rated events"); only guests with an account enter it, and it needs
 * at least two tables (of people or of the par).
 */
rated?: boolean, 
/**
 * A person's turn clock, 5 to 3600 seconds.
 */
turn_seconds?: number, 
/**
 * When it begins with whoever entered (milliseconds since the Unix epoch); without it, when
 * full or when the host starts it.
 */
start_at_ms?: number, 
/**
 * A private event for friends: the usernames of the players the host invites, each one he
 * follows (1 to 32). Only the host and they see the event and may enter it; each is sent
 * an `invited` message. Absent: a public event.
 */
invite?: Array<string>, };

export type EventSeat = { 
/**
 * The name shown (a bot's: `bot:NAME`).
 */
name: string, 
/**
 * A bot plays it.
 */
bot: boolean, };

export type EventTable = { 
/**
 * Its number in the event, from 0.
 */
index: number, 
/**
 * A table of `expert` bots only: the field's par.
 */
par: boolean, 
/**
 * The four seats.
 */
seats: Array<EventSeat>, 
/**
 * The board it plays now (from 0); absent when it has played them all.
 */
board?: number, 
/**
 * The table (`/t/ID`) of each board, once made.
 */
table_ids: Array<string | null>, };

export type TravellerLine = { 
/**
 * The event's table.
 */
table: number, 
/**
 * The board's table (`/t/ID`, its record at `/api/records/ID`).
 */
table_id: string, 
/**
 * Each seat's score on the board, in stakes.
 */
scores: Array<number>, 
/**
 * Each seat's matchpoint percentage among the tables that played the board.
 */
percent: Array<number>, };

export type Traveller = { 
/**
 * The board, from 0.
 */
board: number, 
/**
 * Every table has played it.
 */
complete: boolean, 
/**
 * The tables that have, by table.
 */
lines: Array<TravellerLine>, };

export type EventStanding = { 
/**
 * 1 for the best; equal scores share a rank.
 */
rank: number, 
/**
 * The event's table.
 */
table: number, 
/**
 * The seat.
 */
seat: number, 
/**
 * The name shown.
 */
name: string, 
/**
 * A bot.
 */
bot: boolean, 
/**
 * At a par table.
 */
par: boolean, 
/**
 * The boards it has a result on.
 */
boards: number, 
/**
 * Its score: the mean matchpoint percentage, or the total in stakes (see `scoring`).
 */
score: number, 
/**
 * Its total in stakes.
 */
total: number, 
/**
 * A person's rating before a rated event, once it is over and he has been rated (absent
 * otherwise: a bot, an unrated event, one not over).
 */
rating_before?: number, 
/**
 * His rating after it.
 */
rating_after?: number, };

export type EventYou = { 
/**
 * His table in the event.
 */
table: number, 
/**
 * His seat.
 */
seat: number, 
/**
 * The board he plays now; absent once he has played them all.
 */
board?: number, 
/**
 * That board's table (`/t/ID`), once made.
 */
table_id?: string, };

export type EventInfo = { 
/**
 * The event's id (its page is `/events/ID`).
 */
id: string, 
/**
 * Its name.
 */
name: string, 
/**
 * The host's name.
 */
host_name: string, 
/**
 * The game.
 */
game: GameKind, 
/**
 * The rules preset.
 */
rules: string, 
/**
 * The variants over it.
 */
variants: VariantOverrides, 
/**
 * How many boards.
 */
boards: number, 
/**
 * Tables of people.
 */
tables: number, 
/**
 * People per table.
 */
people_per_table: number, 
/**
 * Tables of bots only (the par).
 */
par_tables: number, 
/**
 * How the standings rank.
 */
scoring: EventScoring, 
/**
 * A person's turn clock, in seconds.
 */
turn_seconds: number, 
/**
 * When it begins, if scheduled.
 */
start_at_ms?: number, 
/**
 * Made, milliseconds since the Unix epoch.
 */
created_ms: number, 
/**
 * `open`, `playing` or `finished`.
 */
status: string, 
/**
 * The entrants' names, in order of entry.
 */
entrants: Array<string>, 
/**
 * How many people it takes.
 */
capacity: number, 
/**
 * The asker has entered.
 */
entered: boolean, 
/**
 * The asker is the host.
 */
host: boolean, 
/**
 * The event's seed, in decimal, once it is finished (the boards can be dealt from it).
 */
seed?: string, 
/**
 * Its tables, once it has begun.
 */
event_tables: Array<EventTable>, 
/**
 * Each board's travelling score sheet (boards some table has played).
 */
travellers: Array<Traveller>, 
/**
 * The standings, best first.
 */
standings: Array<EventStanding>, 
/**
 * Where the asker sits, if he plays.
 */
you?: EventYou, 
/**
 * A private event: only its host and the players he invited see it and may enter it.
 */
private: boolean, 
/**
 * For a private event, the usernames of the players invited (empty for a public one).
 */
invited: Array<string>, 
/**
 * A rated event: its people's ratings move when it is over (`docs/events.md`).
 */
rated: boolean, };

export type EventSummary = { 
/**
 * The event's id.
 */
id: string, 
/**
 * Its name.
 */
name: string, 
/**
 * The host's name.
 */
host_name: string, 
/**
 * The game.
 */
game: GameKind, 
/**
 * How many boards.
 */
boards: number, 
/**
 * `open`, `playing` or `finished`.
 */
status: string, 
/**
 * Entrants so far.
 */
entrants: number, 
/**
 * How many people it takes.
 */
capacity: number, 
/**
 * Made, milliseconds since the Unix epoch.
 */
created_ms: number, 
/**
 * A private event (listed only to its host and the players he invited).
 */
private: boolean, 
/**
 * A rated event.
 */
rated: boolean, };

export type EventList = { 
/**
 * Newest first.
 */
events: Array<EventSummary>, };

export type PlayNowRequest = { 
/**
 * How long the player waits for people before bots fill his table, in seconds (5 to 300,
 * default 30).
 */
wait_seconds?: number, };

export type PlayNowState = "idle" | "waiting" | "seated";

export type PlayNowStatus = { 
/**
 * The game.
 */
game: GameKind, 
/**
 * Idle, waiting or seated.
 */
state: PlayNowState, 
/**
 * The rating he is paired by (his account's in the game; a new player's otherwise).
 */
rating: number, 
/**
 * How many people wait for the game now (him included while he waits).
 */
waiting: number, 
/**
 * While waiting: since when, milliseconds since the Unix epoch.
 */
since_ms: number | null, 
/**
 * While waiting: when bots fill his table at the latest, if no one else comes.
 */
bots_ms: number | null, 
/**
 * The server's clock, milliseconds since the Unix epoch (for the countdown).
 */
now_ms: number, 
/**
 * Once seated: his table's id (`/t/{table}`).
 */
table: string | null, 
/**
 * Once seated: his seat (0–3).
 */
seat: number | null, 
/**
 * Once seated: the other people at the table, by name.
 */
with: Array<string>, };

export type TournamentKind = "swiss" | "arena";

export type NewTournament = { 
/**
 * Swiss or arena.
 */
kind: TournamentKind, 
/**
 * The game.
 */
game: GameKind, 
/**
 * Its name (default: "NAME's swiss" / "NAME's arena").
 */
name?: string, 
/**
 * Swiss: its rounds (1–20, default 3).
 */
rounds?: number, 
/**
 * Arena: its length in minutes (1–240, default 30).
 */
minutes?: number, 
/**
 * Arena: seconds from now to its start (0–86400, default 0).
 */
starts_in_seconds?: number, 
/**
 * Arena: how long the fewer than four free players wait before bots fill their table
 * (5–120 s, default 20).
 */
wait_seconds?: number, 
/**
 * Its tables' turn clock (5–3600 s, default 30).
 */
turn_seconds?: number, 
/**
 * Its tables play `game_length: hands:N` (Madiao only, 1–1000; default: the preset's length).
 */
hands?: number, 
/**
 * Its tables are rated (`docs/ratings.md`): only accounts create and join it, and a rated
 * Madiao table plays at least 4 hands. Default false.
 */
rated?: boolean, 
/**
 * Swiss: how long after a round is paired its people have to come to their tables (10–900
 * s, default 120); whoever is not at his table then forfeits the match
 * (`docs/tournaments.md`, "Absent players").
 */
deadline_seconds?: number, };

export type TournamentStanding = { 
/**
 * His place, from 1.
 */
rank: number, 
/**
 * His guest id.
 */
guest: string, 
/**
 * His name.
 */
name: string, 
/**
 * His rating when he joined.
 */
rating: number, 
/**
 * His points.
 */
points: number, 
/**
 * His finished matches.
 */
matches: number, 
/**
 * Swiss: the points of his table mates (the tie-break); 0 in an arena.
 */
tiebreak: number, 
/**
 * He is at a table now (arena), or his table of the current round is still playing (swiss).
 */
playing: boolean, };

export type TournamentTable = { 
/**
 * Swiss: its round, from 1; arena: `null`.
 */
round: number | null, 
/**
 * The table's id, once it is made (`/t/{table}`).
 */
table: string | null, 
/**
 * The people at it, by guest id, in seat order from seat 0.
 */
guests: Array<string>, 
/**
 * Their names.
 */
names: Array<string>, 
/**
 * Bots in the other seats.
 */
bots: number, 
/**
 * Each person's points once the match is over.
 */
points: Array<number> | null, };

export type TournamentInfo = { 
/**
 * Its id.
 */
id: string, 
/**
 * Swiss or arena.
 */
kind: TournamentKind, 
/**
 * The game.
 */
game: GameKind, 
/**
 * Its name.
 */
name: string, 
/**
 * The guest who made it.
 */
host: string, 
/**
 * `open` (players join; a swiss waits for its host to start it, an arena for its start),
 * `running` or `finished`.
 */
status: string, 
/**
 * Swiss: its rounds.
 */
rounds: number | null, 
/**
 * Swiss: the rounds paired so far.
 */
round: number, 
/**
 * Arena: its start and end, milliseconds since the Unix epoch.
 */
starts_ms: number | null, 
/**
 * Arena: its end.
 */
ends_ms: number | null, 
/**
 * The server's clock.
 */
now_ms: number, 
/**
 * How many players it has.
 */
players: number, 
/**
 * The standings, best first.
 */
standings: Array<TournamentStanding>, 
/**
 * Its tables are rated.
 */
rated: boolean, 
/**
 * Swiss: when the people of the current round must be at their tables (milliseconds since
 * the Unix epoch), while some table of it plays; `null` otherwise.
 */
deadline_ms: number | null, 
/**
 * Swiss: the people who forfeit their match of the current round (not at their table at
 * its deadline), by guest id.
 */
forfeits: Array<string>, 
/**
 * Its tables, newest first.
 */
tables: Array<TournamentTable>, };

export type TournamentList = { 
/**
 * Each without standings and tables.
 */
tournaments: Array<TournamentInfo>, };
