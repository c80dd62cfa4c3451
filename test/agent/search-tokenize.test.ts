import { describe, expect, it } from 'vitest';
import { isTermAt, locateTerm, makeExcerpt, tokenize } from '../../src/agent/search/index.js';

describe('tokenize', () => {
  it('splits English into lower-case words on every non-letter, non-number', () => {
    expect(tokenize("Renewal notices: sent 30 days before—the END (don't panic).")).toEqual([
      'renewal',
      'notices',
      'sent',
      '30',
      'days',
      'before',
      'the',
      'end',
      'don',
      't',
      'panic',
    ]);
  });

  it('cuts Chinese runs into overlapping bigrams, a one-character run into its character', () => {
    expect(tokenize('退货政策')).toEqual(['退货', '货政', '政策']);
    expect(tokenize('中')).toEqual(['中']);
    expect(tokenize('我，你。')).toEqual(['我', '你']);
  });

  it('treats Japanese kana and kanji as one run, with the long-vowel mark inside', () => {
    expect(tokenize('東京タワーへ')).toEqual(['東京', '京タ', 'タワ', 'ワー', 'ーへ']);
    expect(tokenize('ひらがな')).toEqual(['ひら', 'らが', 'がな']);
  });

  it('cuts Hangul into bigrams per space-separated run', () => {
    expect(tokenize('한국어 텍스트')).toEqual(['한국', '국어', '텍스', '스트']);
  });

  it('splits mixed scripts at the change', () => {
    expect(tokenize('API接口v2 文档')).toEqual(['api', '接口', 'v2', '文档']);
  });

  it('applies NFKC: full-width letters and digits, half-width katakana, ligatures', () => {
    expect(tokenize('ＡＰＩ　Ｖ２')).toEqual(['api', 'v2']);
    expect(tokenize('ｶﾀｶﾅ')).toEqual(['カタ', 'タカ', 'カナ']);
    expect(tokenize('ﬁle')).toEqual(['file']);
  });

  it('counts astral characters (CJK Extension B) as one character', () => {
    expect(tokenize('𠀀𠀁𠀂')).toEqual(['𠀀𠀁', '𠀁𠀂']);
    expect(tokenize('a 𠮷 b')).toEqual(['a', '𠮷', 'b']);
  });

  it('keeps letters with marks together and drops lone surrogates', () => {
    expect(tokenize('Café naïve')).toEqual(['café', 'naïve']);
    expect(tokenize('x\uD800y')).toEqual(['x', 'y']);
    expect(tokenize('')).toEqual([]);
  });
});

describe('locateTerm and makeExcerpt', () => {
  it('checks a recorded position: the token there, whole, despite NFKC and case', () => {
    expect(isTermAt('Hello ＷＯＲＬＤ again', 6, 'world')).toBe(true);
    expect(isTermAt('Use HashMap here', 4, 'hashmap')).toBe(true);
    expect(isTermAt('start art', 2, 'art')).toBe(false); // inside "start"
    expect(isTermAt('start art', 6, 'art')).toBe(true);
    expect(isTermAt('short', 3, 'shorter')).toBe(false);
    expect(isTermAt('再次退货政策', 4, '政策')).toBe(true);
  });

  it('finds a token in original text despite NFKC and case', () => {
    expect(locateTerm('Hello ＷＯＲＬＤ again', 'world')).toEqual([6, 11]);
    expect(locateTerm('再次退货政策', '政策')).toEqual([4, 6]);
    expect(locateTerm('start art', 'art')).toEqual([6, 9]);
    expect(locateTerm('nothing here', 'absent')).toBeUndefined();
  });

  it('cuts around the term with a mark at each cut end, within the limit', () => {
    const text = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const at = text.indexOf('word30');
    const excerpt = makeExcerpt(text, at, at + 6, 40);
    expect([...excerpt].length).toBeLessThanOrEqual(40);
    expect(excerpt.startsWith('…') && excerpt.endsWith('…')).toBe(true);
    expect(excerpt).toContain('word30');
    expect(text).toContain(excerpt.slice(1, -1));
    expect(makeExcerpt('short text', 0, 0, 40)).toBe('short text');
    expect(makeExcerpt(text, 0, 0, 20)).toMatch(/^word0 [^…]*…$/);
  });
});
