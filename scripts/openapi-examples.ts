/**
 * `npm run openapi:examples`: records one success response per operation from the sandbox. It
 * starts the local stack (in memory), sends each operation's request example
 * (shared/app/openapi/examples.ts) with a test key, after the purchases, searches and orders the
 * reads need, and writes the answers to shared/app/openapi/response-examples.json, with the ids
 * the service issued replaced by the examples' ids and long arrays abridged. `npm run openapi`
 * then puts them in the document. test/unit/openapi.test.ts checks each against its route's
 * schema, so a schema change that a recorded example no longer matches asks for a new recording.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startLocalStack } from '../local/stack.ts';
import { EXAMPLE_IDS, requestExamples } from '../shared/app/openapi/examples.ts';
import { routeList } from '../shared/app/routes.ts';
import type { RequestExample } from '../shared/kernel/http/request-example.ts';
import type { RouteDefinition } from '../shared/kernel/http/route.ts';
import { edgeTokenOf, SESSION_COOKIE } from '../shared/kernel/sessions.ts';
import { EXAMPLE_IMPORT_ID, EXAMPLE_MONITOR_ID } from '../shared/monitoring/examples.ts';
import { mondayWeeksAgo } from '../shared/weekly-summaries/weeks.ts';

export const RESPONSE_EXAMPLES_FILE = fileURLToPath(
  new URL('../shared/app/openapi/response-examples.json', import.meta.url),
);

/** Arrays longer than this are cut to it in the examples. */
const MAX_ITEMS = 3;

/** Operations with no JSON example: the PDF download and the document itself. */
const NOT_RECORDED = new Set(['DownloadOrder', 'GetOpenApiDocument']);

const KEY = 'sk_test_openapiExamples';
/** For the examples the sandbox cannot answer (`live`): the registry simulator serves them. */
const LIVE_KEY = 'sk_live_openapiExamples';

/** The base URL the examples show (the curl samples use it too). */
const EXAMPLE_BASE_URL = 'https://api.example.com';

function abridge(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map(abridge);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, abridge(item)]));
  }
  return value;
}

/** Opens a console sign-in link as its page's button does: the session's headers for a change. */
async function openConsoleSession(baseUrl: string, link: string): Promise<Record<string, string>> {
  const opened = await fetch(link, { method: 'POST', redirect: 'manual' });
  const token = new RegExp(`^${SESSION_COOKIE}=([^;]+);`).exec(opened.headers.get('set-cookie') ?? '')?.[1];
  if (!token) throw new Error(`console sign-in failed: ${opened.status}`);
  const auth = {
    Cookie: `${SESSION_COOKIE}=${token}`,
    Authorization: `Console-Session ${edgeTokenOf(token)}`,
  };
  const { csrfToken } = (await (await fetch(`${baseUrl}/console/session`, { headers: auth })).json()) as {
    csrfToken: string;
  };
  return { ...auth, 'X-CSRF-Token': csrfToken };
}

/**
 * An admin member's console session: only an admin member may raise or remove a spend cap (a key
 * answers spend_cap_raise_forbidden). The key's link invites the member; the emailed link signs it in.
 */
async function adminSession(baseUrl: string): Promise<Record<string, string>> {
  const { url } = (await (
    await fetch(`${baseUrl}/v1/console/sessions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
      body: '{}',
    })
  ).json()) as { url: string };
  const keySession = await openConsoleSession(baseUrl, url);
  const email = 'admin@acct-examples.example';
  const invited = await fetch(`${baseUrl}/console/members`, {
    method: 'POST',
    headers: { ...keySession, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, role: 'admin' }),
  });
  if (invited.status !== 201) throw new Error(`invitation failed: ${invited.status} ${await invited.text()}`);
  const { messages } = (await (await fetch(`${baseUrl}/__local/outbox`)).json()) as {
    messages: { to: string; text: string }[];
  };
  const text = messages.filter((message) => message.to === email).at(-1)?.text ?? '';
  const link = /(http\S+\/console\/sign-in\?token=[A-Za-z0-9_-]{43})/.exec(text)?.[1];
  if (!link) throw new Error(`no sign-in link mailed to ${email}`);
  return openConsoleSession(baseUrl, link);
}

async function main() {
  const stack = await startLocalStack({
    port: 0,
    dynamoPort: 0,
    logLevel: 'ERROR',
    keys: [
      { accountId: 'acct_examples', environment: 'test', secret: KEY },
      { accountId: 'acct_examples', environment: 'live', secret: LIVE_KEY },
    ],
  });
  /** Example id → the id the service issued. */
  const issued = new Map<string, string>();
  const withIssuedIds = (text: string) => {
    let result = text;
    for (const [example, real] of issued) result = result.replaceAll(example, real);
    return result;
  };

  const send = async (route: RouteDefinition, example: RequestExample) => {
    let path = route.path;
    for (const [name, value] of Object.entries(example.path ?? {})) path = path.replace(`{${name}}`, value);
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(example.query ?? {})) {
      for (const item of typeof value === 'string' ? [value] : value) query.append(name, item);
    }
    const url = withIssuedIds(`${stack.baseUrl}${path}${query.size > 0 ? `?${query}` : ''}`);
    const response = await fetch(url, {
      method: route.method,
      headers: {
        Authorization: `Bearer ${example.live ? LIVE_KEY : KEY}`,
        ...example.headers,
        ...(example.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(example.body === undefined ? {} : { body: withIssuedIds(JSON.stringify(example.body)) }),
    });
    const text = await response.text();
    if (response.status !== route.status) {
      throw new Error(`${route.name}: ${response.status} instead of ${route.status}: ${text.slice(0, 500)}`);
    }
    return JSON.parse(text) as Record<string, unknown>;
  };

  const byName = new Map(routeList.map((route) => [route.name, route]));
  const routeNamed = (name: string) => byName.get(name) as RouteDefinition;
  const exampleOf = (name: string) => requestExamples[name] as RequestExample;
  const recorded: Record<string, unknown> = {};
  let admin: Record<string, string> | undefined;
  const record = async (name: string, override?: Partial<RequestExample>) => {
    const route = routeNamed(name);
    const example = { ...exampleOf(name), ...override };
    if (route.errors?.includes('spend_cap_raise_forbidden')) {
      admin ??= await adminSession(stack.baseUrl);
      example.headers = { ...example.headers, ...admin };
    }
    const body = await send(route, example);
    recorded[name] = body;
    return body;
  };
  const until = async (name: string, done: (body: Record<string, unknown>) => boolean) => {
    for (let attempt = 0; attempt < 100; attempt++) {
      const body = await send(routeNamed(name), exampleOf(name));
      if (done(body)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${name} never finished`);
  };

  try {
    // What the section reads need held: the extract each example reads.
    const purchase = routeNamed('PurchaseCompanyExtract');
    const holdings: [string, string][] = [
      ['990000014', 'historical'],
      ['990000041', 'current'],
      ['990000201', 'current'],
      ['990000096', 'current'],
      ['990000023', 'relational'],
    ];
    for (const [id, type] of holdings) await send(purchase, { summary: '', path: { id }, body: { type } });
    const extract = await record('PurchaseCompanyExtract');
    issued.set(EXAMPLE_IDS.extract, extract.id as string);

    const search = await record('SearchPeople');
    issued.set(EXAMPLE_IDS.peopleSearch, search.id as string);
    issued.set(EXAMPLE_IDS.person, (search.data as { id: string }[])[0]?.id as string);
    await record('PurchasePersonExtracts');

    // An endpoint before the order, so that its event has a delivery (to a host this machine
    // cannot reach: a failed attempt, as the deliveries examples show).
    const endpoint = await record('CreateWebhookEndpoint');
    issued.set(EXAMPLE_IDS.webhookEndpoint, endpoint.id as string);

    const order = await record('OrderChargesExtract');
    issued.set(EXAMPLE_IDS.order, order.id as string);
    await until('GetOrder', (body) => body.status === 'ready');
    const events = await record('ListEvents');
    issued.set(EXAMPLE_IDS.event, (events.data as { id: string }[])[0]?.id as string);

    const offline = await record('CreateOfflineSearch');
    issued.set(EXAMPLE_IDS.offlineSearch, offline.id as string);
    await until('GetOfflineSearch', (body) => body.status === 'ready');

    // Weekly summaries exist for completed weeks of the last 12 months: last week's, whenever this runs.
    const weekly = await record('PurchaseWeeklySummary', {
      body: { type: 'name-changes', weekStarting: mondayWeeksAgo(new Date(), 1) },
    });
    issued.set(EXAMPLE_IDS.weeklySummary, weekly.id as string);

    const monitor = await record('CreateMonitor');
    issued.set(EXAMPLE_MONITOR_ID, monitor.id as string);
    // A committed import for GetMonitorImport (ImportMonitors' own example is a dry run).
    const committed = await send(routeNamed('ImportMonitors'), {
      summary: '',
      body: { csv: 'company\n990000041\n123456789\n990000041\n' },
    });
    issued.set(EXAMPLE_IMPORT_ID, committed.id as string);

    for (const route of routeList) {
      if (route.internal || NOT_RECORDED.has(route.name) || route.name in recorded) continue;
      if (route.name === 'DeleteWebhookEndpoint' || route.name === 'DeleteMonitor') continue;
      await record(route.name);
    }
    await record('DeleteWebhookEndpoint');
    await record('DeleteMonitor');
  } finally {
    await stack.stop();
  }

  // The examples' ids instead of the issued ones, so that requests and responses agree.
  let text = JSON.stringify(abridge(recorded));
  for (const [example, real] of issued) text = text.replaceAll(real, example);
  // Links (docs, downloads) as a deployment would give them, not the local stack's port.
  text = text.replaceAll(stack.baseUrl, EXAMPLE_BASE_URL);
  const ordered = Object.fromEntries(
    routeList
      .filter((route) => route.name in recorded)
      .map((route) => [route.name, JSON.parse(text)[route.name]]),
  );
  writeFileSync(RESPONSE_EXAMPLES_FILE, `${JSON.stringify(ordered, null, 2)}\n`);
  // As the repository formats JSON (npm run lint checks it).
  execFileSync(
    fileURLToPath(new URL('../node_modules/.bin/biome', import.meta.url)),
    ['format', '--write', RESPONSE_EXAMPLES_FILE],
    {
      stdio: 'ignore',
    },
  );
  console.log(`wrote ${RESPONSE_EXAMPLES_FILE}: ${Object.keys(ordered).length} responses`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
