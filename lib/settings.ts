import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import type { PriceSchedule } from '../shared/kernel/prices.ts';
import { LIMITS } from '../shared/kernel/rate-limit.ts';
import { checkPriceSchedule, EXAMPLE_PRICE_SCHEDULE } from '../shared/usage/prices.ts';
import {
  DEPLOYMENT_STRATEGIES,
  DEV_DEPLOYMENT,
  type DeploymentStrategy,
  LIVE_DEPLOYMENT,
} from './deployment-strategies.ts';
import { STAGE_SETTINGS, type StageSettings, UNLISTED_STAGE } from './stages.ts';

/**
 * Deployment settings of one stage: its committed entry in `lib/stages.ts`, each value overridable
 * for one deploy with CDK context (`-c registryUrl=https://…`).
 */
export interface Settings {
  /** Stage name: part of the stack names and the API Gateway stage name. */
  readonly stage: string;
  /** Whether the stage serves paying customers (placeholders refused, account and region pinned). */
  readonly live: boolean;
  /** Pinned account and region (both or neither); unset, the CLI's credentials decide. */
  readonly account?: string;
  readonly region?: string;
  /**
   * Base of the public documentation; error envelopes link to `${docsUrl}/errors#<code>`. Unset,
   * the API's own `/docs` on the deployed stage (`docsUrlFor` in lib/api-stack.ts).
   */
  readonly docsUrl?: string;
  /** Whether a WAFv2 web ACL protects the API stage (default: live stages only). */
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
  /** Subscribed to the stage's alarm topic, if set (a live stage has this or `alarmEndpoint`). */
  readonly alarmEmail?: string;
  /** An https endpoint subscribed to the stage's alarm topic, if set. */
  readonly alarmEndpoint?: string;
  /** API keys the stage serves at their full rate at once; the stage throttle is derived from it. */
  readonly contractedKeys: number;
  /** Days every log group of the stage keeps its events (access, execution, function, workflow, WAF logs). */
  readonly logRetentionDays: number;
  /** Whether the log groups are kept when their stack is deleted (live stages). */
  readonly retainLogs: boolean;
  /** A custom domain: the API answers there only, its execute-api endpoint disabled. */
  readonly domain?: { readonly name: string; readonly certificateArn: string };
  /** Concurrent registry calls the stage may make (reserved concurrency of the registry functions). */
  readonly registryConcurrency?: number;
  /** How a function's new version takes traffic (`DEPLOYMENT_STRATEGIES`). */
  readonly deployment: DeploymentStrategy;
  /** What the stage charges (`PRICE_SCHEDULE` of every function); the example schedule unless set. */
  readonly prices: PriceSchedule;
  /** Passkeys' relying party id and origin (`PASSKEY_RP_ID`, `PASSKEY_ORIGIN`); unset, the API's host and origin. */
  readonly passkeyRpId?: string;
  readonly passkeyOrigin?: string;
}

const parseDeployment = (value: unknown, name: string): DeploymentStrategy | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !Object.hasOwn(DEPLOYMENT_STRATEGIES, value)) {
    throw new Error(
      `setting ${name} must be one of ${Object.keys(DEPLOYMENT_STRATEGIES).join(', ')}, got ${String(value)}`,
    );
  }
  return value as DeploymentStrategy;
};

export const DEFAULT_STAGE = 'dev';
/**
 * Placeholder for stages that have no registry yet: a reserved `example.com` name that resolves to
 * no registry, so live-key registry calls fail as `registry_unavailable` instead of reaching anyone.
 */
export const DEFAULT_REGISTRY_URL = 'https://registry.company-register.example.com';

/** Placeholder sender on the reserved `example.com` domain: no SES identity can be verified for it. */
export const DEFAULT_MAIL_FROM = 'orders@company-register.example.com';

/** Contracted capacity of a stage that states none: ten keys at full rate (100 requests a second). */
export const DEFAULT_CONTRACTED_KEYS = 10;

/**
 * The stage-level API Gateway throttle, from the contracted capacity: every contracted key at its
 * full steady rate (600 a minute is 10 a second) at once, and a burst of twice that, so that the
 * stage throttle only ever answers when more traffic arrives than the stage was sized for. Prod's
 * 50 keys give 500 rps (burst 1,000), a twentieth of the account's default 10,000 rps quota.
 */
export function stageThrottling(contractedKeys: number): { rateLimit: number; burstLimit: number } {
  const perKeyRate = LIMITS.requestsPerMinute / (LIMITS.windowMs / 1000);
  const rateLimit = contractedKeys * perKeyRate;
  return { rateLimit, burstLimit: 2 * rateLimit };
}

/** Log retention of a live stage that states none: a year, longer than any billing dispute starts. */
export const LIVE_LOG_RETENTION_DAYS = 365;
/** Log retention of other stages (development traffic only). */
export const DEV_LOG_RETENTION_DAYS = 30;

/**
 * The most instances of each SQS consumer at once (the event source's maximum concurrency), so a
 * backlog cannot take the account's unreserved concurrency from the API's functions:
 * - the starter only starts executions (tens of ms a batch of 10): 2 instances (Lambda's least)
 *   start over 100 a second, far beyond any order rate;
 * - the dispatcher waits up to 10 s on each customer endpoint (spec 6.2): 10 instances of batches
 *   of 10 keep 100 attempts in flight, which a backlog of slow endpoints cannot turn into more.
 * - company monitoring's run (RunMonitoring) checks one company at a time per instance, one or two
 *   registry reads each: 4 instances at the registry's ~150 ms a read make at most ~26 reads a
 *   second, the daily check's allowance (`MONITORING_REGISTRY_CALLS_PER_SECOND`, 25), and never
 *   more than the function's reserved registry share (the synth fails if the share is smaller).
 * Together at most 16 of the account's concurrency, beside the registry functions' reservation.
 */
export const CONSUMER_CONCURRENCY = {
  fulfilmentStarter: 2,
  webhookDispatcher: 10,
  monitoringRun: 4,
} as const;

/** WAF per-IP rate rule: requests per IP per window (twice one API key's allowance). */
export const WAF_IP_RATE_LIMIT = { limit: 1200, windowSeconds: 60 } as const;

const STAGE_PATTERN = /^[a-z][a-z0-9-]{0,19}$/;

/** An https URL that can be pasted into a template and an env var as is (no quotes, `$` or spaces). */
const HTTPS_URL_PATTERN = /^https:\/\/[^\s"'$\\]+$/;

const parseUrl = (value: unknown, name: string): string => {
  if (typeof value !== 'string' || !HTTPS_URL_PATTERN.test(value)) {
    throw new Error(`setting ${name} must be an https URL without quotes or $, got ${String(value)}`);
  }
  return value.replace(/\/+$/, '');
};

/** A bare address (no display name), usable in an SES identity ARN and an env var as is. */
const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;

const parseEmail = (value: unknown, name: string): string => {
  if (typeof value !== 'string' || !EMAIL_PATTERN.test(value)) {
    throw new Error(`setting ${name} must be a bare email address, got ${String(value)}`);
  }
  return value;
};

const parseBoolean = (value: unknown, name: string): boolean | undefined => {
  if (value === undefined) return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new Error(`setting ${name} must be true or false, got ${String(value)}`);
};

const parsePositiveInteger = (value: unknown, name: string): number | undefined => {
  if (value === undefined) return undefined;
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 1) {
    throw new Error(`setting ${name} must be a positive integer, got ${String(value)}`);
  }
  return number;
};

const RETENTION_VALUES: readonly number[] = Object.values(RetentionDays).filter(
  (value): value is number => typeof value === 'number',
);

const parseRetention = (value: unknown, name: string): number | undefined => {
  const days = parsePositiveInteger(value, name);
  if (days !== undefined && !RETENTION_VALUES.includes(days)) {
    throw new Error(
      `setting ${name} must be a retention CloudWatch Logs accepts (${RETENTION_VALUES.join(', ')}), got ${days}`,
    );
  }
  return days;
};

const DOMAIN_PATTERN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const CERTIFICATE_PATTERN = /^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[A-Za-z0-9-]+$/;

const ACCOUNT_PATTERN = /^\d{12}$/;
const REGION_PATTERN = /^[a-z]{2}(-[a-z]+)+-\d$/;

/**
 * Host names that can never be a real service (RFC 2606 and 6761): the `example.com/.net/.org`
 * domains and the `.example`, `.invalid`, `.test` and `.localhost` names.
 */
export function isReservedHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return /(^|\.)example\.(com|net|org)$/.test(name) || /(^|\.)(example|invalid|test|localhost)$/.test(name);
}

/** Why a live stage may not deploy this setting, or undefined when it may. */
function placeholderProblem(name: 'registryUrl' | 'mailFrom', value: string): string | undefined {
  const host = name === 'registryUrl' ? new URL(value).hostname : value.slice(value.indexOf('@') + 1);
  if (!isReservedHost(host)) return undefined;
  return `${name} is the placeholder ${value} (a reserved name)`;
}

export function readSettings(node: Node): Settings {
  const stage: unknown = node.tryGetContext('stage') ?? DEFAULT_STAGE;
  if (typeof stage !== 'string' || !STAGE_PATTERN.test(stage)) {
    throw new Error(`context stage must match ${STAGE_PATTERN}, got ${String(stage)}`);
  }
  const committed: StageSettings = STAGE_SETTINGS[stage] ?? UNLISTED_STAGE;
  // A context value overrides the committed one for this synth.
  const setting = (name: keyof StageSettings): unknown => node.tryGetContext(name) ?? committed[name];

  const live = committed.live;
  const registryUrl = parseUrl(setting('registryUrl') ?? DEFAULT_REGISTRY_URL, 'registryUrl');
  const mailFrom = parseEmail(setting('mailFrom') ?? DEFAULT_MAIL_FROM, 'mailFrom');
  const docsUrlValue = setting('docsUrl');
  const docsUrl = docsUrlValue === undefined ? undefined : parseUrl(docsUrlValue, 'docsUrl');
  const alarmEmailValue = setting('alarmEmail');
  const alarmEmail = alarmEmailValue === undefined ? undefined : parseEmail(alarmEmailValue, 'alarmEmail');
  const alarmEndpointValue = setting('alarmEndpoint');
  const alarmEndpoint =
    alarmEndpointValue === undefined ? undefined : parseUrl(alarmEndpointValue, 'alarmEndpoint');
  const contractedKeys =
    parsePositiveInteger(setting('contractedKeys'), 'contractedKeys') ?? DEFAULT_CONTRACTED_KEYS;
  const logRetentionDays =
    parseRetention(setting('logRetentionDays'), 'logRetentionDays') ??
    (live ? LIVE_LOG_RETENTION_DAYS : DEV_LOG_RETENTION_DAYS);
  const domainName = setting('domainName');
  const certificateArn = setting('certificateArn');
  if ((domainName === undefined) !== (certificateArn === undefined))
    throw new Error('settings domainName and certificateArn go together: set both or neither');
  if (domainName !== undefined && (typeof domainName !== 'string' || !DOMAIN_PATTERN.test(domainName)))
    throw new Error(`setting domainName must be a lower-case host name, got ${String(domainName)}`);
  if (
    certificateArn !== undefined &&
    (typeof certificateArn !== 'string' || !CERTIFICATE_PATTERN.test(certificateArn))
  )
    throw new Error(`setting certificateArn must be an ACM certificate ARN, got ${String(certificateArn)}`);
  const waf = parseBoolean(setting('waf'), 'waf') ?? live;
  const registryConcurrency = parsePositiveInteger(setting('registryConcurrency'), 'registryConcurrency');
  const deployment =
    parseDeployment(setting('deployment'), 'deployment') ?? (live ? LIVE_DEPLOYMENT : DEV_DEPLOYMENT);
  const pricesValue = setting('prices');
  const prices =
    pricesValue === undefined
      ? EXAMPLE_PRICE_SCHEDULE
      : checkPriceSchedule(typeof pricesValue === 'string' ? JSON.parse(pricesValue) : pricesValue);
  const passkeyRpId = setting('passkeyRpId');
  if (passkeyRpId !== undefined && (typeof passkeyRpId !== 'string' || !DOMAIN_PATTERN.test(passkeyRpId)))
    throw new Error(`setting passkeyRpId must be a lower-case host name, got ${String(passkeyRpId)}`);
  const passkeyOriginValue = setting('passkeyOrigin');
  const passkeyOrigin =
    passkeyOriginValue === undefined
      ? undefined
      : new URL(parseUrl(passkeyOriginValue, 'passkeyOrigin')).origin;
  if (passkeyOrigin !== undefined && passkeyRpId !== undefined) {
    const host = new URL(passkeyOrigin).hostname;
    if (host !== passkeyRpId && !host.endsWith(`.${passkeyRpId}`))
      throw new Error(
        `setting passkeyOrigin ${passkeyOrigin} is not on passkeyRpId ${passkeyRpId} or under it`,
      );
  }
  const account = setting('account');
  const region = setting('region');
  if (account !== undefined && (typeof account !== 'string' || !ACCOUNT_PATTERN.test(account)))
    throw new Error(`setting account must be a 12-digit AWS account id, got ${String(account)}`);
  if (region !== undefined && (typeof region !== 'string' || !REGION_PATTERN.test(region)))
    throw new Error(`setting region must be an AWS region such as eu-west-2, got ${String(region)}`);

  if (live) {
    const problems = [
      placeholderProblem('registryUrl', registryUrl),
      placeholderProblem('mailFrom', mailFrom),
      account === undefined ? 'account is not pinned' : undefined,
      region === undefined ? 'region is not pinned' : undefined,
      prices.example ? 'prices are the example schedule (set real prices)' : undefined,
      alarmEmail === undefined && alarmEndpoint === undefined
        ? 'no one receives its alarms (set alarmEmail or alarmEndpoint)'
        : undefined,
    ].filter((problem): problem is string => problem !== undefined);
    if (problems.length > 0) {
      throw new Error(
        `stage ${stage} serves live traffic and cannot be synthesized: ${problems.join('; ')}. ` +
          `Set the real values in STAGE_SETTINGS.${stage} (lib/stages.ts); see docs/operations.md.`,
      );
    }
  }
  return {
    stage,
    live,
    ...(account === undefined ? {} : { account: account as string }),
    ...(region === undefined ? {} : { region: region as string }),
    ...(docsUrl === undefined ? {} : { docsUrl }),
    waf,
    registryUrl,
    mailFrom,
    ...(alarmEmail === undefined ? {} : { alarmEmail }),
    ...(alarmEndpoint === undefined ? {} : { alarmEndpoint }),
    contractedKeys,
    logRetentionDays,
    retainLogs: live,
    ...(domainName === undefined
      ? {}
      : { domain: { name: domainName as string, certificateArn: certificateArn as string } }),
    ...(registryConcurrency === undefined ? {} : { registryConcurrency }),
    deployment,
    prices,
    ...(passkeyRpId === undefined ? {} : { passkeyRpId: passkeyRpId as string }),
    ...(passkeyOrigin === undefined ? {} : { passkeyOrigin }),
  };
}
