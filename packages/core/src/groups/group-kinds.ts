import { idPattern } from '@svc/contracts';
import type { GroupKind } from '@svc/db';

/** Id prefix and route segment of each kind of group (the contract's identifier rule and group routes). */
export const groupKinds = {
  batch: { prefix: 'batch_', path: 'batches' },
  carousel: { prefix: 'carousel_', path: 'carousels' },
  image_pack: { prefix: 'pack_', path: 'image-packs' },
} as const satisfies Record<GroupKind, { prefix: string; path: string }>;

/** The id of a group of any kind. */
export const groupIdPattern = idPattern(...Object.values(groupKinds).map((kind) => kind.prefix));

export type { GroupKind };
