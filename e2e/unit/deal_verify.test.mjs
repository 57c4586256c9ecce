// An independent check of verifiable deals (docs/record.md, "Deal verification"): the commitment
// and the shuffle written here from the document alone (SHA-256 from node:crypto, ChaCha8, the
// bounded draw and Fisher–Yates as the document describes them), checked against vectors the Rust
// code wrote (unit/deal_vectors.json, pinned by crates/ai/tests/deal_vectors.rs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** @param {bigint} seed @param {number} hand @param {string} table @returns {string} */
function commitment(seed, hand, table) {
  const head = Buffer.alloc(21);
  head.write('yezi-deal', 0, 'ascii');
  head.writeBigUInt64LE(seed, 9);
  head.writeUInt32LE(hand, 17);
  return createHash('sha256').update(Buffer.concat([head, Buffer.from(table, 'utf8')])).digest('hex');
}

/** A ChaCha8 word stream keyed by the seed (8 bytes LE, then 24 zero bytes) on `stream`. */
function chacha8(/** @type {bigint} */ seed, /** @type {bigint} */ stream) {
  const key = new Uint32Array(8);
  key[0] = Number(seed & 0xffffffffn);
  key[1] = Number((seed >> 32n) & 0xffffffffn);
  let counter = 0n;
  /** @type {number[]} */
  let words = [];
  const rotl = (/** @type {number} */ x, /** @type {number} */ n) => ((x << n) | (x >>> (32 - n))) >>> 0;
  function block() {
    const init = new Uint32Array(16);
    init.set([0x61707865, 0x3320646e, 0x79622d32, 0x6b206574], 0);
    init.set(key, 4);
    init[12] = Number(counter & 0xffffffffn);
    init[13] = Number((counter >> 32n) & 0xffffffffn);
    init[14] = Number(stream & 0xffffffffn);
    init[15] = Number((stream >> 32n) & 0xffffffffn);
    const s = Uint32Array.from(init);
    const qr = (/** @type {number} */ a, /** @type {number} */ b, /** @type {number} */ c, /** @type {number} */ d) => {
      s[a] = (s[a] + s[b]) >>> 0; s[d] = rotl(s[d] ^ s[a], 16);
      s[c] = (s[c] + s[d]) >>> 0; s[b] = rotl(s[b] ^ s[c], 12);
      s[a] = (s[a] + s[b]) >>> 0; s[d] = rotl(s[d] ^ s[a], 8);
      s[c] = (s[c] + s[d]) >>> 0; s[b] = rotl(s[b] ^ s[c], 7);
    };
    for (let r = 0; r < 4; r++) {
      qr(0, 4, 8, 12); qr(1, 5, 9, 13); qr(2, 6, 10, 14); qr(3, 7, 11, 15);
      qr(0, 5, 10, 15); qr(1, 6, 11, 12); qr(2, 7, 8, 13); qr(3, 4, 9, 14);
    }
    counter += 1n;
    return Array.from(s, (x, i) => (x + init[i]) >>> 0);
  }
  return () => {
    if (words.length === 0) words = block();
    return /** @type {number} */ (words.shift());
  };
}

/** A number below n, as the document's `below`. */
function below(/** @type {() => number} */ next, /** @type {number} */ n) {
  const N = BigInt(n);
  let m = BigInt(next()) * N;
  if ((m & 0xffffffffn) < N) {
    const t = ((1n << 32n) - N) % N;
    while ((m & 0xffffffffn) < t) m = BigInt(next()) * N;
  }
  return Number(m >> 32n);
}

const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];
const CANONICAL = {
  madiao: [
    'W9', 'W8', 'W7', 'W6', 'W5', 'W4', 'W3', 'W2', 'W1', 'WH', 'W0',
    ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((d) => `S${d}`),
    ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((d) => `M${d}`),
    ...[2, 3, 4, 5, 6, 7, 8, 9].map((d) => `T${d}`), 'TB', 'TQ', 'TW',
  ],
  dabaifen: [...['S', 'H', 'D', 'C'].flatMap((s) => RANKS.map((r) => r + s)), 'SJ', 'BJ'],
};

/** The deck of hand k of a game dealt from seed. */
function deck(/** @type {'madiao' | 'dabaifen'} */ game, /** @type {bigint} */ seed, /** @type {number} */ k) {
  const next = chacha8(seed, game === 'madiao' ? 4n * BigInt(k) : BigInt(k));
  const cards = [...CANONICAL[game]];
  for (let i = cards.length - 1; i >= 1; i--) {
    const j = below(next, i + 1);
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

const vectors = JSON.parse(readFileSync(new URL('./deal_vectors.json', import.meta.url), 'utf8'));

test('the packs are the sizes of the games', () => {
  assert.equal(CANONICAL.madiao.length, 40);
  assert.equal(CANONICAL.dabaifen.length, 54);
  assert.equal(new Set(CANONICAL.dabaifen).size, 54);
});

test('the commitment of the document is the one yezi computes', () => {
  assert.ok(vectors.length >= 4);
  for (const v of vectors) {
    assert.equal(commitment(BigInt(v.seed), v.hand, v.table), v.commitment, JSON.stringify(v));
  }
  // The document's example: seed 1, hand 0, table t-1 hash these 24 bytes.
  const bytes = Buffer.from('79 65 7a 69 2d 64 65 61 6c 01 00 00 00 00 00 00 00 00 00 00 00 74 2d 31'.replace(/ /g, ''), 'hex');
  assert.equal(bytes.length, 24);
  assert.equal(commitment(1n, 0, 't-1'), createHash('sha256').update(bytes).digest('hex'));
});

test('the deck of the document is the one yezi deals', () => {
  for (const v of vectors) {
    assert.deepEqual(deck(v.game, BigInt(v.seed), v.hand), v.deck, `${v.game} seed ${v.seed} hand ${v.hand}`);
  }
});

test('a changed seed, hand or table changes the commitment', () => {
  const v = vectors[0];
  assert.notEqual(commitment(BigInt(v.seed) + 1n, v.hand, v.table), v.commitment);
  assert.notEqual(commitment(BigInt(v.seed), v.hand + 1, v.table), v.commitment);
  assert.notEqual(commitment(BigInt(v.seed), v.hand, v.table + 'x'), v.commitment);
});
