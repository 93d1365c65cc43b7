import { renderItemRoutes } from '../../../../src/http/render-routes.ts';

export const { GET, DELETE } = renderItemRoutes('image');
