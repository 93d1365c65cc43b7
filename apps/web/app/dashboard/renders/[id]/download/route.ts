// A render's download from the dashboard: a signed download link minted now (the same link
// /v1 hands out), and the browser sent to it; the page never holds a link that may have lapsed.
import { DomainError, getRender, mintDownloadLink } from '@svc/core';
import { NextResponse } from 'next/server';
import { requireSession } from '../../../../../src/dashboard/session.ts';
import { renderKindOf } from '../../ids.ts';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { ctx, accountId } = await requireSession();
  const { id } = await params;
  const kind = renderKindOf(id);
  try {
    if (!kind) throw new DomainError('not_found');
    const link = await mintDownloadLink(ctx, await getRender(ctx, { accountId, kind, jobId: id }));
    if (!link) return unavailable('This file is no longer kept (it expired or was deleted).');
    return NextResponse.redirect(link.url, 303);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') return unavailable('No such render.');
    throw error;
  }
}

function unavailable(message: string) {
  return new NextResponse(message, { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
}
