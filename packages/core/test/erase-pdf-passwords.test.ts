// Migration 0022: jobs that ended before passwords were erased at the end lose theirs, and the
// idempotency records of their requests no longer hold a plain hash that includes one.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newId } from '../src/shared/ids.ts';
import { migrationsDir } from '@svc/db/admin';
import { describe, expect, it } from 'vitest';
import { accountWith, useTestContext } from './support.ts';

const test = useTestContext();
const { ctx } = test;

describe('migration 0021_erase_finished_pdf_passwords', () => {
  it('erases the passwords of ended jobs, keeps those of live ones, and voids their fingerprints', async () => {
    const account = await accountWith(ctx, { plan: 'scale' });
    const options = (password?: string) => ({ kind: 'pdf', pdf: { format: 'A4', ...(password ? { password } : {}) } });
    const jobs = [
      { id: newId('pdf_'), status: 'succeeded', options: options('old secret 1') },
      { id: newId('pdf_'), status: 'failed', options: options('old secret 2') },
      { id: newId('pdf_'), status: 'queued', options: options('live secret') },
      { id: newId('pdf_'), status: 'succeeded', options: options() },
    ] as const;
    for (const [index, job] of jobs.entries()) {
      await ctx.db.renderJob.create({ data: { id: job.id, accountId: account.accountId, kind: 'pdf', filename: 'doc', status: job.status, options: job.options } });
      await ctx.db.idempotencyRecord.create({ data: { accountId: account.accountId, kind: 'pdf', key: `k${index}`, fingerprint: 'a'.repeat(64), jobId: job.id } });
    }

    const sql = await readFile(join(migrationsDir, '0021_erase_finished_pdf_passwords', 'migration.sql'), 'utf8');
    const statements = sql.replace(/--.*$/gm, '').split(';').map((statement) => statement.trim()).filter(Boolean);
    for (const statement of statements) await ctx.db.$executeRawUnsafe(statement);

    const rows = await ctx.db.renderJob.findMany({ where: { accountId: account.accountId } });
    const byId = new Map(rows.map((row) => [row.id, row.options as any]));
    expect(byId.get(jobs[0].id)).toEqual({ kind: 'pdf', pdf: { format: 'A4' }, pdf_password_erased: true });
    expect(byId.get(jobs[1].id)).toEqual({ kind: 'pdf', pdf: { format: 'A4' }, pdf_password_erased: true });
    expect(byId.get(jobs[2].id).pdf.password).toBe('live secret');
    expect(byId.get(jobs[3].id)).toEqual(options());
    const fingerprints = await ctx.db.idempotencyRecord.findMany({ where: { accountId: account.accountId }, orderBy: { key: 'asc' } });
    expect(fingerprints.map((record) => record.fingerprint)).toEqual(['erased', 'erased', 'erased', 'a'.repeat(64)]);
  });
});
