// @svc/codes: barcodes and 2D codes drawn as SVG, and the payment payloads printed in them.
// Pure functions without I/O: a template's filters call them synchronously on the sandbox's own
// thread, and the renderer draws <svc-code> elements with drawCodesInThread, off its event loop.
// Plain JavaScript (types in index.d.mts), so that a worker thread loads it with Node alone.
export { CodeError, isCodeError, codeErrorReasons } from './code-error.mjs';
export { codeModules, codeKinds, codeKindRules, errorCorrectionLevels } from './draw-code.mjs';
export { drawCode } from './drawing-cache.mjs';
export { drawCodesInThread } from './draw-in-thread.mjs';
export { epcPayload, checkEpcPayload, maxEpcPayloadBytes } from './epc-payload.mjs';
export { swissQrBillPayload, checkSwissQrBillPayload, maxSwissQrBillPayloadChars } from './swiss-qr-bill-payload.mjs';
