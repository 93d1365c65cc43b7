// A render's download from the dashboard: a signed download link minted now (the same link
// /v1 hands out), and the browser sent to it; the page never holds a link that may have lapsed.
import { getRender, mintDownloadLink } from '@svc/core';
import { NextResponse } from 'next/server';
import { fileNotFound, serveRenderFile } from '../render-file-route.ts';

export function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return serveRenderFile(params, 'No such render.', async ({ ctx, ...render }) => {
    const link = await mintDownloadLink(ctx, await getRender(ctx, render));
    if (!link) return fileNotFound('This file is no longer kept (it expired or was deleted).');
    return NextResponse.redirect(link.url, 303);
  });
}
