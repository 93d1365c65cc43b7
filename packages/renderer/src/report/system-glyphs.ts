// The code points the installed fonts can draw: the union of every scalable font's character set as
// fontconfig (which Chromium's font fallback consults) reports it. Read once per process, on
// first use, and kept: fonts are installed with the machine, not while it runs.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Sorted, merged [first, last] ranges as one flat list: first0, last0, first1, last1, ... */
export type CodePointRanges = number[];

let coverage: Promise<CodePointRanges | null> | undefined;

/** The system fonts' coverage, or null when fontconfig cannot tell (every character is then checked in the page). */
export function systemGlyphCoverage(): Promise<CodePointRanges | null> {
  coverage ??= readCoverage();
  return coverage;
}

async function readCoverage(): Promise<CodePointRanges | null> {
  try {
    const { stdout } = await run('fc-list', [':scalable=true', '--format', '%{charset}\n'], { maxBuffer: 64 * 1024 * 1024 });
    return parseCharsets(stdout);
  } catch {
    return null;
  }
}

/** fontconfig's charset text ("20-7e a0-36f 374 ...", one font a line) merged into ranges. */
export function parseCharsets(text: string): CodePointRanges {
  const ranges: [number, number][] = [];
  for (const token of text.split(/\s+/)) {
    if (!token) continue;
    const [first, last = first] = token.split('-');
    const start = Number.parseInt(first!, 16);
    const end = Number.parseInt(last!, 16);
    if (Number.isFinite(start) && Number.isFinite(end) && end >= start) ranges.push([start, end]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: CodePointRanges = [];
  for (const [start, end] of ranges) {
    const last = merged.length - 1;
    if (last > 0 && start <= merged[last]! + 1) merged[last] = Math.max(merged[last]!, end);
    else merged.push(start, end);
  }
  return merged;
}
