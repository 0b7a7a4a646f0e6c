import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Context } from 'aws-lambda';
import { renderDocumentImages } from '../../shared/adapters/sandbox/page-images.ts';
import { createRegistries } from '../../shared/composition/registry/registries.ts';
import { FULFILMENT_STARTER, FULFILMENT_SWEEPER } from '../../shared/orders/infra.ts';
import type { WorkflowStarter } from '../../shared/orders/store-port.ts';
import type { AsyncPorts, LocalCorePorts } from '../composition.ts';
import { lambdaContext } from '../lambda-context.ts';
import { FileBlobStore } from './blob-store.ts';
import { LocalEventBus } from './event-bus.ts';
import { lazyHandlerWith } from './functions.ts';
import { DEFAULT_MAIL_FROM, OutboxMailer } from './outbox-mailer.ts';
import { LocalQueue, type LocalQueueOptions, type QueueConsumer } from './queue.ts';
import { LocalWorkflow, type LocalWorkflowOptions } from './workflow.ts';

export interface LocalOrdersOptions {
  /** Holds `blobs/`, `outbox/` and `events.jsonl`; a fresh temporary folder, removed on stop, when absent. */
  localDir?: string;
  mailFrom?: string;
  /** What the workflow and the sweeper use besides the stand-ins (local/composition.ts). */
  ports: LocalCorePorts;
  queue?: LocalQueueOptions;
  workflow?: LocalWorkflowOptions;
}

/** The stand-ins of the asynchronous tier's AWS services, as the local stack runs them. */
export interface LocalOrders {
  dir: string;
  blobs: FileBlobStore;
  outbox: OutboxMailer;
  events: LocalEventBus;
  queue: LocalQueue;
  workflow: LocalWorkflow;
  /** The ports these stand-ins provide, for the handlers (local/server.ts `loadRoutes`). */
  ports: AsyncPorts;
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
  const temporary = !options.localDir;
  const dir = options.localDir ? resolve(options.localDir) : await mkdtemp(join(tmpdir(), 'crds-orders-'));
  const blobs = new FileBlobStore(join(dir, 'blobs'));
  const outbox = new OutboxMailer(join(dir, 'outbox'), options.mailFrom ?? DEFAULT_MAIL_FROM);
  const events = new LocalEventBus(join(dir, 'events.jsonl'));
  // What AWS gives the functions, in process: DynamoDB Local's stores, the registries of the API
  // (the sandbox drawing the images it hands out), and the local clock, which tests move.
  const core = options.ports;
  const now = () => core.clock.now();
  const workflow = new LocalWorkflow({
    onEnd: (execution) => {
      if (execution.status === 'FAILED')
        console.error(`fulfilment execution ${execution.name} failed`, execution.error);
    },
    ports: {
      orders: core.orders,
      searches: core.offlineSearches,
      registryFor: createRegistries({ ...core, pageImages: renderDocumentImages }),
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
    dir,
    ports: { blobs, queue, starter, events, mailer: outbox },
    blobs,
    outbox,
    events,
    queue,
    workflow,
    sweep: async () => (await sweepHandler())({}, lambdaContext(FULFILMENT_SWEEPER.name, 60_000)),
    stop: async () => {
      await queue.stop();
      await workflow.stop();
      if (temporary) await rm(dir, { recursive: true, force: true });
    },
  };
}
