import type { ServiceContext } from '../shared/context.ts';
import { decodeCursor, encodeCursor } from '../shared/cursor.ts';
import { type Page, pageOf } from '../shared/records.ts';
import { type TestimonialRecord, testimonialIdPattern } from './list-testimonials.ts';

export interface ListPendingTestimonialsOptions {
  limit: number;
  cursor?: string;
}

/** Testimonials no operator has marked reviewed yet, newest first, keyset-paged. */
export async function listPendingTestimonials(ctx: ServiceContext, { limit, cursor }: ListPendingTestimonialsOptions): Promise<Page<TestimonialRecord>> {
  const after = cursor ? decodeCursor(cursor, testimonialIdPattern) : undefined;
  const rows = await ctx.db.testimonial.findMany({
    where: {
      reviewedAt: null,
      ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true, name: true, company: true, quote: true, createdAt: true, reviewedAt: true },
    take: limit + 1,
  });
  return pageOf(rows, limit, encodeCursor);
}
