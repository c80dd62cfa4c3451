import { describe, expect, it } from 'vitest';
import { loadProgress } from '../../src/cli/folder.js';
import type { CliIo } from '../../src/cli/io.js';

/** An io whose stderr records what is written, on a terminal or not. */
function recorder(isTTY: boolean): { io: CliIo; written: string[] } {
  const written: string[] = [];
  const sink = { write: (text: string) => written.push(text), isTTY };
  return { io: { stdout: sink, stderr: sink }, written };
}

describe('check: the progress line on a terminal', () => {
  it('stays silent for the first second, then redraws at most ten times a second, and is erased at the end', () => {
    let clock = 0;
    const { io, written } = recorder(true);
    const line = loadProgress('check', io, () => clock);
    clock = 999;
    line.update(10, 100);
    expect(written).toEqual([]);
    clock = 1000;
    line.update(20, 100);
    clock = 1050;
    line.update(30, 100); // within 100 ms of the last redraw: skipped
    clock = 1100;
    line.update(40, 100);
    line.end();
    expect(written).toEqual([
      '\rknowledge-kit check: loading 20/100 files…',
      '\rknowledge-kit check: loading 40/100 files…',
      '\r\u001b[K',
    ]);
  });

  it('writes nothing when stderr is not a terminal, however long the run', () => {
    let clock = 0;
    const { io, written } = recorder(false);
    const line = loadProgress('check', io, () => clock);
    for (clock = 0; clock < 5000; clock += 250) line.update(clock, 5000);
    line.end();
    expect(written).toEqual([]);
  });

  it('erases nothing when it never drew (a run under a second)', () => {
    const { io, written } = recorder(true);
    const line = loadProgress('check', io, () => 0);
    line.update(1, 1);
    line.end();
    expect(written).toEqual([]);
  });
});
