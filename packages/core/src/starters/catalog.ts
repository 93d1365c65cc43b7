import { annualReportStarter } from './annual-report.ts';
import { certificateStarter } from './certificate.ts';
import { eventTicketStarter } from './event-ticket.ts';
import { invoiceStarter } from './invoice.ts';
import { multilingualCertificateStarter } from './multilingual-certificate.ts';
import { receiptStarter } from './receipt.ts';
import { reportCoverStarter } from './report-cover.ts';
import { socialCardStarter } from './social-card.ts';
import type { Starter } from './starter.ts';

/** The public starter gallery, in the order the dashboard shows it. */
export const starters: readonly Starter[] = [
  invoiceStarter,
  receiptStarter,
  certificateStarter,
  multilingualCertificateStarter,
  socialCardStarter,
  eventTicketStarter,
  reportCoverStarter,
  annualReportStarter,
];
