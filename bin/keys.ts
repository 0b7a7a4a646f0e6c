/**
 * API key administration: `npm run keys -- <command> [options]` (docs/keys.md).
 *
 *   create --account acct_x --env test|live [--expires 2027-01-31] [--label "Billing service"]   prints the new secret once
 *   label  --account acct_x --key-id key_… --label "Billing service"   names a key (--label "" removes the name)
 *   rotate --account acct_x --key-id key_… --grace 24h                 a new key; the old one expires after the grace
 *   revoke --account acct_x --key-id key_…                             refused from the next request
 *   list   --account acct_x                                            the keys and the audit record of every change
 *   console-link --account acct_x --key-id key_…                       a single-use console sign-in link (5 minutes)
 *
 * Every change is written with its audit record (who, when, what) in one transaction. By default
 * it talks to the running local stack's DynamoDB Local (table crds-keys), at the endpoint
 * `npm start` wrote to .local/endpoints.json (--endpoint or DYNAMODB_ENDPOINT override it; without a
 * running stack, DYNAMODB_PORT names a DynamoDB Local on localhost). With --aws it uses your AWS
 * credentials and the region the AWS SDK finds (AWS_REGION, else your profile's region: AWS_PROFILE
 * and the shared config files), against the deployed table named by --table (or KEYS_TABLE).
 */
import { parseArgs } from 'node:util';
import { readLocalEndpoints } from '../local/endpoints.ts';
import { createSignInLink } from '../shared/console/sign-in.ts';
import {
  environments,
  generateKeySecret,
  isKeyUsable,
  isValidAccountId,
  KEY_LABEL_PATTERN,
  KEY_LABEL_RULE,
  keyNameOf,
  newKeyRecord,
} from '../shared/kernel/api-keys.ts';
import {
  isValidKeyId,
  MAX_ROTATION_GRACE_MS,
  newAuditRecord,
  parseGrace,
  revokeKey,
  rotateKey,
} from '../shared/kernel/key-admin.ts';
import { awsIdentity, localIdentity, resolveRegion } from './aws-context.ts';

const usage = `usage: npm run keys -- create --account acct_x --env test|live [--expires YYYY-MM-DD] [--label TEXT] [--aws --table NAME]
       npm run keys -- label  --account acct_x --key-id key_… --label TEXT [--aws --table NAME]
       npm run keys -- rotate --account acct_x --key-id key_… --grace 24h [--aws --table NAME]
       npm run keys -- revoke --account acct_x --key-id key_… [--aws --table NAME]
       npm run keys -- list   --account acct_x [--aws --table NAME]
       npm run keys -- console-link --account acct_x --key-id key_… [--base-url URL] [--aws --table NAME]

An account id is acct_ followed by 1 to 64 letters, digits or underscores; a key id is key_ and 20
hex digits (as list shows). A ${KEY_LABEL_RULE}. A grace is minutes, hours or days (90m, 24h, 7d), at most ${MAX_ROTATION_GRACE_MS / 86_400_000}d.`;

function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    account: { type: 'string' },
    env: { type: 'string' },
    'key-id': { type: 'string' },
    expires: { type: 'string' },
    grace: { type: 'string' },
    aws: { type: 'boolean', default: false },
    table: { type: 'string' },
    endpoint: { type: 'string' },
    'base-url': { type: 'string' },
    label: { type: 'string' },
  },
});

const [command] = positionals;
if (!command || !['create', 'label', 'rotate', 'revoke', 'list', 'console-link'].includes(command))
  fail(command ? `unknown command '${command}'` : 'a command is required');
const accountId = values.account ?? fail('--account is required');
if (!isValidAccountId(accountId))
  fail(`--account '${accountId}' must be acct_ followed by 1 to 64 letters, digits or underscores`);
const keyIdOption = (): string => {
  const keyId = values['key-id'] ?? fail('--key-id is required');
  if (!isValidKeyId(keyId))
    fail(`--key-id '${keyId}' must be key_ followed by 20 hex digits (as list shows)`);
  return keyId;
};
/** --label, checked like the console's: undefined when absent; `""` (to remove a name) as null. */
const labelOption = (): string | null | undefined => {
  const label = values.label;
  if (label === undefined || label === '') return label === '' ? null : undefined;
  if (!KEY_LABEL_PATTERN.test(label)) fail(`--label '${label}': ${KEY_LABEL_RULE}`);
  return label;
};

if (values.aws) {
  process.env.KEYS_TABLE =
    values.table ?? process.env.KEYS_TABLE ?? fail('--aws needs --table or KEYS_TABLE');
  delete process.env.DYNAMODB_ENDPOINT;
  try {
    process.env.AWS_REGION = await resolveRegion();
  } catch {
    fail('no AWS region: set AWS_REGION, or a region in your profile (AWS_PROFILE, ~/.aws/config)');
  }
} else {
  process.env.KEYS_TABLE = values.table ?? process.env.KEYS_TABLE ?? 'crds-keys';
  process.env.DYNAMODB_ENDPOINT =
    values.endpoint ??
    process.env.DYNAMODB_ENDPOINT ??
    readLocalEndpoints()?.dynamodb ??
    (process.env.DYNAMODB_PORT ? `http://localhost:${process.env.DYNAMODB_PORT}` : undefined) ??
    fail(
      'no local stack is running here (npm start writes .local/endpoints.json): start it, or pass --endpoint',
    );
}
process.env.LIMITS_TABLE ??= 'unused';
process.env.POWERTOOLS_TRACE_ENABLED = 'false';

const { DynamoKeyAdministration } = await import('../shared/adapters/dynamodb/key-admin.ts');
const keys = new DynamoKeyAdministration(process.env.KEYS_TABLE);

try {
  const by = values.aws ? await awsIdentity() : localIdentity();
  const now = new Date();
  switch (command) {
    case 'create': {
      const environment = values.env;
      if (environment !== 'test' && environment !== 'live')
        fail(`--env must be one of ${environments.join(', ')}`);
      const expiresAt = values.expires ? new Date(values.expires) : null;
      if (expiresAt && Number.isNaN(expiresAt.getTime())) fail('--expires must be a date, e.g. 2027-01-31');
      if (expiresAt && expiresAt <= now) fail('--expires must be in the future');
      const label = labelOption() ?? undefined;
      const secret = generateKeySecret(environment);
      const { hash, record } = newKeyRecord(secret, accountId, now, expiresAt, label);
      const detail = [
        `${environment} key`,
        ...(expiresAt ? [`expires ${expiresAt.toISOString()}`] : []),
        ...(label === undefined ? [] : [`labelled ${JSON.stringify(label)}`]),
      ].join(', ');
      await keys.create(
        hash,
        record,
        newAuditRecord({ accountId, action: 'created', keyId: record.keyId, by, detail }, now),
      );
      console.log(
        `Created ${record.keyId} (${environment}) for ${accountId}${label === undefined ? '' : `, labelled ${JSON.stringify(label)}`}.`,
      );
      console.log(`Secret (shown once, store it now): ${secret}`);
      break;
    }
    case 'rotate': {
      const keyId = keyIdOption();
      const graceMs = parseGrace(values.grace ?? fail('--grace is required (e.g. 24h)'));
      if (graceMs === undefined)
        fail(
          `--grace '${values.grace}' must be minutes, hours or days (90m, 24h, 7d), more than 0 and at most 30d`,
        );
      const result = await rotateKey(keys, { accountId, keyId, graceMs, by, now });
      if (result.outcome === 'no-such-key') fail(`no key ${keyId} for ${accountId}`);
      if (result.outcome === 'not-active') {
        if (result.status === 'expired') fail(`${keyId} has expired: create a new key instead`);
        if (result.status === 'changed')
          fail(`${keyId} changed while rotating it (revoked or rotated by someone else): list and try again`);
        fail(`${keyId} is ${result.status}: rotate an active key, or create a new one`);
      }
      const { record, secret, oldExpiresAt } = result;
      console.log(`Created ${record.keyId} (${record.environment}) for ${accountId}, replacing ${keyId}.`);
      console.log(`Secret (shown once, store it now): ${secret}`);
      console.log(`${keyId} keeps working until ${oldExpiresAt.toISOString()}.`);
      break;
    }
    case 'label': {
      const keyId = keyIdOption();
      const label = labelOption();
      if (label === undefined) fail('--label is required ("" removes the name)');
      const audit = newAuditRecord(
        {
          accountId,
          action: 'labelled',
          keyId,
          by,
          detail: label === null ? 'label removed' : `labelled ${JSON.stringify(label)}`,
        },
        now,
      );
      const result = await keys.relabel(accountId, keyId, label, audit);
      if (result !== 'done') fail(`no key ${keyId} for ${accountId}`);
      console.log(
        label === null ? `Removed the label of ${keyId}.` : `Labelled ${keyId} ${JSON.stringify(label)}.`,
      );
      break;
    }
    case 'revoke': {
      const keyId = keyIdOption();
      const result = await revokeKey(keys, { accountId, keyId, by, now });
      if (result === 'no-such-key') fail(`no key ${keyId} for ${accountId}`);
      if (result === 'not-active') fail(`${keyId} is revoked already`);
      console.log(`Revoked ${keyId}: refused from the next request.`);
      break;
    }
    case 'console-link': {
      // For the account's key, as POST /v1/console/sessions gives its holder: an operator signing in for them.
      const keyId = keyIdOption();
      const key = await keys.find(accountId, keyId);
      if (!key) fail(`no key ${keyId} for ${accountId}`);
      const keyHash = await keys.hashOf(accountId, keyId);
      if (!keyHash || !isKeyUsable(key, now))
        fail(`${keyId} is ${key.status === 'active' ? 'expired' : key.status}: sign in with a working key`);
      const baseUrl =
        values['base-url'] ??
        (values.aws
          ? fail("--aws needs --base-url (the stage URL, the API stack's ApiUrl output)")
          : readLocalEndpoints()?.api) ??
        fail('no local stack is running here: pass --base-url');
      const { DynamoConsoleSessions } = await import('../shared/console/adapters/dynamodb-sessions.ts');
      const link = await createSignInLink(new DynamoConsoleSessions(process.env.KEYS_TABLE as string), {
        key,
        keyHash,
        baseUrl: baseUrl.replace(/\/$/, ''),
        now,
      });
      console.log(
        `Console sign-in link for ${accountId} (${key.environment}), valid once until ${link.expiresAt}:`,
      );
      console.log(link.url);
      break;
    }
    case 'list': {
      const { keys: listed, audit } = await keys.list(accountId);
      if (listed.length === 0) console.log(`No keys for ${accountId}.`);
      for (const key of listed) {
        const state =
          key.status === 'active' && key.expiresAt !== null && Date.parse(key.expiresAt) <= now.getTime()
            ? 'expired'
            : key.status;
        console.log(
          [
            key.keyId,
            key.environment,
            state,
            `…${key.lastFour}`,
            key.createdAt,
            key.expiresAt ?? 'no expiry',
            keyNameOf(key),
          ].join('  '),
        );
      }
      if (audit.length > 0) console.log('\nChanges (oldest first):');
      for (const record of audit)
        console.log([record.at, record.action, record.keyId, record.by, record.detail].join('  '));
      break;
    }
  }
} catch (error) {
  const reason = error instanceof Error ? error.message : String(error);
  const hint = values.aws
    ? `Check your AWS credentials, region (${process.env.AWS_REGION}) and --table.`
    : `Is the local stack running (npm start)? DynamoDB Local was expected at ${process.env.DYNAMODB_ENDPOINT}.`;
  console.error(`keys ${command}: ${reason || (error as { code?: string }).code}\n${hint}`);
  process.exit(1);
}
