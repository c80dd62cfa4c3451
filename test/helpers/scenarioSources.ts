/**
 * Scenario sources: real `createCatalogSource`s over tiny catalogs, for tests that need a source
 * with known pages rather than one that answers by hand. What they answer is what the package
 * answers, so a test on them cannot drift from the tools' real outputs. `controlledScenario` puts the
 * kit's `fakeSource` in front of one, for tests that count calls or inject a failure or a delay.
 */
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import type { KnowledgeSource } from '../../src/agent/index.js';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';
import { fakeSource, type FakeSource, type HeardCall, recordingSource } from './fakeSource.js';

/** A page of a scenario: its document ID, path under `pages/`, front matter and Markdown text. */
export interface ScenarioPage {
  readonly id: string;
  readonly path: string;
  readonly frontmatter?: { readonly [key: string]: string | readonly string[] };
  readonly text: string;
  /** The document's revision; default `r1`. */
  readonly revision?: string;
}

/**
 * A catalog source over `pages`, each parsed at its revision (default `r1`), with the given
 * knowledge-base `id` and content revision (default `rev-1`).
 *
 * @example
 * const source = scenarioSource([{ id: 'a', path: 'pages/a.md', text: '# A\n\nAlpha.\n' }]);
 */
export function scenarioSource(
  pages: readonly ScenarioPage[],
  id = 'scenario',
  revision: string | number = 'rev-1',
): KnowledgeSource {
  const catalog = defineKnowledgeCatalog(
    pages.map((page) =>
      parseKnowledgeDocument({ id: page.id, revision: page.revision ?? 'r1', text: page.text }),
    ),
  );
  const files = Object.fromEntries(
    pages.map((page) => [
      page.id,
      { path: page.path, ...(page.frontmatter ? { frontmatter: { ...page.frontmatter } } : {}) },
    ]),
  );
  return createCatalogSource(catalog, { id, revision, files });
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

/**
 * A scenario source behind the kit's `fakeSource`: the real answers, with its control (call counts
 * and log, recorded searches, `failNext`, `delayMs`).
 *
 * @example
 * const { source, control } = controlledScenario(EXPLORATION_PAGES);
 */
export function controlledScenario(pages: readonly ScenarioPage[], id?: string): FakeSource {
  return fakeSource({}, { base: scenarioSource(pages, id) });
}

/** A source over the two billing pages (`BILLING_PAGES`) and the log of its calls: the tools' tests. */
export function billingSource(): {
  readonly source: KnowledgeSource;
  readonly calls: HeardCall[];
} {
  return recordingSource(scenarioSource(BILLING_PAGES));
}

/**
 * Five short pages for the exploration tests: `refunds` has the sections `window` and `card`,
 * `billing` the section `invoices`; `billing` links to `refunds`.
 */
export const EXPLORATION_PAGES: readonly ScenarioPage[] = [
  {
    id: 'refunds',
    path: 'pages/refunds.md',
    text:
      '# Refunds\n\nRefunds are paid within 14 days.\n\n' +
      '<!-- agent-section:window -->\n## Window\n\nRefund window: 14 days.\n<!-- /agent-section:window -->\n\n' +
      '<!-- agent-section:card -->\n## Card\n\nCard refunds go back to the card.\n<!-- /agent-section:card -->\n',
  },
  {
    id: 'billing',
    path: 'pages/billing.md',
    text:
      '# Billing\n\nInvoices are sent monthly. See [refunds](refunds.md).\n\n' +
      '<!-- agent-section:invoices -->\n## Invoices\n\nInvoices every month.\n<!-- /agent-section:invoices -->\n',
  },
  {
    id: 'renewal',
    path: 'pages/renewal.md',
    text: '# Renewal\n\nPlans renew yearly; refunds after renewal are prorated.\n',
  },
  { id: 'shipping', path: 'pages/shipping.md', text: '# Shipping\n\nParcels ship in two days.\n' },
  {
    id: 'returns',
    path: 'pages/returns.md',
    text: '# Returns\n\nReturn items within 30 days for refunds.\n',
  },
];

/** A controlled scenario over `EXPLORATION_PAGES`: the exploration tests' source and its control. */
export function explorationSource(): FakeSource {
  return controlledScenario(EXPLORATION_PAGES);
}

/**
 * A scenario source whose pages have exactly these IDs (each at an explicit, valid path, so any ID
 * string works), with one heading and one sentence each, page `i` at revision `r<i>`.
 */
export function sourceWithIds(
  ids: readonly string[],
  options: { readonly id?: string; readonly revision?: string | number } = {},
): KnowledgeSource {
  return scenarioSource(
    ids.map((id, i) => ({
      id,
      path: `pages/p${i}.md`,
      revision: `r${i}`,
      text: `# Page ${i}\n\nThe text of page number ${i}.\n`,
    })),
    options.id ?? 'ids',
    options.revision ?? 1,
  );
}
