import type { ServiceContext } from '../shared/context.ts';

/** A testimonial's id: a lowercase UUID, as Postgres writes it. */
export const testimonialIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface TestimonialRecord {
  id: string;
  name: string;
  company: string;
  quote: string;
  createdAt: Date;
  /** When an operator marked it reviewed; null while pending. */
  reviewedAt: Date | null;
}

/** Every submitted testimonial, newest first, for the operator's private review. */
export async function listTestimonials(ctx: ServiceContext): Promise<TestimonialRecord[]> {
  return ctx.db.testimonial.findMany({
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true, name: true, company: true, quote: true, createdAt: true, reviewedAt: true },
  });
}
