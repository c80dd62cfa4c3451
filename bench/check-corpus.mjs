// Generated folders for the `check` bench: anchored Markdown files with YAML front matter, written
// into nested subfolders. Deterministic for a given seed; every file is valid (no problems), so
// `knowledge-kit check` must exit 0 on it.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { prng } from './corpus.mjs';

const EN =
  'the catalog reads exact evidence from curated knowledge so that every answer cites a stable snapshot of a reviewed section while authors keep plain files under review'.split(
    ' ',
  );
const ZH = '知识资料章节版本快照目录锚点正文子章节来源证据检索读取生成复核作者文件审阅'.split('');
const TAGS = ['guide', 'api', 'ops', 'faq', 'policy', 'release', 'design', '指南', '运维'];

/**
 * One file's text: front matter, then prose, headings, lists and fences, with anchored sections nested
 * up to `maxDepth`. Sections open and close so that about `anchorShare` of the lines are anchor lines
 * (opens and closes together). Fenced code blocks show anchor syntax as body text. At least `bytes`
 * UTF-8 bytes (just over), all sections closed.
 */
function generateFile(bytes, random, { anchorShare, maxDepth, docId, paragraphSentences }) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const sentence = () => {
    if (random() < 0.4)
      return Array.from({ length: 10 + Math.floor(random() * 24) }, () => pick(ZH)).join('') + '。';
    const words = Array.from({ length: 6 + Math.floor(random() * 14) }, () => pick(EN));
    return `${words.join(' ')}.`.replace(/^./, (c) => c.toUpperCase());
  };
  const out = [];
  let length = 0;
  let lines = 0;
  let anchors = 0;
  const push = (line) => {
    out.push(line);
    length += Buffer.byteLength(line, 'utf8') + 1;
    lines++;
  };
  const tags = [pick(TAGS), pick(TAGS)].filter((t, i, all) => all.indexOf(t) === i);
  push('---');
  if (random() < 0.3) push(`id: ${docId}`);
  push(`title: "${sentence().replace(/"/g, '')}"`);
  push(
    `description: ${random() < 0.5 ? 'A generated page for the check bench.' : '为检查基准生成的页面。'}`,
  );
  push(`tags: [${tags.join(', ')}]`);
  if (random() < 0.5) push(`locale: ${random() < 0.5 ? 'en' : 'zh-CN'}`);
  push('---');
  push('');
  push(`# ${sentence()}`);
  push('');
  const stack = [];
  let next = 0;
  // A body step writes 2.5 lines on average (a paragraph and its blank line 80%, a list 15%, a fence
  // 5%); an anchor step writes one anchor line and 2 lines on average (open: anchor, heading, blank;
  // close: anchor). Solving p / (2p + 2.5(1 - p)) = anchorShare for p keeps anchor lines near that share.
  const anchorChance = (anchorShare * 2.5) / (1 - 2 * anchorShare + anchorShare * 2.5);
  while (length < bytes) {
    const roll = random();
    if (roll < anchorChance) {
      if (stack.length > 0 && (stack.length >= maxDepth || random() < 0.45)) {
        push(`<!-- /agent-section:${stack.pop()} -->`);
        anchors++;
      } else {
        const id = `${stack.length === 0 ? 'part' : stack[stack.length - 1]}.${next++}`;
        stack.push(id);
        push(`<!-- agent-section:${id} -->`);
        push(`${'#'.repeat(stack.length + 1)} ${sentence()}`);
        push('');
        anchors++;
      }
      continue;
    }
    const kind = random();
    if (kind < 0.15) {
      for (let i = 0; i < 3; i++) push(`- ${sentence()}`);
      push('');
    } else if (kind < 0.2) {
      push('```markdown');
      push(`<!-- agent-section:example-${next} -->`);
      push(sentence());
      push(`<!-- /agent-section:example-${next} -->`);
      push('```');
      push('');
    } else {
      push(
        Array.from({ length: 1 + Math.floor(random() * paragraphSentences) }, sentence).join(' '),
      );
      push('');
    }
  }
  while (stack.length > 0) {
    push(`<!-- /agent-section:${stack.pop()} -->`);
    anchors++;
  }
  return { text: `${out.join('\n')}\n`, lines, anchors };
}

/**
 * Write `files` Markdown files of about `bytesPerFile` bytes each under `root`, spread over nested
 * subfolders (`fanout` per level, `levels` deep). Returns the totals actually written.
 * @param {string} root
 * @param {{ files: number, bytesPerFile: number, anchorShare: number, maxDepth?: number, paragraphSentences?: number, fanout?: number, levels?: number, seed?: number }} shape
 */
export function writeCheckFolder(
  root,
  {
    files,
    bytesPerFile,
    anchorShare,
    maxDepth = 3,
    paragraphSentences = 3,
    fanout = 10,
    levels = 2,
    seed = 11,
  },
) {
  const random = prng(seed);
  let bytes = 0;
  let lines = 0;
  let anchors = 0;
  const made = new Set();
  for (let i = 0; i < files; i++) {
    const parts = [];
    let n = i;
    for (let level = 0; level < levels; level++) {
      parts.push(`area-${n % fanout}`);
      n = Math.floor(n / fanout);
    }
    const dir = path.join(root, ...parts);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    const name = `page-${String(i).padStart(5, '0')}`;
    const docId = `generated/${parts.join('/')}/${name}`;
    const file = generateFile(bytesPerFile, random, {
      anchorShare,
      maxDepth,
      docId,
      paragraphSentences,
    });
    writeFileSync(path.join(dir, `${name}.md`), file.text);
    bytes += Buffer.byteLength(file.text, 'utf8');
    lines += file.lines;
    anchors += file.anchors;
  }
  return { files, bytes, lines, anchors };
}
