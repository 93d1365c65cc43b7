import type { DrawCodeInput } from './index.mjs';

/** drawCode's drawing, kept per thread (300 drawings, 4 MiB at most) for the next time the same code is asked for. */
export declare function drawCode(input: DrawCodeInput): string;

/** How many drawings are kept and their characters. */
export declare function drawingCacheSize(): { drawings: number; chars: number };
