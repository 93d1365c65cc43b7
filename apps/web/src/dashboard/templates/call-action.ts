import type { ActionResult, SessionAction } from '../actions.ts';
import { csrfFieldName } from '../csrf.ts';

/** Calls a session action from a client component with the page's CSRF token. */
export function callAction<T>(action: SessionAction<T>, csrfToken: string, input: Record<string, unknown>): Promise<ActionResult<T>> {
  return action(null, { ...input, [csrfFieldName]: csrfToken });
}
