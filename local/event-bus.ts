import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { EventPublisher, ServiceEvent } from '../shared/webhooks/event-port.ts';

/** EventBridge stand-in: the published events in order, in memory and as JSON lines in `file`. */
export class LocalEventBus implements EventPublisher {
  private readonly published: ServiceEvent[] = [];
  private writing: Promise<void> = Promise.resolve();
  private readonly listeners: ((event: ServiceEvent) => void)[] = [];

  constructor(readonly file?: string) {}

  async publish(event: ServiceEvent): Promise<void> {
    const copy = structuredClone(event);
    this.published.push(copy);
    // As a rule targeting a queue: each listener gets its copy (shared/webhooks/local/tier.ts).
    for (const listener of this.listeners) listener(structuredClone(copy));
    const { file } = this;
    if (!file) return;
    // Chained so that the lines keep the order of publication.
    const write = this.writing.then(async () => {
      await mkdir(dirname(file), { recursive: true });
      await appendFile(file, `${JSON.stringify(copy)}\n`);
    });
    this.writing = write.catch(() => undefined);
    await write;
  }

  /** Calls `listener` with every event published from now on. */
  subscribe(listener: (event: ServiceEvent) => void): void {
    this.listeners.push(listener);
  }

  list(): ServiceEvent[] {
    return structuredClone(this.published);
  }
}
