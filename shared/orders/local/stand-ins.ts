import { join } from 'node:path';
import type { Context } from 'aws-lambda';
import type { LocalContext } from '../../../local/capability-local.ts';
import type { LocalEventBus } from '../../../local/event-bus.ts';
import { lazyHandlerWith } from '../../../local/functions.ts';
import { lambdaContext } from '../../../local/lambda-context.ts';
import type { OutboxMailer } from '../../../local/outbox-mailer.ts';
import { LocalQueue, type LocalQueueOptions, type QueueConsumer } from '../../../local/queue.ts';
import { FULFILMENT_STARTER, FULFILMENT_SWEEPER } from '../infra.ts';
import type { WorkflowStarter } from '../store-port.ts';
import { FileBlobStore } from './blob-store.ts';
import { LocalWorkflow, type LocalWorkflowOptions } from './workflow.ts';

export interface LocalOrdersOptions {
  /** What the workflow and the sweeper use besides the stand-ins: the stack's ports, bus, outbox and folder (`blobs/`). */
  context: Pick<LocalContext, 'ports' | 'bus' | 'outbox' | 'dir' | 'imageRegistries'>;
  queue?: LocalQueueOptions;
  workflow?: LocalWorkflowOptions;
}

/** The stand-ins of the fulfilment tier's AWS services, as the local stack runs them. */
export interface LocalOrders {
  blobs: FileBlobStore;
  /** The stack's outbox and event bus, which the workflow and the sweeper use. */
  outbox: OutboxMailer;
  events: LocalEventBus;
  queue: LocalQueue;
  workflow: LocalWorkflow;
  /** The ports these stand-ins provide, for the handlers. */
  ports: { blobs: FileBlobStore; queue: LocalQueue; starter: WorkflowStarter };
  /** Runs the sweeper (`functions/workers/sweep.ts`) now, as its schedule would. */
  sweep(): Promise<SweepReport>;
  stop(): Promise<void>;
}

/** What a sweep did: orders restarted, purchases committed or dropped (functions/workers/sweep.ts). */
export interface SweepReport {
  restarted: number;
  purchases: { committed: number; forgotten: number; waiting: number; atRisk: number };
  events: { published: number };
}
type SweepHandler = (event: unknown, context: Context) => Promise<SweepReport>;

/**
 * Creates the stand-ins, makes the order services use them and delivers the fulfilment queue
 * to the starter (`functions/workers/fulfilment/start.ts`), which starts the local workflow.
 */
export async function startLocalOrders(options: LocalOrdersOptions): Promise<LocalOrders> {
  const { ports: core, bus: events, outbox } = options.context;
  const blobs = new FileBlobStore(join(options.context.dir, 'blobs'));
  // What AWS gives the functions, in process: DynamoDB Local's stores, the registries of the API
  // (the sandbox drawing the images it hands out), and the local clock, which tests move.
  const now = () => core.clock.now();
  const workflow = new LocalWorkflow({
    onEnd: (execution) => {
      if (execution.status === 'FAILED')
        console.error(`fulfilment execution ${execution.name} failed`, execution.error);
    },
    ports: {
      orders: core.orders,
      searches: core.offlineSearches,
      registryFor: options.context.imageRegistries,
      blobs,
      mailer: outbox,
      events,
      eventLog: core.eventLog,
      apiBaseUrl: core.config.apiBaseUrl,
      now,
    },
    ...options.workflow,
  });
  const queue = new LocalQueue({
    functionName: FULFILMENT_STARTER.name,
    onDeadLetter: (letter) => console.error('fulfilment message moved to the dead-letter queue', letter),
    ...options.queue,
  });
  // As StepFunctionsStarter does around StartExecution: a name already used means the work was started.
  const starter: WorkflowStarter = {
    start: async (name, input) => {
      try {
        await workflow.start(name, input);
      } catch (error) {
        if (!(error instanceof Error && error.name === 'ExecutionAlreadyExists')) throw error;
      }
    },
  };
  const startHandler = lazyHandlerWith<QueueConsumer>(FULFILMENT_STARTER.handler, { starter });
  queue.consume(async (event, context) => (await startHandler())(event, context));
  const sweepHandler = lazyHandlerWith<SweepHandler>(FULFILMENT_SWEEPER.handler, {
    orders: core.orders,
    queue,
    purchaseRecords: core.purchaseRecords,
    extractPurchases: core.extractPurchases,
    // The purchase routes' registries: the sweeper asks the sandbox they bought from.
    registryFor: core.registryFor,
    eventLog: core.eventLog,
    events,
    mailer: outbox,
    billingRecipients: core.billingRecipients,
    spendCaps: core.spendCaps,
    now,
  });
  return {
    ports: { blobs, queue, starter },
    blobs,
    outbox,
    events,
    queue,
    workflow,
    sweep: async () => (await sweepHandler())({}, lambdaContext(FULFILMENT_SWEEPER.name, 60_000)),
    stop: async () => {
      await queue.stop();
      await workflow.stop();
    },
  };
}
