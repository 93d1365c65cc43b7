import type { ServiceContext } from '../shared/context.ts';

export interface EndSessionOptions {
  sessionId: string;
}

/** Signs a session out; its cookie authenticates nothing afterwards. Ending an ended session changes nothing. */
export async function endSession(ctx: ServiceContext, { sessionId }: EndSessionOptions): Promise<void> {
  await ctx.db.session.updateMany({ where: { id: sessionId, endedAt: null }, data: { endedAt: ctx.clock(), endReason: 'sign_out' } });
}
