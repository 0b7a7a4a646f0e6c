/**
 * The webhook tier on the local stack: the event bus stand-in's rule (every published event to
 * the dispatcher queue, as EventBridge → SQS), the dispatcher (`functions/workers/webhooks/dispatch.ts`)
 * consuming that queue, and the retry function (`functions/workers/webhooks/retry.ts`) run on an
 * interval against the local clock, so moving the clock (`POST /__local/clock`) makes retries
 * due. `POST /__local/webhooks/retry` runs it at once.
 */
import type { Context } from 'aws-lambda';
import type { LocalCorePorts } from '../../../local/composition.ts';
import type { LocalEventBus } from '../../../local/event-bus.ts';
import { lazyHandlerWith } from '../../../local/functions.ts';
import { lambdaContext } from '../../../local/lambda-context.ts';
import { LocalQueue, type QueueConsumer } from '../../../local/queue.ts';
import type { CapabilityOwnPorts } from '../../kernel/capability-ports.ts';
import { sendDueRetries } from '../dispatch.ts';
import { WEBHOOK_DISPATCHER, WEBHOOK_RETRY } from '../infra.ts';
import type { WebhookQueue } from '../store-port.ts';

export interface LocalWebhooksOptions {
  ports: LocalCorePorts & Pick<CapabilityOwnPorts, 'sealer' | 'webhookSender'>;
  bus: LocalEventBus;
  /** How often the retry function runs (real time); 0 never (only through the control endpoint). */
  retryIntervalMs?: number;
}

export interface LocalWebhooks {
  queue: LocalQueue;
  /** The dispatcher queue as the webhook routes and the retry function send to it. */
  port: WebhookQueue;
  /** Runs the retry function now. */
  retry(): Promise<{ queued: number }>;
  stop(): Promise<void>;
}

type RetryHandler = (event: unknown, context: Context) => Promise<{ queued: number }>;

export function startLocalWebhooks(options: LocalWebhooksOptions): LocalWebhooks {
  const core = options.ports;
  const now = () => core.clock.now();
  const queue = new LocalQueue({
    functionName: WEBHOOK_DISPATCHER.name,
    // As the CDK queue: a failing message is seen again after its visibility timeout, 5 times, then the DLQ.
    visibilityMs: 1_000,
    onDeadLetter: (letter) => console.error('webhook message moved to the dead-letter queue', letter),
  });
  const port: WebhookQueue = {
    send: async (messages) => {
      for (const message of messages) queue.sendBody(JSON.stringify(message));
    },
  };
  // The rule: every event of the bus, as EventBridge hands it to an SQS target.
  options.bus.subscribe((event) =>
    queue.sendBody(
      JSON.stringify({
        version: '0',
        id: event.id,
        'detail-type': event.type,
        source: 'company-register',
        time: event.createdAt,
        detail: { id: event.id, type: event.type, accountId: event.accountId, livemode: event.livemode },
      }),
    ),
  );
  const dispatcher = lazyHandlerWith<QueueConsumer>(WEBHOOK_DISPATCHER.handler, {
    eventLog: core.eventLog,
    endpoints: core.webhookEndpoints,
    deliveries: core.webhookDeliveries,
    sealer: core.sealer,
    sender: core.webhookSender,
    now,
  });
  queue.consume(async (event, context) => (await dispatcher())(event, context));
  const retryHandler = lazyHandlerWith<RetryHandler>(WEBHOOK_RETRY.handler, {
    deliveries: core.webhookDeliveries,
    queue: port,
    now,
  });
  // One run at a time, in the order asked: a run asked for while another is sending finds that
  // one's attempts queued when it ends (the control endpoint then waits for the queue to be idle).
  let running: Promise<unknown> = Promise.resolve();
  const serially = <T>(run: () => Promise<T>): Promise<T> => {
    const next = running.then(run);
    running = next.catch(() => undefined);
    return next;
  };
  const retry = () =>
    serially(async () => (await retryHandler())({}, lambdaContext(WEBHOOK_RETRY.name, 60_000)));
  const interval = options.retryIntervalMs ?? 1_000;
  // The interval runs the function's use case without its invocation log line, which every second
  // would drown the local log; the control endpoint runs the function itself.
  const sweep = () => sendDueRetries({ deliveries: core.webhookDeliveries, queue: port, now });
  const timer =
    interval > 0
      ? setInterval(() => {
          serially(sweep).catch((error) => console.error('webhook retry run failed', error));
        }, interval)
      : undefined;
  timer?.unref();
  return {
    queue,
    port,
    retry,
    stop: async () => {
      if (timer) clearInterval(timer);
      await running;
      await queue.stop();
    },
  };
}
