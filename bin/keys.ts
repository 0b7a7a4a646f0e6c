/**
 * API key administration: `npm run keys -- <command> [options]`.
 *
 *   create --account acct_x --env test|live [--expires 2027-01-31]   prints the new secret once
 *   revoke --account acct_x --key-id key_…
 *   list   --account acct_x
 *
 * By default it talks to the running local stack's DynamoDB Local (table crds-keys), at the endpoint
 * `npm start` wrote to .local/endpoints.json (--endpoint or DYNAMODB_ENDPOINT override it; without a
 * running stack, DYNAMODB_PORT names a DynamoDB Local on localhost).
 * With --aws it uses your AWS credentials and region against the deployed table named by
 * --table (or KEYS_TABLE).
 */
import { parseArgs } from 'node:util';
import { readLocalEndpoints } from '../local/endpoints.ts';
import {
  environments,
  generateKeySecret,
  isValidAccountId,
  newKeyRecord,
} from '../shared/domain/api-keys.ts';

const usage = `usage: npm run keys -- create --account acct_x --env test|live [--expires YYYY-MM-DD] [--aws --table NAME]
       npm run keys -- revoke --account acct_x --key-id key_… [--aws --table NAME]
       npm run keys -- list --account acct_x [--aws --table NAME]`;

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
    aws: { type: 'boolean', default: false },
    table: { type: 'string' },
    endpoint: { type: 'string' },
  },
});

const [command] = positionals;
const accountId = values.account ?? fail('--account is required');
if (!isValidAccountId(accountId)) fail(`--account '${accountId}' must look like acct_… (letters, digits, _)`);

if (values.aws) {
  process.env.KEYS_TABLE =
    values.table ?? process.env.KEYS_TABLE ?? fail('--aws needs --table or KEYS_TABLE');
  delete process.env.DYNAMODB_ENDPOINT;
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

const { DynamoApiKeyRepository } = await import('../shared/adapters/dynamodb/api-keys.ts');
const repository = new DynamoApiKeyRepository(process.env.KEYS_TABLE);

try {
  switch (command) {
    case 'create': {
      const environment = values.env;
      if (environment !== 'test' && environment !== 'live')
        fail(`--env must be one of ${environments.join(', ')}`);
      const expiresAt = values.expires ? new Date(values.expires) : null;
      if (expiresAt && Number.isNaN(expiresAt.getTime())) fail('--expires must be a date, e.g. 2027-01-31');
      const secret = generateKeySecret(environment);
      const { hash, record } = newKeyRecord(secret, accountId, new Date(), expiresAt);
      await repository.create(hash, record);
      console.log(`Created ${record.keyId} (${environment}) for ${accountId}.`);
      console.log(`Secret (shown once, store it now): ${secret}`);
      break;
    }
    case 'revoke': {
      const keyId = values['key-id'] ?? fail('--key-id is required');
      const revoked = await repository.revoke(keyId, accountId, new Date());
      if (!revoked) fail(`no key ${keyId} for ${accountId}`);
      console.log(`Revoked ${keyId}.`);
      break;
    }
    case 'list': {
      const keys = await repository.listByAccount(accountId);
      for (const key of keys) {
        console.log(
          [
            key.keyId,
            key.environment,
            key.status,
            `…${key.lastFour}`,
            key.createdAt,
            key.expiresAt ?? 'no expiry',
          ].join('  '),
        );
      }
      if (keys.length === 0) console.log(`No keys for ${accountId}.`);
      break;
    }
    default:
      fail(command ? `unknown command '${command}'` : 'a command is required');
  }
} catch (error) {
  const reason = error instanceof Error ? error.message : String(error);
  const hint = values.aws
    ? 'Check your AWS credentials, region and --table.'
    : `Is the local stack running (npm start)? DynamoDB Local was expected at ${process.env.DYNAMODB_ENDPOINT}.`;
  console.error(`keys ${command}: ${reason || (error as { code?: string }).code}\n${hint}`);
  process.exit(1);
}
