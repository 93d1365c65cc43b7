'use server';
import { requestEmailIdentity } from '@svc/core';
import { z } from 'zod';
import { sessionAction } from '../../../src/dashboard/actions.ts';

/** Mails a link that proves the address for this account; opening it in this browser session confirms it. */
export const addEmail = sessionAction(z.object({ email: z.string().trim().min(3).max(320) }), async ({ email }, { ctx, principal }) => {
  await requestEmailIdentity(ctx, { principal, email, next: '/dashboard/account?email=confirmed' });
  return { email };
});
