/**
 * A knowledge base with two versions over scenario sources, for the transport tests of versions:
 * `3.x` (the default) and `2.x`, whose config pages answer the same question differently, with a
 * page each that the other lacks, and an unchanged install page. `manyVersionedPages` has enough pages
 * for `resources/list` to page across the versions.
 */
import {
  createVersionedSource,
  type VersionedKnowledgeSource,
} from '../../src/agent/versions/createVersionedSource.js';
import { scenarioSource, type ScenarioPage } from './scenarioSources.js';

/** Version 3.x: `cleanUrls` in the config page, a themes page 2.x lacks. */
export const V3_PAGES: readonly ScenarioPage[] = [
  {
    id: 'config',
    path: 'pages/config.md',
    text: '# Config\n\nThe site config file.\n\n## Options\n\nThe cleanUrls option drops `.html` from links.\n',
  },
  { id: 'themes', path: 'pages/themes.md', text: '# Themes\n\nDark mode toggles the theme.\n' },
  { id: 'install', path: 'pages/install.md', text: '# Install\n\nRun npm install.\n' },
];

/** Version 2.x: `legacyRoutes` in the config page, a plugins page 3.x removed. */
export const V2_PAGES: readonly ScenarioPage[] = [
  {
    id: 'config',
    path: 'pages/config.md',
    text: '# Config\n\nThe site config file.\n\n## Options\n\nThe legacyRoutes option keeps old links.\n',
  },
  { id: 'plugins', path: 'pages/plugins.md', text: '# Plugins\n\nPlugins extend the build.\n' },
  { id: 'install', path: 'pages/install.md', text: '# Install\n\nRun npm install.\n' },
];

/** `3.x` (default, revision `rev-3`) and `2.x` (revision `rev-2`), knowledge-base ID `docs`. */
export function versionedDocs(): VersionedKnowledgeSource {
  return createVersionedSource({
    versions: {
      '3.x': scenarioSource(V3_PAGES, 'docs', 'rev-3'),
      '2.x': scenarioSource(V2_PAGES, 'docs', 'rev-2'),
    },
    default: '3.x',
  });
}

/** `count` pages `pages/p{i}.md` whose text names `label`. */
function numberedPages(label: string, count: number): ScenarioPage[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `p${i}`,
    path: `pages/p${String(i).padStart(2, '0')}.md`,
    text: `# Page ${i} of ${label}\n\nThis is version ${label}.\n`,
  }));
}

/** Three versions of 30 pages each (`b` the default, then `a`, `c`): several `resources/list` pages. */
export function manyVersionedPages(): VersionedKnowledgeSource {
  return createVersionedSource({
    versions: {
      b: scenarioSource(numberedPages('b', 30), 'many', 'rev-b'),
      a: scenarioSource(numberedPages('a', 30), 'many', 'rev-a'),
      c: scenarioSource(numberedPages('c', 30), 'many', 'rev-c'),
    },
    default: 'b',
  });
}
