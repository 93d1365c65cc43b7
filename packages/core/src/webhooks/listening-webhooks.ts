import { Prisma } from '@svc/db';

/**
 * The destinations that listen for an event, as a query of their ids: the account's enabled
 * webhooks that selected the event's type. `accountId` is a value, or a column of the larger
 * statement this query stands in (finishRender asks whether any listens in the statement that
 * records the event; fanOutRenderEvent creates one delivery for each).
 */
export function listeningWebhooks(accountId: string | Prisma.Sql, type: string): Prisma.Sql {
  return Prisma.sql`SELECT w.id FROM webhooks w WHERE w.account_id = ${accountId} AND w.status = 'enabled' AND ${type} = ANY (w.events)`;
}
