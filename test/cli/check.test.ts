/**
 * `knowledge-kit check` on real temporary folders: the summary of a clean folder, every problem as
 * `file:line:column  CODE  message` sorted by file and place with files shown under the argument as
 * given, file positions after front matter, invalid UTF-8, duplicate IDs across files, several paths,
 * a single file, the three formats, and exit codes 0, 1 and 2.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { linesOf, requireBuiltCli, runCli, type CliResult } from '../helpers/cli.js';
import { placeOf } from '../helpers/place.js';
import { useTempFolders, writeTree, type Tree } from '../helpers/tempFolders.js';
import {
  HANDBOOK,
  renderFile,
  renderParts,
  section,
  sectionCount,
  summaryLine,
  treeOf,
} from '../helpers/cli-knowledge.js';
import {
  githubData,
  githubProperty,
  isSortedByPlace,
  parseProblemLine,
  type ProblemLine,
} from '../helpers/cli-problems.js';

beforeAll(requireBuiltCli);
const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-cli-' });

/** `check --format json`'s output. */
interface CheckJson {
  readonly files: number;
  readonly sections: number;
  readonly problems: readonly (ProblemLine & Record<string, unknown>)[];
}

// A folder with problems, written under `sub/kb` and checked from the root with that argument.
const FRONT = ['---', 'id: alpha', '---'];
const A_BODY = ['# Alpha', '', '<!-- agent-section:open -->', 'Never closed.'].join('\n');
const A = `${FRONT.join('\n')}\n${A_BODY}\n`;
const B_FILE = {
  path: 'b.md',
  parts: ['# Bravo', section('one', 'First.'), section('two', 'Second.')],
} as const;
const BAD_BYTES_PREFIX = '# Charlie\nab';
const C = Buffer.concat([Buffer.from(BAD_BYTES_PREFIX, 'utf8'), Buffer.from([0xff, 0x0a])]);
const D = [
  '# Delta',
  '',
  '  <!-- agent-section:indented -->',
  'Text.',
  '<!-- /agent-section:indented -->',
  '',
].join('\n');
const E = ['---', 'title: Echo', 'weight: .inf', '---', '# Echo', ''].join('\n');
const DUP_FIRST = ['---', 'id: shared', '---', 'First of two.', ''].join('\n');
const DUP_SECOND = ['---', 'title: Second', 'id: shared', '---', 'Second of two.', ''].join('\n');
const PROBLEMS: Tree = {
  'a.md': A,
  'b.md': renderFile(B_FILE),
  'c.md': C,
  'd.md': D,
  'e.md': E,
  'm/dup.md': DUP_FIRST,
  'z.md': DUP_SECOND,
};
/** Sections of the files that parse (b.md; the duplicates have none). */
const PROBLEM_SECTIONS = 2;

/** The problems `PROBLEMS` has, with files under `shown`: computed from the texts above. */
function expectedProblems(
  shown: string,
): { file: string; line: number; column: number; code: string }[] {
  return [
    {
      file: `${shown}/a.md`,
      line: FRONT.length + placeOf(A_BODY, '<!-- agent-section:open').line,
      column: 1,
      code: 'UNCLOSED_SECTION',
    },
    {
      file: `${shown}/c.md`,
      line: placeOf(BAD_BYTES_PREFIX, 'ab').line,
      column: 'ab'.length + 1,
      code: 'INVALID_ENCODING',
    },
    {
      file: `${shown}/d.md`,
      line: placeOf(D, '  <!--').line,
      column: placeOf(D, '<!--').column,
      code: 'MALFORMED_ANCHOR',
    },
    {
      file: `${shown}/e.md`,
      line: placeOf(E, 'weight:').line,
      column: placeOf(E, '.inf').column,
      code: 'INVALID_FRONT_MATTER',
    },
    {
      file: `${shown}/z.md`,
      line: placeOf(DUP_SECOND, 'id: shared').line,
      column: placeOf(DUP_SECOND, 'shared').column,
      code: 'DUPLICATE_DOCUMENT_ID',
    },
  ];
}

async function problemFolder(): Promise<string> {
  const root = await tempRoot();
  await writeTree(
    root,
    Object.fromEntries(Object.entries(PROBLEMS).map(([path, text]) => [`sub/kb/${path}`, text])),
  );
  return root;
}

describe.concurrent('check on a clean folder', () => {
  it('exits 0 with only the summary line, computed from the files written; nothing on stderr when it is not a terminal', async () => {
    const root = await tempRoot();
    await writeTree(root, treeOf(HANDBOOK));
    const result = await runCli(['check', root]);
    expect(result).toEqual({
      code: 0,
      signal: null,
      stdout: `${summaryLine(HANDBOOK.length, sectionCount(HANDBOOK), 0)}\n`,
      stderr: '',
    });
  });

  it('--format json: one object with files, sections and no problems', async () => {
    const root = await tempRoot();
    await writeTree(root, treeOf(HANDBOOK));
    const result = await runCli(['check', '--format', 'json', root]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({
      files: HANDBOOK.length,
      sections: sectionCount(HANDBOOK),
      problems: [],
    });
  });

  it('a single .md file as the path checks only that file; a missing path exits 2 with one line', async () => {
    const root = await tempRoot();
    await writeTree(root, treeOf(HANDBOOK));
    const guide = HANDBOOK[0]!;
    const [single, missing] = await Promise.all([
      runCli(['check', guide.path], { cwd: root }),
      runCli(['check', 'no-such-folder'], { cwd: root }),
    ]);
    expect(single).toEqual({
      code: 0,
      signal: null,
      stdout: `${summaryLine(1, sectionCount([guide]), 0)}\n`,
      stderr: '',
    });
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(linesOf(missing.stderr)).toHaveLength(1);
    expect(missing.stderr).toContain('`no-such-folder`');
  });
});

describe('check on a folder with problems, in each format', () => {
  // One run per format on the same folder, checked from its parent's parent with the argument `sub/kb`.
  let text: CliResult;
  let json: CliResult;
  let github: CliResult;
  beforeAll(async () => {
    const root = await problemFolder();
    [text, json, github] = await Promise.all([
      runCli(['check', 'sub/kb'], { cwd: root }),
      runCli(['check', 'sub/kb', '--format', 'json'], { cwd: root }),
      runCli(['check', 'sub/kb', '--format', 'github'], { cwd: root }),
    ]);
  });
  const textProblems = () =>
    linesOf(text.stdout)
      .slice(0, -1)
      .map((line) => parseProblemLine(line));

  it('exits 1 with `file:line:column  CODE  message` lines sorted by file then place, files under the argument as given', () => {
    expect(text.code).toBe(1);
    expect(text.stderr).toBe('');
    const problems = textProblems();
    expect(
      problems.every((p) => p !== undefined),
      text.stdout,
    ).toBe(true);
    const parsed = problems as ProblemLine[];
    expect(isSortedByPlace(parsed)).toBe(true);
    expect(parsed.map(({ file, line, column, code }) => ({ file, line, column, code }))).toEqual(
      expectedProblems('sub/kb'),
    );
    expect(linesOf(text.stdout).at(-1)).toBe(
      summaryLine(Object.keys(PROBLEMS).length, PROBLEM_SECTIONS, parsed.length),
    );
  });

  it('messages name what is wrong: the byte offset of invalid UTF-8, the other file of a duplicate ID, the section left open', () => {
    const byCode = new Map(textProblems().map((problem) => [problem?.code, problem?.message]));
    expect(byCode.get('INVALID_ENCODING')).toContain(
      `byte ${Buffer.byteLength(BAD_BYTES_PREFIX)} (0xFF)`,
    );
    expect(byCode.get('DUPLICATE_DOCUMENT_ID')).toContain('`shared`');
    expect(byCode.get('DUPLICATE_DOCUMENT_ID')).toContain('`m/dup.md`');
    expect(byCode.get('UNCLOSED_SECTION')).toContain('`open`');
    expect(byCode.get('INVALID_FRONT_MATTER')).toContain('Infinity');
  });

  it('--format json: one object with files, sections and the same problems as the text lines, with their IDs', () => {
    expect(json.code).toBe(1);
    expect(json.stderr).toBe('');
    const output = JSON.parse(json.stdout) as CheckJson;
    expect(output.files).toBe(Object.keys(PROBLEMS).length);
    expect(output.sections).toBe(PROBLEM_SECTIONS);
    expect(
      output.problems.map(({ file, line, column, code, message }) => ({
        file,
        line,
        column,
        code,
        message,
      })),
    ).toEqual(textProblems());
    expect(output.problems.find((p) => p.code === 'DUPLICATE_DOCUMENT_ID')?.['documentId']).toBe(
      'shared',
    );
    expect(output.problems.find((p) => p.code === 'UNCLOSED_SECTION')?.['sectionId']).toBe('open');
  });

  it('--format github: one `::error file=…,line=…,col=…,title=CODE::…` per problem, then the summary', () => {
    expect(github.code).toBe(1);
    expect(github.stderr).toBe('');
    const problems = (JSON.parse(json.stdout) as CheckJson).problems;
    const lines = linesOf(github.stdout);
    expect(lines.slice(0, -1)).toEqual(
      problems.map(
        (p) =>
          `::error file=${githubProperty(p.file)},line=${p.line},col=${p.column},title=${githubProperty(p.code)}::${githubData(`${p.code}: ${p.message}`)}`,
      ),
    );
    expect(lines.at(-1)).toBe(
      summaryLine(Object.keys(PROBLEMS).length, PROBLEM_SECTIONS, problems.length),
    );
  });
});

describe.concurrent('check: paths and formats', () => {
  it('the current folder by default, files shown relative to it', async () => {
    const root = await problemFolder();
    const result = await runCli(['check'], { cwd: `${root}/sub/kb` });
    expect(result.code).toBe(1);
    const parsed = linesOf(result.stdout)
      .slice(0, -1)
      .map((line) => parseProblemLine(line)!);
    expect(parsed.map(({ file, line, column, code }) => ({ file, line, column, code }))).toEqual(
      expectedProblems('.').map((p) => ({ ...p, file: p.file.slice('./'.length) })),
    );
  });

  it('several paths: problems of each, sorted together, and one summary over all of them', async () => {
    const root = await problemFolder();
    await writeTree(
      root,
      treeOf(HANDBOOK.map((file) => ({ ...file, path: `clean/${file.path}` }))),
    );
    const stray = ['# X', '<!-- /agent-section:stray -->', ''].join('\n');
    await writeTree(root, { 'other/x.md': stray });
    const result = await runCli(['check', 'sub/kb', 'clean', 'other/x.md'], { cwd: root });
    expect(result.code).toBe(1);
    const lines = linesOf(result.stdout);
    const parsed = lines.slice(0, -1).map((line) => parseProblemLine(line)!);
    expect(isSortedByPlace(parsed)).toBe(true);
    expect(parsed.map(({ file, line, code }) => ({ file, line, code }))).toEqual([
      { file: 'other/x.md', line: placeOf(stray, '<!--').line, code: 'UNEXPECTED_CLOSE' },
      ...expectedProblems('sub/kb').map(({ file, line, code }) => ({ file, line, code })),
    ]);
    expect(lines.at(-1)).toBe(
      summaryLine(
        Object.keys(PROBLEMS).length + HANDBOOK.length + 1,
        PROBLEM_SECTIONS + sectionCount(HANDBOOK),
        parsed.length,
      ),
    );
  });

  it('--format github escapes `%`, `:` and `,` in properties and line breaks as %0A, so each annotation stays one line', async () => {
    const root = await tempRoot();
    // A file name with `%`, `,`, `:` and a line break: its page path is refused, and the message quotes it.
    const odd = 'a%,b:\nc.md';
    const placed = 'x,y:z.md';
    const placedText = ['# Title', '<!-- agent-section:never-closed -->', ''].join('\n');
    await writeTree(root, { [`gh/${odd}`]: '# Odd\n', [`gh/${placed}`]: placedText });
    const github = await runCli(['check', 'gh', '--format', 'github'], { cwd: root });
    expect(github.code).toBe(1);
    const lines = linesOf(github.stdout);
    expect(lines).toHaveLength(3);
    // Data escapes `%` and the line break, but keeps `:` and `,`.
    expect(lines[0]).toMatch(
      /^::error file=gh\/a%25%2Cb%3A%0Ac\.md,title=INVALID_INPUT::INVALID_INPUT: .*`pages\/a%25,b:%0Ac\.md`/,
    );
    expect(lines[1]).toMatch(
      new RegExp(
        `^::error file=gh/x%2Cy%3Az\\.md,line=${placeOf(placedText, '<!--').line},col=1,title=UNCLOSED_SECTION::UNCLOSED_SECTION: .*\`never-closed\``,
      ),
    );
    expect(lines[2]).toBe(summaryLine(2, 0, 2));
  });

  // Fails today: the file's name is passed to the loader as an `include` glob, so `[ab].md` matches
  // `a.md` and `b.md` too, and `check` reports problems of files it was not given.
  it('a single file whose name holds glob characters: only that file is checked', async () => {
    const root = await tempRoot();
    await writeTree(root, {
      'g/[ab].md': '# Fine\n',
      'g/a.md': '# A\n<!-- agent-section:open -->\n',
      'g/x*.md': '# Fine\n',
      'g/xyz.md': '# X\n<!-- /agent-section:stray -->\n',
    });
    const results = await Promise.all([
      runCli(['check', 'g/[ab].md'], { cwd: root }),
      runCli(['check', 'g/x*.md'], { cwd: root }),
    ]);
    for (const result of results)
      expect(result).toEqual({
        code: 0,
        signal: null,
        stdout: `${summaryLine(1, 0, 0)}\n`,
        stderr: '',
      });
  });

  it('--format bogus: exit 2 with one line, nothing on stdout', async () => {
    const root = await problemFolder();
    const result = await runCli(['check', 'sub/kb', '--format', 'bogus'], { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(linesOf(result.stderr)).toHaveLength(1);
    expect(result.stderr).toContain('`bogus`');
  });
});

describe('check positions', () => {
  it('a problem after front matter is at its file line: the body line plus the block`s lines', async () => {
    const root = await tempRoot();
    const body = renderParts([
      '# Body',
      '',
      section('fine', 'ok'),
      '',
      '<!-- agent-section:Bad ID -->',
      '',
    ]);
    const fronts = [
      [],
      ['---', 'id: x', '---'],
      ['---', 'id: y', 'title: "A title"', 'tags: [a, b]', '---'],
    ];
    for (const front of fronts)
      await writeTree(root, {
        [`f${front.length}/doc.md`]: front.length === 0 ? body : `${front.join('\n')}\n${body}`,
      });
    const result = await runCli(
      ['check', '--format', 'json', ...fronts.map((front) => `f${front.length}`)],
      { cwd: root },
    );
    const problems = (JSON.parse(result.stdout) as CheckJson).problems;
    const bodyLine = placeOf(body, 'Bad ID').line;
    expect(problems.map(({ file, line, column, code }) => ({ file, line, column, code }))).toEqual(
      fronts.map((front) => ({
        file: `f${front.length}/doc.md`,
        line: bodyLine + front.length,
        column: 1,
        code: 'MALFORMED_ANCHOR',
      })),
    );
  });
});
