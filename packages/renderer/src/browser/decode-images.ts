// Images are captured decoded: the load event means every image has arrived, not that it is
// decoded, and a large image may otherwise be captured half drawn or blank. decode() is asked
// of every <img> (an image that fails to decode is left as it is); the wait is bounded,
// because decode() of an image that never loads (loading="lazy" outside the viewport) never
// settles. Runs in an isolated world (see page/isolated-world.ts), so script on or off makes no difference.
import type { CDPSession } from 'puppeteer-core';
import { withDeadline } from '@svc/deadline';
import { callIsolated } from '../page/isolated-world.ts';

/** Images asked to decode per render, in document order. */
export const MAX_DECODED_IMAGES = 1_000;
/** The longest wait for decoding, within the job's own timeout. */
export const DECODE_WAIT_MS = 5_000;

const DECODE_IMAGES = `(async (limit) => {
  const images = [...document.images].slice(0, limit);
  await Promise.all(images.map((image) => image.decode().catch(() => undefined)));
})`;

export async function decodeImages(session: CDPSession): Promise<void> {
  // decoding that outlives the bound is left to settle (or fail, its page closed) unheard
  await withDeadline(callIsolated(session, 'decodeImages', DECODE_IMAGES, MAX_DECODED_IMAGES), DECODE_WAIT_MS, () => undefined);
}
