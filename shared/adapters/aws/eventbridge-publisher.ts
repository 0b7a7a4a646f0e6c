import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { tracer } from '../../kernel/observability.ts';
import type { EventPublisher, ServiceEvent } from '../../webhooks/event-port.ts';

let client: EventBridgeClient | undefined;

/** One client per process, created on first use. */
const eventBridge = (): EventBridgeClient => {
  client ??= tracer.captureAWSv3Client(new EventBridgeClient({}));
  return client;
};

/** `source` of every event the service puts on its bus; rules (webhook delivery) match on it. */
export const EVENT_SOURCE = 'company-register';

/**
 * Puts service events on the stage's bus: `detail-type` is the event type (`order.ready`, …) and
 * `detail` the event exactly as subscribers receive it (spec 6.2, before signing).
 */
export class EventBridgePublisher implements EventPublisher {
  constructor(private readonly busName: string) {}

  async publish(event: ServiceEvent): Promise<void> {
    const output = await eventBridge().send(
      new PutEventsCommand({
        Entries: [
          {
            EventBusName: this.busName,
            Source: EVENT_SOURCE,
            DetailType: event.type,
            Detail: JSON.stringify(event),
            Time: new Date(event.createdAt),
          },
        ],
      }),
    );
    // PutEvents answers 200 even when an entry is refused; the entry carries the error.
    if ((output.FailedEntryCount ?? 0) > 0) {
      const entry = output.Entries?.[0];
      throw new Error(
        `EventBridge refused event ${event.id}: ${entry?.ErrorCode ?? 'unknown'} ${entry?.ErrorMessage ?? ''}`.trim(),
      );
    }
  }
}
