import type { Node } from 'constructs';

/**
 * Deployment settings, read from CDK context
 * (`-c stage=prod -c docsUrl=https://… -c registryUrl=https://… -c mailFrom=orders@…`).
 */
export interface Settings {
  /** Stage name: part of the stack names and the API Gateway stage name. */
  readonly stage: string;
  /** Base of the public documentation; error envelopes link to `${docsUrl}/errors#<code>`. */
  readonly docsUrl: string;
  /** Whether a WAFv2 web ACL protects the API stage (default: only for the `prod` stage). */
  readonly waf: boolean;
  /**
   * Base URL of the live registry (`REGISTRY_URL` of the functions that call it); operations are
   * posted to `${registryUrl}/v1/<operation>`. Live keys only: test keys use the built-in sandbox.
   */
  readonly registryUrl: string;
  /**
   * Sender of order and offline search emails (`MAIL_FROM`): an address whose SES identity (the
   * address itself or its domain) is verified in the stage's account and region.
   */
  readonly mailFrom: string;
}

export const DEFAULT_STAGE = 'dev';
export const DEFAULT_DOCS_URL = 'https://docs.company-register.example.com';
/**
 * Placeholder for stages that have no registry yet: a reserved `example.com` name that resolves to
 * no registry, so live-key registry calls fail as `registry_unavailable` instead of reaching anyone.
 */
export const DEFAULT_REGISTRY_URL = 'https://registry.company-register.example.com';

/** Placeholder sender on the reserved `example.com` domain: no SES identity can be verified for it. */
export const DEFAULT_MAIL_FROM = 'orders@company-register.example.com';

/** Stage-level API Gateway throttling, above any single key's 600 requests per minute. */
export const STAGE_THROTTLING = { rateLimit: 100, burstLimit: 200 } as const;

/** WAF per-IP rate rule: requests per IP per window (twice one API key's allowance). */
export const WAF_IP_RATE_LIMIT = { limit: 1200, windowSeconds: 60 } as const;

const STAGE_PATTERN = /^[a-z][a-z0-9-]{0,19}$/;

/** An https URL that can be pasted into a template and an env var as is (no quotes, `$` or spaces). */
const HTTPS_URL_PATTERN = /^https:\/\/[^\s"'$\\]+$/;

const parseUrl = (value: unknown, name: string): string => {
  if (typeof value !== 'string' || !HTTPS_URL_PATTERN.test(value)) {
    throw new Error(`context ${name} must be an https URL without quotes or $, got ${String(value)}`);
  }
  return value.replace(/\/+$/, '');
};

/** A bare address (no display name), usable in an SES identity ARN and an env var as is. */
const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;

const parseEmail = (value: unknown, name: string): string => {
  if (typeof value !== 'string' || !EMAIL_PATTERN.test(value)) {
    throw new Error(`context ${name} must be a bare email address, got ${String(value)}`);
  }
  return value;
};

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
  const docsUrl = parseUrl(node.tryGetContext('docsUrl') ?? DEFAULT_DOCS_URL, 'docsUrl');
  const registryUrl = parseUrl(node.tryGetContext('registryUrl') ?? DEFAULT_REGISTRY_URL, 'registryUrl');
  const waf = parseBoolean(node.tryGetContext('waf'), 'waf') ?? stage === 'prod';
  const mailFrom = parseEmail(node.tryGetContext('mailFrom') ?? DEFAULT_MAIL_FROM, 'mailFrom');
  return { stage, docsUrl, waf, registryUrl, mailFrom };
}
