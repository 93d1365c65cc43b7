import { builder } from '../builder.ts';

export const PlanEnum = builder.enumType('Plan', { values: ['scale', 'growth', 'starter', 'pack', 'free'] as const });
export const AccountStatusEnum = builder.enumType('AccountStatus', { values: ['active', 'suspended'] as const });
export const CreditBucketEnum = builder.enumType('CreditBucket', { values: ['free_monthly', 'trial', 'pack', 'subscription'] as const });
export const RenderKindEnum = builder.enumType('RenderKind', { values: ['pdf', 'image'] as const });
export const JobStatusEnum = builder.enumType('JobStatus', { values: ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const });
export const JobCreditEnum = builder.enumType('JobCredit', { values: ['reserved', 'settled', 'released', 'none'] as const });
export const ApiKeyStatusEnum = builder.enumType('ApiKeyStatus', { values: ['active', 'revoked'] as const });
