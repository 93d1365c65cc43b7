// Worker thread that draws codes (draw-code.mjs, through this thread's drawing-cache.mjs) off the
// calling process's event loop: a large Data Matrix or PDF417 costs bwip-js up to seconds of CPU
// (qrcode draws a large QR code in about a tenth of a second), during which a renderer's
// other jobs would otherwise stand still. Plain JavaScript, so Node loads it directly: in the
// built worker process too, where it runs from this file on disk (scripts/build-service.mjs).
//
// One job at a time, its codes drawn in order; each drawing is sent as soon as it is made, so the
// parent knows which code was being drawn when it ends a job that overran (draw-in-thread.mjs).
//
// Messages in:  { id, requests: [{ kind, text, options }] }
// Messages out: { type: 'ready' } once the encoder is loaded
//               { type: 'drawn', id, index, svg } for each code
//               { type: 'done', id } when every code of the job is drawn
//               { type: 'refused', id, index, field, reason, detail } for the first code that cannot be
//               drawn (a CodeError: detail is its message without the field's name)
//               { type: 'failed', id, message } for any other error
import { parentPort } from 'node:worker_threads';
import { isCodeError } from './code-error.mjs';
import { drawCode } from './drawing-cache.mjs';

parentPort.on('message', (/** @type {{ id: number, requests: import('./index.mjs').DrawCodeInput[] }} */ job) => {
  for (const [index, request] of job.requests.entries()) {
    try {
      parentPort.postMessage({ type: 'drawn', id: job.id, index, svg: drawCode(request) });
    } catch (error) {
      if (isCodeError(error)) {
        parentPort.postMessage({ type: 'refused', id: job.id, index, field: error.field, reason: error.reason, detail: error.message.slice(error.field.length + 2) });
      } else {
        parentPort.postMessage({ type: 'failed', id: job.id, message: error instanceof Error ? error.message : String(error) });
      }
      return;
    }
  }
  parentPort.postMessage({ type: 'done', id: job.id });
});

parentPort.postMessage({ type: 'ready' });
