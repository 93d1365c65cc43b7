// Where the Renders pages live, and ids read for their kind.
export const rendersPath = '/dashboard/renders';
export const groupsPath = '/dashboard/renders/groups';

/** A render's kind from its id (pdf_ or image_), a group's from its id (batch_, carousel_, pack_); null for anything else. */
export { groupKindOf, renderKindOf } from '@svc/contracts';
