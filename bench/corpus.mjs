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

const EN =
  'the catalog reads exact evidence from curated knowledge so that every answer cites a stable snapshot of a reviewed section'.split(
    ' ',
  );
const ZH = '知识资料章节版本快照目录锚点正文子章节来源证据检索读取生成复核'.split('');

/**
 * A deterministic writer of prose lines: seeded randomness, Chinese or English sentences of the given
 * lengths, and lines pushed with their UTF-8 size counted. Both generators below write with it.
 */
function writer(seed, { zhShare, zhMin, zhSpan, enMin, enSpan }) {
  const random = prng(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const out = [];
  const w = {
    random,
    length: 0,
    next: 0,
    stack: [],
    sentence() {
      if (random() < zhShare)
        return (
          Array.from({ length: zhMin + Math.floor(random() * zhSpan) }, () => pick(ZH)).join('') +
          '。'
        );
      const words = Array.from({ length: enMin + Math.floor(random() * enSpan) }, () => pick(EN));
      return `${words.join(' ')}.`.replace(/^./, (c) => c.toUpperCase());
    },
    push(line) {
      out.push(line);
      w.length += Buffer.byteLength(line, 'utf8') + 1;
    },
    /** A fenced example showing anchor syntax: body text, never a section. */
    example() {
      w.push('```markdown');
      w.push('<!-- agent-section:example -->');
      w.push(w.sentence());
      w.push('<!-- /agent-section:example -->');
      w.push('```');
    },
    /** Close the open sections and return the text. */
    finish() {
      while (w.stack.length > 0) w.push(`<!-- /agent-section:${w.stack.pop()} -->`);
      return out.join('\n');
    },
  };
  return w;
}

/**
 * Generate anchored Markdown of at least `bytes` bytes in UTF-8 (just over: it stops after the line
 * that reaches the size, then closes the open sections).
 * @param {number} bytes
 * @param {number} [seed]
 */
export function generateCorpus(bytes, seed = 42) {
  const w = writer(seed, { zhShare: 0.35, zhMin: 12, zhSpan: 30, enMin: 8, enSpan: 16 });
  const { stack } = w;
  while (w.length < bytes) {
    const roll = w.random();
    if (stack.length < 5 && roll < 0.12) {
      const id = `s${w.next++}`;
      stack.push(id);
      w.push(`<!-- agent-section:${id} -->`);
      w.push(`${'#'.repeat(Math.min(stack.length + 1, 6))} ${w.sentence()}`);
    } else if (stack.length > 0 && roll < 0.22) {
      w.push(`<!-- /agent-section:${stack.pop()} -->`);
    } else if (roll < 0.3) {
      for (let i = 0; i < 3; i++) w.push(`- ${w.sentence()}`);
    } else if (roll < 0.34) {
      w.example();
    } else {
      w.push(w.sentence());
      w.push('');
    }
  }
  return w.finish();
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
  const w = writer(seed, { zhShare: 0.4, zhMin: 10, zhSpan: 24, enMin: 6, enSpan: 14 });
  const { stack } = w;
  const open = () => {
    const id = `${stack.length === 0 ? 'topic' : stack[stack.length - 1]}.${w.next++}`;
    stack.push(id);
    w.push(`<!-- agent-section:${id} -->`);
    w.push(`${'#'.repeat(stack.length + 1)} ${w.sentence()}`);
    w.push('');
  };
  while (w.length < bytes) {
    const roll = w.random();
    if (stack.length === 0 || (stack.length < 3 && roll < 0.2)) open();
    else if (roll < 0.39) w.push(`<!-- /agent-section:${stack.pop()} -->`);
    else if (roll < 0.5) {
      for (let i = 0; i < 2; i++) w.push(`- ${w.sentence()}`);
      w.push('');
    } else if (roll < 0.52) {
      w.example();
      w.push('');
    } else {
      w.push(w.sentence());
      w.push('');
    }
  }
  return w.finish();
}
