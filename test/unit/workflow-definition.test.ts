import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import aslValidator from 'asl-validator';
import { describe, expect, it } from 'vitest';
import { fulfilmentWorkflow, RETRY } from '../../shared/orders/cdk/workflow.ts';
import { WORKFLOW_DEFINITION, workflowTasks } from '../../shared/orders/infra.ts';

/**
 * The fulfilment workflow's ASL file (shared/orders/fulfilment.asl.json) as CDK deploys it and the
 * local stack runs it: what its builder (shared/orders/cdk/workflow.ts) writes, valid, wired to the
 * task handlers, and with the Retry and Catch rules of docs/decisions/0047-fulfilment-workflow.md.
 */

interface Retrier {
  ErrorEquals: string[];
  IntervalSeconds?: number;
  MaxAttempts?: number;
  BackoffRate?: number;
  MaxDelaySeconds?: number;
  JitterStrategy?: string;
}

interface Catcher {
  ErrorEquals: string[];
  ResultPath?: string | null;
  Next: string;
}

interface State {
  Type: string;
  Resource?: string;
  TimeoutSeconds?: number;
  Next?: string;
  End?: boolean;
  ResultPath?: string | null;
  Default?: string;
  Choices?: { Next: string }[];
  Retry?: Retrier[];
  Catch?: Catcher[];
  Parameters?: Record<string, unknown>;
  Seconds?: number;
  SecondsPath?: string;
}

interface Machine {
  StartAt: string;
  States: Record<string, State>;
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const text = readFileSync(join(ROOT, WORKFLOW_DEFINITION), 'utf8');
const machine = JSON.parse(text) as Machine;
const states = Object.entries(machine.States);
const tasks = states.filter(([, state]) => state.Type === 'Task');

const LAMBDA_SERVICE_ERRORS = [
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.TooManyRequestsException',
];
/** A Task's `Resource` as the ASL file writes it: `${Name}`. */
const sub = (name: string) => `\${${name}}`;
const FINISH = sub('FinishArn');
const isFinishing = (state: State) => state.Resource === FINISH;

/** Where a state can go next: Next, Default, each choice and each catcher. */
const successors = (state: State): string[] => [
  ...(state.Next ? [state.Next] : []),
  ...(state.Default ? [state.Default] : []),
  ...(state.Choices ?? []).map((choice) => choice.Next),
  ...(state.Catch ?? []).map((catcher) => catcher.Next),
];

function reachableFrom(definition: Machine, start: string): Set<string> {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length > 0) {
    const name = queue.shift() as string;
    if (seen.has(name)) continue;
    seen.add(name);
    const state = definition.States[name];
    if (state) queue.push(...successors(state));
  }
  return seen;
}

const unreachable = (definition: Machine) => {
  const reached = reachableFrom(definition, definition.StartAt);
  return Object.keys(definition.States).filter((name) => !reached.has(name));
};

/**
 * The retrier Step Functions uses for an error a task throws: the first whose ErrorEquals names
 * it, or names States.ALL or States.TaskFailed (which match any error a Lambda task raises).
 */
const retrierFor = (state: State, error: string) =>
  (state.Retry ?? []).find(
    (retrier) =>
      retrier.ErrorEquals.includes(error) ||
      retrier.ErrorEquals.includes('States.ALL') ||
      retrier.ErrorEquals.includes('States.TaskFailed'),
  );

/** The substitutions replaced by ARNs, as CDK deploys the definition. */
const deployed = (definition: string) =>
  JSON.parse(
    definition.replace(
      /\$\{(\w+)\}/g,
      (_, name: string) => `arn:aws:lambda:ap-southeast-2:123456789012:function:${name}`,
    ),
  ) as Machine;

describe('the fulfilment workflow definition', () => {
  it('is what shared/orders/cdk/workflow.ts builds (write it with `npm exec -- tsx shared/orders/cdk/workflow.ts`)', () => {
    expect(machine).toStrictEqual(JSON.parse(JSON.stringify(fulfilmentWorkflow())));
  });

  it('has one retry policy: every task that does the work retries alike, and so does every finishing task', () => {
    const work = tasks.filter(([, state]) => !isFinishing(state)).map(([, state]) => state.Retry);
    const finishing = tasks.filter(([, state]) => isFinishing(state)).map(([, state]) => state.Retry);
    for (const retry of work)
      expect(retry).toStrictEqual([RETRY.lambdaService, RETRY.registryUnavailable, RETRY.otherErrors]);
    for (const retry of finishing) expect(retry).toStrictEqual([RETRY.lambdaService, RETRY.otherErrors]);
  });

  it('gives every task its function’s timeout and 30 s more', () => {
    for (const [name, state] of tasks) {
      const task = workflowTasks.find((t) => sub(t.substitution) === state.Resource);
      expect(state.TimeoutSeconds, name).toBe((task?.timeoutSeconds ?? 0) + 30);
    }
  });

  it('is valid ASL', () => {
    const result = aslValidator(deployed(text), { checkPaths: true, checkArn: true });
    expect(result.errorsText('\n')).toBe('');
    expect(result.isValid).toBe(true);
  });

  it('is refused by the validator once a transition names no state', () => {
    const broken = deployed(text);
    (broken.States.CompilePdf as State).Next = 'NoSuchState';
    expect(aslValidator(broken, { checkPaths: true, checkArn: true }).isValid).toBe(false);
  });

  it('has a task in workflowTasks for every substitution, and uses every task', () => {
    const substitutions = [...text.matchAll(/\$\{([^}]*)\}/g)].map((match) => match[1]);
    expect([...new Set(substitutions)].sort()).toStrictEqual(
      workflowTasks.map((task) => task.substitution).sort(),
    );
    // Substitutions appear only as Task resources, each a whole `${Name}`.
    expect(substitutions).toHaveLength(tasks.length);
    for (const [name, state] of tasks) expect(state.Resource, name).toMatch(/^\$\{\w+\}$/);
    expect(new Set(workflowTasks.map((task) => task.name)).size).toBe(workflowTasks.length);
  });

  it('has the expected states', () => {
    expect(machine.StartAt).toBe('ChooseKind');
    expect(
      Object.fromEntries(states.map(([name, state]) => [name, state.Resource ?? state.Type])),
    ).toStrictEqual({
      ChooseKind: 'Choice',
      MarkProcessing: sub('MarkProcessingArn'),
      AlreadyFinished: 'Choice',
      RequestImages: sub('RequestImagesArn'),
      RequestImagesRejected: 'Choice',
      WaitForImages: 'Wait',
      CheckImages: sub('CheckImagesArn'),
      ImagesReady: 'Choice',
      CompilePdf: sub('CompilePdfArn'),
      CompilePdfRejected: 'Choice',
      ChooseDelivery: 'Choice',
      SendEmail: sub('SendEmailArn'),
      HandOverForPost: sub('HandOverForPostArn'),
      HandOverForPostRejected: 'Choice',
      MarkReady: FINISH,
      MarkDelivered: FINISH,
      MarkFailed: FINISH,
      RunOfflineSearch: sub('RunOfflineSearchArn'),
      RunOfflineSearchRejected: 'Choice',
      OfflineSearchReady: FINISH,
      OfflineSearchFailed: FINISH,
      Done: 'Succeed',
    });
  });

  it.each(tasks)('%s retries the Lambda service errors: backoff 2, full jitter', (_name, state) => {
    const retrier = (state.Retry ?? []).find((r) => r.ErrorEquals.includes('Lambda.ServiceException'));
    expect(retrier).toBeDefined();
    expect(retrier?.ErrorEquals).toEqual(expect.arrayContaining(LAMBDA_SERVICE_ERRORS));
    expect(retrier?.BackoffRate).toBe(2);
    expect(retrier?.JitterStrategy).toBe('FULL');
    expect(retrier?.MaxAttempts).toBeGreaterThan(0);
    // Each service error reaches this retrier (no earlier one takes it).
    for (const error of LAMBDA_SERVICE_ERRORS) expect(retrierFor(state, error)).toBe(retrier);
  });

  it.each(tasks)(
    '%s names no RegistryRejected error: a rejection is a result, not an error',
    (name, state) => {
      for (const retrier of state.Retry ?? [])
        expect(retrier.ErrorEquals, name).not.toContain('RegistryRejected');
    },
  );

  it('sends a registry rejection, reported in the task’s result slot, to the failed outcome', () => {
    const rejectable = {
      RequestImages: ['$.poll', 'WaitForImages', 'MarkFailed'],
      CompilePdf: ['$.pdf', 'ChooseDelivery', 'MarkFailed'],
      HandOverForPost: ['$.post', 'MarkDelivered', 'MarkFailed'],
      RunOfflineSearch: ['$.search', 'OfflineSearchReady', 'OfflineSearchFailed'],
    } as const;
    for (const [name, [slot, next, failed]] of Object.entries(rejectable)) {
      const task = machine.States[name] as State;
      expect(task.ResultPath, name).toBe(slot);
      expect(task.Next, name).toBe(`${name}Rejected`);
      expect(machine.States[`${name}Rejected`], name).toStrictEqual({
        Type: 'Choice',
        Choices: [{ Variable: `${slot}.failure`, IsPresent: true, Next: failed }],
        Default: next,
      });
    }
    // CheckImages reports into the poll, whose Choice sends anything but ready or waiting to MarkFailed.
    expect((machine.States.ImagesReady as { Default?: string }).Default).toBe('MarkFailed');
  });

  it('retries registry unavailability from 60 s up to 15 minutes apart in every task that calls the registry', () => {
    const callers = tasks.filter(([, state]) =>
      workflowTasks.some((t) => sub(t.substitution) === state.Resource && t.needs.includes('registry')),
    );
    expect(callers.map(([name]) => name)).toStrictEqual([
      'RequestImages',
      'CheckImages',
      'CompilePdf',
      'HandOverForPost',
      'RunOfflineSearch',
    ]);
    for (const [name, state] of callers) {
      expect(retrierFor(state, 'RegistryUnavailable'), name).toStrictEqual({
        ErrorEquals: ['RegistryUnavailable'],
        IntervalSeconds: 60,
        MaxAttempts: 6,
        BackoffRate: 2,
        MaxDelaySeconds: 900,
        JitterStrategy: 'FULL',
      });
    }
  });

  it('catches every error of a non-finishing task into MarkFailed (OfflineSearchFailed), keeping it at $.error', () => {
    const offline = reachableFrom(machine, 'RunOfflineSearch');
    const nonFinishing = tasks.filter(([, state]) => !isFinishing(state));
    expect(nonFinishing.map(([name]) => name)).toStrictEqual([
      'MarkProcessing',
      'RequestImages',
      'CheckImages',
      'CompilePdf',
      'SendEmail',
      'HandOverForPost',
      'RunOfflineSearch',
    ]);
    for (const [name, state] of nonFinishing) {
      expect(state.Catch, name).toStrictEqual([
        {
          ErrorEquals: ['States.ALL'],
          ResultPath: '$.error',
          Next: offline.has(name) ? 'OfflineSearchFailed' : 'MarkFailed',
        },
      ]);
    }
    for (const failed of ['MarkFailed', 'OfflineSearchFailed']) {
      expect(machine.States[failed]?.Resource).toBe(FINISH);
      expect(machine.States[failed]?.Parameters?.outcome).toBe('failed');
    }
  });

  it('gives the finishing tasks no Catch: a failed finish leaves the order to the sweeper', () => {
    const finishing = tasks.filter(([, state]) => isFinishing(state));
    expect(finishing.map(([name]) => name)).toStrictEqual([
      'MarkReady',
      'MarkDelivered',
      'MarkFailed',
      'OfflineSearchReady',
      'OfflineSearchFailed',
    ]);
    for (const [name, state] of finishing) expect(state.Catch, name).toBeUndefined();
  });

  it('gives every Choice a Default', () => {
    const choices = states.filter(([, state]) => state.Type === 'Choice');
    expect(choices.map(([name]) => name)).toStrictEqual([
      'ChooseKind',
      'AlreadyFinished',
      'RequestImagesRejected',
      'ImagesReady',
      'CompilePdfRejected',
      'ChooseDelivery',
      'HandOverForPostRejected',
      'RunOfflineSearchRejected',
    ]);
    for (const [name, state] of choices) {
      expect(typeof state.Default, name).toBe('string');
      expect(machine.States[state.Default as string], name).toBeDefined();
    }
  });

  it('reaches every state from StartAt', () => {
    expect(unreachable(machine)).toStrictEqual([]);
  });

  it('would find a state no transition leads to', () => {
    const cut = structuredClone(machine);
    (cut.States.ChooseDelivery as State).Choices = [{ Next: 'SendEmail' }];
    expect(unreachable(cut)).toStrictEqual(['HandOverForPost', 'HandOverForPostRejected']);
  });

  it('waits as long as the last poll says ($.poll.waitSeconds)', () => {
    const waits = states.filter(([, state]) => state.Type === 'Wait');
    expect(waits.map(([name, state]) => [name, state.SecondsPath, state.Seconds])).toStrictEqual([
      ['WaitForImages', '$.poll.waitSeconds', undefined],
    ]);
  });
});
