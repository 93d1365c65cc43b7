import { randomUUID } from 'node:crypto';
import { takeRateToken } from '../limits/rate-limit.ts';
import { clientSubject } from '../limits/client-subject.ts';
import type { ServiceContext } from '../shared/context.ts';
import { redeemCaptcha } from './captcha.ts';

export interface SubmitTestimonialOptions {
  name: string;
  company: string;
  quote: string;
  captchaToken: string;
  /** The caller's network address: the per-client limit. */
  clientAddress: string;
}

/**
 * Stores a testimonial for private review (never published here). The CAPTCHA solution, the
 * per-client rate token and the row are one transaction: a refusal uses up nothing.
 */
export async function submitTestimonial(ctx: ServiceContext, options: SubmitTestimonialOptions): Promise<{ id: string }> {
  const now = ctx.clock();
  return ctx.db.$transaction(async (tx) => {
    await redeemCaptcha(ctx, tx, options.captchaToken);
    await takeRateToken(tx, 'testimonial', clientSubject(options.clientAddress), now, 'testimonial_rate_limited');
    const testimonial = await tx.testimonial.create({
      data: { id: randomUUID(), name: options.name, company: options.company, quote: options.quote, clientAddress: options.clientAddress, createdAt: now },
    });
    return { id: testimonial.id };
  });
}
