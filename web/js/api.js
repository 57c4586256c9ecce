// The HTTP API (docs/protocol.md, "HTTP API"): typed calls that throw an `ApiError` with the
// server's code and message.

/** @typedef {import('./wire').NewGuestReply} NewGuestReply */
/** @typedef {import('./wire').GuestInfo} GuestInfo */
/** @typedef {import('./wire').GamesReply} GamesReply */
/** @typedef {import('./wire').LobbyReply} LobbyReply */
/** @typedef {import('./wire').NewTable} NewTable */
/** @typedef {import('./wire').NewTableReply} NewTableReply */
/** @typedef {import('./wire').TableSummary} TableSummary */
/** @typedef {import('./wire').TableStub} TableStub */
/** @typedef {import('./wire').ReplayOutline} ReplayOutline */
/** @typedef {import('./wire').ReplayHand} ReplayHand */

/**
 * An API error: the server's `code` (or `network`), its message, and its `reason` where the code
 * has several refusals (`event_closed`).
 */
export class ApiError extends Error {
  /** @param {string} code @param {string} message @param {number} status @param {string} [reason] */
  constructor(code, message, status, reason) {
    super(message);
    this.code = code;
    this.status = status;
    this.reason = reason;
  }
}

/**
 * @param {string} method @param {string} path @param {{body?: unknown, text?: string, token?: string | null}} [opts]
 * @returns {Promise<any>}
 */
export async function call(method, path, opts = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  let body;
  if (opts.text !== undefined) {
    body = opts.text;
    headers['Content-Type'] = 'application/json';
  } else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['Content-Type'] = 'application/json';
  }
  let res;
  try {
    res = await fetch(path, { method, headers, body });
  } catch (e) {
    throw new ApiError('network', e instanceof Error ? e.message : String(e), 0);
  }
  const text = await res.text();
  /** @type {any} */
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!res.ok) {
    const err = json && json.error;
    throw new ApiError(err?.code ?? `http_${res.status}`, err?.message ?? (text || res.statusText), res.status, err?.reason);
  }
  return json;
}

/** @param {string} name @returns {Promise<NewGuestReply>} */
export function createGuest(name) {
  return call('POST', '/api/guests', { body: { name } });
}

/** @param {string} token @returns {Promise<GuestInfo>} */
export function me(token) {
  return call('GET', '/api/me', { token });
}

/** @returns {Promise<GamesReply>} */
export function games() {
  return call('GET', '/api/games');
}

/** The lobby's page size the page asks for (the server allows 1 to 200). */
export const LOBBY_PAGE = 20;

/** One page of the lobby, from the table at `offset`. @param {number} [offset] @returns {Promise<LobbyReply>} */
export function lobby(offset = 0) {
  return call('GET', `/api/tables?limit=${LOBBY_PAGE}&offset=${offset}`);
}

/** @param {string} token @param {NewTable} req @returns {Promise<NewTableReply>} */
export function createTable(token, req) {
  return call('POST', '/api/tables', { body: req, token });
}

/**
 * One page of a game's leaderboard.
 * @param {'madiao' | 'dabaifen'} game @param {number} offset @param {number} limit
 * @returns {Promise<import('./wire').LeaderboardReply>}
 */
export function leaderboard(game, offset, limit) {
  return call('GET', `/api/ratings/${game}?offset=${offset}&limit=${limit}`);
}

/** An account's profile. @param {string} username @returns {Promise<import('./wire').PlayerProfile>} */
export function player(username) {
  return call('GET', `/api/players/${encodeURIComponent(username)}`);
}

/** Each person's rating change in a table's finished rated match. @param {string} id @returns {Promise<import('./wire').TableRatings>} */
export function tableRatings(id) {
  return call('GET', `/api/tables/${encodeURIComponent(id)}/ratings`);
}

/** @param {string} id @returns {Promise<TableSummary | TableStub>} */
export function table(id) {
  return call('GET', `/api/tables/${encodeURIComponent(id)}`);
}

/**
 * The share token of the page's address (`?share=TOKEN`: a private game's shared link), or null.
 * @returns {string | null}
 */
export function pageShare() {
  return new URLSearchParams(location.search).get('share');
}

/** The page's share token as a query parameter after `sep` (`?` or `&`), or nothing. @param {string} sep */
function shareQuery(sep) {
  const s = pageShare();
  return s ? `${sep}share=${encodeURIComponent(s)}` : '';
}

/** A page's address carrying on the page's share token (`path` has a query already). @param {string} path */
export function keepShare(path) {
  return `${path}${shareQuery('&')}`;
}

/**
 * The host's share token of his table's game and the paths that carry it (`404` to anyone else).
 * @param {string} id @param {string} token
 * @returns {Promise<import('./wire').ShareReply>}
 */
export function shareLink(id, token) {
  return call('GET', `/api/tables/${encodeURIComponent(id)}/share`, { token });
}

/**
 * A replay's outline (one line per hand): a finished table's, or a posted record's by the id it got.
 * A private game's is served to its players and host (their token) or with the page's share token.
 * @param {string} id @param {string | null} [token] @returns {Promise<ReplayOutline>}
 */
export function replayOf(id, token) {
  return call('GET', `/api/replays/${encodeURIComponent(id)}${shareQuery('?')}`, { token });
}

/**
 * The analysis of a finished game's hand for a seat, as far as it has got (a token is needed for a
 * private game).
 * @param {string} id @param {number} hand @param {number} seat @param {string | null} token
 * @returns {Promise<import('./wire').AnalysisReply>}
 */
export function analysis(id, hand, seat, token) {
  return call('GET', `/api/games/${encodeURIComponent(id)}/analysis?hand=${hand}&seat=${seat}${shareQuery('&')}`, { token });
}

/**
 * A seat's accuracy over a finished match, from the analyses of its hands stored so far (a token
 * is needed for a private game).
 * @param {string} id @param {number} seat @param {string | null} token
 * @returns {Promise<import('./wire').MatchAccuracy>}
 */
export function matchAccuracy(id, seat, token) {
  return call('GET', `/api/games/${encodeURIComponent(id)}/accuracy?seat=${seat}${shareQuery('&')}`, { token });
}

/**
 * Asks the server to analyse a finished game's hand for a seat (or joins the job under way).
 * @param {string} id @param {number} hand @param {number} seat @param {string} token
 * @returns {Promise<import('./wire').AnalysisReply>}
 */
export function askAnalysis(id, hand, seat, token) {
  return call('POST', `/api/games/${encodeURIComponent(id)}/analysis${shareQuery('?')}`, { body: { hand, seat }, token });
}

/**
 * Hand `hand` of a replay, with its steps (a private game's as for `replayOf`).
 * @param {string} id @param {number} hand @param {string | null} [token] @returns {Promise<ReplayHand>}
 */
export function replayHand(id, hand, token) {
  return call('GET', `/api/replays/${encodeURIComponent(id)}?hand=${hand}${shareQuery('&')}`, { token });
}

/**
 * Posts a `yezi/1` record (as `application/json`, with the guest's token) to be replayed.
 * @param {string} text @param {string} token @returns {Promise<ReplayOutline>}
 */
export function replayRecord(text, token) {
  return call('POST', '/api/replay', { text, token });
}

/** The address of a finished table's record. @param {string} id */
export function recordUrl(id) {
  return `/api/records/${encodeURIComponent(id)}${shareQuery('?')}`;
}

/** @typedef {import('./wire').PlayNowStatus} PlayNowStatus */

/** Joins a game's play-now queue. @param {string} token @param {'madiao' | 'dabaifen'} game @param {number} waitSeconds @returns {Promise<PlayNowStatus>} */
export function playNowJoin(token, game, waitSeconds) {
  return call('POST', `/api/play-now/${game}`, { token, body: { wait_seconds: waitSeconds } });
}

/** The player's place in a game's play-now queue (asking keeps him in it). @param {string} token @param {'madiao' | 'dabaifen'} game @returns {Promise<PlayNowStatus>} */
export function playNowStatus(token, game) {
  return call('GET', `/api/play-now/${game}`, { token });
}

/** Leaves a game's play-now queue. @param {string} token @param {'madiao' | 'dabaifen'} game @returns {Promise<PlayNowStatus>} */
export function playNowLeave(token, game) {
  return call('DELETE', `/api/play-now/${game}`, { token });
}

/** @typedef {import('./wire').TournamentInfo} TournamentInfo */
/** @typedef {import('./wire').TournamentList} TournamentList */

/** The tournaments. @returns {Promise<TournamentList>} */
export function tournaments() {
  return call('GET', '/api/tournaments');
}

/** One tournament with its standings and tables. @param {string} id @returns {Promise<TournamentInfo>} */
export function tournament(id) {
  return call('GET', `/api/tournaments/${encodeURIComponent(id)}`);
}

/** Makes a tournament. @param {string} token @param {import('./wire').NewTournament} req @returns {Promise<TournamentInfo>} */
export function createTournament(token, req) {
  return call('POST', '/api/tournaments', { token, body: req });
}

/** Joins a tournament. @param {string} token @param {string} id @returns {Promise<TournamentInfo>} */
export function joinTournament(token, id) {
  return call('POST', `/api/tournaments/${encodeURIComponent(id)}/join`, { token });
}

/** Leaves an arena. @param {string} token @param {string} id @returns {Promise<TournamentInfo>} */
export function leaveTournament(token, id) {
  return call('POST', `/api/tournaments/${encodeURIComponent(id)}/leave`, { token });
}

/** Starts a swiss (its host). @param {string} token @param {string} id @returns {Promise<TournamentInfo>} */
export function startTournament(token, id) {
  return call('POST', `/api/tournaments/${encodeURIComponent(id)}/start`, { token });
}
