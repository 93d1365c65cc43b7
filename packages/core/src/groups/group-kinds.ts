import type { GroupKind } from '@svc/db';

/** The route segment of each kind of group (the contract's group routes); ids are minted from contracts' groupIdPrefixes. */
export const groupKinds = {
  batch: { path: 'batches' },
  carousel: { path: 'carousels' },
  image_pack: { path: 'image-packs' },
} as const satisfies Record<GroupKind, { path: string }>;

export { groupIdPattern } from '@svc/contracts';
export type { GroupKind };
