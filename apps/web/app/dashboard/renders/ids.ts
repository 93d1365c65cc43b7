// Where the Renders pages live, and ids read for their kind.
import type { GroupKind } from '@svc/core';

export const rendersPath = '/dashboard/renders';
export const groupsPath = '/dashboard/renders/groups';

/** A render's kind from its id (pdf_ or image_); null for anything else. */
export { renderKindOf } from '@svc/contracts';

/** A group's kind from its id (batch_, carousel_, pack_); null for anything else. */
export function groupKindOf(id: string): GroupKind | null {
  return id.startsWith('batch_') ? 'batch' : id.startsWith('carousel_') ? 'carousel' : id.startsWith('pack_') ? 'image_pack' : null;
}
