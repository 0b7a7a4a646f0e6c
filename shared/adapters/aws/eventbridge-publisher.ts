import type { EventPublisher, ServiceEvent } from '../../kernel/ports/events.ts';
import { callJsonApi, type JsonApi } from './json-call.ts';

const EVENTBRIDGE: JsonApi = {
  service: 'events',
  serviceId: 'EventBridge',
  targetPrefix: 'AWSEvents',
  jsonVersion: '1.1',
  host: (region) => `events.${region}.amazonaws.com`,
};

/** `source` of every event the service puts on its bus; rules (webhook delivery) match on it. */
export const EVENT_SOURCE = 'company-register';

interface PutEventsOutput {
  FailedEntryCount?: number;
  Entries?: { EventId?: string; ErrorCode?: string; ErrorMessage?: string }[];
}

/**
 * Puts service events on the stage's bus with one `PutEvents` call over EventBridge's JSON API
 * (json-call.ts, no SDK client): `detail-type` is the event type (`order.ready`, …) and `detail`
 * the event exactly as subscribers receive it (spec 6.2, before signing).
 */
export class EventBridgePublisher implements EventPublisher {
  constructor(private readonly busName: string) {}

  async publish(event: ServiceEvent): Promise<void> {
    const output = await callJsonApi<PutEventsOutput>(EVENTBRIDGE, 'PutEvents', {
      Entries: [
        {
          EventBusName: this.busName,
          Source: EVENT_SOURCE,
          DetailType: event.type,
          Detail: JSON.stringify(event),
          // The JSON protocol's timestamps are seconds since the epoch.
          Time: Date.parse(event.createdAt) / 1000,
        },
      ],
    });
    // PutEvents answers 200 even when an entry is refused; the entry carries the error.
    if ((output.FailedEntryCount ?? 0) > 0) {
      const entry = output.Entries?.[0];
      throw new Error(
        `EventBridge refused event ${event.id}: ${entry?.ErrorCode ?? 'unknown'} ${entry?.ErrorMessage ?? ''}`.trim(),
      );
    }
  }
}
