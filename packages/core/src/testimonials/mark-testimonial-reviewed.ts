import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import { type TestimonialRecord, testimonialIdPattern } from './list-testimonials.ts';

export interface MarkTestimonialReviewedOptions {
  testimonialId: string;
  /** The operator token that reviewed it. */
  reviewedBy: string;
}

/** Takes a testimonial off the pending list; repeating keeps the first review's time and reviewer. */
export async function markTestimonialReviewed(ctx: ServiceContext, { testimonialId, reviewedBy }: MarkTestimonialReviewedOptions): Promise<TestimonialRecord> {
  if (!testimonialIdPattern.test(testimonialId)) throw notFound();
  await ctx.db.testimonial.updateMany({ where: { id: testimonialId, reviewedAt: null }, data: { reviewedAt: ctx.clock(), reviewedBy } });
  const testimonial = await ctx.db.testimonial.findUnique({
    where: { id: testimonialId },
    select: { id: true, name: true, company: true, quote: true, createdAt: true, reviewedAt: true },
  });
  if (!testimonial) throw notFound();
  return testimonial;
}
