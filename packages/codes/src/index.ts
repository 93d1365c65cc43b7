// @svc/codes: barcodes and 2D codes drawn as SVG, and the payment payloads printed in them.
// Pure functions without I/O: the renderer expands <svc-code> elements with them and a
// template can call them synchronously.
export { CodeError, isCodeError, codeErrorReasons, type CodeErrorReason } from './code-error.ts';
export { drawCode, codeModules, codeKinds, codeKindRules, errorCorrectionLevels, type CodeKind, type CodeModules, type CodeOptions, type DrawCodeInput, type ErrorCorrectionLevel } from './draw-code.ts';
export { epcPayload, checkEpcPayload, maxEpcPayloadBytes, type EpcPayloadInput } from './epc-payload.ts';
export { swissQrBillPayload, checkSwissQrBillPayload, maxSwissQrBillPayloadChars, type SwissQrBillInput, type SwissAddress } from './swiss-qr-bill-payload.ts';
