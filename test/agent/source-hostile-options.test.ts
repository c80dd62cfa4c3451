/**
 * Issue 21 item 8: hostile options of `createCatalogSource` and `createKnowledgeHandler` (getters and
 * Proxies that throw) and a lone-surrogate document ID are `KnowledgeError` `INVALID_INPUT` naming the
 * option or the document, never a raw `TypeError` or `URIError`.
 */
import { describe, expect, it } from 'vitest';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { createKnowledgeHandler } from '../../src/http/index.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';

const doc = (id: string) =>
  parseKnowledgeDocument({
    id,
    revision: 'r1',
    text: '<!-- agent-section:a -->\nText.\n<!-- /agent-section:a -->',
  });
const catalog = defineKnowledgeCatalog([doc('guide')]);
const boom = () => {
  throw new Error('boom');
};
const getter = (key: string) => Object.defineProperty({}, key, { enumerable: true, get: boom });
// Over a target with an option, so that reading it goes through the trap.
const trapping = (trap: keyof ProxyHandler<object>, target: object = { id: 'kb' }) =>
  new Proxy(target, { [trap]: boom });

describe('createCatalogSource with hostile options', () => {
  for (const key of ['id', 'revision', 'files', 'search', 'maxReadChars']) {
    it(`names \`options.${key}\` when its getter throws`, () => {
      const error = expectKnowledgeError(() => createCatalogSource(catalog, getter(key)), {
        code: 'INVALID_INPUT',
        path: ['options', key],
      });
      expect(error.message).toContain(`options.${key}`);
      expect(error.cause).toBeInstanceOf(Error);
    });
  }

  for (const trap of ['ownKeys', 'getPrototypeOf', 'get', 'getOwnPropertyDescriptor'] as const) {
    it(`refuses a Proxy whose \`${trap}\` throws`, () => {
      expectKnowledgeError(() => createCatalogSource(catalog, trapping(trap) as never), {
        code: 'INVALID_INPUT',
      });
    });
  }

  it('names `options.files.<id>` when a files entry getter throws', () => {
    expectKnowledgeError(() => createCatalogSource(catalog, { files: getter('guide') as never }), {
      code: 'INVALID_INPUT',
      path: ['options', 'files', 'guide'],
    });
  });

  it('refuses a files Proxy whose ownKeys throws, and a files function that throws', () => {
    expectKnowledgeError(
      () => createCatalogSource(catalog, { files: trapping('ownKeys') as never }),
      { code: 'INVALID_INPUT', path: ['options', 'files'] },
    );
    expectKnowledgeError(() => createCatalogSource(catalog, { files: boom as never }), {
      code: 'INVALID_INPUT',
    });
  });

  it('refuses a catalog Proxy that throws as not a catalog', () => {
    expectKnowledgeError(() => createCatalogSource(trapping('get') as never), {
      code: 'INVALID_INPUT',
      path: ['catalog'],
    });
  });

  it('refuses a lone-surrogate document ID, naming the document (no URIError)', () => {
    const lone = defineKnowledgeCatalog([doc('guide'), doc('bad\ud800id')]);
    const error = expectKnowledgeError(() => createCatalogSource(lone), {
      code: 'INVALID_INPUT',
      documentId: 'bad\ud800id',
      path: ['catalog', 'ids', 1],
    });
    expect(error.message).toContain('lone surrogate');
    // A surrogate pair is a valid ID.
    expect(() => createCatalogSource(defineKnowledgeCatalog([doc('emoji-😀')]))).not.toThrow();
  });
});

describe('createKnowledgeHandler with hostile options', () => {
  const access = () => null;
  for (const key of ['access', 'basePath', 'rateLimit', 'limits', 'cors']) {
    it(`names \`options.${key}\` when its getter throws`, () => {
      const options = Object.defineProperties(
        {},
        {
          ...(key === 'access' ? {} : { access: { enumerable: true, value: access } }),
          [key]: { enumerable: true, get: boom },
        },
      );
      expectKnowledgeError(() => createKnowledgeHandler(options as never), {
        code: 'INVALID_INPUT',
        path: ['options', key],
      });
    });
  }

  it('names a nested option whose getter throws', () => {
    expectKnowledgeError(
      () => createKnowledgeHandler({ access, cors: getter('origin') as never }),
      { code: 'INVALID_INPUT', path: ['options', 'cors', 'origin'] },
    );
  });

  for (const trap of ['ownKeys', 'getPrototypeOf', 'get', 'getOwnPropertyDescriptor'] as const) {
    it(`refuses a Proxy whose \`${trap}\` throws`, () => {
      expectKnowledgeError(() => createKnowledgeHandler(trapping(trap, { access }) as never), {
        code: 'INVALID_INPUT',
      });
    });
  }

  it('refuses a rateLimit whose method getter throws', () => {
    expectKnowledgeError(
      () => createKnowledgeHandler({ access, rateLimit: getter('check') as never }),
      { code: 'INVALID_INPUT' },
    );
  });

  it('uses what it checked: a getter that changes its answer cannot slip past', () => {
    let reads = 0;
    const options = Object.defineProperty({ access }, 'basePath', {
      enumerable: true,
      get: () => (reads++ === 0 ? '/ok' : 'no-slash/'),
    });
    expect(() => createKnowledgeHandler(options)).not.toThrow();
    expect(reads).toBe(1);
  });
});
