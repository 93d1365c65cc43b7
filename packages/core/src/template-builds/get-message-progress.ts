import { idPattern, templateMessageIdPrefix } from '@svc/contracts';
import type { TemplateMessage } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';

export interface GetMessageProgressOptions {
  accountId: string;
  messageId: string;
}

export interface MessageProgress {
  message: TemplateMessage;
  /** Whole seconds since acceptance, frozen when the message ended. */
  elapsedSeconds: number;
  /** The median of the service's last 20 succeeded model messages, or null. */
  typicalSeconds: number | null;
}

/** Where one message of the account (a build's or a chat's) stands; anything foreign, missing or malformed answers 404 not_found. */
export async function getMessageProgress(ctx: ServiceContext, { accountId, messageId }: GetMessageProgressOptions): Promise<MessageProgress> {
  if (!idPattern(templateMessageIdPrefix).test(messageId)) throw notFound();
  const message = await ctx.db.templateMessage.findFirst({ where: { id: messageId, accountId } });
  if (!message) throw notFound();
  const end = message.finishedAt ?? ctx.clock();
  return {
    message,
    elapsedSeconds: Math.max(0, Math.floor((end.getTime() - message.createdAt.getTime()) / 1000)),
    typicalSeconds: await typicalMessageSeconds(ctx),
  };
}

/** How long model messages take lately, for progress estimates: the median of the last 20 that succeeded. */
export async function typicalMessageSeconds(ctx: ServiceContext): Promise<number | null> {
  const rows = await ctx.db.$queryRaw<{ seconds: number | null }[]>`
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM finished_at - created_at))::float AS seconds
      FROM (SELECT created_at, finished_at FROM template_messages
             WHERE state = 'succeeded' AND credits > 0 AND finished_at IS NOT NULL
             ORDER BY finished_at DESC LIMIT 20) AS recent`;
  const seconds = rows[0]?.seconds;
  return seconds === null || seconds === undefined ? null : Math.round(seconds);
}
