// Checking a tenant's upload (an image's pixels, a font's tables) needs the sandbox its parser
// runs in (@svc/sandbox). A machine without one (no bubblewrap or user namespaces, and not the
// development flag) cannot check uploads: the upload is not at fault, so it is refused as the
// service being unable to take it now (503 overloaded), never as an invalid file or a 500, and
// the web process says why in its log when it starts.
import { sandboxLauncher, SandboxUnavailableError } from '@svc/sandbox';
import { DomainError } from './errors.ts';

/** Long enough for an operator to install bubblewrap; a client retrying sooner only gets the same answer. */
const retryAfterSeconds = 30;

/** Passes `error` on, except a missing sandbox, which becomes 503 overloaded. */
export function refuseWithoutSandbox(error: unknown): never {
  if (error instanceof SandboxUnavailableError) throw new DomainError('overloaded', { retryAfterSeconds });
  throw error;
}

/** Why this machine can check no upload, or null when the sandbox starts. */
export function missingUploadSandbox(): string | null {
  try {
    sandboxLauncher();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
