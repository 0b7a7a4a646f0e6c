/**
 * One AWS API call over HTTPS, signed with aws4, on a kept-alive connection: what the orders
 * bucket and SES adapters send, instead of the SDK's S3 and SES clients (about 260 and 190 KB of
 * a bundle with the SDK's core), so that a workflow step's bundle holds little beyond its step.
 * Retries what the SDK's standard mode retries (5xx, throttling, a dropped connection) with
 * jittered backoff, and records each call (service, operation, latency, outcome: dependency-calls.ts).
 *
 * `AWS_ENDPOINT_URL_<SERVICE ID>` (the SDK's own variables, `AWS_ENDPOINT_URL_S3`,
 * `AWS_ENDPOINT_URL_SESV2`) sends a service's calls elsewhere, as tests do.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import aws4, { type Request as Aws4Request } from 'aws4';
import { timeDependencyCall } from '../../kernel/dependency-calls.ts';

export interface SignedRequest {
  /** Signing name: `s3`, `ses`. */
  service: string;
  /** The SDK's name of the service (`S3`, `SESv2`): the dependency it is recorded as, `AWS_ENDPOINT_URL_<ID>`. */
  serviceId: string;
  /** For logs and metrics: `PutObject`, `SendEmail`. */
  operation: string;
  /** Default host of the service in the region (`email.<region>.amazonaws.com`). */
  host: (region: string) => string;
  method: 'GET' | 'HEAD' | 'PUT' | 'POST';
  /** Path with its segments encoded, e.g. `/orders/ord_1.pdf`. */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
}

export interface SignedAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** An AWS refusal: `name` is its error code (`NoSuchKey`, `AccessDenied`, `MessageRejected`). */
export class AwsCallError extends Error {
  constructor(
    override readonly name: string,
    message: string,
    readonly statusCode: number,
  ) {
    super(message);
  }
}

const MAX_ATTEMPTS = 3;
/** The connection may stay silent this long (a large object is still being sent or read). */
const IDLE_TIMEOUT_MS = 30_000;
const THROTTLING = new Set(['Throttling', 'ThrottlingException', 'SlowDown', 'TooManyRequestsException']);

const agentOptions = { keepAlive: true, maxSockets: 50 };
const agents = { http: new HttpAgent(agentOptions), https: new HttpsAgent(agentOptions) };

const region = () => process.env.AWS_REGION ?? 'ap-southeast-2';

/** Where a service's calls go: its regional endpoint, or `AWS_ENDPOINT_URL_<SERVICE ID>`. */
export function endpointOf(serviceId: string, defaultHost: string): { url: URL; custom: boolean } {
  const custom = process.env[`AWS_ENDPOINT_URL_${serviceId.toUpperCase()}`];
  return custom
    ? { url: new URL(custom), custom: true }
    : { url: new URL(`https://${defaultHost}`), custom: false };
}

let credentialChain: ReturnType<typeof defaultProvider> | undefined;

function send(url: URL, signed: Aws4Request, body: Buffer | undefined): Promise<SignedAnswer> {
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const request = (secure ? httpsRequest : httpRequest)(
      {
        hostname: url.hostname,
        port: Number(url.port) || (secure ? 443 : 80),
        method: signed.method,
        path: signed.path,
        headers: signed.headers as Record<string, string>,
        agent: secure ? agents.https : agents.http,
        timeout: IDLE_TIMEOUT_MS,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            statusCode: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer for ${IDLE_TIMEOUT_MS} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}

/** The error code and message of a refusal: S3's XML, or a JSON service's body and headers. */
function refusal(answer: SignedAnswer): AwsCallError {
  const text = answer.body.toString('utf8');
  const xml = (tag: string) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(text)?.[1];
  let json: { __type?: string; code?: string; message?: string; Message?: string } = {};
  try {
    json = JSON.parse(text);
  } catch {
    // S3 answers XML (and a HEAD, nothing at all).
  }
  const header = answer.headers['x-amzn-errortype'];
  const code =
    xml('Code') ??
    json.__type?.split('#').pop() ??
    json.code ??
    (typeof header === 'string' ? header.split(':')[0] : undefined) ??
    (answer.statusCode === 404 ? 'NotFound' : `HTTP${answer.statusCode}`);
  const message = xml('Message') ?? json.message ?? json.Message ?? `answered HTTP ${answer.statusCode}`;
  return new AwsCallError(code, message, answer.statusCode);
}

const retryable = (error: unknown) =>
  error instanceof AwsCallError ? error.statusCode >= 500 || THROTTLING.has(error.name) : true;

async function callWithRetries(call: SignedRequest, okStatuses: readonly number[]): Promise<SignedAnswer> {
  const { url, custom } = endpointOf(call.serviceId, call.host(region()));
  for (let attempt = 1; ; attempt++) {
    try {
      credentialChain ??= defaultProvider();
      const signed = aws4.sign(
        {
          host: url.host,
          path: `${custom ? url.pathname.replace(/\/$/, '') : ''}${call.path}`,
          method: call.method,
          service: call.service,
          region: region(),
          headers: { ...call.headers },
          ...(call.body ? { body: call.body } : {}),
        },
        await credentialChain(),
      );
      const answer = await send(url, signed, call.body);
      if (okStatuses.includes(answer.statusCode)) return answer;
      throw refusal(answer);
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !retryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 100 * 2 ** attempt));
    }
  }
}

/**
 * Sends the call; answers with a status in `okStatuses` are returned (a 404 the caller reads as
 * "not there", for instance), any other is thrown as an AwsCallError.
 */
export async function signedRequest(
  call: SignedRequest,
  okStatuses: readonly number[] = [200],
): Promise<SignedAnswer> {
  return timeDependencyCall(call.serviceId, call.operation, () => callWithRetries(call, okStatuses));
}
