import type { Node } from 'constructs';

/** Deployment settings, read from CDK context (`-c stage=prod -c docsUrl=https://…`). */
export interface Settings {
  /** Stage name: part of the stack names and the API Gateway stage name. */
  readonly stage: string;
  /** Base of the public documentation; error envelopes link to `${docsUrl}/errors#<code>`. */
  readonly docsUrl: string;
  /** Whether a WAFv2 web ACL protects the API stage (default: only for the `prod` stage). */
  readonly waf: boolean;
}

export const DEFAULT_STAGE = 'dev';
export const DEFAULT_DOCS_URL = 'https://docs.company-register.example.com';

/** Stage-level API Gateway throttling, above any single key's 600 requests per minute. */
export const STAGE_THROTTLING = { rateLimit: 100, burstLimit: 200 } as const;

/** WAF per-IP rate rule: requests per IP per window (twice one API key's allowance). */
export const WAF_IP_RATE_LIMIT = { limit: 1200, windowSeconds: 60 } as const;

const STAGE_PATTERN = /^[a-z][a-z0-9-]{0,19}$/;

const parseBoolean = (value: unknown, name: string): boolean | undefined => {
  if (value === undefined) return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new Error(`context ${name} must be true or false, got ${String(value)}`);
};

export function readSettings(node: Node): Settings {
  const stage: unknown = node.tryGetContext('stage') ?? DEFAULT_STAGE;
  if (typeof stage !== 'string' || !STAGE_PATTERN.test(stage)) {
    throw new Error(`context stage must match ${STAGE_PATTERN}, got ${String(stage)}`);
  }
  const docsUrl: unknown = node.tryGetContext('docsUrl') ?? DEFAULT_DOCS_URL;
  if (typeof docsUrl !== 'string' || !/^https:\/\/[^\s"'$\\]+$/.test(docsUrl)) {
    throw new Error(`context docsUrl must be an https URL without quotes or $, got ${String(docsUrl)}`);
  }
  const waf = parseBoolean(node.tryGetContext('waf'), 'waf') ?? stage === 'prod';
  return { stage, docsUrl: docsUrl.replace(/\/+$/, ''), waf };
}
