import { NestedStack } from 'aws-cdk-lib';
import { type IMetric, MathExpression, Metric, Stats } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { capabilityList } from '../shared/app/capabilities.ts';
import type { GrantedRoute } from '../shared/kernel/http/route.ts';
import { SERVICE_METRICS } from '../shared/kernel/metric-line.ts';
import {
  type AlarmThresholdName,
  periodOf,
  registryFailureRate,
  type StageAlarms,
  serviceMetric,
} from './alarms.ts';
import type { RouteArea } from './routes.ts';

/** A CloudWatch alarm on metric math may use at most this many metrics. */
export const MAX_ALARM_METRICS = 10;

/** API Gateway's figures of the stage (`ApiName` is the REST API's name, `Stage` the stage's). */
export interface ApiMetricNames {
  readonly apiName: string;
  readonly stage: string;
}

export const apiGatewayMetric = (
  names: ApiMetricNames,
  metricName: string,
  statistic: string,
  threshold: AlarmThresholdName,
  route?: Pick<GrantedRoute, 'method' | 'path'>,
): Metric =>
  new Metric({
    namespace: 'AWS/ApiGateway',
    metricName,
    dimensionsMap: {
      ApiName: names.apiName,
      Stage: names.stage,
      ...(route ? { Method: route.method, Resource: route.path } : {}),
    },
    statistic,
    period: periodOf(threshold),
  });

/** One latency alarm's routes: an area's routes of one latency class, at most `MAX_ALARM_METRICS`. */
export interface LatencyGroup {
  /** `<Area>LatencyP99`, `<Area>RegistryLatencyP99`, with `Part2`… when an area has more routes. */
  readonly id: string;
  readonly threshold: 'localRouteLatencyP99' | 'registryRouteLatencyP99';
  readonly routes: readonly GrantedRoute[];
}

/** The latency alarms of an area: its routes by class (registry or not), in groups an alarm can hold. */
export function latencyGroups(area: RouteArea): LatencyGroup[] {
  const groups: LatencyGroup[] = [];
  for (const registry of [false, true]) {
    const routes = area.routes.filter((route) => (route.usesRegistry === true) === registry);
    for (let start = 0; start < routes.length; start += MAX_ALARM_METRICS) {
      const part = start / MAX_ALARM_METRICS + 1;
      groups.push({
        id: `${area.name}${registry ? 'Registry' : ''}LatencyP99${part > 1 ? `Part${part}` : ''}`,
        threshold: registry ? 'registryRouteLatencyP99' : 'localRouteLatencyP99',
        routes: routes.slice(start, start + MAX_ALARM_METRICS),
      });
    }
  }
  return groups;
}

/** The p99 of the slowest route of a group (percentiles of different routes cannot be merged). */
export function slowestP99(names: ApiMetricNames, group: LatencyGroup): MathExpression {
  // Ids unique across groups, since a dashboard graph shows every group's expression together.
  const prefix = `${group.id.charAt(0).toLowerCase()}${group.id.slice(1)}`;
  const usingMetrics: Record<string, IMetric> = Object.fromEntries(
    group.routes.map((route, index) => [
      `${prefix}R${index}`,
      apiGatewayMetric(names, 'Latency', Stats.p(99), group.threshold, route),
    ]),
  );
  return new MathExpression({
    expression: `MAX([${Object.keys(usingMetrics).join(', ')}])`,
    usingMetrics,
    period: periodOf(group.threshold),
    label: `${group.id} (ms, slowest route)`,
  });
}

export const serverErrorRate = (names: ApiMetricNames): Metric =>
  // 5XXError is 0 or 1 per request, so its average is the share answered 5xx.
  apiGatewayMetric(names, '5XXError', Stats.AVERAGE, 'apiServerErrorRate');

export const unsettledPurchases = (): Metric =>
  serviceMetric(SERVICE_METRICS.unsettledPurchases.name, {}, periodOf('unsettledPurchases'), Stats.MAXIMUM);

export interface MonitoringStackProps {
  readonly stage: string;
  readonly api: ApiMetricNames;
  readonly areas: readonly RouteArea[];
}

/**
 * The stage's alarms on the API and the tiers behind it, as a nested stack of the API stack so
 * that the API stack's template keeps room: the 5xx rate, the p99 latency of each route area, the
 * registry's failure rate, each capability's alarms of its capability module (the webhooks'
 * failure rate) and the money at risk. The capabilities' constructs add their own (queue age, dead
 * letters, workflow failures, their functions) here through `alarms`; each route's function has
 * its errors and throttles alarms in its area's stack.
 */
export class MonitoringStack extends NestedStack {
  constructor(scope: Construct, id: string, props: MonitoringStackProps & { alarms: StageAlarms }) {
    super(scope, id, { description: `Company Register Data Service: alarms (${props.stage})` });
    const alarms = props.alarms.in(this);

    alarms.add('ApiServerErrorRate', {
      metric: serverErrorRate(props.api),
      threshold: 'apiServerErrorRate',
      summary: 'The API answered too many requests with a 5xx status.',
    });
    for (const area of props.areas) {
      for (const group of latencyGroups(area)) {
        alarms.add(group.id, {
          metric: slowestP99(props.api, group),
          threshold: group.threshold,
          summary: `A ${area.name} route is slow at the 99th percentile (${group.routes.map((r) => r.name).join(', ')}).`,
        });
      }
    }
    alarms.add('RegistryErrorRate', {
      metric: registryFailureRate(),
      threshold: 'registryErrorRate',
      summary: 'Too many registry calls failed.',
    });
    // Each capability's own alarms, declared in its capability module.
    for (const capability of capabilityList) {
      for (const [id, alarm] of Object.entries(capability.alarms ?? {})) alarms.forCapability(id, alarm);
    }
    alarms.add('UnsettledPurchases', {
      metric: unsettledPurchases(),
      threshold: 'unsettledPurchases',
      summary: 'The sweeper found purchases unsettled for over an hour (money at risk).',
    });
  }
}
