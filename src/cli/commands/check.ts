/** `knowledge-kit check [paths…]`: every problem of every file, then one summary line. */
import { CHECK_HELP } from '../help.js';
import { stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { escapePath } from 'tinyglobby';
import type { KnowledgePart } from '../../types.js';
import { isKnowledgeError } from '../../errors/isKnowledgeError.js';
import { noMarkdownFiles, readKnowledgeDirectory } from '../../node/internals.js';
import { parseCommandArgs } from '../args.js';
import { FOLDER_GLOB_OPTIONS, folderGlobs } from '../flags.js';
import { loadProgress } from '../folder.js';
import { CliExit, EXIT, readFailed, type CliIo } from '../io.js';
import {
  count,
  githubLine,
  problemJson,
  sortProblems,
  textLine,
  toProblems,
  type Problem,
  type ProblemFormat,
} from '../problems.js';

/** Sections in a document's parts, counted with an explicit stack. */
function countSections(parts: readonly KnowledgePart[]): number {
  let sections = 0;
  const stack: (readonly KnowledgePart[])[] = [parts];
  while (stack.length > 0) {
    for (const part of stack.pop()!) {
      if (typeof part === 'string') continue;
      sections++;
      stack.push(part.parts);
    }
  }
  return sections;
}

/** Runs `check`. */
export async function check(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'check',
    argv,
    {
      format: { type: 'string', short: 'f' },
      'follow-links': { type: 'boolean' },
      ...FOLDER_GLOB_OPTIONS,
    },
    Number.POSITIVE_INFINITY,
  );
  if (values['help'] === true) {
    io.stdout.write(`${CHECK_HELP}\n`);
    return EXIT.ok;
  }
  const format = (values['format'] ?? 'text') as ProblemFormat;
  if (format !== 'text' && format !== 'json' && format !== 'github') {
    throw new CliExit(
      `knowledge-kit check: --format must be text, json or github, not \`${String(format)}\`.`,
    );
  }
  const paths = positionals.length > 0 ? positionals : ['.'];
  const globs = folderGlobs(values);
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  let files = 0;
  let sections = 0;
  const line = loadProgress('check', io);
  try {
    for (const path of paths) {
      let isFile = false;
      try {
        isFile = (await stat(path)).isFile();
      } catch (error) {
        throw new CliExit(
          `knowledge-kit check: \`${path}\` ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read (${(error as Error).message})`}.`,
        );
      }
      if (isFile && !/\.(?:md|mdx|markdown)$/.test(path))
        throw new CliExit(
          `knowledge-kit check: \`${path}\` is not a Markdown file (.md, .mdx, .markdown) or a folder.`,
        );
      if (isFile && basename(path).startsWith('.')) {
        throw new CliExit(
          `knowledge-kit check: \`${path}\` is a dot file, which no folder load reads (as dot folders and node_modules); rename it if it is knowledge.`,
        );
      }
      const folder = isFile ? dirname(path) : path;
      let reading;
      try {
        reading = await readKnowledgeDirectory(
          folder,
          {
            // A file given by name is read whatever the globs say of its folder.
            ...(isFile ? { include: [escapePath(basename(path))] } : globs),
            followLinks: values['follow-links'] === true,
          },
          {
            onProgress: (done, total) => line.update(done, total),
            // check shows no revision: hashing 100 MB would be a tenth of its time.
            hashRevisions: false,
          },
        );
      } catch (error) {
        if (isKnowledgeError(error)) throw readFailed('check', error);
        throw error;
      }
      if (reading.paths.length === 0 && reading.issues.length === 0)
        throw readFailed('check', noMarkdownFiles(folder, isFile ? {} : globs));
      files += reading.paths.length;
      for (const document of reading.documents) sections += countSections(document.parts);
      // One by one: a spread of 130,000 or more problems overflows the call stack (RangeError).
      for (const problem of toProblems(reading.issues, folder === '.' && !isFile ? '' : folder))
        problems.push(problem);
      for (const warning of toProblems(reading.warnings, folder === '.' && !isFile ? '' : folder))
        warnings.push({ ...warning, message: `warning: ${warning.message}` });
    }
  } finally {
    line.end();
  }
  sortProblems(problems);
  sortProblems(warnings);
  const summary = `${count(files, 'file')}, ${count(sections, 'section')}, ${count(problems.length, 'problem')}${warnings.length > 0 ? `, ${count(warnings.length, 'warning')}` : ''}`;
  if (format === 'json') {
    io.stdout.write(
      `${JSON.stringify({ files, sections, problems: problems.map(problemJson), ...(warnings.length > 0 ? { warnings: warnings.map(problemJson) } : {}) }, null, 2)}\n`,
    );
  } else {
    const lineOf = format === 'github' ? githubLine : textLine;
    const lines = [
      ...problems.map(lineOf),
      ...warnings.map((w) => lineOf(w).replace(/^::error /, '::warning ')),
    ];
    lines.push(summary);
    io.stdout.write(`${lines.join('\n')}\n`);
  }
  return problems.length > 0 ? EXIT.problems : EXIT.ok;
}
