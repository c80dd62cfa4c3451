import type { KnowledgeIssue } from '../errors/codes.js';
import { throwIfIssues } from '../shared/guard.js';
import { describe, isNonEmptyString, isPlainObject, own, unknownKeys } from '../shared/values.js';
import type { KnowledgeParseInput } from '../types.js';

const API = 'parseKnowledgeDocument';
const KEYS = ['id', 'revision', 'text', 'locale'] as const;

/** The checked input of the parser. */
export interface ParseInput {
  readonly id: string;
  readonly revision: string;
  readonly text: string;
  readonly locale: string | undefined;
}

/** Check the parser's argument, reporting every problem as `INVALID_INPUT`. */
export function readParseInput(input: KnowledgeParseInput | unknown): ParseInput {
  if (!isPlainObject(input)) {
    throwIfIssues([
      {
        code: 'INVALID_INPUT',
        path: [],
        message: `${API}: expected an object { id, revision, text, locale? }, got ${describe(input)}.`,
      },
    ]);
  }
  const value = input as Record<string, unknown>;
  const issues: KnowledgeIssue[] = [];
  for (const key of unknownKeys(value, KEYS)) {
    issues.push({
      code: 'INVALID_INPUT',
      path: [key],
      message: `${API}: unknown input key \`${key}\`. Allowed keys: ${KEYS.join(', ')}${key === 'local' ? ' (did you mean `locale`?)' : ''}.`,
    });
  }
  const id = own(value, 'id');
  const revision = own(value, 'revision');
  const text = own(value, 'text');
  const locale = own(value, 'locale');
  if (!isNonEmptyString(id)) issues.push(nonEmpty('id', id, 'the document ID'));
  if (!isNonEmptyString(revision))
    issues.push(nonEmpty('revision', revision, 'the content version your app computed'));
  if (typeof text !== 'string') {
    issues.push({
      code: 'INVALID_INPUT',
      path: ['text'],
      message: `${API}: \`text\` must be a string (the Markdown source; read the file yourself), got ${describe(text)}.`,
    });
  }
  if (locale !== undefined && !isNonEmptyString(locale)) {
    issues.push(nonEmpty('locale', locale, 'a locale such as `en` or `zh-CN`, or leave it out'));
  }
  throwIfIssues(issues);
  return {
    id: id as string,
    revision: revision as string,
    text: text as string,
    locale: locale as string | undefined,
  };
}

function nonEmpty(key: string, value: unknown, what: string): KnowledgeIssue {
  return {
    code: 'INVALID_INPUT',
    path: [key],
    message: `${API}: \`${key}\` must be a non-empty string (${what}), got ${describe(value)}.`,
  };
}
