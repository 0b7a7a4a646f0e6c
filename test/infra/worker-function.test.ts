/**
 * Every function no route runs is a `WorkerFunction` (lib/constructs/worker-function.ts), so none
 * misses what each must have: its cdk-nag acknowledgements, its errors alarm and its `live` alias,
 * which its invokers name. Checked on the synthesized dev app (templates: deployments.test.ts,
 * nag.test.ts).
 */
import { Validations } from 'aws-cdk-lib';
import { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { describe, expect, it } from 'vitest';
import { ApiFunction } from '../../lib/constructs/api-function.ts';
import { KEY_AUTHORIZER } from '../../lib/constructs/key-authorizer.ts';
import { LIVE_ALIAS } from '../../lib/constructs/live-alias.ts';
import { byModuleName, WorkerFunction, workerScopeOf } from '../../lib/constructs/worker-function.ts';
import { acknowledgements } from '../../lib/nag.ts';
import { MONITORING_RUN, MONITORING_START } from '../../shared/monitoring/infra.ts';
import { FULFILMENT_STARTER, FULFILMENT_SWEEPER, workflowTasks } from '../../shared/orders/infra.ts';
import { REFERENCE_REFRESH } from '../../shared/reference/infra.ts';
import { WEBHOOK_DISPATCHER, WEBHOOK_RETRY } from '../../shared/webhooks/infra.ts';
import { synthesize } from './synth.ts';

const synth = synthesize();
const all = synth.api.node.findAll();
const workers = all.filter((node): node is WorkerFunction => node instanceof WorkerFunction);
/** The function's acknowledgements as `<rule id>: <reason>` (a rule may be acknowledged for two reasons). */
const acknowledged = (fn: WorkerFunction): string[] =>
  fn.node.metadata
    .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
    // Each entry is `{ "<plugin>::<rule id>": reason }`.
    .flatMap((entry) => Object.entries(entry.data as Record<string, string>))
    .map(([id, reason]) => `${id.slice(id.indexOf('::') + 2)}: ${reason}`);
const line = (acknowledgement: { id: string; reason: string }) =>
  `${acknowledgement.id}: ${acknowledgement.reason}`;

describe('WorkerFunction', () => {
  it('is every function of the app that no route runs', () => {
    const routeFunctions = new Set<ApiFunction>(synth.api.functions.values());
    const others = all.filter(
      (node): node is ApiFunction => node instanceof ApiFunction && !routeFunctions.has(node),
    );
    expect(others.filter((fn) => !(fn instanceof WorkerFunction)).map((fn) => fn.node.path)).toEqual([]);
    expect(workers.map((fn) => fn.moduleName).sort()).toEqual(
      [
        KEY_AUTHORIZER,
        MONITORING_START,
        MONITORING_RUN,
        FULFILMENT_STARTER,
        FULFILMENT_SWEEPER,
        ...workflowTasks,
        WEBHOOK_DISPATCHER,
        WEBHOOK_RETRY,
        REFERENCE_REFRESH,
      ]
        .map((module) => module.name)
        .sort(),
    );
  });

  it('gives each its live alias on its current version, and its errors alarm', () => {
    const alarmIds = new Set(all.filter((node) => node instanceof Alarm).map((node) => node.node.id));
    for (const fn of workers) {
      expect(fn.alias.aliasName, fn.moduleName).toBe(LIVE_ALIAS);
      expect(fn.alias.version, fn.moduleName).toBe(fn.currentVersion);
      expect(alarmIds.has(`${fn.moduleName}ErrorsAlarm`), fn.moduleName).toBe(true);
    }
  });

  it('acknowledges "invoked synchronously only" for the queue consumers, the workflow tasks and the authorizer alone, the others keeping their failed invocations', () => {
    const synchronous = workers
      .filter((fn) => acknowledged(fn).includes(line(acknowledgements.synchronousInvocation)))
      .map((fn) => fn.moduleName)
      .sort();
    expect(synchronous).toEqual(
      [KEY_AUTHORIZER, MONITORING_RUN, FULFILMENT_STARTER, ...workflowTasks, WEBHOOK_DISPATCHER]
        .map((module) => module.name)
        .sort(),
    );
    for (const fn of workers) {
      const own = acknowledged(fn);
      expect(own, fn.moduleName).toEqual(
        expect.arrayContaining([line(acknowledgements.runtimeVersion), line(acknowledgements.latestRuntime)]),
      );
      expect(own.includes(line(acknowledgements.asyncFailureDestination)), fn.moduleName).toBe(
        !synchronous.includes(fn.moduleName),
      );
    }
  });

  it('keys functions by their module name in the order given, and takes only the worker props of a scope', () => {
    const [first, second] = workers;
    if (!first || !second) throw new Error('fewer than two workers');
    expect([...byModuleName(second, first).keys()]).toEqual([second.moduleName, first.moduleName]);
    const scope = { entryFor: () => 'x', alarms: {}, liveAliases: {}, registryConcurrency: 3, stack: {} };
    expect(Object.keys(workerScopeOf(scope as never)).sort()).toEqual([
      'alarms',
      'entryFor',
      'liveAliases',
      'registryConcurrency',
    ]);
  });
});
