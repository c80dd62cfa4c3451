// A deterministic corpus of anchored Markdown: Chinese and English prose, headings, lists, code
// fences (some showing anchor syntax), sections nested up to depth 5. Same bytes on every run.

/** Mulberry32: a small seeded PRNG, so the corpus never changes between runs. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EN = 'the catalog reads exact evidence from curated knowledge so that every answer cites a stable snapshot of a reviewed section'.split(' ');
const ZH = '知识资料章节版本快照目录锚点正文子章节来源证据检索读取生成复核'.split('');

/**
 * Generate anchored Markdown of at least `bytes` bytes in UTF-8 (just over: it stops after the line
 * that reaches the size, then closes the open sections).
 * @param {number} bytes
 * @param {number} [seed]
 */
export function generateCorpus(bytes, seed = 42) {
  const random = prng(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const sentence = () => {
    if (random() < 0.35) return Array.from({ length: 12 + Math.floor(random() * 30) }, () => pick(ZH)).join('') + '。';
    const words = Array.from({ length: 8 + Math.floor(random() * 16) }, () => pick(EN));
    return `${words.join(' ')}.`.replace(/^./, (c) => c.toUpperCase());
  };
  const out = [];
  let length = 0;
  let next = 0;
  const stack = [];
  const push = (line) => {
    out.push(line);
    length += Buffer.byteLength(line, 'utf8') + 1;
  };
  while (length < bytes) {
    const roll = random();
    if (stack.length < 5 && roll < 0.12) {
      const id = `s${next++}`;
      stack.push(id);
      push(`<!-- agent-section:${id} -->`);
      push(`${'#'.repeat(Math.min(stack.length + 1, 6))} ${sentence()}`);
    } else if (stack.length > 0 && roll < 0.22) {
      push(`<!-- /agent-section:${stack.pop()} -->`);
    } else if (roll < 0.3) {
      for (let i = 0; i < 3; i++) push(`- ${sentence()}`);
    } else if (roll < 0.34) {
      push('```markdown');
      push('<!-- agent-section:example -->');
      push(sentence());
      push('<!-- /agent-section:example -->');
      push('```');
    } else {
      push(sentence());
      push('');
    }
  }
  while (stack.length > 0) push(`<!-- /agent-section:${stack.pop()} -->`);
  return out.join('\n');
}

/**
 * Generate section-dense anchored Markdown, the shape of knowledge written for agents: sections of a
 * few short paragraphs under a heading, nested up to depth 3, about one line in five an anchor line.
 * Chinese and English prose, lists, now and then a code fence showing anchor syntax. At least `bytes`
 * bytes in UTF-8 (just over), deterministic for a given `seed`.
 * @param {number} bytes
 * @param {number} [seed]
 */
export function generateDenseCorpus(bytes, seed = 7) {
  const random = prng(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const sentence = () => {
    if (random() < 0.4) return Array.from({ length: 10 + Math.floor(random() * 24) }, () => pick(ZH)).join('') + '。';
    const words = Array.from({ length: 6 + Math.floor(random() * 14) }, () => pick(EN));
    return `${words.join(' ')}.`.replace(/^./, (c) => c.toUpperCase());
  };
  const out = [];
  let length = 0;
  let next = 0;
  const stack = [];
  const push = (line) => {
    out.push(line);
    length += Buffer.byteLength(line, 'utf8') + 1;
  };
  const open = () => {
    const id = `${stack.length === 0 ? 'topic' : stack[stack.length - 1]}.${next++}`;
    stack.push(id);
    push(`<!-- agent-section:${id} -->`);
    push(`${'#'.repeat(stack.length + 1)} ${sentence()}`);
    push('');
  };
  while (length < bytes) {
    const roll = random();
    if (stack.length === 0 || (stack.length < 3 && roll < 0.2)) open();
    else if (roll < 0.39) push(`<!-- /agent-section:${stack.pop()} -->`);
    else if (roll < 0.5) {
      for (let i = 0; i < 2; i++) push(`- ${sentence()}`);
      push('');
    } else if (roll < 0.52) {
      push('```markdown');
      push('<!-- agent-section:example -->');
      push(sentence());
      push('<!-- /agent-section:example -->');
      push('```');
      push('');
    } else {
      push(sentence());
      push('');
    }
  }
  while (stack.length > 0) push(`<!-- /agent-section:${stack.pop()} -->`);
  return out.join('\n');
}
