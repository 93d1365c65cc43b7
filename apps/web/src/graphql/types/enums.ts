import {
  artifactMediaTypes,
  artifactRemovedReasons,
  brandAssetMediaTypes,
  creditStates,
  groupStates,
  jobErrorCategories,
  jobStatuses,
  memberStates,
  planNames,
  webhookEventTypes,
} from '@svc/contracts';
import { auditActions, auditTargetTypes } from '@svc/core';
import { builder } from '../builder.ts';

/**
 * The GraphQL name of a value REST and the database spell in lower case: upper case, words
 * split at camelCase humps and at any other character (free_monthly -> FREE_MONTHLY,
 * image/png -> IMAGE_PNG, render.succeeded -> RENDER_SUCCEEDED, suspendAccount -> SUSPEND_ACCOUNT).
 */
function enumValueName(value: string): string {
  return value
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase();
}

/**
 * An enum whose GraphQL values are the upper-case names of the service's own values; resolvers
 * return and arguments arrive as the service's values, so only the schema speaks upper case. A
 * value spelled otherwise than its name in lower case (image/png) is described by that spelling.
 */
function serviceEnum<const T extends string>(name: string, values: readonly T[], description: string) {
  const entries = values.map((value) => {
    const valueName = enumValueName(value);
    return [valueName, valueName.toLowerCase() === value ? { value } : { value, description: value }] as const;
  });
  const names = Object.fromEntries(entries);
  if (Object.keys(names).length !== values.length) throw new Error(`${name}: two values share a GraphQL name`);
  return builder.enumType(name, { description, values: names as Record<string, { value: T; description?: string }> });
}

export const PlanEnum = serviceEnum('Plan', planNames, 'An account plan.');
export const AccountStatusEnum = serviceEnum('AccountStatus', ['active', 'suspended'], 'Whether an account may work.');
export const CreditBucketEnum = serviceEnum('CreditBucket', ['free_monthly', 'trial', 'pack', 'subscription'], 'A bucket of credits, as GET /v1/me names it.');
export const RenderKindEnum = serviceEnum('RenderKind', ['pdf', 'image'], 'What a render job makes.');
export const JobStatusEnum = serviceEnum('JobStatus', jobStatuses, 'A render job\'s state.');
export const JobCreditEnum = serviceEnum('JobCredit', creditStates, 'What happened to a render job\'s credit.');
export const JobErrorCategoryEnum = serviceEnum('JobErrorCategory', jobErrorCategories, 'Why a render job failed, broadly (its error code says exactly).');
export const ApiKeyStatusEnum = serviceEnum('ApiKeyStatus', ['active', 'revoked'], 'Whether an API key still works.');
export const ArtifactMediaTypeEnum = serviceEnum('ArtifactMediaType', artifactMediaTypes, 'The media type of a rendered file.');
export const ArtifactRemovedReasonEnum = serviceEnum('ArtifactRemovedReason', artifactRemovedReasons, 'Why a rendered file is gone.');
export const RenderFormatEnum = serviceEnum('RenderFormat', ['pdf', 'png', 'jpeg', 'webp'], 'The file format a group renders.');
export const GroupKindEnum = serviceEnum('GroupKind', ['batch', 'carousel', 'image_pack'], 'A batch, carousel or image pack.');
export const GroupStateEnum = serviceEnum('GroupState', groupStates, 'A group\'s state, as REST shows it.');
export const GroupMemberStateEnum = serviceEnum('GroupMemberState', memberStates, 'A group member\'s state, as REST shows it.');
export const BrandAssetKindEnum = serviceEnum('BrandAssetKind', ['logo', 'font'], 'What a brand asset is.');
export const BrandAssetMediaTypeEnum = serviceEnum('BrandAssetMediaType', brandAssetMediaTypes, 'The media type of a brand asset.');
export const WebhookStatusEnum = serviceEnum('WebhookStatus', ['enabled', 'disabled'], 'Whether a webhook destination receives deliveries.');
export const WebhookDisabledReasonEnum = serviceEnum('WebhookDisabledReason', ['owner_request', 'delivery_failure'], 'Why a webhook destination was disabled.');
export const WebhookEventEnum = serviceEnum('WebhookEvent', webhookEventTypes, 'A webhook event type.');
export const ServiceStateEnum = serviceEnum('ServiceState', ['operational', 'degraded', 'downtime', 'maintenance', 'unavailable'], 'The service\'s state, as GET /v1/public-stats reports it.');
export const AuditActionEnum = serviceEnum('AuditAction', auditActions, 'An operator action: the mutation that made it.');
export const AuditTargetTypeEnum = serviceEnum('AuditTargetType', auditTargetTypes, 'The kind of object an operator action was on.');
