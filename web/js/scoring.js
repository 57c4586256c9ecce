// The end of a hand in words, in both languages: Madiao's itemized settlement, Da Bai Fen's
// account of a deal, the results and the running match score. Pure: unit-tested with
// `node --test`. The engines itemize (madiao::Settlement, dabaifen::Account); this words it.

import { dabaifenLabel, madiaoName, madiaoNameZh, MADIAO_SUITS, SUIT_NAMES, rankText } from './cards.js';

/** @typedef {'en' | 'zh'} Lang */
/** @typedef {import('./wire').SettlementLine} SettlementLine */
/** @typedef {import('./wire').Settlement} Settlement */
/** @typedef {import('./wire').AccountEvent} AccountEvent */
/** @typedef {import('./wire').MadiaoResult} MadiaoResult */
/** @typedef {import('./wire').DabaifenResult} DabaifenResult */
/** @typedef {import('./wire').Trump} Trump */

/** Madiao settlement items (the engine's `item` names) in both languages. */
export const ITEM_LABELS = /** @type {Record<string, {en: string, zh: string}>} */ ({
  meld: { en: 'meld', zh: '色样' },
  meld_extra_stake: { en: 'meld: one more stake', zh: '色样加注' },
  four_lowest: { en: 'the four lowest', zh: '四极' },
  stock_check: { en: 'stock check', zh: '查底' },
  fewer_than_2_tricks: { en: 'fewer than 2 tricks', zh: '不足两墩' },
  exactly_2_tricks: { en: 'exactly 2 tricks', zh: '正好两墩' },
  '3_or_more_tricks': { en: '3 or more tricks', zh: '三墩以上' },
  tied_for_most_tricks: { en: 'tied for the most tricks', zh: '并列最多墩' },
  slam: { en: 'all 8 tricks (slam)', zh: '八墩全得' },
  reward_trick: { en: 'a trick won with a reward card', zh: '以赏牌得墩' },
  hm_fewer_than_2_tricks: { en: 'Hundred Myriad, fewer than 2 tricks', zh: '百万不足两墩' },
  hm_minimum: { en: 'Hundred Myriad, minimum made', zh: '百万够两墩' },
  hm_won: { en: 'Hundred Myriad won a trick', zh: '百万捉得一墩' },
  tw_tq_tb: { en: 'won with 萬萬, 千萬 and 百萬', zh: '万万千万百万皆得墩' },
  tw_tq_tb_w0: { en: 'won with 萬萬, 千萬, 百萬 and 空沒文', zh: '万万千万百万空没文皆得墩' },
  knock: { en: 'the knock (敲門)', zh: '敲门' },
  faceup_discard: { en: 'face-up discard penalty', zh: '明弃罚注' },
});

/** A signed amount: +2, −1.5, 0. @param {number} x */
export function signed(x) {
  if (x === 0) return '0';
  return `${x > 0 ? '+' : '−'}${Math.abs(x)}`;
}

/** Replaces `seat N` with the seat's name. @param {string} text @param {readonly string[]} names */
export function withNames(text, names) {
  return text
    .replace(/\beach of seats ([0-3](?:, [0-3])*)/g, (_, list) => `each of ${list.split(", ").map((/** @type {string} */ n) => names[Number(n)]).join(', ')}`)
    .replace(/\bseat ([0-3])\b/g, (_, n) => names[Number(n)] ?? `seat ${n}`);
}

/** Replaces Madiao card codes with their Chinese names. @param {string} text */
export function withMadiaoNames(text) {
  return text.replace(/\b(T[WQB2-9]|M[1-9]|S[1-9]|W[0-9H])\b/g, (code) => madiaoName(code));
}

/** The Chinese name of a Madiao suit (十门, 万门, 索门, 文门). @param {string} code a card of the suit */
function madiaoSuitZh(code) {
  const s = MADIAO_SUITS[/** @type {'T' | 'M' | 'S' | 'W'} */ (code[0])];
  return s ? `${s.zh === '萬' ? '万' : s.zh}门` : code[0];
}

/**
 * What a Chinese settlement line adds to its label: the cards, the trick counts, why a promoted
 * reward card pays (§6: the upcard is its suit's top card, so the second card takes its place).
 * @param {SettlementLine} line @param {readonly string[]} names
 */
function lineDetailZh(line, names) {
  const d = line.detail ?? {};
  const who = names[line.seat] ?? `${line.seat}`;
  switch (line.item) {
    case 'reward_trick': {
      if (!d.card) return '';
      const card = madiaoNameZh(d.card);
      if (!d.promoted) return `：${card}`;
      const top = MADIAO_TOP[/** @type {'T' | 'M' | 'S' | 'W'} */ (d.card[0])];
      return `：${card}（递补赏牌：翻牌${madiaoNameZh(top)}是${madiaoSuitZh(d.card)}之尊，由该门第二张${card}递补为赏牌）`;
    }
    case 'stock_check':
      if (!d.exposed || !d.second) return '';
      return `：翻牌下为${madiaoNameZh(d.exposed)}（${madiaoSuitZh(d.exposed)}之尊），${who}${d.face_up ? '明出' : '得'}该门第二张${madiaoNameZh(d.second)}${d.face_up ? '' : '（持有者赔）'}`;
    case 'fewer_than_2_tricks':
    case '3_or_more_tricks':
    case 'tied_for_most_tricks':
      return d.tricks === undefined ? '' : `（${d.tricks}墩）`;
    case 'hm_won':
      return d.tricks === undefined ? '' : `（共${d.tricks}墩）`;
    case 'faceup_discard':
      return d.card ? `：第${d.trick}墩明弃${madiaoNameZh(d.card)}` : '';
    default:
      return '';
  }
}

/** The top card of each Madiao suit (§1), the card a promoted reward card stands in for. */
const MADIAO_TOP = /** @type {const} */ ({ T: 'TW', M: 'M9', S: 'S9', W: 'W0' });

/**
 * One settlement line in words: who (and whether he is the banker), what for, with its cards and
 * trick counts, and what the line's owner gains or pays in all (what every seat pays or gets is
 * listed beside the line, from its `transfers`).
 * @param {SettlementLine} line @param {readonly string[]} names @param {Lang} lang
 */
export function settlementLineText(line, names, lang) {
  if (lang === 'en') {
    // The engine's sentence, with names; its closing "(+3)" / "(-3)" is the owner's total, which
    // the amounts beside the line already show (with a true minus sign).
    return withMadiaoNames(withNames(line.text, names)).replace(/ \([+-][0-9.½]+\)$/, '');
  }
  const label = ITEM_LABELS[line.item]?.zh ?? line.item;
  const who = (names[line.seat] ?? `${line.seat}`) + (line.banker === line.seat ? '（庄家）' : '');
  const detail = lineDetailZh(line, names);
  if (!line.counted) return `${who}：${label}${detail}（不计）`;
  return `${who}：${label}${detail}，${signed(line.transfers[line.seat])}`;
}

/**
 * A Madiao result in a sentence: how the hand ended and who banks next.
 * @param {MadiaoResult} r @param {readonly string[]} names @param {Lang} lang
 */
export function madiaoResultText(r, names, lang) {
  const next = r.next_banker === null ? (lang === 'zh' ? '重新抽庄' : 'the banker is drawn again') : names[r.next_banker];
  const how = {
    played: { en: 'All eight tricks were played', zh: '八墩打完' },
    meld: { en: 'A meld won at once', zh: '色样即胜' },
    four_lowest: { en: 'The four lowest won at once', zh: '四极即胜' },
    redeal: { en: 'A redeal was forced with a long suit', zh: '长门要求重发' },
  }[r.outcome][lang];
  // The hand that ends the match has no next banker.
  if (lang === 'zh') return r.game_over ? `${how}。本场结束。` : `${how}。下一庄：${next}。`;
  return r.game_over ? `${how}. The match is over.` : `${how}. Next banker: ${next}.`;
}

/** @param {Trump | {suit: string, rank: string} | null} trump @param {Lang} lang */
export function trumpText(trump, lang) {
  if (!trump) return lang === 'zh' ? '无主' : 'no trumps';
  const suit = SUIT_NAMES[/** @type {'S' | 'H' | 'D' | 'C'} */ (trump.suit)]?.[lang] ?? trump.suit;
  return lang === 'zh' ? `${suit}为主，打${rankText(trump.rank)}` : `${suit}, rank ${rankText(trump.rank)}`;
}

/** @param {readonly string[]} cards @param {Lang} lang */
function cardsText(cards, lang) {
  return cards.map((c) => dabaifenLabel(c, lang)).join(lang === 'zh' ? '、' : ' ');
}

/** @param {number} team @param {readonly string[]} names @param {Lang} lang */
export function teamText(team, names, lang) {
  const who = `${names[team]}${lang === 'zh' ? '、' : ' & '}${names[team + 2]}`;
  return lang === 'zh' ? `${team === 0 ? '甲' : '乙'}队（${who}）` : `team ${team === 0 ? 'A' : 'B'} (${who})`;
}

/**
 * One line of a Da Bai Fen account in words.
 * @param {AccountEvent} e @param {readonly string[]} names @param {Lang} lang
 */
export function accountText(e, names, lang) {
  const zh = lang === 'zh';
  switch (e.event) {
    case 'declared': {
      const t = trumpText(e.trump, lang);
      const s = zh
        ? `${names[e.seat]}在摸到第${e.drawn}张时亮出${cardsText([e.card], lang)}：${t}`
        : `${names[e.seat]} showed ${cardsText([e.card], lang)} after ${e.drawn} cards were drawn: trumps are ${t}`;
      if (!e.became_starter) return s;
      return zh ? `${s}；${names[e.seat]}坐庄` : `${s}; ${names[e.seat]} becomes the starter`;
    }
    case 'kitty_turned':
      return zh
        ? `无人亮主：${names[e.starter]}翻底牌${cardsText(e.turned, lang)}，${e.by_rank ? '翻到主级牌' : '以最大的牌定花色'}${cardsText([e.card], lang)}：${trumpText(e.trump, lang)}`
        : `Nobody declared: ${names[e.starter]} turned the kitty ${cardsText(e.turned, lang)}; ${e.by_rank ? 'a trump-rank card came' : 'the highest card decides'}: ${cardsText([e.card], lang)}, trumps are ${trumpText(e.trump, lang)}`;
    case 'no_showing':
      return zh ? '明局无人亮牌：本局作废重打' : 'Open deal: nobody showed his team’s rank, so the deal is annulled again';
    case 'kept_deal':
      return zh ? `${names[e.seat]}无主但选择打下去` : `${names[e.seat]} had no trump but played on`;
    case 'annulled':
      return zh
        ? `${names[e.seat]}亮出无主之牌（${cardsText(e.hand, lang)}），本局作废`
        : `${names[e.seat]} showed a hand with no trump (${cardsText(e.hand, lang)}) and annulled the deal`;
    case 'buried':
      return zh
        ? `${names[e.seat]}收底并埋下${cardsText(e.cards, lang)}（${e.points}分）`
        : `${names[e.seat]} took the kitty and buried ${cardsText(e.cards, lang)} (${e.points} points)`;
    case 'trick': {
      const plays = e.plays.map(([s, cs]) => `${names[s]}${zh ? '出' : ' '}${cardsText(cs, lang)}`).join(zh ? '，' : ', ');
      const side = e.to_defenders ? (zh ? '守方' : 'the defenders') : zh ? '庄方' : 'the declarers';
      return zh
        ? `第${e.number}墩：${plays}；${names[e.winner]}得${e.points}分，归${side}`
        : `Trick ${e.number}: ${plays} → ${names[e.winner]} wins ${e.points} points for ${side}`;
    }
    case 'revoke': {
      const why = e.not_top
        .map(([c, holder, stronger]) =>
          zh
            ? `${cardsText([c], lang)}不是最大（${names[holder]}有${cardsText([stronger], lang)}）`
            : `${cardsText([c], lang)} is not a top card (${names[holder]} holds ${cardsText([stronger], lang)})`,
        )
        .join(zh ? '；' : '; ');
      return zh
        ? `${names[e.seat]}甩出${cardsText(e.cards, lang)}：犯规。${why}。本局即告终，对方算赢全部墩`
        : `${names[e.seat]} led ${cardsText(e.cards, lang)}: a revoke. ${why}. The deal ends and the other team is taken to have won every trick`;
    }
    case 'kitty':
      if (e.to_defenders) {
        return zh
          ? `${teamText(e.team, names, lang)}（守方）赢末墩，得底：${e.kitty_points}分×${e.multiplier}＝+${e.bonus}`
          : `The kitty goes to ${teamText(e.team, names, lang)} (defenders), who won the last trick: ${e.kitty_points} points × ${e.multiplier} = +${e.bonus}`;
      }
      return zh
        ? `${teamText(e.team, names, lang)}（庄方）赢末墩，底牌${e.kitty_points}分不计给守方`
        : `The kitty (${e.kitty_points} points) goes to ${teamText(e.team, names, lang)} (declarers), who won the last trick: no bonus for the defenders`;
    case 'total': {
      const sum = e.revoke
        ? zh
          ? `守方得分${e.total}`
          : `Defenders' points T = ${e.total}`
        : zh
          ? `守方得分：墩中${e.in_tricks}＋底分${e.bonus}＝${e.total}`
          : `Defenders' points T = ${e.in_tricks} in tricks + ${e.bonus} kitty bonus = ${e.total}`;
      let row;
      if (e.declarers_win) row = zh ? `庄方胜，升${e.levels}级` : `the declarers win, +${e.levels} rank${e.levels === 1 ? '' : 's'}`;
      else if (e.levels === 0) row = zh ? '守方胜但不升级' : 'the defenders win the deal but gain no rank';
      else row = zh ? `守方胜，升${e.levels}级` : `the defenders win, +${e.levels} rank${e.levels === 1 ? '' : 's'}`;
      return `${sum}${zh ? '：' : ': '}${row}`;
    }
    case 'rank_up':
      return zh
        ? `${teamText(e.team, names, lang)}由${rankText(e.from)}升到${rankText(e.to)}`
        : `${teamText(e.team, names, lang)} goes from ${rankText(e.from)} to ${rankText(e.to)}`;
    case 'next_starter':
      return zh ? `下一局由${names[e.seat]}坐庄（${starterWhyZh(e.why)}）` : `Next starter: ${names[e.seat]} (${e.why})`;
    case 'game_over':
      return zh ? `${teamText(e.team, names, lang)}胜出全局！` : `${teamText(e.team, names, lang)} wins the game!`;
    default:
      return '';
  }
}

/**
 * Why the next starter starts, in Chinese: the account gives one of three fixed English sentences
 * (crates/dabaifen/src/account.rs, NEXT_STARTER_REASONS); another is shown as it is.
 * @param {string} why
 */
export function starterWhyZh(why) {
  return (
    {
      "the starter's partner deals the open deal after an annulment": '作废之后，由庄家的同伴坐明局的庄',
      "the declarers won: the starter's partner": '庄方胜：由庄家的同伴坐庄',
      'the defenders won: the seat after the starter': '守方胜：由庄家的下家坐庄',
    }[why] ?? why
  );
}

/**
 * A Da Bai Fen result in a sentence.
 * @param {DabaifenResult} r @param {readonly string[]} names @param {Lang} lang
 */
export function dabaifenResultText(r, names, lang) {
  const zh = lang === 'zh';
  if (r.outcome === 'annulled') {
    return zh ? `本局作废。下一局由${names[r.next_starter]}坐庄。` : `The deal was annulled. ${names[r.next_starter]} starts the next deal.`;
  }
  const winner = r.winner === null ? '' : teamText(r.winner, names, lang);
  const pts = r.defender_points ?? 0;
  const s = zh
    ? `守方得${pts}分：${winner}胜${r.levels ? `，升${r.levels}级` : ''}。`
    : `The defenders took ${pts} points: ${winner} wins${r.levels ? `, +${r.levels} rank${r.levels === 1 ? '' : 's'}` : ''}.`;
  const ranks = zh ? `级：${rankText(r.ranks[0])}对${rankText(r.ranks[1])}。` : ` Ranks: ${rankText(r.ranks[0])} and ${rankText(r.ranks[1])}.`;
  const end = r.game_over ? (zh ? '全局结束。' : ' The game is over.') : '';
  return s + ranks + end;
}

/**
 * The total of each seat over a settlement's counted lines (the settlement's own totals), in
 * stakes, and in chips at `stake` chips a stake.
 * @param {Settlement} s @param {number} stake
 */
export function settlementTotals(s, stake) {
  return s.totals.map((x) => ({ stakes: x, chips: x * stake }));
}

/** @typedef {import('./wire').TableEvent} TableEvent */

/**
 * A table event in words (the log): who played what, the draw's end, the windows.
 * @param {'madiao' | 'dabaifen'} game @param {TableEvent} e @param {readonly string[]} names @param {Lang} lang
 */
export function eventText(game, e, names, lang) {
  const zh = lang === 'zh';
  switch (e.kind) {
    case 'start':
      return zh ? '开局' : 'The match begins';
    case 'hand_start':
      return zh ? `第${e.hand + 1}手开始` : `Hand ${e.hand + 1} is dealt`;
    case 'draw':
      return zh ? `摸牌${e.drawn}` : `Card ${e.drawn} drawn`;
    case 'draw_end':
      return zh ? '摸牌结束，无人亮主' : 'The draw ended without a showing';
    case 'window':
      return game === 'madiao'
        ? zh
          ? '重发窗口开启'
          : 'The redeal window opens'
        : zh
          ? '无主作废窗口开启'
          : 'The annulment window opens';
    case 'window_closed': {
      const o = /** @type {Record<string, number | null>} */ (e.outcome);
      const by = o.redeal_forced_by ?? o.annulled_by ?? null;
      if (by === null) return zh ? '窗口关闭：照常开打' : 'The window closed: play goes on';
      if ('redeal_forced_by' in o) return zh ? `${names[by]}以长门要求重发` : `${names[by]} forced a redeal with a long suit`;
      return zh ? `${names[by]}无主，作废本局` : `${names[by]} annulled the deal (no trump)`;
    }
    case 'action': {
      const who = names[e.seat];
      const a = /** @type {Record<string, unknown>} */ (e.action);
      const bot = e.by_bot ? (zh ? '（机器人）' : ' (bot)') : '';
      if ('slough' in a) {
        const c = typeof a.slough === 'string' ? (zh ? madiaoNameZh(a.slough) : ` ${madiaoName(a.slough)}`) : '';
        return zh ? `${who}${bot}灭${c}` : `${who}${bot} sloughs${c} face down`;
      }
      if ('bury' in a) {
        const cs = Array.isArray(a.bury) ? ` ${cardsText(/** @type {string[]} */ (a.bury), lang)}` : '';
        return zh ? `${who}${bot}埋底${cs}` : `${who}${bot} buries six cards${cs}`;
      }
      if ('declare' in a) return zh ? `${who}${bot}亮主${cardsText([String(a.declare)], lang)}` : `${who}${bot} declares ${cardsText([String(a.declare)], lang)}`;
      if ('redeal' in a) return zh ? `${who}要求重发` : `${who} forces a redeal`;
      if ('annul' in a) return zh ? `${who}作废本局` : `${who} annuls the deal`;
      if ('play' in a) {
        if (game === 'madiao') return zh ? `${who}${bot}出${madiaoNameZh(String(a.play))}` : `${who}${bot} plays ${madiaoName(String(a.play))}`;
        return zh ? `${who}${bot}出${cardsText(/** @type {string[]} */ (a.play), lang)}` : `${who}${bot} plays ${cardsText(/** @type {string[]} */ (a.play), lang)}`;
      }
      return who;
    }
    default:
      return '';
  }
}

/** @typedef {import('./wire').MadiaoView} MadiaoView */
/** @typedef {import('./wire').DabaifenView} DabaifenView */

/**
 * A line of the table's story that the events do not tell by themselves: a trick won, or a
 * hand's end (its result and scoring are in the hand's final view).
 * @typedef {{kind: 'trick', number: number, winner: number, card: string | null, points: number | null} | {kind: 'result'}} StoryEvent
 */

/**
 * What a new view of a hand adds to the story since `prev` (the view before, of the same hand;
 * null when there is none): each trick completed since, in order, then the hand's end.
 * @param {MadiaoView | DabaifenView | null} prev @param {MadiaoView | DabaifenView} view
 * @returns {StoryEvent[]}
 */
export function storyEvents(prev, view) {
  /** @type {StoryEvent[]} */
  const out = [];
  const before = prev ? /** @type {Array<{winner: number | null}>} */ (prev.tricks) : [];
  /** @type {Array<import('./wire').MadiaoTrickView | import('./wire').DabaifenTrickView>} */
  const tricks = view.tricks;
  tricks.forEach((tr, i) => {
    if (tr.winner === null || (before[i] && before[i].winner !== null)) return;
    const winner = tr.winner;
    if ('number' in tr) {
      const play = tr.plays.find((x) => x.seat === winner);
      out.push({ kind: 'trick', number: tr.number, winner, card: play ? play.card : null, points: null });
    } else {
      out.push({ kind: 'trick', number: i + 1, winner, card: null, points: tr.points });
    }
  });
  if (view.phase === 'over' && view.result && !(prev && prev.phase === 'over')) out.push({ kind: 'result' });
  return out;
}

/**
 * A trick won, in words: Madiao's winning card, Da Bai Fen's points.
 * @param {StoryEvent & {kind: 'trick'}} e @param {readonly string[]} names @param {Lang} lang
 */
export function trickWonText(e, names, lang) {
  const who = names[e.winner];
  if (e.card) {
    return lang === 'zh' ? `第${e.number}墩：${who}以${madiaoNameZh(e.card)}得墩` : `Trick ${e.number}: ${who} wins with ${madiaoName(e.card)}`;
  }
  const pts = e.points ?? 0;
  return lang === 'zh' ? `第${e.number}墩：${who}得墩（${pts}分）` : `Trick ${e.number}: ${who} wins (${pts} point${pts === 1 ? '' : 's'})`;
}

/**
 * A hand's result in a line of the events: "Hand 2: …".
 * @param {'madiao' | 'dabaifen'} game @param {number} hand from 0
 * @param {MadiaoResult | DabaifenResult | import('./wire').DealResult} result
 * @param {readonly string[]} names @param {Lang} lang
 */
export function handResultLine(game, hand, result, names, lang) {
  const text =
    game === 'madiao'
      ? madiaoResultText(/** @type {MadiaoResult} */ (result), names, lang)
      : dabaifenResultText(/** @type {DabaifenResult} */ (result), names, lang);
  return lang === 'zh' ? `第${hand + 1}手结束：${text}` : `Hand ${hand + 1} is over: ${text}`;
}

/**
 * Da Bai Fen's trick counter: tricks are counted by plays, not cards (a multi-card trick is one
 * trick), so how many tricks a deal has is not known in advance. The current trick's number, and
 * how many cards each seat has still to play counting the current trick (every seat holds as many
 * as the leader held when it began).
 * @param {DabaifenView} view
 * @returns {{number: number, left: number} | null}
 */
export function dabaifenTrickCounter(view) {
  if (view.phase !== 'playing' || view.tricks.length === 0) return null;
  const i = view.tricks.length - 1;
  const tr = view.tricks[i];
  const led = tr.plays.find((x) => x.seat === tr.leader);
  // A complete trick stays current until the next is opened: it counts as played.
  const left = view.hand_sizes[tr.leader] + (led && tr.winner === null ? led.cards.length : 0);
  return { number: tr.winner === null ? i + 1 : i + 2, left };
}
