import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAIL_FROM,
  DEFAULT_REGISTRY_URL,
  isReservedHost,
  readSettings,
  type Settings,
} from '../../lib/settings.ts';
import { STAGE_SETTINGS } from '../../lib/stages.ts';

const settingsWith = (context: Record<string, unknown>): Settings => readSettings(new App({ context }).node);

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
    });
  });

  it('keeps the placeholders on dev, which serves no live traffic', () => {
    expect(settingsWith({})).toEqual({
      stage: 'dev',
      live: false,
      waf: false,
      registryUrl: DEFAULT_REGISTRY_URL,
      mailFrom: DEFAULT_MAIL_FROM,
    });
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
