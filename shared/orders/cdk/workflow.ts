/**
 * The fulfilment workflow's ASL, built from typed parts: each state once, the retry policy once,
 * each task named by shared/orders/infra.ts (its `${<Name>Arn}` substitution and timeout follow
 * from the name). `shared/orders/fulfilment.asl.json` is this definition as written by
 *
 *   npm exec -- tsx shared/orders/cdk/workflow.ts
 *
 * and is what CDK deploys (with the substitutions) and the local stack runs;
 * test/unit/workflow-definition.test.ts fails when the two differ.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type TaskName, taskNamed, WORKFLOW_DEFINITION } from '../infra.ts';
import { IMAGE_POLLING } from '../steps/common.ts';
import { STEP_ERRORS } from '../steps/failure.ts';

type StateName =
  | 'ChooseKind'
  | 'MarkProcessing'
  | 'AlreadyFinished'
  | 'RequestImages'
  | 'RequestImagesRejected'
  | 'WaitForImages'
  | 'CheckImages'
  | 'ImagesReady'
  | 'CompilePdf'
  | 'CompilePdfRejected'
  | 'ChooseDelivery'
  | 'SendEmail'
  | 'HandOverForPost'
  | 'HandOverForPostRejected'
  | 'MarkReady'
  | 'MarkDelivered'
  | 'MarkFailed'
  | 'RunOfflineSearch'
  | 'RunOfflineSearchRejected'
  | 'OfflineSearchReady'
  | 'OfflineSearchFailed'
  | 'Done';

export interface Retrier {
  ErrorEquals: string[];
  IntervalSeconds?: number;
  MaxAttempts: number;
  BackoffRate?: number;
  MaxDelaySeconds?: number;
  JitterStrategy?: 'FULL' | 'NONE';
}

interface Catcher {
  ErrorEquals: string[];
  ResultPath: string;
  Next: StateName;
}

type Transition = { Next: StateName } | { End: true };

type TaskState = {
  Type: 'Task';
  Comment: string;
  Resource: string;
  Parameters?: Record<string, unknown>;
  ResultPath: string | null;
  TimeoutSeconds: number;
  Retry: Retrier[];
  Catch?: Catcher[];
} & Transition;

interface ChoiceState {
  Type: 'Choice';
  Choices: ({ Variable: string; Next: StateName } & (
    | { StringEquals: string }
    | { BooleanEquals: boolean }
    | { IsPresent: boolean }
  ))[];
  Default: StateName;
}

type State =
  | TaskState
  | ChoiceState
  | { Type: 'Wait'; SecondsPath: string; Next: StateName }
  | { Type: 'Succeed' };

export interface WorkflowDefinition {
  Comment: string;
  /** The longest an execution may run (`WORKFLOW_TIMEOUT_SECONDS`). */
  TimeoutSeconds: number;
  StartAt: StateName;
  States: Record<StateName, State>;
}

/** The errors of the Lambda service itself, which AWS advises every Lambda task to retry. */
export const LAMBDA_SERVICE_ERRORS = [
  'Lambda.ClientExecutionTimeoutException',
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.TooManyRequestsException',
];

/**
 * The retry policy, once. Step Functions uses the first retrier that names an error, so the
 * order matters: the Lambda service's errors and the registry's unavailability (maintenance, no
 * answer: from 60 s up to 15 minutes apart, about 45 minutes in all) have their own, and any
 * other error is tried three times. A registry rejection is no error: it is the task's result
 * (`{ failure }`, shared/orders/steps/failure.ts), which `rejectable` tasks route to the failed outcome.
 */
export const RETRY = {
  lambdaService: {
    ErrorEquals: LAMBDA_SERVICE_ERRORS,
    IntervalSeconds: 1,
    MaxAttempts: 3,
    BackoffRate: 2,
    JitterStrategy: 'FULL',
  },
  registryUnavailable: {
    ErrorEquals: [STEP_ERRORS.unavailable],
    IntervalSeconds: 60,
    MaxAttempts: 6,
    BackoffRate: 2,
    MaxDelaySeconds: 900,
    JitterStrategy: 'FULL',
  },
  otherErrors: {
    ErrorEquals: ['States.TaskFailed'],
    IntervalSeconds: 2,
    MaxAttempts: 3,
    BackoffRate: 2,
    JitterStrategy: 'FULL',
  },
} as const satisfies Record<string, Retrier>;

/** Tasks that do the work: every rule. */
const WORK_RETRY = [RETRY.lambdaService, RETRY.registryUnavailable, RETRY.otherErrors];
/** Tasks that write an outcome call no registry. */
const FINISH_RETRY = [RETRY.lambdaService, RETRY.otherErrors];

/** Step Functions waits this much longer than the function's own timeout before giving up on a task. */
const TASK_TIMEOUT_MARGIN_SECONDS = 30;

const taskBase = (name: TaskName, comment: string) => {
  const task = taskNamed(name);
  return {
    Type: 'Task' as const,
    Comment: comment,
    Resource: `\${${task.substitution}}`,
    timeout: task.timeoutSeconds + TASK_TIMEOUT_MARGIN_SECONDS,
  };
};

/**
 * A task that does the work: every error left after the retries is caught into `onError`
 * (MarkFailed, OfflineSearchFailed) with the error at `$.error`.
 */
function work(
  name: TaskName,
  comment: string,
  then: { resultPath: string | null; next: StateName; onError: StateName },
): TaskState {
  const { timeout, ...base } = taskBase(name, comment);
  return {
    ...base,
    ResultPath: then.resultPath,
    TimeoutSeconds: timeout,
    Retry: WORK_RETRY.map((retrier) => structuredClone(retrier) as Retrier),
    Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: then.onError }],
    Next: then.next,
  };
}

/**
 * A task that asks the registry: as `work`, its result in `slot`, and then a Choice that sends
 * the execution to `onError` when the registry rejected the order (the slot holds `{ failure }`).
 */
function rejectable<N extends TaskName & StateName>(
  name: N,
  comment: string,
  then: { slot: string; next: StateName; onError: StateName },
): Record<N | `${N}Rejected`, State> {
  const rejected = `${name}Rejected` as const;
  return {
    [name]: work(name, comment, {
      resultPath: then.slot,
      next: rejected as StateName,
      onError: then.onError,
    }),
    [rejected]: {
      Type: 'Choice',
      Choices: [{ Variable: `${then.slot}.failure`, IsPresent: true, Next: then.onError }],
      Default: then.next,
    },
  } as Record<N | `${N}Rejected`, State>;
}

/**
 * A task that writes the outcome (Finish): retried, never caught, so a failed finish leaves the
 * order unfinished for the sweeper rather than half-finished. It is given the execution's state,
 * from which a failure is read.
 */
function outcome(result: 'ready' | 'delivered' | 'failed', comment: string, then: Transition): TaskState {
  const { timeout, ...base } = taskBase('Finish', comment);
  return {
    ...base,
    Parameters: { 'kind.$': '$.kind', 'id.$': '$.id', outcome: result, 'state.$': '$' },
    ResultPath: null,
    TimeoutSeconds: timeout,
    Retry: FINISH_RETRY.map((retrier) => structuredClone(retrier) as Retrier),
    ...then,
  };
}

/**
 * The longest an execution may run: image polling gives up after 24 hours
 * (`IMAGE_POLLING.giveUpAfterSeconds`) and each task's retries wait at most 15 minutes between
 * attempts, so 30 hours is never reached by a healthy order. An execution stuck beyond it (a task
 * that never answers) stops, and the sweeper restarts its order.
 */
export const WORKFLOW_TIMEOUT_SECONDS = 30 * 3600;
if (WORKFLOW_TIMEOUT_SECONDS < IMAGE_POLLING.giveUpAfterSeconds + 6 * 3600) {
  throw new Error('the workflow timeout must leave hours beyond the image polling give-up');
}

export function fulfilmentWorkflow(): WorkflowDefinition {
  return {
    Comment:
      'Fulfils an accepted order (charges extract or document images) or offline name search. Input: {kind, id, attempt}. Every task is idempotent: a retried task or a restarted execution never asks the registry twice, bills twice or publishes a second event.',
    TimeoutSeconds: WORKFLOW_TIMEOUT_SECONDS,
    StartAt: 'ChooseKind',
    States: {
      ChooseKind: {
        Type: 'Choice',
        Choices: [{ Variable: '$.kind', StringEquals: 'offline_search', Next: 'RunOfflineSearch' }],
        Default: 'MarkProcessing',
      },
      MarkProcessing: work(
        'MarkProcessing',
        'pending -> processing; reports the delivery method and whether the order is already finished',
        { resultPath: '$.order', next: 'AlreadyFinished', onError: 'MarkFailed' },
      ),
      AlreadyFinished: {
        Type: 'Choice',
        Choices: [{ Variable: '$.order.finished', BooleanEquals: true, Next: 'Done' }],
        Default: 'RequestImages',
      },
      ...rejectable('RequestImages', 'One registry image request per 10 documents, each recorded once', {
        slot: '$.poll',
        next: 'WaitForImages',
        onError: 'MarkFailed',
      }),
      WaitForImages: { Type: 'Wait', SecondsPath: '$.poll.waitSeconds', Next: 'CheckImages' },
      CheckImages: work(
        'CheckImages',
        'Polls the image requests; the wait doubles up to a cap and gives up after a day',
        { resultPath: '$.poll', next: 'ImagesReady', onError: 'MarkFailed' },
      ),
      ImagesReady: {
        Type: 'Choice',
        Choices: [
          { Variable: '$.poll.state', StringEquals: 'ready', Next: 'CompilePdf' },
          { Variable: '$.poll.state', StringEquals: 'waiting', Next: 'WaitForImages' },
        ],
        Default: 'MarkFailed',
      },
      ...rejectable(
        'CompilePdf',
        'Cover page and images in one PDF, stored privately (skipped when already stored)',
        { slot: '$.pdf', next: 'ChooseDelivery', onError: 'MarkFailed' },
      ),
      ChooseDelivery: {
        Type: 'Choice',
        Choices: [
          { Variable: '$.order.deliveryMethod', StringEquals: 'email', Next: 'SendEmail' },
          { Variable: '$.order.deliveryMethod', StringEquals: 'post', Next: 'HandOverForPost' },
        ],
        Default: 'MarkReady',
      },
      SendEmail: work('SendEmail', 'Emails the PDF once', {
        resultPath: null,
        next: 'MarkDelivered',
        onError: 'MarkFailed',
      }),
      ...rejectable('HandOverForPost', "Hands the documents to the registry's postal service once", {
        slot: '$.post',
        next: 'MarkDelivered',
        onError: 'MarkFailed',
      }),
      MarkReady: outcome('ready', '-> ready with downloadUrl; order.ready', { End: true }),
      MarkDelivered: outcome('delivered', '-> delivered; order.ready', { End: true }),
      MarkFailed: outcome('failed', '-> failed with failure; fees voided; order.failed', { Next: 'Done' }),
      ...rejectable(
        'RunOfflineSearch',
        'Runs the search without the 100-name cap, stores the results, emails them when asked',
        { slot: '$.search', next: 'OfflineSearchReady', onError: 'OfflineSearchFailed' },
      ),
      OfflineSearchReady: outcome('ready', '-> ready; offline_search.ready', { End: true }),
      OfflineSearchFailed: outcome('failed', '-> failed; fee voided', { Next: 'Done' }),
      Done: { Type: 'Succeed' },
    },
  };
}

const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..', '..');

/** Writes the definition to the ASL file, formatted as the repository formats JSON. */
export function writeFulfilmentWorkflow(file = join(ROOT, WORKFLOW_DEFINITION)): void {
  writeFileSync(file, `${JSON.stringify(fulfilmentWorkflow(), null, 2)}\n`);
  execFileSync(join(ROOT, 'node_modules', '.bin', 'biome'), ['format', '--write', file], { stdio: 'ignore' });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) writeFulfilmentWorkflow();
