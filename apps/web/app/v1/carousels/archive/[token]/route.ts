import { groupArchiveRoute } from '../../../../../src/http/group-routes.ts';

export const GET = groupArchiveRoute('carousel');
