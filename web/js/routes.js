// The client's pages by address: `/`, `/t/{id}` (an invite link; `?watch` to watch, `?seat=N`),
// `/replay/{id}`, `/replay` (a local file), `/analysis/{id}?hand=H&seat=S` (a hand's analysis), `/rules?game=…`,
// `/tutorial/{game}` (a tutorial), `/puzzles?game=…&id=…` (puzzles), `/tournaments` and `/tournaments/{id}`,
// `/account`, `/ratings?game=…` (a leaderboard), `/players/{username}` (a profile), `/tv` and `/tv/{id}`
// (live tables, delayed), `/friends`, `/events` and `/events/{id}` (duplicate events). The server serves
// index.html for each.

/**
 * The route of a location.
 * @param {string} path @param {string} search
 * @returns {{page: 'lobby'} | {page: 'table', id: string, watch: boolean, seat: number | null} | {page: 'replay', id: string | null} | {page: 'analysis', id: string, hand: number | null, seat: number | null} | {page: 'rules', game: 'madiao' | 'dabaifen'} | {page: 'tutorial', game: 'madiao' | 'dabaifen'} | {page: 'puzzles', game: 'madiao' | 'dabaifen', id: string | null} | {page: 'account'} | {page: 'ratings', game: 'madiao' | 'dabaifen'} | {page: 'player', username: string} | {page: 'tv', id: string | null} | {page: 'friends'} | {page: 'events'} | {page: 'event', id: string} | {page: 'tournaments', id: string | null}}
 */
export function route(path, search) {
  const q = new URLSearchParams(search);
  let m = /^\/t\/([A-Za-z0-9]+)\/?$/.exec(path);
  if (m) {
    const seat = q.get('seat');
    return { page: 'table', id: m[1], watch: q.has('watch'), seat: seat !== null && /^[0-3]$/.test(seat) ? Number(seat) : null };
  }
  m = /^\/replay(?:\/([A-Za-z0-9]+))?\/?$/.exec(path);
  if (m) return { page: 'replay', id: m[1] ?? null };
  m = /^\/tutorial\/(madiao|dabaifen)\/?$/.exec(path);
  if (m) return { page: 'tutorial', game: m[1] === 'dabaifen' ? 'dabaifen' : 'madiao' };
  m = /^\/analysis\/([A-Za-z0-9]+)\/?$/.exec(path);
  if (m) {
    const hand = q.get('hand');
    const seat = q.get('seat');
    return {
      page: 'analysis',
      id: m[1],
      hand: hand !== null && /^[0-9]{1,4}$/.test(hand) ? Number(hand) : null,
      seat: seat !== null && /^[0-3]$/.test(seat) ? Number(seat) : null,
    };
  }
  if (path === '/puzzles' || path === '/puzzles/') {
    const id = q.get('id');
    return { page: 'puzzles', game: q.get('game') === 'dabaifen' ? 'dabaifen' : 'madiao', id: id && /^[A-Za-z0-9-]{1,64}$/.test(id) ? id : null };
  }
  m = /^\/tv(?:\/([A-Za-z0-9]+))?\/?$/.exec(path);
  if (m) return { page: 'tv', id: m[1] ?? null };
  if (path === '/events' || path === '/events/') return { page: 'events' };
  m = /^\/events\/([A-Za-z0-9]+)\/?$/.exec(path);
  if (m) return { page: 'event', id: m[1] };
  if (path === '/account' || path === '/account/') return { page: 'account' };
  if (path === '/friends' || path === '/friends/') return { page: 'friends' };
  m = /^\/tournaments(?:\/([A-Za-z0-9]+))?\/?$/.exec(path);
  if (m) return { page: 'tournaments', id: m[1] ?? null };
  if (path === '/ratings' || path === '/ratings/') return { page: 'ratings', game: q.get('game') === 'dabaifen' ? 'dabaifen' : 'madiao' };
  m = /^\/players\/([^/]+)\/?$/.exec(path);
  if (m) {
    let username = m[1];
    try {
      username = decodeURIComponent(m[1]);
    } catch {
      // A malformed escape: the name as written.
    }
    return { page: 'player', username };
  }
  if (path === '/rules' || path === '/rules/') return { page: 'rules', game: q.get('game') === 'dabaifen' ? 'dabaifen' : 'madiao' };
  return { page: 'lobby' };
}
