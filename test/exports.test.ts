/// <reference types="vite/client" />
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as entry from '../src/index.js';
import * as postgresEntry from '../src/postgres/index.js';
import { KNOWLEDGE_ERROR_CODES } from '../src/errors/codes.js';
import pkg from '../package.json' with { type: 'json' };

describe('public surface', () => {
  it('pins the export keys of the `.` entry', () => {
    expect(Object.keys(entry).sort()).toEqual([
      'Knowledge',
      'KnowledgeError',
      'defineKnowledgeCatalog',
      'formatKnowledgeDocument',
      'isKnowledgeError',
      'parseKnowledgeDocument',
    ]);
  });

  it('pins the `Knowledge` namespace: the same functions as the named exports', () => {
    expect(Object.keys(entry.Knowledge).sort()).toEqual([
      'KnowledgeError',
      'defineKnowledgeCatalog',
      'formatKnowledgeDocument',
      'isKnowledgeError',
      'parseKnowledgeDocument',
    ]);
    expect(entry.Knowledge.parseKnowledgeDocument).toBe(entry.parseKnowledgeDocument);
    expect(entry.Knowledge.defineKnowledgeCatalog).toBe(entry.defineKnowledgeCatalog);
    expect(entry.Knowledge.KnowledgeError).toBe(entry.KnowledgeError);
  });

  it('pins the export keys of `knowledge-kit/postgres`', () => {
    expect(Object.keys(postgresEntry).sort()).toEqual([
      'createPostgresSource',
      'listKnowledgeBases',
      'migrateKnowledgeStore',
      'publishKnowledge',
    ]);
  });

  it('pins the package entry points', () => {
    expect(Object.keys(pkg.exports)).toEqual([
      '.',
      './agent',
      './agent/adapters',
      './agent/exploration',
      './mcp',
      './http',
      './http/node',
      './node',
      './postgres',
      './package.json',
    ]);
    expect(pkg.type).toBe('module');
    expect(pkg.sideEffects).toBe(false);
  });

  it('keeps Node built-ins out of the core (and of every entry but `knowledge-kit/http/node`, `knowledge-kit/node` and the command line)', () => {
    const files = import.meta.glob('../src/**/*.ts', {
      query: '?raw',
      import: 'default',
      eager: true,
    });
    expect(Object.keys(files).length).toBeGreaterThan(5);
    for (const [file, source] of Object.entries(files)) {
      if (
        file.includes('/src/http/node/') ||
        file.includes('/src/node/') ||
        file.includes('/src/cli/')
      )
        continue;
      expect(source as string, file).not.toMatch(/from '(node:|fs|path|crypto|buffer)/);
      expect(source as string, file).not.toMatch(/\bprocess\.|\bBuffer\b|\brequire\(/);
    }
  });
});

describe('KnowledgeError', () => {
  it('carries name, code, frozen issues and cause; isKnowledgeError guards it', () => {
    const cause = new Error('root');
    const error = new entry.KnowledgeError(
      [{ code: 'CYCLE', message: 'm', path: [0], related: { line: 1, column: 2 } }],
      { cause },
    );
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('KnowledgeError');
    expect(error.code).toBe('CYCLE');
    expect(error.message).toBe('m');
    expect(error.cause).toBe(cause);
    expect(Object.isFrozen(error.issues)).toBe(true);
    expect(Object.isFrozen(error.issues[0])).toBe(true);
    expect(Object.isFrozen(error.issues[0]!.path)).toBe(true);
    expect(Object.isFrozen(error.issues[0]!.related)).toBe(true);
    expect(entry.isKnowledgeError(error)).toBe(true);
    for (const other of [
      new Error('x'),
      { name: 'KnowledgeError', code: 'CYCLE' },
      null,
      'KnowledgeError',
    ]) {
      expect(entry.isKnowledgeError(other)).toBe(false);
    }
    expect(() => new entry.KnowledgeError([])).toThrow(TypeError);
  });

  it('every code is UPPER_SNAKE_CASE and has an entry in docs/errors.md with cause, example and fix', () => {
    const whole = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');
    // The agent's tool errors follow under their own top-level heading (test/agent/exports.test.ts).
    const docs = whole.slice(0, whole.indexOf('\n# Agent tool errors'));
    const sections = docs.split(/^## /m).slice(1);
    const documented = sections.map((s) => s.slice(0, s.indexOf('\n')).replace(/`/g, '').trim());
    expect(documented).toEqual([...KNOWLEDGE_ERROR_CODES]);
    for (const section of sections) {
      expect(section).toMatch(/^[A-Z_`]+\n/);
      expect(section).toContain('**Cause.**');
      expect(section).toContain('**Example.**');
      expect(section).toContain('**Fix.**');
    }
  });
});
