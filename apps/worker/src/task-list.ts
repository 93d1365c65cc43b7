import { type ServiceContext, type TaskName, type TaskPayload, taskCatalog } from '@svc/core';
import type { JobHelpers, TaskList } from 'graphile-worker';
import { monthlyCreditReset } from './tasks/monthly-credit-reset.ts';

export interface TaskHandlerContext {
  ctx: ServiceContext;
  helpers: JobHelpers;
}

type Handlers = { [N in TaskName]: (payload: TaskPayload<N>, context: TaskHandlerContext) => Promise<void> };

const handlers: Handlers = {
  monthly_credit_reset: monthlyCreditReset,
};

/** Every catalog task with its handler; the payload is parsed against the catalog schema on dequeue. */
export function buildTaskList(ctx: ServiceContext): TaskList {
  const list: TaskList = {};
  for (const name of Object.keys(taskCatalog) as TaskName[]) {
    const handler = handlers[name] as (payload: unknown, context: TaskHandlerContext) => Promise<void>;
    list[name] = async (payload, helpers) => {
      const parsed = taskCatalog[name].payload.parse(payload);
      await handler(parsed, { ctx, helpers });
    };
  }
  return list;
}
