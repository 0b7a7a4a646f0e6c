import { type App, Aspects, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { routeList } from '../shared/app/routes.ts';
import { PRICE_SCHEDULE_ENV } from '../shared/kernel/prices.ts';
import { ApiStack } from './api-stack.ts';
import { ApiFunction } from './constructs/api-function.ts';
import { DataStack } from './data-stack.ts';
import { checkRouteAreas, type EntryFor, ROUTE_AREAS, type RouteArea } from './routes.ts';
import { readSettings, type Settings } from './settings.ts';

export interface BuildAppOptions {
  /**
   * Endpoints to deploy, by area (default `ROUTE_AREAS`: the route table's modules). Every route of
   * the route table must be in one of them; tests add areas of their own.
   */
  readonly areas?: readonly RouteArea[];
  /** Entry module of a route's or workflow's function (default `functions/<handler>.ts`). */
  readonly entryFor?: EntryFor;
}

export interface CompanyRegisterApp {
  readonly settings: Settings;
  readonly data: DataStack;
  readonly api: ApiStack;
}

/**
 * The most resources any template of the app may have (test/infra/stacks.test.ts checks every
 * stack and nested stack). CloudFormation's limit is 500; keeping each template at or below 250
 * leaves room to grow, and a new route area gets a nested stack of its own. (It was 200 until the
 * console and monitoring areas took the API stack to 201 resources, 206 on prod: most of them are
 * the REST API's path resources, which could move into the area stacks when it nears 250.)
 */
export const MAX_TEMPLATE_RESOURCES = 250;

export const stackName = (stage: string, part: 'Data' | 'Api'): string => `CompanyRegister-${stage}-${part}`;

/**
 * The whole CDK app: a stateful data stack and a stateless API stack (with one nested stack per
 * route area) that takes the tables, the secrets (cursor signing key, registry credential) and the
 * orders bucket as props, checked by cdk-nag's AWS Solutions pack. Shared by bin/app.ts and the
 * infrastructure tests.
 */
export function buildApp(app: App, options: BuildAppOptions = {}): CompanyRegisterApp {
  const settings = readSettings(app.node);
  const areas = options.areas ?? ROUTE_AREAS;
  checkRouteAreas(areas, routeList);
  // A live stage is pinned to its account and region (lib/stages.ts): a deploy with credentials
  // for another account stops before changing anything.
  const account = settings.account ?? process.env.CDK_DEFAULT_ACCOUNT;
  const region = settings.region ?? process.env.CDK_DEFAULT_REGION;
  const env = { ...(account ? { account } : {}), ...(region ? { region } : {}) };

  const data = new DataStack(app, stackName(settings.stage, 'Data'), {
    stackName: stackName(settings.stage, 'Data'),
    description: `Company Register Data Service: tables, secrets and the orders bucket (${settings.stage})`,
    terminationProtection: settings.live,
    env,
  });
  const api = new ApiStack(app, stackName(settings.stage, 'Api'), {
    stackName: stackName(settings.stage, 'Api'),
    description: `Company Register Data Service: API, functions and fulfilment (${settings.stage})`,
    env,
    settings,
    tables: data.tables,
    cursorSecret: data.cursorSecret,
    registryCredentialSecret: data.registryCredentialSecret,
    ordersBucket: data.ordersBucket,
    webhookKey: data.webhookKey,
    areas,
    ...(options.entryFor ? { entryFor: options.entryFor } : {}),
  });

  // The orders bucket is imported by export name (see `DataStack.ordersBucket`), which CDK does not
  // count as a reference: state the order explicitly.
  api.addStackDependency(data);

  // Every function gets the stage's prices: a fee entry records the price in force when any of
  // them writes it (shared/usage/prices.ts), and none may fall back to the example schedule.
  const prices = JSON.stringify(settings.prices);
  Aspects.of(app).add({
    visit: (node) => {
      if (node instanceof ApiFunction) node.addEnvironment(PRICE_SCHEDULE_ENV, prices);
    },
  });

  Tags.of(app).add('service', 'company-register');
  Tags.of(app).add('stage', settings.stage);

  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
  return { settings, data, api };
}
