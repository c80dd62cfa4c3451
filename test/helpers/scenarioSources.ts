/**
 * Scenario sources: real `createCatalogSource`s over tiny catalogs, for tests that need a source
 * with known pages rather than one that answers by hand. What they answer is what the package
 * answers, so a test on them cannot drift from the tools' real outputs.
 */
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import type { KnowledgeSource } from '../../src/agent/index.js';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';

/** A page of a scenario: its document ID, path under `pages/`, front matter and Markdown text. */
export interface ScenarioPage {
  readonly id: string;
  readonly path: string;
  readonly frontmatter?: { readonly [key: string]: string | readonly string[] };
  readonly text: string;
}

/**
 * A catalog source over `pages`, each parsed at revision `r1`, with the given knowledge-base `id`.
 *
 * @example
 * const source = scenarioSource([{ id: 'a', path: 'pages/a.md', text: '# A\n\nAlpha.\n' }]);
 */
export function scenarioSource(pages: readonly ScenarioPage[], id = 'scenario'): KnowledgeSource {
  const catalog = defineKnowledgeCatalog(
    pages.map((page) => parseKnowledgeDocument({ id: page.id, revision: 'r1', text: page.text })),
  );
  const files = Object.fromEntries(
    pages.map((page) => [
      page.id,
      { path: page.path, ...(page.frontmatter ? { frontmatter: { ...page.frontmatter } } : {}) },
    ]),
  );
  return createCatalogSource(catalog, { id, revision: 'rev-1', files });
}

/** Two billing pages, the first linking to the second: the tools' and adapters' tests' knowledge. */
export const BILLING_PAGES: readonly ScenarioPage[] = [
  {
    id: 'renewals',
    path: 'pages/renewals.md',
    frontmatter: { tags: ['billing'] },
    text: '# Renewals\n\nRenewal notices are sent 30 days ahead. See [billing](billing.md).\n',
  },
  {
    id: 'billing',
    path: 'pages/billing.md',
    frontmatter: { tags: ['billing'] },
    text: '# Billing\n\nInvoices are monthly.\n',
  },
];
