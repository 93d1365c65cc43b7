import { groupRetryRoute } from '../../../../../src/http/group-routes.ts';

export const POST = groupRetryRoute('image_pack');
