/**
 * The fulfilment workflow's parts, described once: the ASL file, and for each of its Task
 * substitutions the handler module that serves it. CDK deploys one function per task and
 * substitutes its ARN; the local stack maps each Task state to the same module.
 */

/** Path of the state machine definition, from the project root. */
export const WORKFLOW_DEFINITION = 'lib/workflows/fulfilment.asl.json';

/** What a task's function reaches beyond the main table. */
export type WorkflowNeed = 'registry' | 'blobs' | 'mail' | 'events';

export interface WorkflowTask {
  /** `${…}` name in the ASL file. */
  readonly substitution: string;
  /** Module under `functions/` (without `.ts`) exporting `handler`. */
  readonly handler: string;
  /** Unique, PascalCase: names the Lambda function. */
  readonly name: string;
  readonly timeoutSeconds: number;
  readonly memoryMb: number;
  readonly needs: readonly WorkflowNeed[];
}

export const workflowTasks: readonly WorkflowTask[] = [
  {
    substitution: 'MarkProcessingArn',
    handler: 'fulfilment/mark-processing',
    name: 'MarkProcessing',
    timeoutSeconds: 30,
    memoryMb: 256,
    needs: [],
  },
  {
    substitution: 'RequestImagesArn',
    handler: 'fulfilment/request-images',
    name: 'RequestImages',
    timeoutSeconds: 60,
    memoryMb: 256,
    needs: ['registry'],
  },
  {
    substitution: 'CheckImagesArn',
    handler: 'fulfilment/check-images',
    name: 'CheckImages',
    timeoutSeconds: 60,
    memoryMb: 256,
    needs: ['registry'],
  },
  {
    substitution: 'CompilePdfArn',
    handler: 'fulfilment/compile-pdf',
    name: 'CompilePdf',
    timeoutSeconds: 300,
    memoryMb: 1024,
    needs: ['registry', 'blobs'],
  },
  {
    substitution: 'SendEmailArn',
    handler: 'fulfilment/send-email',
    name: 'SendEmail',
    timeoutSeconds: 60,
    memoryMb: 512,
    needs: ['blobs', 'mail'],
  },
  {
    substitution: 'HandOverForPostArn',
    handler: 'fulfilment/hand-over-for-post',
    name: 'HandOverForPost',
    timeoutSeconds: 60,
    memoryMb: 256,
    needs: ['registry'],
  },
  {
    substitution: 'FinishArn',
    handler: 'fulfilment/finish',
    name: 'Finish',
    timeoutSeconds: 30,
    memoryMb: 256,
    // An offline search's outcome counts its stored results.
    needs: ['events', 'blobs'],
  },
  {
    substitution: 'RunOfflineSearchArn',
    handler: 'fulfilment/run-offline-search',
    name: 'RunOfflineSearch',
    timeoutSeconds: 300,
    memoryMb: 512,
    needs: ['registry', 'blobs', 'mail'],
  },
];

/** The SQS consumer that starts the workflow, and the schedule that restarts stalled work. */
export const FULFILMENT_STARTER = { handler: 'fulfilment/start', name: 'StartFulfilment' } as const;
export const FULFILMENT_SWEEPER = { handler: 'fulfilment/sweep', name: 'SweepStalledFulfilment' } as const;

/** Environment variables of the fulfilment resources (set by CDK, or by the local stack). */
export const ORDER_ENV = {
  bucket: 'ORDERS_BUCKET',
  queueUrl: 'FULFILMENT_QUEUE_URL',
  stateMachineArn: 'FULFILMENT_STATE_MACHINE_ARN',
  eventBus: 'EVENT_BUS_NAME',
  mailFrom: 'MAIL_FROM',
  /** Base URL of the API, for `downloadUrl`. */
  apiBaseUrl: 'API_BASE_URL',
} as const;
