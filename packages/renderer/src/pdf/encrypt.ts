// AES-256 open password through qpdf. The password must not appear on a command line (other
// users can read /proc/*/cmdline) and qpdf cannot read its job file from a pipe, so it goes in a
// job file inside a private directory (mkdtemp creates it 0700) that is removed in all cases.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RenderError } from '@svc/contracts';

const QPDF = 'qpdf';
const QPDF_TIMEOUT_MS = 30_000;

export async function encryptPdf(pdf: Uint8Array, password: string): Promise<Uint8Array> {
  const directory = await mkdtemp(join(tmpdir(), 'svc-pdf-'));
  try {
    const input = join(directory, 'in.pdf');
    const output = join(directory, 'out.pdf');
    const job = join(directory, 'job.json');
    await writeFile(input, pdf, { mode: 0o600 });
    const settings = {
      inputFile: input,
      outputFile: output,
      // a random owner password nobody knows: the restrictions cannot be lifted with it
      encrypt: { userPassword: password, ownerPassword: randomBytes(24).toString('base64url'), '256bit': {} },
    };
    await writeFile(job, JSON.stringify(settings), { mode: 0o600 });
    await runQpdf([`--job-json-file=${job}`]);
    return await readFile(output);
  } finally {
    await rm(directory, { recursive: true, force: true, maxRetries: 3 });
  }
}

function runQpdf(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(QPDF, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: QPDF_TIMEOUT_MS });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2_000);
    });
    child.on('error', (error) => reject(new RenderError('internal_failure', 'pdf_encryption_failed', 'qpdf could not run', { cause: error })));
    child.on('close', (code) => {
      // exit code 3 means success with warnings
      if (code === 0 || code === 3) resolve();
      else reject(new RenderError('internal_failure', 'pdf_encryption_failed', `qpdf exited with ${code}: ${stderr}`));
    });
  });
}
