import type { FailureRate, OperatorActionRecord, OperatorServiceStatus, TestimonialRecord } from '@svc/core';
import { builder } from '../builder.ts';
import { AuditActionEnum, AuditTargetTypeEnum, JobErrorCategoryEnum, ServiceStateEnum } from './enums.ts';

const FailureRateType = builder.objectRef<FailureRate>('FailureRate').implement({
  fields: (t) => ({
    category: t.field({ type: JobErrorCategoryEnum, resolve: (rate) => rate.category }),
    failed: t.exposeInt('failed'),
    rate: t.exposeFloat('rate', { description: 'failed / jobs that finished (succeeded or failed) in the last hour.' }),
  }),
});

export const ServiceStatus = builder.objectRef<OperatorServiceStatus>('ServiceStatus').implement({
  description: 'The service now: queue, workers, browsers, failures of the last hour, heartbeat uptime. Never cached.',
  fields: (t) => ({
    status: t.field({ type: ServiceStateEnum, description: 'As GET /v1/public-stats reports it.', resolve: (status) => status.status }),
    backlog: t.exposeInt('queued', { description: 'Render jobs waiting for a worker.' }),
    running: t.exposeInt('running'),
    workersSeen: t.exposeInt('workersSeen', { description: 'Worker processes that reported within the last three minutes.' }),
    browserRestarts: t.exposeInt('browserRestarts', {
      description: 'Browser replacements (planned recycles and crashes) of the workers seen in the last hour, since each started.',
    }),
    finishedLastHour: t.exposeInt('finishedLastHour'),
    failureRates: t.field({ type: [FailureRateType], description: 'Failures of the last hour by error category.', resolve: (status) => status.failureRates }),
    uptimePercent: t.exposeFloat('uptimePercent', { nullable: true, description: 'Heartbeat uptime of the last 90 days; null below an hour of records.' }),
    uptimeDays: t.exposeInt('uptimeDays'),
  }),
});

export const Testimonial = builder.objectRef<TestimonialRecord>('Testimonial').implement({
  description: 'A testimonial sent from the service page, for private review.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name', { description: 'CUSTOMER CONTENT.' }),
    company: t.exposeString('company', { description: 'CUSTOMER CONTENT.' }),
    quote: t.exposeString('quote', { description: 'CUSTOMER CONTENT.' }),
    createdAt: t.field({ type: 'DateTime', resolve: (item) => item.createdAt }),
    reviewedAt: t.field({ type: 'DateTime', nullable: true, resolve: (item) => item.reviewedAt }),
  }),
});

export const AuditEntry = builder.objectRef<OperatorActionRecord>('AuditEntry').implement({
  description: 'One operator action: who (the token and its name then), what, on which object, when.',
  fields: (t) => ({
    id: t.exposeID('id'),
    operatorTokenId: t.exposeID('operatorTokenId'),
    operatorName: t.exposeString('operatorName'),
    action: t.field({ type: AuditActionEnum, description: 'The mutation that made it.', resolve: (entry) => entry.action }),
    targetType: t.field({ type: AuditTargetTypeEnum, resolve: (entry) => entry.targetType }),
    targetId: t.exposeID('targetId'),
    details: t.field({ type: 'JSON', description: 'The action\'s own arguments (bucket, amount, reason, plans, ...).', resolve: (entry) => entry.details }),
    createdAt: t.field({ type: 'DateTime', resolve: (entry) => entry.createdAt }),
  }),
});
