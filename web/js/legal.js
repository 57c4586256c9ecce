// What a player may choose, from the server's `legal` description (docs/protocol.md, "LEGAL"):
// which cards can be clicked, which selections may be sent, and the action to send. The server
// says what is legal; this only turns it into choices. Pure: unit-tested with `node --test`.

/** @typedef {import('./wire').Legal} Legal */
/** @typedef {import('./wire').MadiaoAction} MadiaoAction */
/** @typedef {import('./wire').DabaifenAction} DabaifenAction */

/**
 * Madiao: what each card of the hand may do, from a legal `actions` list: `play` (face up: a
 * lead, a capture or, where allowed, a face-up discard) and/or `slough` (face down).
 * @param {readonly MadiaoAction[]} actions
 * @returns {Map<string, {play: boolean, slough: boolean}>}
 */
export function madiaoChoices(actions) {
  /** @type {Map<string, {play: boolean, slough: boolean}>} */
  const out = new Map();
  for (const a of actions) {
    if ('play' in a) {
      const c = out.get(a.play) ?? { play: false, slough: false };
      c.play = true;
      out.set(a.play, c);
    } else if ('slough' in a) {
      const c = out.get(a.slough) ?? { play: false, slough: false };
      c.slough = true;
      out.set(a.slough, c);
    }
  }
  return out;
}

/**
 * Madiao: what playing `card` face up would be (§5), as the server's `legal` says: the `lead`,
 * a `capture` (the engine lists them in `captures`), or else a face-up `discard` (penalized
 * under `faceup_discard: penalty`).
 * @param {Legal | null | undefined} legal
 * @param {boolean} leading true when the trick is to be led
 * @param {string} card
 * @returns {'lead' | 'capture' | 'discard'}
 */
export function madiaoPlayKind(legal, leading, card) {
  if (leading) return 'lead';
  return legal && legal.kind === 'actions' && legal.captures.some((c) => c === card) ? 'capture' : 'discard';
}

/**
 * The cards of a multi-card choice (`cards` or `lead`) that may be clicked at all.
 * @param {Legal | null | undefined} legal
 * @returns {Set<string>}
 */
export function clickable(legal) {
  if (!legal) return new Set();
  switch (legal.kind) {
    case 'cards':
      return new Set([...legal.must, ...legal.from]);
    case 'lead':
      return new Set(legal.singles);
    case 'actions':
      return new Set(madiaoChoices(legal.actions).keys());
    default:
      return new Set();
  }
}

/**
 * The selection to begin with: the cards that must be played (a follow where one holds fewer
 * cards of the led suit than were led must include them all).
 * @param {Legal | null | undefined} legal
 * @returns {string[]}
 */
export function initialSelection(legal) {
  if (legal && legal.kind === 'cards' && legal.must.length <= legal.count) return [...legal.must];
  return [];
}

/**
 * The group of a lead that holds every card of `cards`, if any.
 * @param {Extract<Legal, {kind: 'lead'}>} legal @param {readonly string[]} cards
 */
function groupOf(legal, cards) {
  return legal.groups.find((g) => cards.every((c) => /** @type {string[]} */ (g.cards).includes(c)));
}

/**
 * The selection after clicking `card`.
 * - `cards`: toggles it; a card of `must` stays; when the selection is full, the last card
 *   chosen freely makes room.
 * - `lead`: toggles it within one group (the trumps count as one suit); a card of another
 *   group starts a new selection.
 * @param {Legal | null | undefined} legal @param {readonly string[]} selected @param {string} card
 * @returns {string[]}
 */
export function toggle(legal, selected, card) {
  if (!legal || !clickable(legal).has(card)) return [...selected];
  if (legal.kind === 'cards') {
    const must = /** @type {string[]} */ (legal.must);
    if (selected.includes(card)) {
      return must.includes(card) ? [...selected] : selected.filter((c) => c !== card);
    }
    const next = [...selected, card];
    if (next.length > legal.count) {
      const free = next.findIndex((c) => !must.includes(c));
      next.splice(free, 1);
    }
    return next;
  }
  if (legal.kind === 'lead') {
    if (selected.includes(card)) return selected.filter((c) => c !== card);
    const next = [...selected, card];
    return groupOf(legal, next) ? next : [card];
  }
  return selected.includes(card) ? [] : [card];
}

/**
 * Whether a selection may be sent, and if not, why (an i18n key with its parameters).
 * @param {Legal | null | undefined} legal @param {readonly string[]} selected
 * @returns {{ok: true} | {ok: false, why: string, n?: number}}
 */
export function check(legal, selected) {
  if (!legal) return { ok: false, why: 'why.not_your_turn' };
  if (new Set(selected).size !== selected.length) return { ok: false, why: 'why.duplicate' };
  if (legal.kind === 'cards') {
    const must = /** @type {string[]} */ (legal.must);
    const from = /** @type {string[]} */ (legal.from);
    if (selected.length !== legal.count) return { ok: false, why: 'why.choose_n', n: legal.count };
    if (!must.every((c) => selected.includes(c))) return { ok: false, why: 'why.must' };
    if (!selected.every((c) => must.includes(c) || from.includes(c))) return { ok: false, why: 'why.not_allowed' };
    return { ok: true };
  }
  if (legal.kind === 'lead') {
    if (selected.length === 0) return { ok: false, why: 'why.choose_lead' };
    if (selected.length === 1) {
      return /** @type {string[]} */ (legal.singles).includes(selected[0]) ? { ok: true } : { ok: false, why: 'why.not_allowed' };
    }
    const g = groupOf(legal, selected);
    if (!g) return { ok: false, why: 'why.one_suit' };
    if (g.tops && !selected.every((c) => /** @type {string[]} */ (g.tops).includes(c))) return { ok: false, why: 'why.tops_only' };
    return { ok: true };
  }
  if (legal.kind === 'actions') {
    return selected.length === 1 && madiaoChoices(legal.actions).has(selected[0]) ? { ok: true } : { ok: false, why: 'why.choose_card' };
  }
  return { ok: false, why: 'why.not_allowed' };
}

/**
 * The action to send for a valid selection of a `cards` or `lead` choice.
 * @param {Legal} legal @param {readonly string[]} selected
 * @returns {DabaifenAction | null}
 */
export function cardsAction(legal, selected) {
  if (!check(legal, selected).ok) return null;
  const cards = /** @type {import('./wire').DabaifenCard[]} */ ([...selected]);
  if (legal.kind === 'cards') return legal.action === 'bury' ? { bury: cards } : { play: cards };
  if (legal.kind === 'lead') return { play: cards };
  return null;
}

/**
 * True when sending this lead risks a revoke (§8): two or more cards under `revoke: penalize`,
 * where the server does not say which cards are top cards.
 * @param {Legal | null | undefined} legal @param {readonly string[]} selected
 */
export function revokeRisk(legal, selected) {
  return !!legal && legal.kind === 'lead' && legal.revoke === 'penalize' && selected.length >= 2;
}

/**
 * The prompt of a Da Bai Fen `cards` choice, as a key of i18n: burying; a follow that must include
 * the led-suit cards the seat holds (`must`); a follow from the led suit; or, void in the led
 * suit, a follow with any cards of the hand (the server then offers the whole hand in `from`, and
 * `must` is empty).
 * @param {Legal} legal @param {number} handSize
 * @returns {'dbf.bury_prompt' | 'dbf.follow_must' | 'dbf.follow_prompt' | 'dbf.follow_any' | null}
 */
export function cardsPrompt(legal, handSize) {
  if (legal.kind !== 'cards') return null;
  if (legal.action === 'bury') return 'dbf.bury_prompt';
  if (legal.must.length) return 'dbf.follow_must';
  return legal.from.length >= handSize ? 'dbf.follow_any' : 'dbf.follow_prompt';
}
