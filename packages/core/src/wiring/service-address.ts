// Where the service started from a data directory answers, written by `npm start` into that
// directory once the service is ready, so the operator CLI run from the same checkout hands
// out links to the port the service runs on (and finds its embedded database) without being
// told PORT again. The file names no secret: a DATABASE_URL is never written.
import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

const fileName = 'service.json';

const ServiceAddress = z.object({
  /** The base of the links the service hands out (its SVC_PUBLIC_URL, or localhost and its PORT). */
  public_url: z.string().url(),
  /** The embedded PostgreSQL's port; null when the service runs on a DATABASE_URL. */
  embedded_database_port: z.number().int().positive().nullable(),
  started_at: z.string(),
});
export type ServiceAddress = z.infer<typeof ServiceAddress>;

export async function writeServiceAddress(dataDir: string, address: ServiceAddress): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, fileName);
  // written whole then renamed, so a reader never sees half a file
  await writeFile(`${path}.tmp`, `${JSON.stringify(address, null, 2)}\n`, { mode: 0o600 });
  await rename(`${path}.tmp`, path);
}

/** The address the service last started with from `dataDir`, or null when it never has. */
export function readServiceAddress(dataDir: string): ServiceAddress | null {
  let text: string;
  try {
    text = readFileSync(join(dataDir, fileName), 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = ServiceAddress.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
