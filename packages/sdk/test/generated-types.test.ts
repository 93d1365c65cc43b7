// The checked-in types must be what the contract generates today.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generatedTypesPath, regenerateCommand, renderOpenApiTypes } from '../scripts/openapi-types.ts';

describe('generated OpenAPI types', () => {
  it('match the contract; a stale file names the command that rewrites it', async () => {
    const fresh = await renderOpenApiTypes();
    const checkedIn = await readFile(generatedTypesPath, 'utf8');
    expect(fresh).toContain('export interface paths');
    const stale = checkedIn !== fresh;
    expect(stale, `packages/sdk/src/generated/openapi.ts is stale: run \`${regenerateCommand}\` and commit the result`).toBe(false);
  });
});
