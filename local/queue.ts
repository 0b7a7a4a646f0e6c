import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { FulfilmentMessage, FulfilmentQueue } from '../shared/orders/store-port.ts';
import { lambdaContext } from './lambda-context.ts';

/** The Lambda function SQS triggers: reports the records it could not process. */
export type QueueConsumer = (
  event: SQSEvent,
  context: Context,
  // biome-ignore lint/suspicious/noConfusingVoidType: as SQSHandler, a consumer may return nothing (all processed).
) => Promise<SQSBatchResponse | void> | SQSBatchResponse | void;

export interface LocalQueueOptions {
  /** How long a failed record stays invisible before it is delivered again (SQS visibility timeout). */
  visibilityMs?: number;
  /** Receives after which a failing record moves to the dead-letter queue (5, as in CDK). */
  maxReceiveCount?: number;
  /** Records per consumer call at most. */
  batchSize?: number;
  /** Names the consumer in its Lambda context. */
  functionName?: string;
  onDeadLetter?: (letter: DeadLetter) => void;
}

export interface DeadLetter {
  messageId: string;
  /** The body, parsed. */
  message: unknown;
  receiveCount: number;
  /** Why the last receive failed. */
  error: string | null;
}

export interface QueueState {
  /** Messages sent and neither consumed nor dead-lettered yet. */
  inFlight: number;
  /** Messages the consumer processed (deleted from the queue). */
  delivered: number;
  /** Records handed to the consumer, redeliveries included. */
  receives: number;
  deadLetters: DeadLetter[];
}

export type DeliveryOutcome = 'delivered' | 'dead-lettered';

interface QueuedMessage {
  messageId: string;
  body: string;
  sentAt: number;
  receiveCount: number;
  firstReceivedAt: number | null;
  lastError: string | null;
  settle(outcome: DeliveryOutcome): void;
  settled: Promise<DeliveryOutcome>;
}

const REGION = () => process.env.AWS_REGION ?? 'ap-southeast-2';

/**
 * SQS stand-in with its dead-letter queue: a message sent is delivered asynchronously to the
 * consumer as an SQS event; a record the consumer reports in `batchItemFailures` (every record
 * of the batch when it throws) comes back after `visibilityMs`, until `maxReceiveCount`
 * receives, then goes to `deadLetters`.
 */
export class LocalQueue implements FulfilmentQueue {
  private readonly visibilityMs: number;
  private readonly maxReceiveCount: number;
  private readonly batchSize: number;
  private readonly functionName: string;
  private consumer: QueueConsumer | undefined;
  private readonly ready: QueuedMessage[] = [];
  private readonly unsettled = new Set<QueuedMessage>();
  private readonly idsByBody = new Map<string, string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private readonly deadLetters: DeadLetter[] = [];
  private delivered = 0;
  private receives = 0;
  private flushScheduled = false;
  private stopped = false;

  constructor(private readonly options: LocalQueueOptions = {}) {
    this.visibilityMs = options.visibilityMs ?? 200;
    this.maxReceiveCount = options.maxReceiveCount ?? 5;
    this.batchSize = options.batchSize ?? 10;
    this.functionName = options.functionName ?? 'QueueConsumer';
  }

  /** Starts delivering to `consumer` (messages sent before wait for it). */
  consume(consumer: QueueConsumer): void {
    this.consumer = consumer;
    this.scheduleFlush();
  }

  async send(message: FulfilmentMessage): Promise<void> {
    this.enqueue(JSON.stringify(message));
  }

  /** Sends a message body as it is (other queues than the fulfilment queue: shared/webhooks/local/tier.ts). */
  sendBody(body: string): void {
    this.enqueue(body);
  }

  /**
   * Delivers `message` once more, as SQS may (at-least-once): a copy of a message sent before
   * keeps its message id. Resolves when the copy has been consumed or dead-lettered.
   */
  redeliver(message: FulfilmentMessage | string): Promise<DeliveryOutcome> {
    const body = typeof message === 'string' ? message : JSON.stringify(message);
    return this.enqueue(body, this.idsByBody.get(body)).settled;
  }

  /** Resolves when every message sent so far is consumed or dead-lettered. */
  async idle(): Promise<void> {
    while (this.unsettled.size > 0) await Promise.all([...this.unsettled].map((m) => m.settled));
  }

  state(): QueueState {
    return {
      inFlight: this.unsettled.size,
      delivered: this.delivered,
      receives: this.receives,
      deadLetters: structuredClone(this.deadLetters),
    };
  }

  /** Stops delivering; waits for the consumer calls under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.running]);
  }

  private enqueue(body: string, messageId: string = randomUUID()): QueuedMessage {
    let settle: (outcome: DeliveryOutcome) => void = () => undefined;
    const settled = new Promise<DeliveryOutcome>((resolve) => {
      settle = resolve;
    });
    const message: QueuedMessage = {
      messageId,
      body,
      sentAt: Date.now(),
      receiveCount: 0,
      firstReceivedAt: null,
      lastError: null,
      settle: (outcome) => {
        this.unsettled.delete(message);
        settle(outcome);
      },
      settled,
    };
    if (!this.idsByBody.has(body)) this.idsByBody.set(body, messageId);
    this.unsettled.add(message);
    this.makeVisible([message], 0);
    return message;
  }

  /** Messages whose visibility ends together come back together (as one failed batch does). */
  private makeVisible(messages: QueuedMessage[], afterMs: number) {
    if (messages.length === 0) return;
    if (afterMs <= 0) {
      this.ready.push(...messages);
      this.scheduleFlush();
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.ready.push(...messages);
      this.scheduleFlush();
    }, afterMs);
    this.timers.add(timer);
  }

  /** On the next turn, so that messages sent together are received in one batch. */
  private scheduleFlush() {
    if (this.flushScheduled || !this.consumer || this.stopped) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      if (this.stopped) return;
      while (this.ready.length > 0) {
        const call = this.deliver(this.ready.splice(0, this.batchSize));
        this.running.add(call);
        void call.finally(() => this.running.delete(call));
      }
    });
  }

  private record(message: QueuedMessage): SQSRecord {
    return {
      messageId: message.messageId,
      receiptHandle: randomBytes(24).toString('base64url'),
      body: message.body,
      attributes: {
        ApproximateReceiveCount: String(message.receiveCount),
        SentTimestamp: String(message.sentAt),
        SenderId: 'AIDALOCALSTACK000000',
        ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt ?? Date.now()),
      },
      messageAttributes: {},
      md5OfBody: createHash('md5').update(message.body).digest('hex'),
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:${REGION()}:000000000000:fulfilment`,
      awsRegion: REGION(),
    };
  }

  private async deliver(batch: QueuedMessage[]): Promise<void> {
    const consumer = this.consumer;
    if (!consumer) return;
    const now = Date.now();
    for (const message of batch) {
      message.receiveCount += 1;
      message.firstReceivedAt ??= now;
      this.receives += 1;
    }
    let failed: Set<string>;
    let reason: string;
    try {
      const response = await consumer(
        { Records: batch.map((m) => this.record(m)) },
        lambdaContext(this.functionName, 30_000),
      );
      const ids = (response?.batchItemFailures ?? []).map((f) => f.itemIdentifier);
      // As Lambda does, an identifier that names no record of the batch fails the whole batch.
      const valid = ids.every((id) => batch.some((m) => m.messageId === id));
      failed = valid ? new Set(ids) : new Set(batch.map((m) => m.messageId));
      reason = valid ? 'reported in batchItemFailures' : `invalid batchItemFailures: ${JSON.stringify(ids)}`;
    } catch (error) {
      failed = new Set(batch.map((m) => m.messageId));
      reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    const retried: QueuedMessage[] = [];
    for (const message of batch) {
      if (!failed.has(message.messageId)) {
        this.delivered += 1;
        message.settle('delivered');
        continue;
      }
      message.lastError = reason;
      if (message.receiveCount < this.maxReceiveCount) {
        retried.push(message);
        continue;
      }
      const letter: DeadLetter = {
        messageId: message.messageId,
        message: parseBody(message.body),
        receiveCount: message.receiveCount,
        error: reason,
      };
      this.deadLetters.push(letter);
      message.settle('dead-lettered');
      this.options.onDeadLetter?.(structuredClone(letter));
    }
    this.makeVisible(retried, this.visibilityMs);
  }
}

function parseBody(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}
