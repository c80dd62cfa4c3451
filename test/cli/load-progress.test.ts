/**
 * Commands that load a folder whole (`search`, `read`, `outline`, `publish`, `export`, `serve`) show a
 * progress line on a terminal when the load takes over a second; never on a pipe.
 */
import { describe, expect, it } from 'vitest';
import { loadFolder, loadProgress } from '../../src/cli/folder.js';
import type { CliIo } from '../../src/cli/io.js';
import { useTempFolders } from '../helpers/tempFolders.js';

function recorder(isTTY: boolean): { io: CliIo; written: string[] } {
  const written: string[] = [];
  const sink = { write: (text: string) => written.push(text), isTTY };
  return { io: { stdout: sink, stderr: sink }, written };
}

const folder = useTempFolders({ removeAfter: 'all', prefix: 'kk-load-progress-' });

describe('loadProgress', () => {
  it('silent for the first second, then redrawn at most ten times a second with the command, erased at the end', () => {
    let clock = 0;
    const { io, written } = recorder(true);
    const line = loadProgress('search', io, () => clock);
    clock = 999;
    line.update(10, 100);
    clock = 1000;
    line.update(20, 100);
    clock = 1050;
    line.update(30, 100);
    clock = 1100;
    line.update(40, 100);
    line.end();
    expect(written).toEqual([
      '\rknowledge-kit search: loading 20/100 files…',
      '\rknowledge-kit search: loading 40/100 files…',
      '\r\u001b[K',
    ]);
  });

  it('writes nothing when stderr is not a terminal', () => {
    let clock = 0;
    const { io, written } = recorder(false);
    const line = loadProgress('search', io, () => clock);
    clock = 5000;
    line.update(1, 2);
    line.end();
    expect(written).toEqual([]);
  });

  it('a quick load on a terminal prints nothing and loads as before', async () => {
    const dir = await folder({ 'guide.md': '# Guide\n\nText.\n' });
    const { io, written } = recorder(true);
    const loaded = await loadFolder('search', dir, io);
    expect(loaded.documents).toHaveLength(1);
    expect(written).toEqual([]);
  });
});
