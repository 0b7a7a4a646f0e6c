/**
 * The fulfilment workflow's parts, described once: the ASL file, and for each of its Task
 * substitutions the handler module that serves it. CDK deploys one function per task and
 * substitutes its ARN; the local stack maps each Task state to the same module.
 */

export { ORDERS_ENV } from './env.ts';

/** Path of the state machine definition, from the project root. */
export const WORKFLOW_DEFINITION = 'shared/orders/fulfilment.asl.json';

/**
 * What a task's function reaches beyond reading and writing the main table; `deletes`: it deletes
 * items there too (an order's listing under the status it leaves).
 */
export type WorkflowNeed = 'registry' | 'blobs' | 'mail' | 'events' | 'deletes';

export interface WorkflowTask {
  /** Unique, PascalCase: names the Lambda function and its `${<name>Arn}` substitution. */
  readonly name: TaskName;
  /** `${…}` name in the ASL file: `<name>Arn`. */
  readonly substitution: string;
  /** Module under `functions/` (without `.ts`) exporting `handler`: `workers/fulfilment/<name in kebab case>`. */
  readonly handler: string;
  readonly timeoutSeconds: number;
  readonly memoryMb: number;
  readonly needs: readonly WorkflowNeed[];
}

/**
 * The tasks, each named once: the substitution, the handler module and the Lambda function
 * follow from the name (shared/orders/cdk/workflow.ts names the states that use them).
 */
const TASKS = {
  MarkProcessing: { timeoutSeconds: 30, memoryMb: 256, needs: ['deletes'] },
  RequestImages: { timeoutSeconds: 60, memoryMb: 256, needs: ['registry'] },
  CheckImages: { timeoutSeconds: 60, memoryMb: 256, needs: ['registry'] },
  CompilePdf: { timeoutSeconds: 300, memoryMb: 1024, needs: ['registry', 'blobs'] },
  SendEmail: { timeoutSeconds: 60, memoryMb: 512, needs: ['blobs', 'mail'] },
  HandOverForPost: { timeoutSeconds: 60, memoryMb: 256, needs: ['registry'] },
  // An offline search's outcome counts its stored results.
  Finish: { timeoutSeconds: 30, memoryMb: 256, needs: ['events', 'blobs', 'deletes'] },
  RunOfflineSearch: { timeoutSeconds: 300, memoryMb: 512, needs: ['registry', 'blobs', 'mail'] },
} as const satisfies Record<string, Pick<WorkflowTask, 'timeoutSeconds' | 'memoryMb' | 'needs'>>;

export type TaskName = keyof typeof TASKS;

const kebab = (name: string) => name.replace(/(?<=[a-z])(?=[A-Z])/g, '-').toLowerCase();

export const workflowTasks: readonly WorkflowTask[] = Object.entries(TASKS).map(([name, task]) => ({
  name: name as TaskName,
  substitution: `${name}Arn`,
  handler: `workers/fulfilment/${kebab(name)}`,
  ...task,
}));

/** The task of this name. */
export const taskNamed = (name: TaskName): WorkflowTask =>
  workflowTasks.find((task) => task.name === name) as WorkflowTask;

/** The SQS consumer that starts the workflow, and the schedule that restarts stalled work. */
export const FULFILMENT_STARTER = { handler: 'workers/fulfilment/start', name: 'StartFulfilment' } as const;
export const FULFILMENT_SWEEPER = { handler: 'workers/sweep', name: 'SweepStalledFulfilment' } as const;
