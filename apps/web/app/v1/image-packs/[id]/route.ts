import { groupGetRoute } from '../../../../src/http/group-routes.ts';

export const GET = groupGetRoute('image_pack');
