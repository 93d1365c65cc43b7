// The DevTools pipe between puppeteer and Chromium (puppeteer's `pipe: true`: the child's fd 3
// carries commands, fd 4 answers and events, each message ended by a NUL byte). Two changes to
// how puppeteer uses it, both invisible to puppeteer: writes made in one tick go out together,
// and the bytes of a file that Chromium sends in an answer reach the caller without passing
// through puppeteer's JSON parse.
import type { Readable, Writable } from 'node:stream';
import type { Browser, CDPSession, Page, Protocol } from 'puppeteer-core';

/**
 * Puppeteer writes each DevTools message and then its terminator, each a write of its own and
 * so a system call of its own. Writes made in one tick are held (cork) and go out together
 * when the tick ends: one system call for a message, or for all messages sent at once.
 */
export function coalesceWrites(stream: Writable): void {
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  let corked = false;
  const flush = () => {
    corked = false;
    stream.uncork();
  };
  stream.write = ((...args: unknown[]) => {
    if (!corked) {
      corked = true;
      stream.cork();
      process.nextTick(flush);
    }
    return write(...args);
  }) as Writable['write'];
}

/** Answers at least this long are worth taking apart; shorter ones go to puppeteer as they are. */
const LARGE_ANSWER_BYTES = 64 * 1024;
const NUL = 0;
const QUOTE = 0x22;
/** `{"id":27,"result":{"data":"` — Chromium's order of keys in an answer carrying a file */
const DATA_ANSWER_HEAD = /^\{"id":\d+,"result":\{"data":"/;
/** what follows the data: the end of the result, the session's id when the answer is a page's */
const DATA_ANSWER_TAIL = /^"\}(?:,"sessionId":"([^"]+)")?\}$/;
const MAX_TAIL_BYTES = 128;

interface Expectation {
  bytes: Buffer | null;
}

/**
 * Chromium answers Page.printToPDF and Page.captureScreenshot with the whole file in base64
 * inside one JSON message.
 * Handed to puppeteer, a file of some hundred kilobytes becomes a string of the message's size
 * and then, from JSON.parse, a string of the data's size; V8 allocates what JSON.parse makes of
 * a message that large straight in the old generation, so every such render costs the process
 * a share of a full mark-compact of its heap. A session that is about to receive a file says
 * so; the answer's data is decoded from the pipe's bytes, and puppeteer is handed the same
 * message with an empty data string.
 */
export class DevToolsPipeReader {
  readonly #expected = new Map<string, Expectation>();
  #pending: Buffer[] = [];
  /** false until the first NUL: puppeteer may hold the start of a message read before attach */
  #inStep = false;

  constructor(read: Readable) {
    const emit = read.emit.bind(read) as (event: string | symbol, ...args: unknown[]) => boolean;
    read.emit = ((event: string | symbol, ...args: unknown[]) => {
      if (event !== 'data' || !Buffer.isBuffer(args[0])) return emit(event, ...args);
      for (const piece of this.#messages(args[0])) emit('data', piece);
      return true;
    }) as Readable['emit'];
  }

  /**
   * Takes the data of the next large answer to this session for the returned expectation, until
   * `forget`. One at a time per session, as a page's capture is.
   */
  expect(sessionId: string): Expectation {
    const expectation: Expectation = { bytes: null };
    this.#expected.set(sessionId, expectation);
    return expectation;
  }

  forget(sessionId: string, expectation: Expectation): void {
    if (this.#expected.get(sessionId) === expectation) this.#expected.delete(sessionId);
  }

  /** Complete messages, each with its NUL, as puppeteer's own reader expects them. */
  *#messages(chunk: Buffer): Generator<Buffer> {
    let start = 0;
    if (!this.#inStep) {
      const end = chunk.indexOf(NUL);
      if (end === -1) {
        yield chunk;
        return;
      }
      this.#inStep = true;
      yield chunk.subarray(0, end + 1);
      start = end + 1;
    }
    let end = chunk.indexOf(NUL, start);
    while (end !== -1) {
      const rest = chunk.subarray(start, end + 1);
      const message = this.#pending.length === 0 ? rest : Buffer.concat([...this.#pending, rest]);
      this.#pending = [];
      yield message.length > LARGE_ANSWER_BYTES ? this.#takeData(message) : message;
      start = end + 1;
      end = chunk.indexOf(NUL, start);
    }
    if (start < chunk.length) this.#pending.push(chunk.subarray(start));
  }

  /** The message with its data taken out, when it answers a session that expects a file. */
  #takeData(message: Buffer): Buffer {
    const head = DATA_ANSWER_HEAD.exec(message.toString('latin1', 0, 48));
    if (!head) return message;
    const dataStart = head[0].length;
    const dataEnd = message.indexOf(QUOTE, dataStart);
    // the message less its NUL; an answer to this command ends a few dozen bytes after its data
    if (dataEnd === -1 || message.length - dataEnd > MAX_TAIL_BYTES) return message;
    const tail = DATA_ANSWER_TAIL.exec(message.toString('latin1', dataEnd, message.length - 1));
    const expectation = tail && this.#expected.get(tail[1] ?? '');
    if (!expectation || expectation.bytes) return message;
    expectation.bytes = Buffer.from(message.toString('latin1', dataStart, dataEnd), 'base64');
    return Buffer.concat([message.subarray(0, dataStart), message.subarray(dataEnd)]);
  }
}

const readers = new WeakMap<Browser, DevToolsPipeReader>();

/** Reads the browser's DevTools answers through a DevToolsPipeReader from now on. */
export function readThroughPipeReader(browser: Browser, read: Readable): void {
  readers.set(browser, new DevToolsPipeReader(read));
}

/** Page.printToPDF on the page's session, the file in the answer; the file's bytes. */
export function printToPdf(page: Page, session: CDPSession, params: Protocol.Page.PrintToPDFRequest): Promise<Buffer> {
  return fileAnswer(page, session, 'Page.printToPDF', { ...params, transferMode: 'ReturnAsBase64' });
}

/** Page.captureScreenshot on the page's session; the image's bytes. */
export function captureScreenshot(page: Page, session: CDPSession, params: Protocol.Page.CaptureScreenshotRequest): Promise<Buffer> {
  return fileAnswer(page, session, 'Page.captureScreenshot', params);
}

/** A command whose answer is `{ data }`, a file in base64, sent so the pipe's reader takes the file (see DevToolsPipeReader). */
async function fileAnswer(
  page: Page,
  session: CDPSession,
  method: 'Page.printToPDF' | 'Page.captureScreenshot',
  params: Protocol.Page.PrintToPDFRequest | Protocol.Page.CaptureScreenshotRequest,
): Promise<Buffer> {
  const reader = readers.get(page.browser());
  const expectation = reader?.expect(session.id());
  try {
    const { data } = (await session.send(method, params)) as { data: string };
    return expectation?.bytes ?? Buffer.from(data, 'base64');
  } finally {
    if (expectation) reader?.forget(session.id(), expectation);
  }
}
