/**
 * `npm start`: DynamoDB Local (data kept in .local/dynamodb), the tables, seeded API keys, the
 * API on PORT (default 3000), the stand-ins (files in .local: outbox, events.jsonl) and each
 * capability's local module as `npm start` runs it (`development`: its scheduled jobs on their
 * schedules, its settings kept in .local). Ctrl-C stops everything.
 */
import { createSignInLink } from '../shared/console/sign-in.ts';
import { environmentOfKey, hashKey, keyIdForHash } from '../shared/kernel/api-keys.ts';
import { removeLocalEndpoints, writeLocalEndpoints } from './endpoints.ts';
import { defaultLocalKeys, LOCAL_SPEND_CAP, parseKeyList, seedSpendCap } from './keys.ts';
import { defaultLocalMembers, seedMembers } from './members.ts';
import { startLocalStack } from './stack.ts';

const port = Number(process.env.PORT ?? 3000);
const keys = process.env.LOCAL_API_KEYS ? parseKeyList(process.env.LOCAL_API_KEYS) : defaultLocalKeys;

const localDir = '.local';
const stack = await startLocalStack({
  port,
  dynamoPort: Number(process.env.DYNAMODB_PORT ?? 8000),
  dataDir: process.env.LOCAL_DATA_DIR ?? '.local/dynamodb',
  localDir,
  keys,
  development: true,
  logLevel: process.env.POWERTOOLS_LOG_LEVEL ?? 'INFO',
});
writeLocalEndpoints(localDir, {
  api: stack.baseUrl,
  dynamodb: stack.dynamoEndpoint,
  registry: stack.registryUrl,
  pid: process.pid,
});
// Members of acct_a (test) for the email sign-in, unless the keys were chosen (LOCAL_API_KEYS).
const members = process.env.LOCAL_API_KEYS ? [] : defaultLocalMembers;
await seedMembers(members, stack.ports.clock.now(), stack.ports);

// A console sign-in link for the first seeded key, as POST /v1/console/sessions would give its holder.
const consoleKey = keys[0];
if (consoleKey) await seedSpendCap(stack.ports.spendCaps, consoleKey, stack.ports.clock.now());
const consoleLink = consoleKey
  ? await createSignInLink(stack.ports.consoleSessions, {
      key: {
        accountId: consoleKey.accountId,
        environment: environmentOfKey(consoleKey.secret) ?? 'test',
        keyId: keyIdForHash(hashKey(consoleKey.secret)),
      },
      keyHash: hashKey(consoleKey.secret),
      baseUrl: stack.baseUrl,
      now: stack.ports.clock.now(),
    })
  : undefined;

console.log(`
Company Register Data Service (local)
  API:            ${stack.baseUrl}/v1
  DynamoDB Local: ${stack.dynamoEndpoint}
  Registry simulator (live keys): ${stack.registryUrl}
  Outbox (emails sent): ${stack.outbox.dir}
  Events published: ${stack.events.file}
${stack.notes.map((note) => `  ${note}\n`).join('')}  Spend cap: ${consoleKey ? `${consoleKey.accountId} (${consoleKey.environment}) capped at ${LOCAL_SPEND_CAP.amountCents / 100} a month unless changed; GET ${stack.baseUrl}/v1/spend-caps` : 'none'}

API keys${process.env.LOCAL_API_KEYS ? ' (from LOCAL_API_KEYS)' : ' (defaults; set LOCAL_API_KEYS to choose your own)'}:
${keys.map((k) => `  ${k.accountId.padEnd(10)} ${k.environment.padEnd(5)} ${k.secret}`).join('\n')}

${
  consoleLink && consoleKey
    ? `Account console (${consoleKey.accountId}, ${environmentOfKey(consoleKey.secret)}): open this link within 5 minutes, once:
  ${consoleLink.url}
  Another: npm run keys -- console-link --account ${consoleKey.accountId} --key-id ${keyIdForHash(hashKey(consoleKey.secret))}

`
    : ''
}${
  members.length
    ? `Console members (acct_a, test): ${members.map((m) => `${m.email} (${m.role})`).join(', ')}
  Sign in as one at ${stack.baseUrl}/console/sign-in/email; the link lands in the outbox.

`
    : ''
}Try:
  curl -H 'Authorization: Bearer ${keys[0]?.secret ?? '<key>'}' ${stack.baseUrl}/v1/identifiers/51824753556
  curl -H 'Authorization: Bearer ${keys[0]?.secret ?? '<key>'}' '${stack.baseUrl}/v1/companies/search?q=southern%20cross'
  (sandbox companies and the cases they show: docs/sandbox.md)

Ctrl-C stops the API and DynamoDB Local.
`);

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping…');
  removeLocalEndpoints(localDir);
  await stack.stop();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
