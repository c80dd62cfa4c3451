// Real documents for the search bench, read in place from the shared corpus: English (the Rust book,
// tldr pages) and Chinese (Vue docs, ES6 tutorial, tldr pages in Chinese), anchored into sections at
// their ATX headings, plus the known-item queries built from their own sentences.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const CORPUS_ROOT = process.env.SEARCH_CORPUS ?? '/work/shared/corpus/markdown';

// The quality set keeps one edition of the Rust book: its old editions repeat the same chapters, which
// would make a known item ambiguous. The speed set takes every folder.
const SETS = {
  quality: {
    en: ['rust-lang+book/src', 'tldr-pages+tldr/pages'],
    zh: ['vuejs-translations+docs-zh-cn', 'ruanyf+es6tutorial', 'tldr-pages+tldr/pages.zh'],
  },
  speed: {
    en: ['rust-lang+book', 'tldr-pages+tldr/pages'],
    zh: ['vuejs-translations+docs-zh-cn', 'ruanyf+es6tutorial', 'tldr-pages+tldr/pages.zh'],
  },
};

function markdownFiles(dir) {
  const out = [];
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop();
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.name.endsWith('.md')) out.push(p);
    }
  }
  return out.sort();
}

/**
 * Anchor a Markdown text: every ATX heading outside fences opens a flat section `s<n>` that runs to
 * the next heading. Also returns the prose lines of each section (for queries) and the title.
 */
export function anchor(text) {
  const lines = text.replace(/<!--\s*\/?agent-section[^>]*-->/g, '').split('\n');
  const out = [];
  const prose = [];
  let open = null;
  let fence = null;
  let title = null;
  let n = 0;
  for (const line of lines) {
    const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (fenceMatch && fenceMatch[1][0] === fence[0] && fenceMatch[1].length >= fence.length)
        fence = null;
      out.push(line);
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1];
      out.push(line);
      continue;
    }
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      if (open !== null) out.push(`<!-- /agent-section:${open} -->`);
      open = `s${++n}`;
      title ??= heading[1].trim();
      out.push(`<!-- agent-section:${open} -->`);
      out.push(line);
      continue;
    }
    if (open !== null && !/^\s*([|<>!\[-]|\d+\.|\s{4})/.test(line) && line.trim().length > 0)
      prose.push(line.trim());
    out.push(line);
  }
  if (fence !== null) out.push(fence);
  if (open !== null) out.push(`<!-- /agent-section:${open} -->`);
  return { text: out.join('\n'), prose, title };
}

/** The English and Chinese documents of `which` set, or `undefined` when the corpus is absent. */
export function loadCorpus(which) {
  if (!existsSync(CORPUS_ROOT)) return undefined;
  const docs = [];
  for (const [lang, sets] of Object.entries(SETS[which])) {
    for (const set of sets) {
      const dir = path.join(CORPUS_ROOT, set);
      if (!existsSync(dir)) continue;
      for (const file of markdownFiles(dir)) {
        const rel = path.relative(CORPUS_ROOT, file).split(path.sep).join('/');
        const { text, prose, title } = anchor(readFileSync(file, 'utf8'));
        docs.push({
          id: rel.replace(/\.md$/, ''),
          lang,
          text,
          prose,
          title: title ?? rel,
          path: `pages/${rel}`,
        });
      }
    }
  }
  return docs;
}

const EN_SENTENCE = /(?<=[.!?])\s+/;
const ZH_SENTENCE = /(?<=[。！？；])/;
const ZH_DROP = /[\s\p{P}\p{S}]/gu;

function splitSentences(line, lang) {
  return line
    .split(lang === 'en' ? EN_SENTENCE : ZH_SENTENCE)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * Known-item queries: for pages of `lang` drawn by `random`, one sentence of the page's own prose,
 * reworded — a sub-span, words (characters for Chinese) dropped, two neighbours swapped, for English
 * one word replaced by a word from elsewhere in the corpus. The page is the answer.
 */
export function knownItemQueries(docs, lang, count, random) {
  const pool = docs.filter((d) => d.lang === lang);
  const vocabulary = docs
    .filter((d) => d.lang === 'en')
    .flatMap((d) => d.prose.slice(0, 3).join(' ').split(/\s+/))
    .filter((w) => /^[a-z]{4,}$/.test(w));
  // Only sentences found in one page: a sentence shared by several pages has no single answer.
  const pages = new Map();
  for (const d of docs)
    for (const line of new Set(d.prose))
      for (const s of splitSentences(line, d.lang)) pages.set(s, (pages.get(s) ?? 0) + 1);
  const queries = [];
  const pick = (list) => list[Math.floor(random() * list.length)];
  for (let attempt = 0; queries.length < count && attempt < count * 20; attempt++) {
    const doc = pick(pool);
    if (doc.prose.length === 0) continue;
    const raw = pick(splitSentences(pick(doc.prose), lang));
    if (raw === undefined || pages.get(raw) !== 1) continue;
    const sentence = raw.replace(/[`*_[\]()]/g, ' ').trim();
    let query;
    if (lang === 'en') {
      const words = sentence.split(/\s+/).filter((w) => /\p{L}/u.test(w));
      if (words.length < 8) continue;
      const length = 6 + Math.floor(random() * 5);
      const start = Math.floor(random() * Math.max(1, words.length - length));
      let span = words.slice(start, start + length).filter(() => random() > 0.2);
      if (span.length < 4) continue;
      const i = Math.floor(random() * (span.length - 1));
      [span[i], span[i + 1]] = [span[i + 1], span[i]];
      if (random() < 0.5 && vocabulary.length > 0)
        span[Math.floor(random() * span.length)] = pick(vocabulary);
      query = span.join(' ');
    } else {
      const chars = [...sentence.replace(ZH_DROP, '')];
      if (chars.length < 12 || chars.filter((c) => /\p{Script=Han}/u.test(c)).length < 8) continue;
      const length = 8 + Math.floor(random() * 9);
      const start = Math.floor(random() * Math.max(1, chars.length - length));
      const span = chars.slice(start, start + length).filter(() => random() > 0.15);
      if (span.filter((c) => /\p{Script=Han}/u.test(c)).length < 6) continue;
      const cut = 1 + Math.floor(random() * (span.length - 1));
      query = [...span.slice(cut), ...span.slice(0, cut)].join('');
    }
    queries.push({ query, answer: doc.id, lang });
  }
  return queries;
}
