// The end of a hand in words, in both languages: Madiao's itemized settlement, Da Bai Fen's
// account of a deal, the results and the running match score. Pure: unit-tested with
// `node --test`. The engines itemize (madiao::Settlement, dabaifen::Account); this words it.

import { dabaifenLabel, madiaoName, SUIT_NAMES, rankText } from './cards.js';

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

/**
 * One settlement line in words: who, what for, and what each seat gains or pays.
 * @param {SettlementLine} line @param {readonly string[]} names @param {Lang} lang
 */
export function settlementLineText(line, names, lang) {
  if (lang === 'en') return withMadiaoNames(withNames(line.text, names));
  const label = ITEM_LABELS[line.item]?.zh ?? line.item;
  const who = names[line.seat] ?? `${line.seat}`;
  if (!line.counted) return `${who}：${label}（不计）`;
  // What every other seat pays or gets is listed beside the line (its `transfers`).
  return `${who}：${label}，${signed(line.transfers[line.seat])}`;
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
  if (lang === 'zh') return `${how}。下一庄：${next}${r.game_over ? '。本场结束。' : '。'}`;
  return `${how}. Next banker: ${next}${r.game_over ? '. The match is over.' : '.'}`;
}

/** @param {Trump | {suit: string, rank: string} | null} trump @param {Lang} lang */
export function trumpText(trump, lang) {
  if (!trump) return lang === 'zh' ? '无主' : 'no trumps';
  const suit = SUIT_NAMES[/** @type {'S' | 'H' | 'D' | 'C'} */ (trump.suit)]?.[lang] ?? trump.suit;
  return lang === 'zh' ? `${suit}为主，打 ${rankText(trump.rank)}` : `${suit}, rank ${rankText(trump.rank)}`;
}

/** @param {readonly string[]} cards @param {Lang} lang */
function cardsText(cards, lang) {
  return cards.map((c) => dabaifenLabel(c, lang)).join(' ');
}

/** @param {number} team @param {readonly string[]} names @param {Lang} lang */
export function teamText(team, names, lang) {
  const who = `${names[team]} & ${names[team + 2]}`;
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
        ? `${names[e.seat]} 在摸到第 ${e.drawn} 张时亮出 ${cardsText([e.card], lang)}：${t}`
        : `${names[e.seat]} showed ${cardsText([e.card], lang)} after ${e.drawn} cards were drawn: trumps are ${t}`;
      if (!e.became_starter) return s;
      return zh ? `${s}；${names[e.seat]} 作亲` : `${s}; ${names[e.seat]} becomes the starter`;
    }
    case 'kitty_turned':
      return zh
        ? `无人亮主：${names[e.starter]} 翻底牌 ${cardsText(e.turned, lang)}，${e.by_rank ? '翻到主级牌' : '以最大的牌定花色'} ${cardsText([e.card], lang)}：${trumpText(e.trump, lang)}`
        : `Nobody declared: ${names[e.starter]} turned the kitty ${cardsText(e.turned, lang)}; ${e.by_rank ? 'a trump-rank card came' : 'the highest card decides'}: ${cardsText([e.card], lang)}, trumps are ${trumpText(e.trump, lang)}`;
    case 'no_showing':
      return zh ? '明局无人亮牌：本局作废重打' : 'Open deal: nobody showed his team’s rank, so the deal is annulled again';
    case 'kept_deal':
      return zh ? `${names[e.seat]} 无主但选择打下去` : `${names[e.seat]} had no trump but played on`;
    case 'annulled':
      return zh
        ? `${names[e.seat]} 亮出无主之牌（${cardsText(e.hand, lang)}），本局作废`
        : `${names[e.seat]} showed a hand with no trump (${cardsText(e.hand, lang)}) and annulled the deal`;
    case 'buried':
      return zh
        ? `${names[e.seat]} 收底并埋下 ${cardsText(e.cards, lang)}（${e.points} 分）`
        : `${names[e.seat]} took the kitty and buried ${cardsText(e.cards, lang)} (${e.points} points)`;
    case 'trick': {
      const plays = e.plays.map(([s, cs]) => `${names[s]} ${cardsText(cs, lang)}`).join(zh ? '，' : ', ');
      const side = e.to_defenders ? (zh ? '守方' : 'the defenders') : zh ? '庄方' : 'the declarers';
      return zh
        ? `第 ${e.number} 墩：${plays} → ${names[e.winner]} 得 ${e.points} 分，归${side}`
        : `Trick ${e.number}: ${plays} → ${names[e.winner]} wins ${e.points} points for ${side}`;
    }
    case 'revoke': {
      const why = e.not_top
        .map(([c, holder, stronger]) =>
          zh
            ? `${cardsText([c], lang)} 不是最大（${names[holder]} 有 ${cardsText([stronger], lang)}）`
            : `${cardsText([c], lang)} is not a top card (${names[holder]} holds ${cardsText([stronger], lang)})`,
        )
        .join(zh ? '；' : '; ');
      return zh
        ? `${names[e.seat]} 甩出 ${cardsText(e.cards, lang)}：犯规。${why}。本局即告终，对方算赢全部墩`
        : `${names[e.seat]} led ${cardsText(e.cards, lang)}: a revoke. ${why}. The deal ends and the other team is taken to have won every trick`;
    }
    case 'kitty':
      if (e.to_defenders) {
        return zh
          ? `${teamText(e.team, names, lang)}（守方）赢末墩，得底：${e.kitty_points} 分 × ${e.multiplier} = +${e.bonus}`
          : `The kitty goes to ${teamText(e.team, names, lang)} (defenders), who won the last trick: ${e.kitty_points} points × ${e.multiplier} = +${e.bonus}`;
      }
      return zh
        ? `${teamText(e.team, names, lang)}（庄方）赢末墩，底牌 ${e.kitty_points} 分不计给守方`
        : `The kitty (${e.kitty_points} points) goes to ${teamText(e.team, names, lang)} (declarers), who won the last trick: no bonus for the defenders`;
    case 'total': {
      const sum = e.revoke
        ? zh
          ? `守方得分 T = ${e.total}`
          : `Defenders' points T = ${e.total}`
        : zh
          ? `守方得分 T = 墩中 ${e.in_tricks} + 底分 ${e.bonus} = ${e.total}`
          : `Defenders' points T = ${e.in_tricks} in tricks + ${e.bonus} kitty bonus = ${e.total}`;
      let row;
      if (e.declarers_win) row = zh ? `庄方胜，升 ${e.levels} 级` : `the declarers win, +${e.levels} rank${e.levels === 1 ? '' : 's'}`;
      else if (e.levels === 0) row = zh ? '守方胜但不升级' : 'the defenders win the deal but gain no rank';
      else row = zh ? `守方胜，升 ${e.levels} 级` : `the defenders win, +${e.levels} rank${e.levels === 1 ? '' : 's'}`;
      return `${sum}${zh ? '：' : ': '}${row}`;
    }
    case 'rank_up':
      return zh
        ? `${teamText(e.team, names, lang)} 由 ${rankText(e.from)} 升到 ${rankText(e.to)}`
        : `${teamText(e.team, names, lang)} goes from ${rankText(e.from)} to ${rankText(e.to)}`;
    case 'next_starter':
      return zh ? `下一局由 ${names[e.seat]} 作亲（${e.why}）` : `Next starter: ${names[e.seat]} (${e.why})`;
    case 'game_over':
      return zh ? `${teamText(e.team, names, lang)} 胜出全局！` : `${teamText(e.team, names, lang)} wins the game!`;
    default:
      return '';
  }
}

/**
 * A Da Bai Fen result in a sentence.
 * @param {DabaifenResult} r @param {readonly string[]} names @param {Lang} lang
 */
export function dabaifenResultText(r, names, lang) {
  const zh = lang === 'zh';
  if (r.outcome === 'annulled') {
    return zh ? `本局作废。下一局由 ${names[r.next_starter]} 作亲。` : `The deal was annulled. ${names[r.next_starter]} starts the next deal.`;
  }
  const winner = r.winner === null ? '' : teamText(r.winner, names, lang);
  const pts = r.defender_points ?? 0;
  const s = zh
    ? `守方得 ${pts} 分：${winner} 胜${r.levels ? `，升 ${r.levels} 級` : ''}。`
    : `The defenders took ${pts} points: ${winner} wins${r.levels ? `, +${r.levels} rank${r.levels === 1 ? '' : 's'}` : ''}.`;
  const ranks = zh ? `级：${rankText(r.ranks[0])} 对 ${rankText(r.ranks[1])}。` : ` Ranks: ${rankText(r.ranks[0])} and ${rankText(r.ranks[1])}.`;
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
      return zh ? `第 ${e.hand + 1} 手开始` : `Hand ${e.hand + 1} is dealt`;
    case 'draw':
      return zh ? `摸牌 ${e.drawn}` : `Card ${e.drawn} drawn`;
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
      if ('redeal_forced_by' in o) return zh ? `${names[by]} 以长门要求重发` : `${names[by]} forced a redeal with a long suit`;
      return zh ? `${names[by]} 无主，作废本局` : `${names[by]} annulled the deal (no trump)`;
    }
    case 'action': {
      const who = names[e.seat];
      const a = /** @type {Record<string, unknown>} */ (e.action);
      const bot = e.by_bot ? (zh ? '（机器）' : ' (bot)') : '';
      if ('slough' in a) {
        const c = typeof a.slough === 'string' ? ` ${madiaoName(a.slough)}` : '';
        return zh ? `${who}${bot} 扣牌${c}` : `${who}${bot} sloughs${c} face down`;
      }
      if ('bury' in a) {
        const cs = Array.isArray(a.bury) ? ` ${cardsText(/** @type {string[]} */ (a.bury), lang)}` : '';
        return zh ? `${who}${bot} 埋底${cs}` : `${who}${bot} buries six cards${cs}`;
      }
      if ('declare' in a) return zh ? `${who}${bot} 亮主 ${cardsText([String(a.declare)], lang)}` : `${who}${bot} declares ${cardsText([String(a.declare)], lang)}`;
      if ('redeal' in a) return zh ? `${who} 要求重发` : `${who} forces a redeal`;
      if ('annul' in a) return zh ? `${who} 作废本局` : `${who} annuls the deal`;
      if ('play' in a) {
        if (game === 'madiao') return zh ? `${who}${bot} 出 ${madiaoName(String(a.play))}` : `${who}${bot} plays ${madiaoName(String(a.play))}`;
        return zh ? `${who}${bot} 出 ${cardsText(/** @type {string[]} */ (a.play), lang)}` : `${who}${bot} plays ${cardsText(/** @type {string[]} */ (a.play), lang)}`;
      }
      return who;
    }
    default:
      return '';
  }
}
