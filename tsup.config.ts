import { defineConfig } from 'tsup';

/**
 * `KK_BUILD=js` builds the bundles only (emptying dist/ first) and `KK_BUILD=dts` the declarations
 * only (leaving the bundles): the test run builds the bundles before the first test and the
 * declarations beside the tests (scripts/build.mjs). Unset: both, as `npm run build` and packing do.
 */
const part = process.env['KK_BUILD'];

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'agent/index': 'src/agent/index.ts',
    'agent/adapters/index': 'src/agent/adapters/index.ts',
    'agent/exploration/index': 'src/agent/exploration/index.ts',
    'mcp/index': 'src/mcp/index.ts',
    'http/index': 'src/http/index.ts',
    'http/node/index': 'src/http/node/index.ts',
    'node/index': 'src/node/index.ts',
    'postgres/index': 'src/postgres/index.ts',
    cli: 'src/cli/main.ts',
  },
  format: ['esm'],
  target: 'es2022',
  platform: 'neutral',
  dts: part === 'js' ? false : part === 'dts' ? { only: true } : true,
  clean: part !== 'dts',
  sourcemap: true,
  treeshake: true,
});
