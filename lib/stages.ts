import type { PriceSchedule } from '../shared/kernel/prices.ts';
import type { DeploymentStrategy } from './deployment-strategies.ts';

/**
 * The committed settings of each stage: `cdk deploy --all -c stage=<name>` reads its stage here and
 * needs no other flag (a `-c <setting>=…` flag still overrides one value for one deploy). See
 * docs/operations.md ("First deploy") for what each value must be before a stage goes live.
 */
export interface StageSettings {
  /**
   * A live stage serves paying customers: its synth fails when `registryUrl` or `mailFrom` is a
   * placeholder (a reserved example name) or its prices are the example schedule, and its account
   * and region must be pinned.
   */
  readonly live: boolean;
  /** The AWS account the stage deploys to; unset, the CLI's credentials decide (dev stages). */
  readonly account?: string;
  readonly region?: string;
  /** Base URL of the live registry; unset, the reserved placeholder (live-key calls then fail as 503). */
  readonly registryUrl?: string;
  /** Sender of order emails; unset, the reserved placeholder (no SES identity can exist for it). */
  readonly mailFrom?: string;
  /**
   * Base of the public documentation (error `docUrl`s are `<docsUrl>/errors#<code>`); unset, the
   * API's own `/docs` pages on the deployed stage.
   */
  readonly docsUrl?: string;
  /** Whether a WAFv2 web ACL protects the stage (default: live stages only). */
  readonly waf?: boolean;
  /**
   * An address subscribed to the stage's alarm topic (it must confirm the subscription by email).
   * A live stage needs it or `alarmEndpoint`: its synth fails with neither, since alarms nobody
   * receives protect nobody.
   */
  readonly alarmEmail?: string;
  /**
   * An https endpoint subscribed to the alarm topic: a paging or chat service's SNS webhook (it
   * confirms the subscription by fetching the `SubscribeURL` SNS posts to it).
   */
  readonly alarmEndpoint?: string;
  /**
   * Contracted capacity: how many API keys the stage must serve at their full rate (600 requests a
   * minute, 10 a second) at the same time. The stage throttle is derived from it
   * (`stageThrottling` in lib/settings.ts); unset, `DEFAULT_CONTRACTED_KEYS`.
   */
  readonly contractedKeys?: number;
  /**
   * Days the access logs and every function's and workflow's logs are kept (the audit trail of
   * who fetched what). Unset: a year on a live stage (which also keeps them when a stack is
   * deleted), a month elsewhere. Must be a value CloudWatch Logs accepts.
   */
  readonly logRetentionDays?: number;
  /**
   * A custom domain for the API (`api.example.com`), with the ARN of its ACM certificate in the
   * stage's region: both or neither. Set, the API answers on `https://<domainName>/v1/…` only and
   * its execute-api endpoint is disabled.
   */
  readonly domainName?: string;
  readonly certificateArn?: string;
  /**
   * Concurrent calls the live registry accepts from this service (its published capacity for our
   * credential). The functions that call it get reserved concurrency summing to at most this, so
   * a burst of customers queues at our door (429/throttled retries) instead of overrunning the
   * registry. Unset: no reservation (a new account's concurrency quota is too small to reserve).
   */
  readonly registryConcurrency?: number;
  /**
   * How a new version of each function takes its traffic (`DEPLOYMENT_STRATEGIES` in
   * lib/deployment-strategies.ts): a CodeDeploy canary or linear shift that rolls back on the function's errors
   * alarm, or `direct` (no CodeDeploy: the alias moves at once). Unset: `canary10Percent10Minutes`
   * on a live stage, `direct` elsewhere.
   */
  readonly deployment?: DeploymentStrategy;
  /**
   * Passkeys of console members (docs/console.md, "Passkeys"): the WebAuthn relying party id, a
   * domain the console's host is (or is under), and the origin the console's page runs at
   * (`https://console.example.com`). A passkey works only where both match: changing either
   * strands the passkeys made before. Unset: the API's own host and origin (the custom domain, or
   * the execute-api host); locally `localhost`.
   */
  readonly passkeyRpId?: string;
  readonly passkeyOrigin?: string;
  /**
   * What the stage charges: a price in cents per product and fee code, in versions with effective
   * dates (shared/usage/prices.ts; docs/usage.md, "Prices"). A change adds a version effective
   * from a later date and keeps the old ones: each fee entry records the price it was written at.
   * Unset: the example schedule, marked as such in the usage report and the console; a live stage
   * refuses to synthesize with it.
   */
  readonly prices?: PriceSchedule;
}

/**
 * Prod's prices, in cents of Australian dollars (the register's fees are in dollars): like the
 * other prod values, an operator confirms them before the first deploy.
 */
const PROD_PRICES: PriceSchedule = {
  currency: 'AUD',
  example: false,
  versions: [
    {
      effectiveFrom: '2026-07-01',
      prices: {
        'company_extract_current/955A': 2900,
        'company_extract_historical/955A': 4400,
        'company_relationships/955B': 3900,
        'person_extract/958': 2400,
        'charges_extract/955E': 2000,
        'charges_extract/955C': 2000,
        'document_image/951': 1300,
        'document_image/954': 1300,
        'document_image/949': 1300,
        'name_search/934': 3300,
        'weekly_summary/930A': 6600,
        'weekly_summary/930B': 6600,
        'weekly_summary/930D': 6600,
        'weekly_summary/930E': 6600,
        'weekly_summary/930F': 6600,
        'weekly_summary/930G': 6600,
        'register_extract/959A': 1700,
        'register_extract/959B': 1700,
        'register_extract/959C': 1700,
        'register_extract/959D': 1700,
        'register_extract/959E': 1700,
        'register_extract/959F': 1700,
        'register_extract/959G': 1700,
        'register_extract/959H': 1700,
        'register_extract/959I': 1700,
        'register_extract/959J': 1700,
        monitoring: 1,
      },
    },
  ],
};

/**
 * The stages. `prod` holds EXAMPLE values an operator replaces before the first deploy: AWS's
 * documentation account `111122223333` (a deploy with any real credentials stops at once because
 * the account differs), an example region, registry URL and sender. They are well-formed on
 * purpose, so that `npm run synth -- -c stage=prod` checks the production templates as committed;
 * a reserved placeholder (`*.example.com`, `.invalid`, …) in a live stage fails the synth.
 */
export const STAGE_SETTINGS: Readonly<Record<string, StageSettings>> = {
  dev: { live: false },
  prod: {
    live: true,
    account: '111122223333',
    region: 'eu-west-2',
    registryUrl: 'https://api.national-company-register.net',
    mailFrom: 'orders@company-register-data.net',
    waf: true,
    registryConcurrency: 160,
    alarmEmail: 'operations@company-register-data.net',
    contractedKeys: 50,
    deployment: 'canary10Percent10Minutes',
    prices: PROD_PRICES,
  },
};

/** Settings of a stage that is not listed: a non-live stage with every default. */
export const UNLISTED_STAGE: StageSettings = { live: false };
