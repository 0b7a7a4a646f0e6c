import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { DEV_DEPLOYMENT, LIVE_DEPLOYMENT } from '../../lib/deployment-strategies.ts';
import {
  DEFAULT_CONTRACTED_KEYS,
  DEFAULT_MAIL_FROM,
  DEFAULT_REGISTRY_URL,
  DEV_LOG_RETENTION_DAYS,
  isReservedHost,
  LIVE_LOG_RETENTION_DAYS,
  readSettings,
  type Settings,
} from '../../lib/settings.ts';
import { STAGE_SETTINGS, type StageSettings } from '../../lib/stages.ts';
import { PASSKEY_ENV } from '../../shared/console/infra.ts';
import { PRICE_SCHEDULE_ENV } from '../../shared/kernel/prices.ts';
import { EXAMPLE_PRICE_SCHEDULE } from '../../shared/usage/prices.ts';
import { synthesize } from './synth.ts';

const settingsWith = (context: Record<string, unknown>): Settings => readSettings(new App({ context }).node);

/** The settings of `stage` as if `committed` were its entry in lib/stages.ts. */
function readSettingsOf(stage: string, committed: StageSettings): Settings {
  const saved = STAGE_SETTINGS[stage];
  const table = STAGE_SETTINGS as Record<string, StageSettings>;
  table[stage] = committed;
  try {
    return settingsWith({ stage });
  } finally {
    if (saved) table[stage] = saved;
  }
}

describe('stage settings (lib/stages.ts)', () => {
  it('gives prod everything a deploy needs from the committed settings alone', () => {
    const prod = STAGE_SETTINGS.prod;
    expect(settingsWith({ stage: 'prod' })).toEqual({
      stage: 'prod',
      live: true,
      account: prod?.account,
      region: prod?.region,
      waf: true,
      registryUrl: prod?.registryUrl,
      mailFrom: prod?.mailFrom,
      registryConcurrency: prod?.registryConcurrency,
      alarmEmail: prod?.alarmEmail,
      contractedKeys: prod?.contractedKeys,
      // The audit trail: a year, kept when a stack is deleted.
      logRetentionDays: LIVE_LOG_RETENTION_DAYS,
      retainLogs: true,
      // A changed function takes traffic through a canary that rolls back on its errors alarm.
      deployment: 'canary10Percent10Minutes',
      prices: prod?.prices,
    });
    expect(prod?.prices?.example).toBe(false);
    expect(LIVE_LOG_RETENTION_DAYS).toBeGreaterThanOrEqual(365);
  });

  it('refuses a live stage that would notify no one of its alarms', () => {
    const committed = STAGE_SETTINGS.prod as StageSettings;
    expect(committed.alarmEmail ?? committed.alarmEndpoint).toBeDefined();
    const { alarmEmail: _email, alarmEndpoint: _endpoint, ...withoutReceivers } = committed;
    expect(() => readSettingsOf('prod', withoutReceivers)).toThrow(
      /no one receives its alarms \(set alarmEmail or alarmEndpoint\)/,
    );
    expect(
      readSettingsOf('prod', { ...withoutReceivers, alarmEndpoint: 'https://paging.example.org/sns' }),
    ).toMatchObject({
      alarmEndpoint: 'https://paging.example.org/sns',
    });
    // A stage that serves no live traffic may do without.
    expect(() => settingsWith({})).not.toThrow();
  });

  it('takes a custom domain with its certificate, both or neither', () => {
    const certificateArn = 'arn:aws:acm:eu-west-2:111122223333:certificate/abc-123';
    expect(settingsWith({ domainName: 'api.company.co.uk', certificateArn }).domain).toEqual({
      name: 'api.company.co.uk',
      certificateArn,
    });
    expect(() => settingsWith({ domainName: 'api.company.co.uk' })).toThrow(/go together/);
    expect(() => settingsWith({ certificateArn })).toThrow(/go together/);
    expect(() => settingsWith({ domainName: 'API..bad', certificateArn })).toThrow(/domainName must be/);
    expect(() =>
      settingsWith({ domainName: 'api.company.co.uk', certificateArn: 'arn:aws:iam::1:x' }),
    ).toThrow(/certificateArn must be an ACM certificate ARN/);
  });

  it("takes the passkeys' relying party id and origin, the origin on the id or under it", () => {
    expect(settingsWith({})).not.toHaveProperty('passkeyRpId');
    expect(
      settingsWith({ passkeyRpId: 'company.co.uk', passkeyOrigin: 'https://console.company.co.uk/' }),
    ).toMatchObject({ passkeyRpId: 'company.co.uk', passkeyOrigin: 'https://console.company.co.uk' });
    expect(() =>
      settingsWith({ passkeyRpId: 'company.co.uk', passkeyOrigin: 'https://evil.example.net' }),
    ).toThrow(/passkeyOrigin https:\/\/evil.example.net is not on passkeyRpId company.co.uk/);
    expect(() => settingsWith({ passkeyRpId: 'Not A Host' })).toThrow(/passkeyRpId must be/);
  });

  it('keeps the placeholders on dev, which serves no live traffic', () => {
    expect(settingsWith({})).toEqual({
      stage: 'dev',
      live: false,
      waf: false,
      registryUrl: DEFAULT_REGISTRY_URL,
      mailFrom: DEFAULT_MAIL_FROM,
      contractedKeys: DEFAULT_CONTRACTED_KEYS,
      logRetentionDays: DEV_LOG_RETENTION_DAYS,
      retainLogs: false,
      deployment: 'direct',
      // Example prices, marked as such wherever they are shown.
      prices: EXAMPLE_PRICE_SCHEDULE,
    });
    expect(EXAMPLE_PRICE_SCHEDULE.example).toBe(true);
  });

  it('refuses a live stage whose prices are the example schedule, or a malformed schedule', () => {
    const { prices: _prices, ...unpriced } = STAGE_SETTINGS.prod as StageSettings;
    expect(() => readSettingsOf('prod', unpriced)).toThrow(
      /stage prod serves live traffic and cannot be synthesized: prices are the example schedule/,
    );
    expect(() => readSettingsOf('prod', { ...unpriced, prices: EXAMPLE_PRICE_SCHEDULE })).toThrow(
      /prices are the example schedule/,
    );
    expect(() =>
      settingsWith({
        stage: 'prod',
        prices: JSON.stringify({ ...EXAMPLE_PRICE_SCHEDULE, example: false, versions: [] }),
      }),
    ).toThrow('setting prices must have at least one version');
    // A context value (JSON) overrides the committed schedule for one synth.
    const override = { ...EXAMPLE_PRICE_SCHEDULE, example: false };
    expect(settingsWith({ stage: 'prod', prices: JSON.stringify(override) }).prices).toStrictEqual(override);
  });

  it('takes the deployment strategy from the stage, a live default or a context value, and refuses an unknown one', () => {
    const { deployment: _deployment, ...prodWithout } = STAGE_SETTINGS.prod as StageSettings;
    expect(readSettingsOf('prod', prodWithout).deployment).toBe(LIVE_DEPLOYMENT);
    expect(settingsWith({ stage: 'staging' }).deployment).toBe(DEV_DEPLOYMENT);
    expect(settingsWith({ deployment: 'linear10PercentEvery2Minutes' }).deployment).toBe(
      'linear10PercentEvery2Minutes',
    );
    expect(settingsWith({ stage: 'prod', deployment: 'allAtOnce' }).deployment).toBe('allAtOnce');
    expect(() => settingsWith({ deployment: 'canary50Percent' })).toThrow(
      /setting deployment must be one of direct, allAtOnce, canary10Percent10Minutes, .*got canary50Percent/,
    );
  });

  it('treats a stage that is not listed as a non-live stage with every default', () => {
    expect(settingsWith({ stage: 'staging', waf: 'true' })).toMatchObject({
      stage: 'staging',
      live: false,
      waf: true,
      registryUrl: DEFAULT_REGISTRY_URL,
    });
  });

  it('lets a context value override one committed value', () => {
    const settings = settingsWith({
      stage: 'prod',
      registryUrl: 'https://registry.gov.uk/api/',
      alarmEmail: 'oncall@company.co.uk',
      registryConcurrency: '12',
    });
    expect(settings).toMatchObject({
      registryUrl: 'https://registry.gov.uk/api',
      alarmEmail: 'oncall@company.co.uk',
      registryConcurrency: 12,
      mailFrom: STAGE_SETTINGS.prod?.mailFrom,
    });
  });

  it.each([
    ['registryUrl', 'https://registry.company-register.example.com', /registryUrl is the placeholder/],
    ['registryUrl', 'https://registry.invalid', /registryUrl is the placeholder https:\/\/registry\.invalid/],
    ['mailFrom', 'orders@company-register.example.com', /mailFrom is the placeholder orders@/],
    ['mailFrom', 'ops@mail.test', /mailFrom is the placeholder ops@mail\.test/],
  ])('fails a prod synth whose %s is the placeholder %s', (name, value, message) => {
    expect(() => settingsWith({ stage: 'prod', [name]: value })).toThrow(message);
    expect(() => settingsWith({ stage: 'prod', [name]: value })).toThrow(
      /STAGE_SETTINGS\.prod \(lib\/stages\.ts\)/,
    );
  });

  it.each([
    [{ account: '1234' }, /account must be a 12-digit AWS account id/],
    [{ region: 'Europe' }, /region must be an AWS region/],
    [{ alarmEmail: 'Ops <ops@company.com>' }, /alarmEmail must be a bare email address/],
    [{ registryConcurrency: 0 }, /registryConcurrency must be a positive integer/],
    [{ registryConcurrency: 'many' }, /registryConcurrency must be a positive integer/],
    [{ alarmEndpoint: 'http://paging.company.com/hook' }, /alarmEndpoint must be an https URL/],
    [{ contractedKeys: 0 }, /contractedKeys must be a positive integer/],
    [{ logRetentionDays: 366 }, /logRetentionDays must be a retention CloudWatch Logs accepts/],
  ])('refuses a malformed setting %o', (context, message) => {
    expect(() => settingsWith({ stage: 'prod', ...context })).toThrow(message);
  });

  it('knows the reserved names from real ones', () => {
    for (const host of [
      'example.com',
      'a.example.org',
      'x.example.net',
      'api.example',
      'r.invalid',
      'localhost',
      'a.test',
    ])
      expect(isReservedHost(host), host).toBe(true);
    for (const host of ['registry.gov.uk', 'example.company.com', 'notexample.com', 'testing.io'])
      expect(isReservedHost(host), host).toBe(false);
  });
});

describe('prices on the functions', () => {
  it("hands every function the stage's schedule as PRICE_SCHEDULE, so none falls back to the examples", () => {
    const { templates, settings } = synthesize({ context: { stage: 'prod' } });
    const functions = templates.flatMap((template) =>
      Object.entries(template.json.Resources ?? {}).filter(
        ([, resource]) => resource.Type === 'AWS::Lambda::Function',
      ),
    );
    expect(functions.length).toBeGreaterThan(20);
    const without = functions
      .filter(([, fn]) => {
        const variables = (fn.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)
          ?.Variables;
        return variables?.[PRICE_SCHEDULE_ENV] !== JSON.stringify(settings.prices);
      })
      .map(([id]) => id);
    // CDK's own custom-resource providers write no fees.
    expect(
      without.filter((id) => !/^(CustomResource|AWS|LogRetention|BucketNotifications)/.test(id)),
    ).toStrictEqual([]);
  });
});

describe('passkey settings on the functions', () => {
  it('binds PASSKEY_RP_ID and PASSKEY_ORIGIN on the passkey functions only', { timeout: 300_000 }, () => {
    const { templates } = synthesize({
      context: { stage: 'dev', passkeyRpId: 'company.co.uk', passkeyOrigin: 'https://console.company.co.uk' },
    });
    const bound = templates.flatMap((template) =>
      Object.entries(template.json.Resources ?? {})
        .filter(([, resource]) => resource.Type === 'AWS::Lambda::Function')
        .filter(([, fn]) => {
          const variables = (
            fn.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined
          )?.Variables;
          return (
            variables?.[PASSKEY_ENV.rpId] === 'company.co.uk' &&
            variables?.[PASSKEY_ENV.origin] === 'https://console.company.co.uk'
          );
        })
        .map(([id]) => id.replace(/Function[0-9A-F]{8}$/, '')),
    );
    expect(bound.sort()).toEqual([
      'ListConsolePasskeys',
      'RegisterConsolePasskey',
      'RemoveConsolePasskey',
      'SignInWithPasskey',
      'StartConsolePasskeyRegistration',
      'StartPasskeySignIn',
    ]);
  });
});
