// The reads the dashboard's AI pages use beyond the API: the builds list (chats left out), a
// template's chat with its messages, and one message's progress. Source messages need no
// model, so these run without a provider.
import { createBrandKit, createTemplate, createTemplateBuild, DomainError, getMessageProgress, listChatMessages, listTemplateBuilds, sendChatMessage } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { accountWith, useTestContext } from './support.ts';

const test = useTestContext();
const { ctx } = test;

const source = '<!doctype html><p>{{ brand.name }}</p>';

async function setup() {
  test.setNow(new Date('2026-03-15T12:00:00Z'));
  const principal = await accountWith(ctx, { plan: 'scale', credits: 100 });
  const { kit } = await createBrandKit(ctx, { accountId: principal.accountId, request: { name: 'Kit', colours: ['#112233'] } });
  return { principal, kitId: kit.id };
}

const code = (promise: Promise<unknown>) => promise.then(() => 'resolved', (error: unknown) => (error instanceof DomainError ? error.code : String(error)));

describe('dashboard AI reads', () => {
  it('lists the account’s builds newest change first, without template chats or other accounts’ builds', async () => {
    const { principal, kitId } = await setup();
    const first = await createTemplateBuild(ctx, { principal, idempotencyKey: 'a', request: { brand_kit_id: kitId, input: { type: 'source', source } } });
    test.setNow(new Date('2026-03-15T12:01:00Z'));
    const second = await createTemplateBuild(ctx, { principal, idempotencyKey: 'b', request: { brand_kit_id: kitId, input: { type: 'source', source: `${source}<p>2</p>` } } });
    const { template } = await createTemplate(ctx, { accountId: principal.accountId, request: { source } });
    await sendChatMessage(ctx, { principal, templateId: template.id, idempotencyKey: 'c', request: { input: { type: 'source', source }, brand_kit_id: kitId } });

    const builds = await listTemplateBuilds(ctx, { accountId: principal.accountId, limit: 10 });
    expect(builds.map((summary) => summary.build.id)).toEqual([second.build.build.id, first.build.build.id]);
    expect(builds[0]!.first.id).toBe(second.build.message.id);
    expect(builds[0]!.newest.state).toBe('succeeded');
    const stranger = await accountWith(ctx, { plan: 'scale', credits: 0 });
    expect(await listTemplateBuilds(ctx, { accountId: stranger.accountId, limit: 10 })).toEqual([]);
  });

  it('reads a template’s chat and messages; a template without a chat has none; other accounts get not_found', async () => {
    const { principal, kitId } = await setup();
    const { template } = await createTemplate(ctx, { accountId: principal.accountId, request: { source } });
    expect(await listChatMessages(ctx, { accountId: principal.accountId, templateId: template.id })).toEqual({ chat: null, messages: [] });
    const sent = await sendChatMessage(ctx, { principal, templateId: template.id, idempotencyKey: 'k', request: { input: { type: 'source', source }, brand_kit_id: kitId } });
    const history = await listChatMessages(ctx, { accountId: principal.accountId, templateId: template.id });
    expect(history.chat?.templateId).toBe(template.id);
    expect(history.messages.map((message) => message.id)).toEqual([sent.record.message.id]);
    const stranger = await accountWith(ctx, { plan: 'scale', credits: 0 });
    expect(await code(listChatMessages(ctx, { accountId: stranger.accountId, templateId: template.id }))).toBe('not_found');
  });

  it('gives a message’s stage and elapsed seconds, frozen once it ended; foreign and malformed ids are not_found', async () => {
    const { principal, kitId } = await setup();
    const created = await createTemplateBuild(ctx, { principal, idempotencyKey: 'p', request: { brand_kit_id: kitId, input: { type: 'source', source } } });
    test.setNow(new Date('2026-03-15T12:05:00Z'));
    const progress = await getMessageProgress(ctx, { accountId: principal.accountId, messageId: created.build.message.id });
    expect(progress.message.phase).toBe('final');
    expect(progress.elapsedSeconds).toBe(0);
    const stranger = await accountWith(ctx, { plan: 'scale', credits: 0 });
    expect(await code(getMessageProgress(ctx, { accountId: stranger.accountId, messageId: created.build.message.id }))).toBe('not_found');
    expect(await code(getMessageProgress(ctx, { accountId: principal.accountId, messageId: 'msg_nope' }))).toBe('not_found');
  });
});
