// Types of @svc/codes (plain JavaScript modules, so that a worker thread loads them with Node alone).

// --- code-error.mjs

export declare const codeErrorReasons: readonly ['invalid_kind', 'invalid_option', 'invalid_character', 'invalid_format', 'check_digit', 'too_long', 'out_of_range', 'missing'];
export type CodeErrorReason = (typeof codeErrorReasons)[number];

/**
 * The one error every function of this package throws for input it cannot draw or build: which
 * field is wrong and why. The message names the field and the rule, never repeats the input.
 */
export declare class CodeError extends Error {
  readonly code: 'code_invalid_input';
  /** the field at fault: "value" for a symbol's text, an option's name, or a payload field ("iban", "creditor.town") */
  readonly field: string;
  readonly reason: CodeErrorReason;
  constructor(field: string, reason: CodeErrorReason, message: string);
}

export declare function isCodeError(error: unknown): error is CodeError;

// --- draw-code.mjs

export declare const codeKinds: readonly ['qr', 'code128', 'ean13', 'upca', 'datamatrix', 'pdf417', 'swissqr', 'epc'];
export type CodeKind = (typeof codeKinds)[number];
export declare const errorCorrectionLevels: readonly ['L', 'M', 'Q', 'H'];
export type ErrorCorrectionLevel = (typeof errorCorrectionLevels)[number];

export interface CodeOptions {
  /** QR only: error correction L, M (default), Q or H. EPC and Swiss codes are always M, as their specifications ask. */
  ecc?: ErrorCorrectionLevel;
  /** Light margin around the symbol, in modules (0 to 40); a linear code's at its sides (two modules above and below). */
  quietZone?: number;
  /** The drawing's width, quiet zone included, as a length (px, mm, cm, in); its height follows the symbol's proportions. */
  size?: string;
  /** Code 128, EAN-13, UPC-A: the bars' height as a length; the digits under EAN and UPC bars add to it. */
  height?: string;
  /** Code 128, EAN-13, UPC-A: the digits under the bars (default: yes for EAN and UPC, no for Code 128). */
  humanReadable?: boolean;
}

export interface DrawCodeInput {
  kind: CodeKind;
  text: string;
  options?: CodeOptions;
}

export interface KindRules {
  bcid: string;
  label: string;
  /** the label with its article, for messages */
  named: string;
  /** default quiet zone, in modules */
  quietZone: number;
  /** the longest value checked before encoding, in UTF-8 bytes: it bounds the encoder's work */
  maxBytes: number;
  /** a module's side in mm at the default size (linear: a bar module's width) */
  moduleMm: number;
  linear: boolean;
}

/** Per kind: bwip-js's symbology (qr and epc: the symbology qrcode encodes), the default quiet zone (the symbology's minimum or more), the length cap and the default module size. */
export declare const codeKindRules: Readonly<Record<CodeKind, KindRules>>;

/**
 * The symbol as one SVG element with width, height and viewBox. Throws a CodeError for a value
 * the symbology cannot carry (with the field and the rule) or an option out of range.
 */
export declare function drawCode(input: DrawCodeInput): string;

export interface CodeModules {
  /** modules a row */
  columns: number;
  /** rows of modules */
  rows: number;
  /** a row's height in modules: 1, but 3 for PDF417's rows */
  rowHeight: number;
  /** row by row, 1 for a dark module */
  modules: number[];
}

/**
 * The encoder's module matrix of a 2D code, checked as drawCode checks it: what a drawing must
 * show, module for module. A reader's check for symbols that common decoders do not read (PDF417).
 */
export declare function codeModules(input: DrawCodeInput): CodeModules;

// --- draw-in-thread.mjs

export type CodeDrawingResult =
  | { outcome: 'drawn'; drawings: string[] }
  /** the first code that cannot be drawn, and why */
  | { outcome: 'refused'; index: number; error: CodeError }
  /** timeoutMs ran out while the code at index was being drawn */
  | { outcome: 'timed_out'; index: number };

/**
 * Draws the codes in order on the drawing thread, off the caller's event loop: every drawing, or
 * the first code that cannot be drawn, or the index of the code being drawn when timeoutMs of
 * the job's own drawing time ran out (the thread is then replaced). Rejects when the thread fails.
 */
export declare function drawCodesInThread(requests: DrawCodeInput[], options: { timeoutMs: number }): Promise<CodeDrawingResult>;

// --- epc-payload.mjs

export interface EpcPayloadInput {
  /** the beneficiary, at most 70 characters */
  name: string;
  iban: string;
  /** 8 or 11 characters; optional in version 002 within the EEA */
  bic?: string;
  /** in euros, 0.01 to 999,999,999.99; none lets the payer enter it */
  amount?: number | string;
  currency?: 'EUR';
  /** a 4-letter ISO 20022 purpose code */
  purpose?: string;
  /** a structured creditor reference, at most 35 characters (ISO 11649 "RF..." is checked) */
  reference?: string;
  /** unstructured remittance text, at most 140 characters; not with a reference */
  text?: string;
  /** beneficiary to payer information, at most 70 characters */
  information?: string;
}

/** The payload the guidelines allow at most, in UTF-8 bytes. */
export declare const maxEpcPayloadBytes: number;

/** The EPC QR payload of a credit transfer, validated field by field. */
export declare function epcPayload(input: EpcPayloadInput): string;

/** Checks a payload written by hand (the raw HTML element's value) field by field, as epcPayload does. */
export declare function checkEpcPayload(payload: string): void;

// --- swiss-qr-bill-payload.mjs

export interface SwissAddress {
  /** at most 70 characters */
  name: string;
  /** at most 70 characters */
  street?: string;
  /** at most 16 characters */
  buildingNumber?: string;
  /** at most 16 characters */
  postalCode: string;
  /** at most 35 characters */
  town: string;
  /** ISO 3166-1 alpha-2 */
  country: string;
}

export interface SwissQrBillInput {
  /** the creditor's IBAN or QR-IBAN, CH or LI */
  account: string;
  creditor: SwissAddress;
  /** 0.01 to 999,999,999.99; none lets the payer enter it */
  amount?: number | string;
  currency: 'CHF' | 'EUR';
  debtor?: SwissAddress;
  /** a QR reference (27 digits, with a QR-IBAN) or a creditor reference (RF..., with an IBAN); none with an IBAN */
  reference?: string;
  /** at most 140 characters together with billInformation */
  message?: string;
  /** structured bill information ("//S1/..."), at most 140 characters together with message */
  billInformation?: string;
  /** at most two, each at most 100 characters */
  alternativeProcedures?: string[];
}

/** The whole payload, in characters. */
export declare const maxSwissQrBillPayloadChars: number;

/** The Swiss QR code payload of a QR-bill, validated element by element. */
export declare function swissQrBillPayload(input: SwissQrBillInput): string;

/** Checks a payload written by hand (the raw HTML element's value) element by element, as swissQrBillPayload does. */
export declare function checkSwissQrBillPayload(payload: string): void;
