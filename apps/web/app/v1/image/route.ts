import { renderCollectionRoutes } from '../../../src/http/render-routes.ts';

export const { POST, GET } = renderCollectionRoutes('image');
