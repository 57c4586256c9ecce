// The rules page: each game's rules in plain words for players, in English and 简体中文,
// written from the project's rules files (docs/rules/*.md), with the variants — those in
// force at a table highlighted.

import { html, useEffect } from '../vendor/preact-htm.js';
import { lang, t } from './i18n.js';
import { VARIANTS } from './variants.js';
import { Card, TutorialLinks } from './ui.js';

/** @typedef {{h: string, id?: string, p?: string[], li?: string[]}} Section */

/** @type {Record<'madiao' | 'dabaifen', Record<'en' | 'zh', Section[]>>} */
export const RULES = {
  madiao: {
    en: [
      {
        h: 'The game',
        p: [
          'Madiao is a Ming-dynasty game for four: one banker plays against three players. The players do not form a team — each of them settles with the banker on his own. There are no trumps and you never have to follow suit.',
        ],
      },
      {
        h: 'The cards',
        p: ['Forty cards in four money suits. In each suit the first card is the highest.'],
        li: [
          'Tens (十, tens of myriads): 萬萬 Myriad Myriad, 千萬 Thousand Myriad, 百萬 Hundred Myriad, then 9 tens (九十萬) down to 2 tens (二十萬) — 11 cards.',
          'Myriads (萬): 9 down to 1 myriad — 9 cards.',
          'Strings (索): 9 down to 1 string — 9 cards.',
          'Cash (文): 空沒文 Zero cash, 半文 Half cash, then 1 up to 9 cash — 11 cards. In cash the order is reversed: 9 cash is the lowest.',
          'The top card of each suit (萬萬, 九萬, 九索, 空沒文) is its “honour”; ten cards are red (marked 紅 on the cards).',
        ],
      },
      {
        h: 'The deck and its heroes',
        id: 'figures',
        p: [
          'The Madiao deck grew out of paper money: the Strings and the Cash copy the pips of notes, and the half cash is drawn as a spray of flowers. The Tens, the Myriads and the zero cash carried figures instead: heroes of the Water Margin (水滸傳), the novel of the outlaws of Liangshan. A figure changes nothing in play; the cards on this page carry the hero’s name along their foot (point at it for its reading).',
          'The oldest list is Lu Rong’s Shuyuan zaji (陸容《菽園雜記》, 15th century): 萬萬 is Song Jiang 宋江, 千萬 Wu Song 武松, 百萬 Ruan Xiaowu 阮小五, 九十萬 Ruan Xiaoqi 阮小七, and so on down to 一萬, Yan Qing 燕青. Lu Rong names only these; the others come from later compilations, here a modern one (cread.tw, book 81749): 八十萬 Zhu Tong 朱仝, 七十萬 Sun Li 孫立, 六十萬 Huyan Zhuo 呼延灼, 五十萬 Lu Zhishen 魯智深, 四十萬 Li Kui 李逵, 三十萬 Yang Zhi 楊志, 二十萬 Hu Sanniang 扈三娘; 九萬 Lei Heng 雷橫, 八萬 Suo Chao 索超, 七萬 Qin Ming 秦明, 六萬 Shi Jin 史進, 五萬 Li Jun 李俊, 四萬 Chai Jin 柴進, 三萬 Guan Sheng 關勝, 二萬 Hua Rong 花榮.',
          'The zero cash is the odd one out. Li Dongqi’s Zhipai shuo (李東琪《紙牌說》) says that among the cash “the zero cash alone also has a human form” (獨空沒文，亦具人狀), without naming it; some decks left the card blank, and a modern account names the figure Wang Ying 王英. A new table chooses which of these decks it plays with (an unnamed figure unless it says otherwise), and everyone at the table sees the same cards.',
          'Not every deck had figures at all: Zhou Lianggong (周亮工) tells of regional decks drawn without them.',
        ],
      },
      {
        h: 'The deal',
        p: [
          'Each player gets 8 cards; the last 8 form the stock, turned over so that its bottom card — the upcard — shows during play. The cut decides who is dealt first, and that player leads the first trick.',
        ],
      },
      {
        h: 'Before the first lead',
        id: 'declarations',
        li: [
          'A meld wins at once: four honours, all 8 cards of one suit, eight of the red cards, and the like. Each other player pays the holder 4 to 8 stakes — except the holder of the Hundred Myriad (百萬), who pays nothing. The holder banks next.',
          'The four lowest (二十萬, 一萬, 一索, 九文) in one hand win 1 stake from everyone; the cards are dealt again and the banker is drawn again.',
          'A player with five or more cards of one suit may force a redeal. At this table a short window opens at the start of every hand; if you hold such a suit, a button lets you ask for it.',
        ],
      },
      {
        h: 'Playing a trick',
        id: 'play',
        li: [
          'The leader plays any card face up.',
          'Each of the others either captures (捉) — plays face up a card of the led suit higher than the best so far — or sloughs (滅): plays any card face down. You may slough even when you could capture.',
          'The highest card of the led suit wins; other suits never win. The winner leads next. Eight tricks in all.',
          'A face-up card that does not capture is a face-up discard: under the standard rules it costs its player 2 stakes; on tables that forbid it, such a card can only go face down.',
          'At the eighth trick, a player who has not won a trick yet cannot win it.',
        ],
      },
      {
        h: 'Settling the hand',
        id: 'settlement',
        li: [
          'Everyone wants at least 2 tricks: fewer costs 1 stake, exactly 2 is even, 3 or more earns 1, all 8 earn 8.',
          'Each trick won with a reward card (the top card of a suit) earns 1 more, if you made 2 tricks.',
          'The promoted reward card: when the upcard is itself a suit’s top card (say 九萬), nobody holds that top card, so the second card of that suit (八萬) is promoted to reward card in its place; a trick it wins earns the same 1 more, and the scoring says it was promoted.',
          'The Hundred Myriad (百萬) brings its holder bonuses, the biggest (+3) when it wins a trick; a player with that +3 also “knocks” (敲門), taking 1 stake from each other player.',
          'Winning tricks with 萬萬, 千萬 and 百萬 earns 3 more (4 with 空沒文 too).',
          'Stock check: the card under the upcard is shown; if it is a suit’s top card, whoever played that suit’s second card face up pays 1 stake to everyone.',
          'The banker settles with each player separately: the players’ totals are paid by (or to) the banker, and the banker’s own total by (or to) each player. The page lists every line in words at the end of the hand.',
        ],
      },
      {
        h: 'The match',
        p: [
          'The bank passes to the right after each hand (a banker who earns the Hundred Myriad’s +3 keeps it; a meld winner takes it). The match ends once everyone has banked. Amounts are in stakes; the table’s stake gives the chips.',
        ],
      },
    ],
    zh: [
      { h: '玩法', p: ['马吊是明代的四人纸牌游戏：一家坐庄，对其余三家。三家闲家不结盟，各自与庄家结算。没有王牌，也从不须跟同门。'] },
      {
        h: '牌',
        p: ['四十张牌，分四门钱币花色。每门以第一张最大。'],
        li: [
          '十门：万万、千万、百万，再九十万至二十万，共十一张。',
          '万门：九万至一万，共九张。',
          '索门：九索至一索，共九张。',
          '文门：空没文、半文，再一文至九文，共十一张。文门次序倒转：九文最小。',
          '每门最大的牌（万万、九万、九索、空没文）为“尊”；有十张红牌（牌上标“红”）。',
        ],
      },
      {
        h: '牌与人物',
        id: 'figures',
        p: [
          '马吊牌源自纸币：索、文两门照抄钱钞上的图样，半文画一枝花。十门、万门和空没文则画人物——《水浒传》里梁山的英雄。人物不影响打法；本页的牌在底部写着人物的名字。',
          '最早的记载是陆容《菽园杂记》（十五世纪）：万万为宋江，千万为武松，百万为阮小五，九十万为阮小七，依次而下，一万为燕青。陆容只举了这几张；其余见于后世的汇编，此处依据一部现代汇编（cread.tw第81749号书）：八十万朱仝、七十万孙立、六十万呼延灼、五十万鲁智深、四十万李逵、三十万杨志、二十万扈三娘；九万雷横、八万索超、七万秦明、六万史进、五万李俊、四万柴进、三万关胜、二万花荣。',
          '空没文与众不同。李东琪《纸牌说》说文门中“独空没文，亦具人状”，却没有说画的是谁；有些牌的空没文是空白的，一种现代的说法则称其人为王英。开新桌时可以选用哪一种牌（不选则为无名人像），同桌的人看到的牌都一样。',
          '也并非所有的牌都画人物：周亮工记有不画人物的地方牌。',
        ],
      },
      { h: '发牌', p: ['每人八张，余下八张为余牌，翻转使最底一张（翻牌）在打牌时可见。切牌决定谁先得牌，该人打第一墩的首张。'] },
      {
        h: '出牌之前',
        id: 'declarations',
        li: [
          '色样即胜：四尊、同门八张、八张红牌等。其余各家赔付四至八注——持百万者免赔。得主下一手坐庄。',
          '四极（二十万、一万、一索、九文）同在一手：向每家收一注，重新发牌并重新抽庄。',
          '一门有五张以上者可要求重发。本桌每手开始时有一个短窗口；你若有长门，会出现一个按钮让你要求重发。',
        ],
      },
      {
        h: '打一墩',
        id: 'play',
        li: [
          '首家明出任何一张。',
          '其余各家或“捉”——明出同门更大的牌，或“灭”——把任何一张牌面朝下出掉。能捉时也可以灭。',
          '同门最大者得墩，其他门永不得墩。得墩者下一墩先出。共八墩。',
          '明出而不能捉叫明弃：照标准规则罚两注；禁止明弃的桌上，这样的牌只能灭。',
          '第八墩时，前七墩一墩未得的人不能得这一墩。',
        ],
      },
      {
        h: '结算',
        id: 'settlement',
        li: [
          '人人要求至少两墩：不足两墩赔一注，正好两墩不输不赢，三墩以上得一注，八墩全得得八注。',
          '够两墩者，每以赏牌（各门最大者）得一墩再得一注。',
          '赏牌递补：若翻牌本身是某门之尊（如九万），该门的尊不在任何人手中，改由该门第二大的牌（如八万）递补为赏牌；以它得墩同样得一注，结算中会注明“递补”。',
          '百万给持有者各种赏注，以百万捉得一墩最大（三注）；得此三注的闲家还“敲门”，向其余两家各收一注。',
          '以万万、千万、百万皆得墩者再得三注（连空没文则四注）。',
          '查底：揭开翻牌下的一张；若是某门之尊，明出该门第二大牌者赔每家一注。',
          '庄家与每个闲家分别结算。一手结束时，页面逐条以文字列出每一笔。',
        ],
      },
      { h: '一场', p: ['每手后庄家之位传给右手（得百万三注的庄家续庄；色样得主接庄）。人人坐过庄后一场结束。金额以注计，乘以本桌每注筹码即为筹码数。'] },
    ],
  },
  dabaifen: {
    en: [
      {
        h: 'The game',
        p: [
          'Da Bai Fen — “fight for a hundred points” — is played by two partnerships: you and the player opposite you. Each deal one team declares (the starter’s team) and the other defends; the defenders try to take 40 of the 100 card points. Winning deals moves your team’s rank up from 2 towards A.',
        ],
      },
      {
        h: 'Cards and points',
        li: [
          '54 cards: a French pack with the big and the small joker.',
          'Points: every K and every 10 is worth 10, every 5 is worth 5 — 100 in all.',
        ],
      },
      {
        h: 'Trumps',
        li: [
          'Each deal has a trump rank (the declarers’ team rank) and a trump suit. The trumps are both jokers, the four cards of the trump rank and the rest of the trump suit — 18 cards that form one suit.',
          'From the top: big joker, small joker, the trump-rank card of the trump suit, the other three trump-rank cards (equal: the first played wins), then the trump suit from A down.',
        ],
      },
      {
        h: 'Drawing and declaring',
        id: 'drawing',
        li: [
          'Players draw one card at a time until each has 12; six cards stay aside as the kitty.',
          'While drawing, anyone holding a card of the trump rank may show it: its suit becomes trumps. The first showing is final. At this table, the prompt shows the cards you may show as you draw them; press one to show it.',
          'If nobody shows, the kitty is turned card by card: the first card of the trump rank fixes the suit, or else the highest card does.',
          'In the first deal, whoever shows becomes the starter.',
        ],
      },
      {
        h: 'No trump? Annul',
        p: [
          'Once trumps are fixed, a player whose 12 cards hold no trump may show them and annul the deal. The next deal is open: a player who draws a card of his own team’s rank may show it, fixing both trump suit and rank, and becomes the starter.',
        ],
      },
      {
        h: 'The kitty',
        id: 'kitty',
        p: ['The starter picks up the six kitty cards and buries any six face down. They count at the end.'],
      },
      {
        h: 'Leading and following',
        id: 'play',
        li: [
          'The starter leads first; the winner of each trick leads the next.',
          'You may lead one card, or several cards of one suit (trumps count as one suit) if each of them is a top card — no other player holds a stronger card of that suit. Select several cards, then press Lead.',
          'Leading a card that is not a top card in a multi-card lead is a revoke: the deal ends at once and your team is taken to have lost every trick.',
          'To follow one card: play a card of the led suit if you can, else any card.',
          'To follow n cards: play n cards, with as many of the led suit as you hold. The page selects the cards you must play for you.',
        ],
      },
      {
        h: 'Who wins a trick',
        li: [
          'One card led: the highest trump if any was played, else the highest card of the led suit.',
          'Several cards led: the leader wins, unless someone followed with trumps only; then the strongest such trumps win.',
        ],
      },
      {
        h: 'Scoring a deal',
        id: 'scoring',
        li: [
          'The team that wins the last trick takes the kitty; if the defenders win it, the kitty’s points count double for them.',
          'Defenders’ points: 0 → declarers up 2 ranks; 5–35 → declarers up 1; 40–75 → defenders win the deal, no rank; 80–95 → defenders up 1; 100 or more → defenders up 2.',
          'If the declarers win, the starter’s partner starts next; otherwise the player to the starter’s right does.',
          'The first team to reach A wins the game.',
        ],
      },
    ],
    zh: [
      { h: '玩法', p: ['打百分，即“争一百分”，两人一队，对面为同伴。每局一方为庄方（庄家所在的一方），另一方为守方；守方要在一百分中拿到四十分。赢局可使本队的级数由二向A上升。'] },
      { h: '牌与分数', li: ['五十四张：一副扑克加大小王。', '分数：每张K与10各十分，每张5五分，共一百分。'] },
      {
        h: '主牌',
        li: [
          '每局有主级（庄方的级数）和主花色。主牌为大小王、四张主级牌及主花色的其余牌，共十八张，当作一门。',
          '由大到小：大王、小王、主花色的主级牌、其他三张主级牌（相等：先出者大）、再主花色由A往下。',
        ],
      },
      {
        h: '摸牌与亮主',
        id: 'drawing',
        li: [
          '轮流一次摸一张，摸到每人十二张；六张留作底牌。',
          '摸牌时，有主级牌者可以亮出：其花色即为主。先亮者为准。本桌的提示会列出你摸到的可亮之牌，点一下即亮。',
          '无人亮主时逐张翻底牌：第一张主级牌定花色，否则以最大的牌定。',
          '第一局谁亮主谁坐庄。',
        ],
      },
      { h: '无主作废', p: ['定主后，十二张牌中没有主牌的人可以亮牌作废本局。下一局为明局：摸到本队级数之牌者可亮出，同时定主花色与主级，并坐庄。'] },
      { h: '底牌',
        id: 'kitty', p: ['庄家收起六张底牌，再任意埋下六张（牌面朝下），最后计分。'] },
      {
        h: '出牌与跟牌',
        id: 'play',
        li: [
          '庄家先出；每墩赢家出下一墩。',
          '可以出一张，或同一门（主牌算一门）的多张，但每张都必须是最大的牌——别人手中没有同门更大的牌。选好多张再按“出牌”。',
          '甩牌中有不是最大的牌即犯规：本局即告终，算你方输掉全部墩。',
          '跟一张：有同门必须跟，否则随意。',
          '跟多张：出同样张数，同门的牌有多少跟多少。页面会自动选好必须出的牌。',
        ],
      },
      { h: '谁得墩', li: ['出一张：有人出主则最大的主牌得，否则同门最大者得。', '出多张：首家得，除非有人全以主牌跟；此时主牌最大者得。'] },
      {
        h: '计分',
        id: 'scoring',
        li: [
          '赢得末墩的一方收底；守方收底时，底分加倍计给守方。',
          '守方得分：0分庄方升两级；5–35分庄方升一级；40–75分守方赢但不升级；80–95分守方升一级；100分以上守方升两级。',
          '庄方赢则庄家的同伴下一局坐庄，否则庄家的右手坐庄。',
          '先升到A的一方胜出全局。',
        ],
      },
    ],
  },
};

/**
 * One game's rules, with its variants; `variants` are a table's, highlighted.
 * @param {{game: 'madiao' | 'dabaifen', variants?: Record<string, string> | null}} p
 */
export function GameRules(p) {
  const l = lang();
  const sections = RULES[p.game][l];
  return html`<article class="rules" data-game=${p.game}>
    <h2>${t(`game.${p.game}`)}</h2>
    ${p.game === 'madiao'
      ? html`<p class="sample">${['TW', 'TB', 'M9', 'S9', 'W0', 'WH', 'W9'].map((c) => html`<${Card} key=${c} game="madiao" code=${c} size="small" />`)}</p>`
      : html`<p class="sample">${['BJ', 'SJ', 'AS', 'KH', 'TD', '5C'].map((c) => html`<${Card} key=${c} game="dabaifen" code=${c} size="small" />`)}</p>`}
    ${sections.map(
      (s) => html`<section key=${s.h} data-section=${s.id ?? null} id=${s.id ? `rules-${s.id}` : null}>
        <h3>${s.h}</h3>
        ${(s.p ?? []).map((x) => html`<p>${x}</p>`)}
        ${s.li ? html`<ul>${s.li.map((x) => html`<li>${x}</li>`)}</ul>` : null}
      </section>`,
    )}
    <section class="variants">
      <h3>${t('rules.variants')}</h3>
      ${p.variants ? html`<p class="hint">${t('rules.variants_table')}</p>` : html`<p class="hint">${t('rules.variants_about')}</p>`}
      <dl>
        ${VARIANTS[p.game].map((v) => {
          const active = p.variants ? p.variants[v.name] : null;
          return html`<div key=${v.name} class="variant" data-variant=${v.name}>
            <dt>${v.label[l]}${l === 'en' ? html` <code>${v.name}</code>` : null}</dt>
            <dd>${v.about[l]}
              <ul>${v.values.map(
                (x) => html`<li key=${x.value} class=${active === x.value ? 'active' : ''} data-active=${active === x.value ? '1' : null}>
                  ${l === 'en' ? html`<code>${x.value}</code> — ` : null}${x.text[l]}${active === x.value ? html` <span class="badge role">${t('rules.in_force')}</span>` : null}</li>`,
              )}
              ${active && !v.values.some((x) => x.value === active) ? html`<li class="active" data-active="1"><code>${active}</code> <span class="badge role">${t('rules.in_force')}</span></li>` : null}
              </ul>
            </dd>
          </div>`;
        })}
      </dl>
    </section>
  </article>`;
}

/** The rules page; an address ending `#rules-{section}` opens at that section (the tutorials link them). @param {{game?: 'madiao' | 'dabaifen'}} p */
export function RulesPage(p) {
  const game = p.game ?? 'madiao';
  useEffect(() => {
    const id = typeof location !== 'undefined' ? location.hash.slice(1) : '';
    const el = id ? document.getElementById(id) : null;
    if (el) el.scrollIntoView();
  }, [game]);
  return html`<div class="page rules-page">
    <nav class="rules-nav">
      <a href="/rules?game=madiao" class=${game === 'madiao' ? 'on' : ''} data-link="1">${t('game.madiao')}</a>
      <a href="/rules?game=dabaifen" class=${game === 'dabaifen' ? 'on' : ''} data-link="1">${t('game.dabaifen')}</a>
    </nav>
    <${TutorialLinks} />
    <${GameRules} game=${game} />
    <${PlayingHere} />
  </div>`;
}

/** How to play on this page, keyboard included. */
export function PlayingHere() {
  return html`<section class="playing-here">
    <h3>${t('rules.here')}</h3>
    <ul>
      <li>${t('rules.here_cards')}</li>
      <li>${t('rules.here_prompts')}</li>
      <li>${t('rules.here_keys')}</li>
    </ul>
  </section>`;
}

/** The rules of a table's game, with its variants, over the table. @param {{game: 'madiao' | 'dabaifen', variants: Record<string, string>, onClose: () => void}} p */
export function RulesDialog(p) {
  return html`<div class="dialog-back" onClick=${(/** @type {Event} */ e) => { if (e.target === e.currentTarget) p.onClose(); }}>
    <div class="dialog" role="dialog" aria-label=${t('nav.rules')}>
      <button class="close" onClick=${p.onClose} aria-label=${t('common.close')}>×</button>
      <${GameRules} game=${p.game} variants=${p.variants} />
    </div>
  </div>`;
}
