import { describe, expectTypeOf, it } from 'vitest';
import {
  defineKnowledgeCatalog,
  Knowledge,
  type KnowledgeCatalog,
  type KnowledgeDocument,
  type KnowledgeErrorCode,
  type KnowledgeIssue,
  type KnowledgeReadRequest,
  type KnowledgeSection,
  type KnowledgeSelection,
  type KnowledgeSnapshot,
  parseKnowledgeDocument,
} from '../src/index.js';

describe('public types', () => {
  it('functions take and return the documented types', () => {
    expectTypeOf(parseKnowledgeDocument).returns.toEqualTypeOf<KnowledgeDocument>();
    expectTypeOf(defineKnowledgeCatalog).returns.toEqualTypeOf<KnowledgeCatalog>();
    expectTypeOf<KnowledgeCatalog['read']>().returns.toEqualTypeOf<KnowledgeSnapshot>();
    expectTypeOf(Knowledge.parseKnowledgeDocument).toEqualTypeOf(parseKnowledgeDocument);
  });

  it('every public property is readonly', () => {
    expectTypeOf<KnowledgeDocument>().toEqualTypeOf<{
      readonly id: string;
      readonly revision: string;
      readonly locale?: string;
      readonly parts: readonly (string | KnowledgeSection)[];
    }>();
    expectTypeOf<KnowledgeSection>().toEqualTypeOf<{
      readonly id: string;
      readonly parts: readonly (string | KnowledgeSection)[];
    }>();
    expectTypeOf<KnowledgeSnapshot>().toEqualTypeOf<{
      readonly id: string;
      readonly documentId: string;
      readonly selection: KnowledgeSelection;
      readonly revision: string;
      readonly locale?: string;
      readonly content: string;
    }>();
    expectTypeOf<KnowledgeCatalog['ids']>().toEqualTypeOf<readonly string[]>();
    expectTypeOf<KnowledgeIssue['path']>().toEqualTypeOf<
      readonly (string | number)[] | undefined
    >();
  });

  it('selections are a discriminated union: sectionIds only where the mode takes them', () => {
    expectTypeOf<{ mode: 'document' }>().toMatchTypeOf<KnowledgeSelection>();
    expectTypeOf<{ mode: 'self'; sectionIds: string[] }>().toMatchTypeOf<KnowledgeSelection>();
    expectTypeOf<{ mode: 'subtree' }>().not.toMatchTypeOf<KnowledgeSelection>();
    expectTypeOf<{ mode: 'everything' }>().not.toMatchTypeOf<KnowledgeSelection>();
  });

  it('assertSelection takes unknown client input; read takes a typed request', () => {
    const catalog = defineKnowledgeCatalog([]);
    expectTypeOf(catalog.assertSelection).parameter(0).toEqualTypeOf<unknown>();
    expectTypeOf(catalog.assertSelection).returns.toEqualTypeOf<void>();
    expectTypeOf(catalog.read).parameter(0).toEqualTypeOf<KnowledgeReadRequest>();
  });

  it('error codes are a closed union of string literals', () => {
    expectTypeOf<'CYCLE'>().toMatchTypeOf<KnowledgeErrorCode>();
    expectTypeOf<'NOT_A_CODE'>().not.toMatchTypeOf<KnowledgeErrorCode>();
  });
});
