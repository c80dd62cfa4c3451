import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MALFORMED } from '../src/parse/scanText.js';
import { remarkCodeLines, scannerCodeLines } from './helpers/codeLines.js';
import { commonMarkDocument } from './helpers/commonmark.js';
import { anchorEvents } from './helpers/scan.js';

const numRuns = Math.max(1000, fc.readConfigureGlobal().numRuns ?? 0);
const EXACT = /^<!-- \/?agent-section:[A-Za-z0-9_.:-]+ -->$/;
const ANCHOR_LIKE = /^[ \t]*<!--.*agent-section/i;

describe('code lines: the scanner agrees with CommonMark (remark-parse)', () => {
  it('treats as code exactly the lines inside remark-parse code nodes', () => {
    fc.assert(
      fc.property(commonMarkDocument, (text) => {
        expect(scannerCodeLines(text)).toEqual(remarkCodeLines(text));
      }),
      { numRuns },
    );
  });

  it('reads every anchor-shaped line outside code as an anchor or a near miss, and none inside', () => {
    fc.assert(
      fc.property(commonMarkDocument, (text) => {
        const code = new Set(remarkCodeLines(text));
        const lines = text.split(/\r\n|\r|\n/);
        const exact: number[] = [];
        const nearMiss: number[] = [];
        lines.forEach((line, i) => {
          if (code.has(i + 1)) return;
          if (EXACT.test(line)) exact.push(i + 1);
          else if (ANCHOR_LIKE.test(line)) nearMiss.push(i + 1);
        });
        const events = anchorEvents(text);
        expect(events.filter((e) => e.kind !== MALFORMED).map((e) => e.line)).toEqual(exact);
        expect(events.filter((e) => e.kind === MALFORMED).map((e) => e.line)).toEqual(nearMiss);
      }),
      { numRuns },
    );
  });
});
