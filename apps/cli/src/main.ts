// Operator CLI: `npm run svc -- <command>`. Output meant for machines is exactly one JSON object.
import {
  createAccount,
  createOperatorToken,
  createServiceContext,
  createSignInLink,
  listTestimonials,
  resealSecrets,
  setMaintenance,
  DomainError,
  grantAccountCredits,
  createLogger,
  loadConfig,
  readServiceAddress,
  revokeOperatorToken,
  type ServiceContext,
  setAccountPlan,
  setAccountStatus,
  showAccount,
} from '@svc/core';
import { type CreditBucket, createDb, type Plan } from '@svc/db';
import { migrate, resolveDatabase } from '@svc/db/admin';

const plans: Plan[] = ['scale', 'growth', 'starter', 'pack', 'free'];
const buckets: CreditBucket[] = ['free_monthly', 'trial', 'pack', 'subscription'];

const usage = `usage:
  svc account create --plan PLAN [--credits N] [--bucket BUCKET] [--json]
  svc account show ID [--json]
  svc account plan ID --plan PLAN [--json]
  svc account suspend ID
  svc account unsuspend ID
  svc account sign-in-link ID [--json]
  svc credits grant ID N --bucket BUCKET
  svc status maintenance on|off
  svc testimonials list [--json]
  svc operator token create --name NAME [--json]
  svc operator token revoke ID [--json]
  svc secrets reseal [--json]
plans: ${plans.join(', ')}; buckets: ${buckets.join(', ')}`;

class UsageError extends Error {}

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(`--${name}`);
  if (index === -1) return undefined;
  const value = args[index + 1];
  if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
  return value;
}

function positiveInteger(text: string | undefined, what: string): number {
  if (!text || !/^\d+$/.test(text) || Number(text) < 1) throw new UsageError(`${what} must be a positive integer`);
  return Number(text);
}

function oneOf<T extends string>(value: string | undefined, allowed: T[], what: string): T {
  if (!value || !allowed.includes(value as T)) throw new UsageError(`${what} must be one of ${allowed.join(', ')}`);
  return value as T;
}

async function main(ctx: ServiceContext, args: string[]) {
  // two-word groups: "operator token create" reads as group "operator token"
  const [group, action, ...rest] = args[0] === 'operator' && args[1] === 'token' ? ['operator token', ...args.slice(2)] : args;
  const json = rest.includes('--json');
  const print = (value: unknown, text: string) => process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
  switch (`${group} ${action}`) {
    case 'account create': {
      const plan = oneOf(option(rest, 'plan'), plans, '--plan');
      const credits = option(rest, 'credits');
      const bucket = oneOf(option(rest, 'bucket') ?? 'trial', buckets, '--bucket');
      const created = await createAccount(ctx, { plan, credits: credits === undefined ? 0 : positiveIntegerOrZero(credits), bucket });
      return print({ account_id: created.accountId, api_key: created.apiKey }, `account ${created.accountId}\napi key (shown once): ${created.apiKey}`);
    }
    case 'account show': {
      const summary = await showAccount(ctx, required(rest[0], 'ID'));
      const shown = {
        account_id: summary.id,
        plan: summary.plan,
        status: summary.status,
        created_at: summary.createdAt.toISOString(),
        balances: summary.balances,
        reserved: summary.reserved,
        overage_this_month: summary.overageThisMonth,
      };
      return print(shown, JSON.stringify(shown, null, 2));
    }
    case 'account plan': {
      const accountId = required(rest[0], 'ID');
      const plan = oneOf(option(rest, 'plan'), plans, '--plan');
      await setAccountPlan(ctx, { accountId, plan });
      return print({ account_id: accountId, plan }, `account ${accountId} is on plan ${plan}`);
    }
    case 'account suspend':
    case 'account unsuspend': {
      const accountId = required(rest[0], 'ID');
      await setAccountStatus(ctx, { accountId, suspended: action === 'suspend' });
      return print({ account_id: accountId, status: action === 'suspend' ? 'suspended' : 'active' }, `account ${accountId} ${action}ed`);
    }
    case 'account sign-in-link': {
      const link = await createSignInLink(ctx, { accountId: required(rest[0], 'ID') });
      const shown = { url: link.url, expires_at: link.expiresAt.toISOString() };
      return print(shown, `sign-in link (one use, until ${shown.expires_at}): ${shown.url}`);
    }
    case 'status maintenance': {
      const on = oneOf(rest[0], ['on', 'off'], 'maintenance');
      await setMaintenance(ctx, { on: on === 'on' });
      return print({ maintenance: on }, `maintenance ${on}`);
    }
    case 'testimonials list': {
      const data = (await listTestimonials(ctx)).map((item) => ({
        id: item.id,
        name: item.name,
        company: item.company,
        quote: item.quote,
        created_at: item.createdAt.toISOString(),
      }));
      return print({ data }, data.map((item) => `${item.created_at} ${item.name} (${item.company}): ${item.quote}`).join('\n') || 'no testimonials');
    }
    case 'operator token create': {
      const name = option(rest, 'name');
      if (!name || name.trim().length < 1 || name.trim().length > 100) throw new UsageError('--name must be 1 to 100 characters');
      const created = await createOperatorToken(ctx, { name });
      return print({ id: created.id, token: created.token }, `operator token ${created.id}\ntoken (shown once): ${created.token}`);
    }
    case 'operator token revoke': {
      const revoked = await revokeOperatorToken(ctx, { tokenId: required(rest[0], 'ID') });
      return print({ id: revoked.id, revoked_at: revoked.revokedAt.toISOString() }, `operator token ${revoked.id} revoked`);
    }
    case 'credits grant': {
      const accountId = required(rest[0], 'ID');
      const amount = positiveInteger(rest[1], 'N');
      const bucket = oneOf(option(rest, 'bucket'), buckets, '--bucket');
      await grantAccountCredits(ctx, { accountId, bucket, amount });
      return print({ account_id: accountId, bucket, granted: amount }, `granted ${amount} ${bucket} credits to ${accountId}`);
    }
    case 'secrets reseal': {
      const result = await resealSecrets(ctx);
      // a secret no key opens needs the operator: the key it was sealed with is missing
      if (result.unreadable > 0) process.exitCode = 1;
      return print(result, `sealed under the current key: ${result.resealed} of ${result.checked} stored secrets rewritten; ${result.unreadable} open with no key`);
    }
    default:
      throw new UsageError('unknown command');
  }
}

function positiveIntegerOrZero(text: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError('--credits must be a whole number');
  return Number(text);
}

function required(value: string | undefined, what: string): string {
  if (!value || value.startsWith('--')) throw new UsageError(`${what} is required`);
  return value;
}

// The service started from this data directory (`npm start`) left its address there: links
// use its port and the embedded database is its own, unless the environment says otherwise.
const configured = loadConfig();
const { dataDir } = configured;
const running = readServiceAddress(dataDir);
const config = running && !configured.publicUrlGiven ? { ...configured, publicUrl: running.public_url } : configured;
const database = await resolveDatabase({
  url: configured.databaseUrl,
  dataDir,
  port: configured.embeddedDatabase.port ?? running?.embedded_database_port ?? undefined,
  tcp: configured.embeddedDatabase.tcp,
});
const db = createDb({ url: database.url, poolSize: 2 });
let exitCode = 0;
try {
  await migrate(database.url);
  await main(createServiceContext({ db, logger: createLogger('cli'), config }), process.argv.slice(2));
} catch (error) {
  exitCode = error instanceof UsageError ? 2 : 1;
  const message = error instanceof UsageError ? `${error.message}\n${usage}` : error instanceof DomainError ? error.code : String(error);
  process.stderr.write(`svc: ${message}\n`);
} finally {
  await db.$disconnect();
  await database.stop();
}
process.exit(exitCode || Number(process.exitCode ?? 0));
