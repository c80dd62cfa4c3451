/**
 * Function words: the words of a question that say how it is asked, not what about ("how do I … in",
 * "什么", "怎么"). A query weighs them less when it has other words (see `planQuery`).
 */
const ENGLISH = new Set(
  (
    'a an the of to in on at by for with from into onto about as and or but if then than so not nor ' +
    'is are was were be been being am do does did doing done have has had having ' +
    'i me my we our us you your he him his she her it its they them their this that these those ' +
    'there here what which who whom whose when where why how can could should would will shall may ' +
    'might must let just also very some any all each every other such only own same too s t ' +
    'between vs versus way ways something thing things one'
  ).split(' '),
);

/** Han characters that carry grammar rather than topic (particles, pronouns, question words). */
const CHINESE = new Set([
  ...'的了吗呢吧啊是在和与及或我你他她它们这那个有也都就要会能可以把被让给对从到为什么怎样如何哪些该并而还又得地着过呀需想用后时',
]);

/**
 * Whether a CJK token holds a Chinese function character (`是旧` in `还是旧的`, `的区` in `的区别`):
 * a bigram across a word's edge more often than a word.
 *
 * @param token - a folded CJK token.
 * @returns whether one of its characters is a function character.
 */
export function hasFunctionCharacter(token: string): boolean {
  for (const ch of token) if (CHINESE.has(ch)) return true;
  return false;
}

/** Chinese words that say how a comparison is asked (`有什么不同`, `的区别`), as `vs` does in English. */
const CHINESE_WORDS = new Set(['区别', '不同', '差异']);

/**
 * Whether a query token is a function word: an English word of the list, or a CJK token every
 * character of which is a Chinese function character (`什么`, `可以`, `的`).
 *
 * @param token - a folded token.
 * @param cjk - whether it is a CJK bigram or character.
 * @returns whether it is a function word.
 */
export function isFunctionWord(token: string, cjk: boolean): boolean {
  if (!cjk) return ENGLISH.has(token);
  if (CHINESE_WORDS.has(token)) return true;
  for (const ch of token) if (!CHINESE.has(ch)) return false;
  return true;
}
