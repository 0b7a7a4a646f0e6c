import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ExecutionAlreadyExists, InvalidName } from '@aws-sdk/client-sfn';
import type { Context } from 'aws-lambda';
import { type RunOptions, StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import { functionHandler, lazyHandlerWith } from '../../../local/functions.ts';
import { lambdaContext } from '../../../local/lambda-context.ts';
import { WORKFLOW_DEFINITION, type WorkflowTask, workflowTasks } from '../infra.ts';
import type { FulfilmentMessage, WorkflowStarter } from '../store-port.ts';

/** A task's Lambda handler: input as Step Functions passes it, a Lambda context, JSON back. */
export type TaskHandler = (input: unknown, context: Context) => unknown;

export type ExecutionStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'ABORTED' | 'TIMED_OUT';

/** An event of an execution's history, flattened from aws-local-stepfunctions' event logs. */
export interface HistoryEvent {
  /** ExecutionStarted, StateEntered, StateExited, StateFailed, StateRetried, StateCaught, ExecutionSucceeded, ExecutionFailed, ExecutionAborted, ExecutionTimeout. */
  type: string;
  at: string;
  /** State events: the state's name and type (ExecutionAborted by a crash: the state it followed). */
  state?: string;
  stateType?: string;
  /** StateEntered, StateExited, StateFailed…: the state's input; ExecutionStarted: the execution's. */
  input?: unknown;
  /** StateExited, ExecutionSucceeded. */
  output?: unknown;
  /** StateFailed, ExecutionFailed: Step Functions' Error and Cause. */
  error?: string;
  cause?: unknown;
  /** StateRetried: which retry this is (1 for the first) of the retrier matching `errorEquals`. */
  attempt?: number;
  /** StateRetried, StateCaught: ErrorEquals of the retrier or catcher that matched. */
  errorEquals?: string[];
  /** StateCaught: the catcher's next state. */
  next?: string;
  /** Events inside a Map state's iteration: its index. */
  index?: number;
  /** ExecutionAborted by `crashAfter`. */
  reason?: 'crashAfter';
}

export interface ExecutionRecord {
  name: string;
  input: unknown;
  status: ExecutionStatus;
  startedAt: string;
  stoppedAt: string | null;
  /** SUCCEEDED: the execution's output. */
  output: unknown;
  /** FAILED: Step Functions' Error and Cause. */
  error: { Error: string; Cause: unknown } | null;
  history: HistoryEvent[];
}

export type ExecutionSummary = Omit<ExecutionRecord, 'history'>;

export interface LocalWorkflowOptions {
  /** The ASL definition, or its file (relative to the project root); the fulfilment workflow by default. */
  definition?: string | object;
  /** Handlers by `${Substitution}` name; the others are `functions/<handler>.ts` as `tasks` maps them. */
  handlers?: Record<string, TaskHandler>;
  tasks?: readonly WorkflowTask[];
  /**
   * What each task module's `createHandler` is given (the local stack's stand-ins: stores, registry,
   * blobs, mailer, events, clock); without it the modules' own `handler` runs, with AWS adapters.
   */
  ports?: object;
  /** How long every Wait state pauses (default 100 ms); null: as the definition says. */
  waitMs?: number | null;
  /** How long every retrier pauses before a retry (default 10 ms); null: as the definition says. */
  retryIntervalMs?: number | null;
  /** Called once each execution has ended. */
  onEnd?: (execution: ExecutionRecord) => void;
}

type RunOverrides = NonNullable<RunOptions['overrides']>;
type LocalHandler = NonNullable<RunOverrides['taskResourceLocalHandlers']>[string];
type JsonValue = Parameters<LocalHandler>[0];
type EventLog = ReturnType<StateMachine['run']>['eventLogs'] extends AsyncGenerator<infer E> ? E : never;

interface TaskBinding {
  functionName: string;
  timeoutMs: number;
  handler: () => Promise<TaskHandler>;
}

interface Execution {
  record: ExecutionRecord;
  abort: () => void;
  aborted: boolean;
  /** Task handlers under way (an abort does not stop them, as it does not stop a Lambda). */
  tasks: Set<Promise<unknown>>;
  done: Promise<void>;
}

type StateDefinition = Record<string, unknown> & { Type?: string; Resource?: unknown };
type MachineDefinition = { States?: Record<string, StateDefinition> };

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const ACCOUNT = '000000000000';
const region = () => process.env.AWS_REGION ?? 'ap-southeast-2';
const TERMINAL = new Set(['ExecutionSucceeded', 'ExecutionFailed', 'ExecutionAborted', 'ExecutionTimeout']);

/** Every state of a definition, those of Map and Parallel states included. */
function* statesOf(machine: MachineDefinition): Generator<[string, StateDefinition]> {
  for (const [name, state] of Object.entries(machine.States ?? {})) {
    yield [name, state];
    const nested = [state.Iterator, state.ItemProcessor, ...((state.Branches as unknown[]) ?? [])];
    for (const sub of nested) if (sub && typeof sub === 'object') yield* statesOf(sub as MachineDefinition);
  }
}

/**
 * Step Functions stand-in on aws-local-stepfunctions: each Task state `Resource: "${XxxArn}"`
 * runs, in process, the handler module CDK deploys for it (shared/orders/infra.ts). A task's
 * error reaches the state machine as Lambda reports it: Error is the error's `name`, Cause the
 * JSON `{errorType, errorMessage, trace}`.
 */
export class LocalWorkflow implements WorkflowStarter {
  private readonly machine: StateMachine;
  private readonly bindings = new Map<string, TaskBinding>();
  /** Task handlers built with `options.ports`, by module. */
  private readonly handlers = new Map<string, () => Promise<TaskHandler>>();
  private readonly stateNames = new Set<string>();
  private readonly waitStates: string[] = [];
  private readonly retryStates: string[] = [];
  private readonly runs = new Map<string, Execution>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private crashAt: string | null = null;
  private stopped = false;

  constructor(private readonly options: LocalWorkflowOptions = {}) {
    const source = options.definition ?? WORKFLOW_DEFINITION;
    const definition = structuredClone(
      typeof source === 'string'
        ? JSON.parse(readFileSync(isAbsolute(source) ? source : join(ROOT, source), 'utf8'))
        : source,
    ) as MachineDefinition;
    for (const [name, state] of statesOf(definition)) {
      this.stateNames.add(name);
      if (Array.isArray(state.Retry)) this.retryStates.push(name);
      if (state.Type === 'Wait') this.waitStates.push(name);
      if (state.Type !== 'Task') continue;
      const binding = this.bind(name, state.Resource);
      this.bindings.set(name, binding);
      // The ARN CDK would substitute, so that the library's ARN check passes.
      state.Resource = `arn:aws:lambda:${region()}:${ACCOUNT}:function:${binding.functionName}`;
    }
    this.machine = new StateMachine(definition as unknown as StateMachineDefinition);
  }

  private bind(stateName: string, resource: unknown): TaskBinding {
    const substitution = typeof resource === 'string' ? /^\$\{(\w+)\}$/.exec(resource)?.[1] : undefined;
    if (!substitution)
      throw new Error(`state ${stateName}: Resource ${JSON.stringify(resource)} is not a \${…} substitution`);
    const given = this.options.handlers?.[substitution];
    const task = (this.options.tasks ?? workflowTasks).find((t) => t.substitution === substitution);
    if (given) {
      const functionName = task?.name ?? substitution.replace(/Arn$/, '');
      return { functionName, timeoutMs: (task?.timeoutSeconds ?? 60) * 1000, handler: async () => given };
    }
    if (!task) throw new Error(`state ${stateName}: no handler for \${${substitution}}`);
    return {
      functionName: task.name,
      timeoutMs: task.timeoutSeconds * 1000,
      handler: () => this.taskHandler(task),
    };
  }

  /** A task module's handler: built once with the ports given, else its own (AWS) `handler`. */
  private taskHandler(task: WorkflowTask): Promise<TaskHandler> {
    const { ports } = this.options;
    if (!ports) return functionHandler<TaskHandler>(task.handler);
    let built = this.handlers.get(task.handler);
    if (!built) {
      built = lazyHandlerWith<TaskHandler>(task.handler, ports);
      this.handlers.set(task.handler, built);
    }
    return built();
  }

  /**
   * Starts an execution and returns without waiting for its end. The name of a running
   * execution with the same input does nothing; the name of an ended one (or another input)
   * throws ExecutionAlreadyExists, as StartExecution does.
   */
  async start(name: string, input: FulfilmentMessage | Record<string, unknown>): Promise<void> {
    if (!name || name.length > 80 || /[\s<>{}[\]?*"#%\\^|~`$&,;:/\p{Cc}]/u.test(name))
      throw new InvalidName({ message: `Invalid Name: '${name}'`, $metadata: {} });
    const json = JSON.parse(JSON.stringify(input)) as JsonValue;
    const existing = this.runs.get(name);
    if (existing) {
      const same = JSON.stringify(existing.record.input) === JSON.stringify(json);
      if (existing.record.status === 'RUNNING' && same) return;
      throw new ExecutionAlreadyExists({
        message: `Execution Already Exists: '${this.executionArn(name)}'`,
        $metadata: {},
      });
    }
    if (this.stopped) throw new Error('the local workflow is stopped');
    this.run(name, json);
  }

  private executionArn(name: string) {
    return `arn:aws:states:${region()}:${ACCOUNT}:execution:fulfilment:${name}`;
  }

  private run(name: string, input: JsonValue) {
    const execution: Execution = {
      record: {
        name,
        input,
        status: 'RUNNING',
        startedAt: new Date().toISOString(),
        stoppedAt: null,
        output: null,
        error: null,
        history: [],
      },
      abort: () => undefined,
      aborted: false,
      tasks: new Set(),
      done: Promise.resolve(),
    };
    this.runs.set(name, execution);
    const taskResourceLocalHandlers: Record<string, LocalHandler> = {};
    for (const [state, binding] of this.bindings)
      taskResourceLocalHandlers[state] = this.task(execution, binding);
    const { waitMs = 100, retryIntervalMs = 10 } = this.options;
    const run = this.machine.run(input, {
      noThrowOnAbort: true,
      context: { Execution: { Id: this.executionArn(name), Name: name } },
      overrides: {
        taskResourceLocalHandlers,
        ...(waitMs === null
          ? {}
          : { waitTimeOverrides: Object.fromEntries(this.waitStates.map((s) => [s, waitMs])) }),
        ...(retryIntervalMs === null
          ? {}
          : {
              retryIntervalOverrides: Object.fromEntries(this.retryStates.map((s) => [s, retryIntervalMs])),
            }),
      },
    });
    execution.abort = () => {
      execution.aborted = true;
      run.abort();
    };
    execution.done = Promise.allSettled([run.result, this.recordHistory(execution, run.eventLogs)]).then(() =>
      this.finish(execution),
    );
  }

  private task(execution: Execution, binding: TaskBinding): LocalHandler {
    return async (input) => {
      // The history sees each event a few microtasks after the library emits it: one turn
      // later, a crash after the previous state has aborted the run and this task must not start.
      await new Promise((resolve) => setImmediate(resolve));
      if (execution.aborted) return null;
      const invocation = (async () =>
        (await binding.handler())(
          structuredClone(input),
          lambdaContext(binding.functionName, binding.timeoutMs),
        ))();
      execution.tasks.add(invocation);
      try {
        const output = await invocation;
        return JSON.parse(JSON.stringify(output ?? null)) as JsonValue;
      } catch (error) {
        throw lambdaError(error);
      } finally {
        execution.tasks.delete(invocation);
      }
    };
  }

  private async recordHistory(execution: Execution, events: AsyncGenerator<EventLog>) {
    const { history } = execution.record;
    for await (const event of events) {
      // After a crash the run is dead: what the library still reports did not happen.
      if (execution.record.status !== 'RUNNING') continue;
      history.push(historyEvent(event));
      if (event.type === 'StateExited' && this.crashAt === event.state.name) {
        this.crashAt = null;
        const at = new Date().toISOString();
        history.push({ type: 'ExecutionAborted', at, state: event.state.name, reason: 'crashAfter' });
        Object.assign(execution.record, { status: 'ABORTED', stoppedAt: at });
        execution.abort();
      }
    }
  }

  private finish(execution: Execution) {
    const { record } = execution;
    if (record.status === 'RUNNING') {
      const end = record.history.findLast((e) => TERMINAL.has(e.type));
      record.stoppedAt = end?.at ?? new Date().toISOString();
      if (end?.type === 'ExecutionSucceeded') {
        record.status = 'SUCCEEDED';
        record.output = end.output;
      } else if (end?.type === 'ExecutionAborted') {
        record.status = 'ABORTED';
      } else if (end?.type === 'ExecutionTimeout') {
        record.status = 'TIMED_OUT';
      } else {
        record.status = 'FAILED';
        record.error = {
          Error: end?.error ?? 'States.Runtime',
          Cause: end?.cause ?? 'the execution ended unreported',
        };
      }
    }
    for (const wake of this.waiters.get(record.name) ?? []) wake();
    this.waiters.delete(record.name);
    this.options.onEnd?.(structuredClone(record));
  }

  /** The next execution leaving `stateName` is aborted right after it, as if its run crashed. One-shot. */
  crashAfter(stateName: string): void {
    if (!this.stateNames.has(stateName)) throw new Error(`no state named ${stateName}`);
    this.crashAt = stateName;
  }

  clearFaults(): void {
    this.crashAt = null;
  }

  faults(): { crashAfter: string | null } {
    return { crashAfter: this.crashAt };
  }

  executions(): ExecutionRecord[] {
    return [...this.runs.values()].map((e) => structuredClone(e.record));
  }

  execution(name: string): ExecutionRecord | undefined {
    const found = this.runs.get(name);
    return found && structuredClone(found.record);
  }

  /** Resolves with the execution once it has ended, waiting for it to start if need be. */
  async waitFor(name: string, timeoutMs = 20_000): Promise<ExecutionRecord> {
    const ended = () => {
      const found = this.runs.get(name);
      return found && found.record.status !== 'RUNNING' ? structuredClone(found.record) : undefined;
    };
    const already = ended();
    if (already) return already;
    return new Promise((resolve, reject) => {
      const waiters = this.waiters.get(name) ?? new Set();
      this.waiters.set(name, waiters);
      const wake = () => {
        clearTimeout(timer);
        waiters.delete(wake);
        const record = ended();
        if (record) resolve(record);
      };
      const timer = setTimeout(() => {
        waiters.delete(wake);
        const status = this.runs.get(name)?.record.status ?? 'not started';
        reject(new Error(`execution ${name} has not ended after ${timeoutMs} ms (${status})`));
      }, timeoutMs);
      waiters.add(wake);
    });
  }

  /**
   * Starts nothing more; lets running executions end for up to `graceMs`, aborts the others and
   * waits for their task handlers under way.
   */
  async stop(graceMs = 2_000): Promise<void> {
    this.stopped = true;
    const running = () => [...this.runs.values()].filter((e) => e.record.status === 'RUNNING');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(running().map((e) => e.done)),
      new Promise((resolve) => {
        timer = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(timer);
    for (const execution of running()) execution.abort();
    const all = [...this.runs.values()];
    await Promise.allSettled(all.flatMap((e) => [e.done, ...e.tasks]));
  }
}

/** The error as Step Functions sees a Lambda's: Error its name, Cause Lambda's error JSON. */
function lambdaError(error: unknown): Error {
  const isError = error instanceof Error;
  const errorType = isError ? error.name : typeof error;
  const cause = JSON.stringify({
    errorType,
    errorMessage: isError ? error.message : String(error),
    trace: isError && error.stack ? error.stack.split('\n') : [],
  });
  // The library takes Error from `name` and Cause from `message` (from `cause` when set, which this has not).
  const failure = new Error(cause);
  failure.name = errorType;
  return failure;
}

function historyEvent(event: EventLog): HistoryEvent {
  const entry: HistoryEvent = { type: event.type, at: new Date(event.timestamp).toISOString() };
  if ('state' in event) {
    entry.state = event.state.name;
    entry.stateType = event.state.type;
    entry.input = event.state.input;
    if (event.type === 'StateExited') entry.output = event.state.output;
  }
  if (event.type === 'ExecutionStarted') entry.input = event.input;
  if (event.type === 'ExecutionSucceeded') entry.output = event.output;
  if ('Error' in event) {
    entry.error = event.Error;
    entry.cause = event.Cause;
  }
  if (event.type === 'StateRetried') {
    entry.attempt = event.retry.attempt;
    entry.errorEquals = event.retry.retrier.ErrorEquals;
  }
  if (event.type === 'StateCaught') {
    entry.errorEquals = event.catch.catcher.ErrorEquals;
    entry.next = event.catch.catcher.Next;
  }
  if ('index' in event && typeof event.index === 'number') entry.index = event.index;
  return structuredClone(entry);
}
