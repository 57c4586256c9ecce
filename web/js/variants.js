// The rules variants of both games (docs/rules/madiao.md §8, docs/rules/dabaifen.md §11),
// with a short explanation of each in both languages, for the table form and the rules page.

/** @typedef {{en: string, zh: string}} Text */
/** @typedef {{name: string, label: Text, about: Text, values: Array<{value: string, text: Text}>}} Variant */

/** @type {{madiao: Variant[], dabaifen: Variant[]}} */
export const VARIANTS = {
  madiao: [
    {
      name: 'faceup_discard',
      label: { en: 'Face-up discard', zh: '明弃' },
      about: {
        en: 'May a follower play a card face up that does not capture?',
        zh: '跟牌时可否明出一张不能捉的牌？',
      },
      values: [
        { value: 'penalty', text: { en: 'allowed, the offender pays 2 stakes', zh: '可以，出者罚两注' } },
        { value: 'forbidden', text: { en: 'forbidden: a card that does not capture goes face down', zh: '不许：不捉就灭' } },
      ],
    },
    {
      name: 'banker_shortfall',
      label: { en: "Banker's shortfall", zh: '庄家不足两墩' },
      about: {
        en: 'A banker with fewer than 2 tricks pays 1 stake — to whom?',
        zh: '庄家不足两墩要赔一注，赔给谁？',
      },
      values: [
        { value: 'winners', text: { en: 'only the players who made 2 tricks', zh: '只赔够两墩的闲家' } },
        { value: 'all', text: { en: 'every player', zh: '每个闲家' } },
      ],
    },
    {
      name: 'hm_bonus_tricks',
      label: { en: 'Hundred Myriad bonus', zh: '百万赏' },
      about: {
        en: 'The +3 for a Hundred Myriad (百萬) that wins a trick needs its holder to have…',
        zh: '百万捉得一墩的三注赏，持有者要有…',
      },
      values: [
        { value: 'exactly_2', text: { en: 'exactly 2 tricks', zh: '正好两墩' } },
        { value: 'at_least_2', text: { en: '2 tricks or more', zh: '两墩以上' } },
      ],
    },
    {
      name: 'most_tricks_tie',
      label: { en: 'Tie for most tricks', zh: '墩数并列' },
      about: {
        en: 'Two players tied for the most tricks (3 or more) each get…',
        zh: '两家并列最多墩（三墩以上）各得…',
      },
      values: [
        { value: 'each_plus_1', text: { en: '+1 stake', zh: '一注' } },
        { value: 'each_plus_half', text: { en: '+½ stake', zh: '半注' } },
      ],
    },
    {
      name: 'stock_check_payer',
      label: { en: 'Stock check', zh: '查底' },
      about: {
        en: 'When the card under the upcard is a top card, who pays for its suit’s second card?',
        zh: '翻牌下一张是尊时，谁为该门第二张赔付？',
      },
      values: [
        { value: 'faceup_only', text: { en: 'whoever played it face up', zh: '明出的人' } },
        { value: 'holder', text: { en: 'whoever was dealt it, even if sloughed', zh: '持有的人，灭了也算' } },
      ],
    },
    {
      name: 'meld_extra_stake',
      label: { en: 'Meld extra stake', zh: '色样加注' },
      about: { en: 'A meld holder also wins 1 more stake from each payer.', zh: '色样得主再向每个付者多收一注。' },
      values: [
        { value: 'false', text: { en: 'no', zh: '否' } },
        { value: 'true', text: { en: 'yes', zh: '是' } },
      ],
    },
    {
      name: 'meld_stacking',
      label: { en: 'Several melds', zh: '多个色样' },
      about: { en: 'A hand holding several melds scores…', zh: '一手牌有多个色样时…' },
      values: [
        { value: 'highest', text: { en: 'only the highest', zh: '只算最高者' } },
        { value: 'cumulative', text: { en: 'all of them', zh: '全部相加' } },
      ],
    },
    {
      name: 'bonus_stacking',
      label: { en: 'Bonus lines', zh: '赏注相加' },
      about: { en: 'Reward, Hundred Myriad and honour bonuses…', zh: '赏、百万、大牌之赏…' },
      values: [
        { value: 'cumulative', text: { en: 'add up', zh: '相加' } },
        { value: 'largest_only', text: { en: 'only the largest counts', zh: '只算最大' } },
      ],
    },
    {
      name: 'slam',
      label: { en: 'Slam', zh: '全胜' },
      about: { en: 'Winning all 8 tricks gives +8 stakes, which…', zh: '八墩全得赏八注，…' },
      values: [
        { value: 'replaces', text: { en: 'replaces the +1 for 3 or more tricks', zh: '取代三墩以上的一注' } },
        { value: 'adds', text: { en: 'adds to it', zh: '另加' } },
      ],
    },
    {
      name: 'game_length',
      label: { en: 'Match length', zh: '局数' },
      about: { en: 'When the match ends.', zh: '一场何时结束。' },
      values: [
        { value: 'each_banker_once', text: { en: 'when everyone has banked', zh: '人人坐过庄' } },
        { value: 'hands:1', text: { en: 'after 1 hand', zh: '一手' } },
        { value: 'hands:2', text: { en: 'after 2 hands', zh: '两手' } },
        { value: 'hands:4', text: { en: 'after 4 hands', zh: '四手' } },
        { value: 'hands:8', text: { en: 'after 8 hands', zh: '八手' } },
      ],
    },
  ],
  dabaifen: [
    {
      name: 'revoke',
      label: { en: 'Revoke', zh: '甩牌犯规' },
      about: {
        en: 'A lead of several cards that are not all top cards…',
        zh: '甩出的多张牌中有不是最大的牌时…',
      },
      values: [
        { value: 'penalize', text: { en: 'ends the deal against the leader’s team', zh: '该局即告终，算出牌方输掉全部墩' } },
        { value: 'refuse', text: { en: 'is refused (practice: only top cards may be led together)', zh: '不许出（练习：只准甩最大的牌）' } },
      ],
    },
    {
      name: 'kitty_multiplier',
      label: { en: 'Kitty bonus', zh: '底牌加倍' },
      about: { en: 'When the defenders win the last trick, the kitty’s points count…', zh: '守方赢末墩时，底牌分数…' },
      values: [
        { value: 'double', text: { en: 'double', zh: '加倍' } },
        { value: 'per_card', text: { en: '2 × the cards each player played to the last trick', zh: '乘以末墩每人出牌数的两倍' } },
      ],
    },
    {
      name: 'first_drawer',
      label: { en: 'First to draw', zh: '先摸' },
      about: { en: 'Who takes the first card of the draw.', zh: '谁先摸第一张牌。' },
      values: [
        { value: 'starter', text: { en: 'the starter', zh: '庄家' } },
        { value: 'starter_right', text: { en: 'the player after the starter', zh: '庄家的下家' } },
      ],
    },
    {
      name: 'game_end',
      label: { en: 'End of the game', zh: '终局' },
      about: { en: 'A team wins the game when…', zh: '一方何时胜出…' },
      values: [
        { value: 'reach_ace', text: { en: 'its rank reaches A', zh: '升到A' } },
        { value: 'win_as_declarers_at_ace', text: { en: 'it wins a deal at A as declarers', zh: '打A作庄方并获胜' } },
      ],
    },
    {
      name: 'annul',
      label: { en: 'Annulment', zh: '无主重打' },
      about: { en: 'Who may annul a deal for a hand with no trump.', zh: '谁可以凭无主之牌作废一局。' },
      values: [
        { value: 'any_player', text: { en: 'anyone', zh: '任何人' } },
        { value: 'non_starters_only', text: { en: 'anyone but the starter', zh: '庄家以外的人' } },
      ],
    },
  ],
};

/**
 * The explanation of a variant's value, or the value itself when the catalog does not have it.
 * @param {'madiao' | 'dabaifen'} game @param {string} name @param {string} value @param {'en' | 'zh'} lang
 */
export function variantValueText(game, name, value, lang) {
  const v = VARIANTS[game].find((x) => x.name === name);
  const t = v?.values.find((x) => x.value === value)?.text[lang];
  if (t) return t;
  const m = /^hands:(\d+)$/.exec(value);
  if (m) return lang === 'zh' ? `${m[1]}手` : `after ${m[1]} hands`;
  return value;
}

/**
 * The variant overrides of a table form: the values that differ from the preset.
 * @param {Record<string, string>} preset @param {Record<string, string>} chosen
 * @returns {Record<string, string>}
 */
export function overrides(preset, chosen) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const [k, v] of Object.entries(chosen)) {
    if (preset[k] !== v) out[k] = v;
  }
  return out;
}
