// Generated known-item queries: a reworded window of a page's own prose, the page being the answer.
// Deterministic: the same pages and seed give the same queries on every machine.
//
// For each query, in order: draw a page, then one of its prose paragraphs (not code, a heading, a
// table, HTML, a line that is one code span, tldr's `See also:` and `More information:`; a quote's
// or a list item's text counts), strip inline Markdown, then take a window:
//   English: 6–12 consecutive words; each word dropped with probability 0.15 (at least 4 stay);
//            with probability 0.5 two neighbouring words swapped.
//   Chinese: 12–24 consecutive characters, spaces and punctuation removed, at least 8 of them Han;
//            each character dropped with probability 0.1; with probability 0.5 the window is cut in
//            two and the halves swapped.
// A window whose original text occurs in another page of the folder is drawn again (it has no single
// answer). Up to 50 draws per wanted query.
import { prng } from '../corpus.mjs';

const HAN = /\p{Script=Han}/gu;
const DROP_ZH = /[\s\p{P}\p{S}]/gu;

/** Prose paragraphs of a Markdown body, inline syntax removed, outside fenced code. */
export function proseParagraphs(body) {
  const out = [];
  let fence = null;
  let paragraph = [];
  const flush = () => {
    if (paragraph.length > 0) out.push(paragraph.join(' '));
    paragraph = [];
  };
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    const fenceOpen = /^(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (fenceOpen && fenceOpen[1][0] === fence[0] && fenceOpen[1].length >= fence.length)
        fence = null;
      continue;
    }
    if (fenceOpen) {
      flush();
      fence = fenceOpen[1];
      continue;
    }
    const code = /^`[^`]*`$/.test(line); // a line that is one code span (a tldr command)
    const boilerplate = /^>\s*(More information|See also):/.test(line);
    if (
      line === '' ||
      code ||
      boilerplate ||
      /^([#|<!:{]|\[[^\]]*\]:|-{3,}|\*{3,})/.test(line) ||
      raw.startsWith('    ')
    ) {
      flush();
      continue;
    }
    // A quote's text and a list item's text are prose (tldr pages are little else); an item starts
    // a paragraph of its own.
    const item = /^([-*+]|\d+\.)\s+/.exec(line);
    if (item) flush();
    paragraph.push(line.slice(item ? item[0].length : 0).replace(/^(>\s?)+/, ''));
  }
  flush();
  return out.map((p) =>
    p
      .replace(/<!--.*?-->/g, ' ')
      .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, ' ')
      .replace(/[`*_[\]]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

const normalizeEn = (text) =>
  ` ${text
    .toLowerCase()
    .split(/[^\p{L}\p{N}']+/u)
    .filter(Boolean)
    .join(' ')} `;
const normalizeZh = (text) => text.replace(DROP_ZH, '');

/**
 * `count` known-item queries over `pages` (`{ id, body }`) of one folder in `lang`, from `seed`.
 * Returns `{ query, relevant: [id], source }`, `source` being the window before rewording.
 */
export function knownItemQueries(pages, lang, count, seed) {
  const random = prng(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const normalize = lang === 'zh' ? normalizeZh : normalizeEn;
  const paragraphs = pages.map((p) => proseParagraphs(p.body));
  const haystacks = pages.map((p) => normalize(p.body));
  const queries = [];
  const seen = new Set();
  for (let draw = 0; queries.length < count && draw < count * 50; draw++) {
    const at = Math.floor(random() * pages.length);
    if (paragraphs[at].length === 0) continue;
    const paragraph = pick(paragraphs[at]);
    let query;
    let source;
    if (lang === 'en') {
      const words = paragraph.split(' ').filter((w) => /\p{L}/u.test(w));
      const length = 6 + Math.floor(random() * 7);
      if (words.length < length) continue;
      const start = Math.floor(random() * (words.length - length + 1));
      const window = words.slice(start, start + length);
      source = window.join(' ');
      const span = window.filter(() => random() >= 0.15);
      if (span.length < 4) continue;
      if (random() < 0.5) {
        const i = Math.floor(random() * (span.length - 1));
        [span[i], span[i + 1]] = [span[i + 1], span[i]];
      }
      query = span.join(' ');
    } else {
      const chars = [...paragraph.replace(DROP_ZH, '')];
      const length = 12 + Math.floor(random() * 13);
      if (chars.length < length) continue;
      const start = Math.floor(random() * (chars.length - length + 1));
      const window = chars.slice(start, start + length);
      if ((window.join('').match(HAN) ?? []).length < 8) continue;
      source = window.join('');
      let span = window.filter(() => random() >= 0.1);
      if (random() < 0.5) {
        const cut = 1 + Math.floor(random() * (span.length - 1));
        span = [...span.slice(cut), ...span.slice(0, cut)];
      }
      query = span.join('');
    }
    const needle = normalize(source);
    if (needle.trim().length === 0 || seen.has(needle)) continue;
    if (haystacks.some((h, i) => i !== at && h.includes(needle))) continue;
    seen.add(needle);
    queries.push({ query, relevant: [pages[at].id], source });
  }
  return queries;
}
