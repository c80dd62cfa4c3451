import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';
import { loadKnowledgeDirectory, watchKnowledgeDirectory } from '../../src/node/index.js';

it('probe', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'kk-scratch-'));
  await writeFile(join(dir, 'a.md'), Buffer.concat([Buffer.from('x\n\ufeffb'), Buffer.from([0xff])]));
  try { await loadKnowledgeDirectory(dir); } catch (e) { console.log(JSON.stringify((e as {issues: unknown}).issues)); }
  await writeFile(join(dir, 'a.md'), 'ok');
  let n = 0;
  const w = await watchKnowledgeDirectory(dir, { debounceMs: 20 }, (c) => { n++; console.log('change', c.ok); if (n === 1) throw new Error('boom'); });
  await writeFile(join(dir, 'a.md'), 'v2');
  await new Promise((r) => setTimeout(r, 500));
  await writeFile(join(dir, 'a.md'), 'v3');
  await new Promise((r) => setTimeout(r, 500));
  console.log('n', n);
  await w.close().catch((e) => console.log('close rejected', String(e)));
  await rm(dir, { recursive: true });
});
