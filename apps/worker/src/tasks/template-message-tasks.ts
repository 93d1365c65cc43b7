import { recoverTemplateMessages, runTemplateMessage, type TaskPayload } from '@svc/core';
import type { TaskHandlerContext } from './task-handler-context.ts';

export async function templateMessageTask(payload: TaskPayload<'template_message'>, { ctx }: TaskHandlerContext) {
  await runTemplateMessage(ctx, { messageId: payload.message_id });
}

export async function recoverTemplateMessagesTask(_payload: TaskPayload<'recover_template_messages'>, { ctx }: TaskHandlerContext) {
  await recoverTemplateMessages(ctx);
}
