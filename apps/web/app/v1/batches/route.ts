import { groupCreateRoute } from '../../../src/http/group-routes.ts';

export const POST = groupCreateRoute('batch');
