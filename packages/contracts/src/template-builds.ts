// AI template builds (the contract's AI builds): inputs, output intents, messages, drafts and publications.
import { z } from 'zod';
import { BrandKitId } from './brand-kits.ts';
import { idPattern, idSchema } from './common.ts';
import { named } from './registry.ts';
import { renderIdPattern } from './renders.ts';
import { canvasHeight, canvasWidth, TemplateId, TemplateSchemaField } from './templates.ts';

export const templateBuildIdPrefix = 'build_';
export const templateMessageIdPrefix = 'msg_';
export const TemplateBuildId = idSchema(templateBuildIdPrefix);
export const TemplateMessageId = idSchema(templateMessageIdPrefix);

/** The contract's limits, AI work. */
export const maxAiTextChars = 65_536;
export const maxAiSourceChars = 1_048_576;
export const maxAiImageBase64Chars = 13_981_016;
export const maxAiReviews = 5;
/** A base64 image of 13,981,016 characters, JSON escaping and the rest of the body. */
export const templateBuildBodyLimit = 16 * 1024 * 1024;

/** The contract's price list (credits). */
export const aiCreditPrices = { build: 50, edit: 25, image: 50, blankChat: 50, source: 0 } as const;

const codePattern = /^[a-z][a-z0-9_]{0,63}$/;

export const TemplateBuildInput = named(
  'TemplateBuildInput',
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('prompt'), prompt: z.string().min(1).max(maxAiTextChars) }),
    z.strictObject({ type: z.literal('html'), html: z.string().min(1).max(maxAiTextChars) }),
    z.strictObject({
      type: z.literal('image'),
      base64: z
        .string()
        .min(1)
        .max(maxAiImageBase64Chars)
        .meta({ description: 'Base64 of a still PNG, JPEG or WebP: at most 10 MiB, 7680 by 4320, 32 million pixels. The result is inspired by the image, not a copy.' }),
    }),
    z.strictObject({
      type: z.literal('source'),
      source: z.string().min(1).max(maxAiSourceChars),
      sample_data: z.record(z.string(), z.unknown()).optional(),
      schema: z.union([z.record(z.string(), z.unknown()), z.boolean()]).optional(),
    }),
  ]),
  'Exactly one input. A source must pass the saved-template checks and evaluate with sample_data; it becomes the draft with no model call at 0 credits.',
);
export type TemplateBuildInput = z.infer<typeof TemplateBuildInput>;

const imageFormat = z.enum(['png', 'jpeg', 'webp']);
const imageWidth = z.int().min(canvasWidth.min).max(canvasWidth.max);
const imageHeight = z.int().min(canvasHeight.min).max(canvasHeight.max);

export const TemplateOutputIntent = named(
  'TemplateOutputIntent',
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('auto') }),
    z.strictObject({ type: z.literal('pdf') }),
    z.strictObject({ type: z.literal('image'), format: imageFormat.optional(), width: imageWidth.optional(), height: imageHeight.optional() }),
  ]),
  'auto: the model chooses PDF or image (an image from a source image takes its dimensions). image: format defaults to png; ' +
    'width and height go together and override the source dimensions; without a source image omitted dimensions are 1200 by 628.',
);
export type TemplateOutputIntent = z.infer<typeof TemplateOutputIntent>;

export const TemplateOutput = named(
  'TemplateOutput',
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('pdf') }),
    z.strictObject({ type: z.literal('image'), format: imageFormat, width: imageWidth, height: imageHeight }),
  ]),
);
export type TemplateOutput = z.infer<typeof TemplateOutput>;

export const TemplateBuildCreate = named(
  'TemplateBuildCreate',
  z.strictObject({
    brand_kit_id: BrandKitId,
    input: TemplateBuildInput,
    input_mode: z.enum(['blank', 'html']).optional().meta({ description: 'Only with a source input.' }),
    output: TemplateOutputIntent.optional(),
  }),
);
export type TemplateBuildCreate = z.infer<typeof TemplateBuildCreate>;

export const TemplateMessageCreate = named(
  'TemplateMessageCreate',
  z.strictObject({
    input: TemplateBuildInput,
    output: TemplateOutputIntent.optional().meta({ description: "Omitted: the current draft's output." }),
  }),
);
export type TemplateMessageCreate = z.infer<typeof TemplateMessageCreate>;

export const messageStates = ['queued', 'running', 'previewing', 'succeeded', 'failed', 'cancelled'] as const;
export const messagePhases = ['generate', 'candidate', 'review', 'final'] as const;
export const messageFailureCategories = ['provider', 'validation', 'renderer', 'unsupported_input', 'internal'] as const;

export const TemplateMessage = named(
  'TemplateMessage',
  z.strictObject({
    id: TemplateMessageId,
    state: z.enum(messageStates),
    phase: z.enum(messagePhases),
    input_type: z.enum(['prompt', 'html', 'image', 'source']),
    credits: z.union([z.literal(0), z.literal(25), z.literal(50)]),
    preview_id: z
      .string()
      .regex(renderIdPattern)
      .nullable()
      .meta({ description: 'The unbilled preview render of the candidate (credit none), readable at /v1/pdf/{id} or /v1/image/{id}.' }),
    output: TemplateOutput.nullable(),
    review_count: z.int().min(0).max(maxAiReviews),
    max_reviews: z.int().min(0).max(maxAiReviews),
    input_text: z.string().max(maxAiTextChars).optional().meta({ description: 'The prompt or HTML of the input.' }),
    repair_code: z.string().regex(codePattern).optional().meta({ description: 'The last safe code blocking the message; never customer content.' }),
    failure_category: z.enum(messageFailureCategories).nullable(),
    failure_code: z.string().regex(codePattern).nullable(),
  }),
);
export type TemplateMessage = z.infer<typeof TemplateMessage>;

export const TemplateMessageList = named('TemplateMessageList', z.array(TemplateMessage).max(100), 'At most 100 messages in chat order (oldest first)');

export const TemplateBuild = named(
  'TemplateBuild',
  z.strictObject({
    id: TemplateBuildId,
    brand_kit_id: BrandKitId,
    current_draft: z.boolean(),
    current_message_id: TemplateMessageId.nullable(),
    published_template_id: TemplateId.nullable(),
    message: TemplateMessage,
  }),
);
export type TemplateBuild = z.infer<typeof TemplateBuild>;

export const TemplateBuildDraft = named(
  'TemplateBuildDraft',
  z.strictObject({
    source: z.string().max(maxAiSourceChars),
    sample_data: z.record(z.string(), z.unknown()),
    schema: TemplateSchemaField,
    output: TemplateOutput,
  }),
  'The brand snapshot is excluded.',
);
export type TemplateBuildDraft = z.infer<typeof TemplateBuildDraft>;

export const TemplatePublication = named('TemplatePublication', z.strictObject({ template_id: TemplateId, version: z.int().min(1) }));
export type TemplatePublication = z.infer<typeof TemplatePublication>;

// AI template chat on saved templates (the contract's AI chat routes)

export const TemplateChatMessageCreate = named(
  'TemplateChatMessageCreate',
  z.strictObject({
    input: TemplateBuildInput,
    output: TemplateOutputIntent.optional().meta({ description: "Omitted: the current draft's output." }),
    brand_kit_id: BrandKitId.optional().meta({ description: 'The kit of this message and of the chat from then on; required on the first message of a chat.' }),
  }),
);
export type TemplateChatMessageCreate = z.infer<typeof TemplateChatMessageCreate>;

export const MessageProgress = named(
  'MessageProgress',
  z.strictObject({
    stage: z.enum(messagePhases).meta({ description: 'The phase the message is in now' }),
    elapsed_seconds: z.int().min(0).meta({ description: 'Since the message was accepted; frozen once it ended' }),
    typical_seconds: z
      .int()
      .min(0)
      .nullable()
      .meta({ description: "Median duration of the service's last 20 succeeded model messages; null before there is any" }),
  }),
);
export type MessageProgress = z.infer<typeof MessageProgress>;

export const TemplateChat = named(
  'TemplateChat',
  z.strictObject({
    template_id: TemplateId,
    brand_kit_id: BrandKitId,
    current_message_id: TemplateMessageId.nullable().meta({ description: 'The newest succeeded message, whose draft apply and discard act on' }),
    current_message_reviewed: z.boolean().meta({ description: 'True after apply or discard of the current message' }),
  }),
);
export type TemplateChat = z.infer<typeof TemplateChat>;

export const TemplateChatMessage = named(
  'TemplateChatMessage',
  z.strictObject({ chat: TemplateChat, message: TemplateMessage.extend({ progress: MessageProgress }) }),
);
export type TemplateChatMessage = z.infer<typeof TemplateChatMessage>;

export const TemplateApplyRequest = named(
  'TemplateApplyRequest',
  z.strictObject({ save: z.boolean().optional().meta({ description: 'Default true; an empty body means true' }) }),
);
export type TemplateApplyRequest = z.infer<typeof TemplateApplyRequest>;

export const aspectRatios = ['1:1', '1:2', '2:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '9:19.5', '19.5:9', '9:20', '20:9', '9:21', '21:9'] as const;

export const ImageProposal = z.strictObject({
  prompt: z.string().min(1).max(4000),
  aspect_ratio: z.enum(aspectRatios),
  target_layer_id: z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/),
});
export type ImageProposal = z.infer<typeof ImageProposal>;

export const ChatImageProposal = named(
  'ChatImageProposal',
  z.strictObject({
    proposal: ImageProposal.nullable(),
    state: z.enum(['pending', 'rejected', 'approved']),
    generation_id: z.string().regex(idPattern('aimg_')).nullable(),
    applied: z.boolean(),
  }),
);
export type ChatImageProposal = z.infer<typeof ChatImageProposal>;
