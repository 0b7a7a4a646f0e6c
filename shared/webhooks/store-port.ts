/**
 * Webhook endpoints and their deliveries (spec 6): what an account subscribes, what was sent
 * where, and the ports the dispatcher and the endpoint routes use.
 */
import type { Environment } from '../kernel/api-keys.ts';
import type { EventLog, EventPublisher, EventType } from './event-port.ts';

/** An account may have this many endpoints per environment. */
export const MAX_ENDPOINTS = 16;
/** A rotated-out secret keeps signing (second `v1`) this long. */
export const PREVIOUS_SECRET_LIFETIME_MS = 24 * 3600_000;
/** An endpoint failing every delivery for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600_000;

export type EndpointStatus = 'enabled' | 'disabled';

export interface SealedSecret {
  /** The `whsec_…` string, encrypted by the SecretSealer. */
  sealed: string;
  createdAt: string;
  /** Set when rotated out: it signs alongside the new one until then. */
  expiresAt: string | null;
}

export interface EndpointStats {
  succeeded: number;
  failed: number;
  lastSucceededAt: string | null;
  lastFailedAt: string | null;
  consecutiveFailures: number;
  /** First failure of the current run of failures. */
  failingSince: string | null;
}

export interface WebhookEndpointRecord {
  id: string;
  accountId: string;
  environment: Environment;
  url: string;
  /** Event types, or `['*']` for every type. */
  enabledEvents: string[];
  description: string | null;
  status: EndpointStatus;
  disabledReason: string | null;
  /** Current first, then the previous one while it still signs. */
  secrets: SealedSecret[];
  stats: EndpointStats;
  createdAt: string;
  updatedAt: string;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  statusCode: number | null;
  latencyMs: number;
  /** The first 1 KB of the response body. */
  responseBody: string | null;
  error: string | null;
  /** A resend asked for through the API, not a scheduled retry. */
  manual: boolean;
}

export interface DeliveryRecord {
  id: string;
  eventId: string;
  eventType: EventType;
  eventCreatedAt: string;
  endpointId: string;
  accountId: string;
  environment: Environment;
  status: DeliveryStatus;
  attemptCount: number;
  /** When the retry function sends the next attempt; null when none is due. */
  nextAttemptAt: string | null;
  attempts: DeliveryAttempt[];
  createdAt: string;
  updatedAt: string;
}

export interface Page<T> {
  items: T[];
  next: string | undefined;
}

export interface WebhookEndpointStore {
  /** False when the owner already has MAX_ENDPOINTS endpoints (nothing written). */
  create(endpoint: WebhookEndpointRecord): Promise<boolean>;
  get(id: string): Promise<WebhookEndpointRecord | undefined>;
  list(
    accountId: string,
    environment: Environment,
    options: { limit: number; after?: string },
  ): Promise<Page<WebhookEndpointRecord>>;
  /** Every endpoint of the owner (at most MAX_ENDPOINTS). */
  all(accountId: string, environment: Environment): Promise<WebhookEndpointRecord[]>;
  /** False when the endpoint no longer exists (deleted since it was read): nothing written. */
  update(
    id: string,
    fields: Partial<
      Pick<
        WebhookEndpointRecord,
        'url' | 'enabledEvents' | 'description' | 'status' | 'disabledReason' | 'secrets' | 'updatedAt'
      >
    >,
  ): Promise<boolean>;
  delete(endpoint: WebhookEndpointRecord): Promise<void>;
  /** Counts one attempt's outcome; disables the endpoint when it has failed for DISABLE_AFTER_FAILING_MS. */
  recordOutcome(id: string, outcome: { ok: boolean; at: string }): Promise<void>;
}

export interface DeliveryStore {
  /** Writes the delivery unless it exists (a redelivered fan-out); returns the stored one. */
  ensure(delivery: DeliveryRecord): Promise<DeliveryRecord>;
  get(eventId: string, endpointId: string): Promise<DeliveryRecord | undefined>;
  /**
   * Takes the next attempt number (`attemptCount` + 1, returned as the delivery's `attemptCount`),
   * so attempts made side by side never share one. A scheduled attempt takes it only while the
   * delivery is pending with `attemptCount` attempts (a redelivered message gets undefined); a
   * manual one (resend, recover) always does.
   */
  reserveAttempt(
    eventId: string,
    endpointId: string,
    scheduled?: { attemptCount: number },
  ): Promise<DeliveryRecord | undefined>;
  /**
   * Adds an attempt to the delivery's record; the attempt with the highest number recorded sets
   * the status and the next attempt. False if the delivery no longer exists.
   */
  recordAttempt(
    eventId: string,
    endpointId: string,
    attempt: DeliveryAttempt,
    next: { status: DeliveryStatus; nextAttemptAt: string | null },
  ): Promise<boolean>;
  /**
   * A delivery that failed for good back in flight (pending, due at `leaseUntil` should its
   * attempt message be lost): true for the one caller that moved it, false if it was not failed.
   */
  reopenFailed(eventId: string, endpointId: string, leaseUntil: string): Promise<boolean>;
  forEvent(eventId: string, options: { limit: number; after?: string }): Promise<Page<DeliveryRecord>>;
  forEndpoint(
    endpointId: string,
    options: { limit: number; after?: string; since?: string },
  ): Promise<Page<DeliveryRecord>>;
  /**
   * Pending deliveries whose next attempt is due at `now`, each claimed for `leaseMs` (its next
   * attempt moved on) so that the next run does not send it again while this one is in flight.
   */
  claimDue(
    now: string,
    leaseUntil: string,
    limit: number,
  ): Promise<{ eventId: string; endpointId: string; attempt: number }[]>;
}

/** Whose secret it is: a sealed secret opens only with the binding it was sealed with. */
export interface SecretBinding {
  accountId: string;
  endpointId: string;
}

/**
 * Encrypts signing secrets at rest (KMS on AWS, AES-256-GCM locally), bound to their account and
 * endpoint (KMS encryption context, AES-GCM associated data).
 */
export interface SecretSealer {
  seal(plaintext: string, binding: SecretBinding): Promise<string>;
  open(sealed: string, binding: SecretBinding): Promise<string>;
}

/** Messages of the dispatcher queue. */
export type WebhookMessage =
  | { kind: 'event'; id: string }
  | {
      kind: 'attempt';
      eventId: string;
      endpointId: string;
      manual?: boolean;
      /** A scheduled attempt's number, so a redelivered copy of the message takes none. */
      attempt?: number;
    };

export interface WebhookQueue {
  send(messages: readonly WebhookMessage[]): Promise<void>;
}

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface WebhookResponse {
  statusCode: number | null;
  latencyMs: number;
  /** First 1 KB. */
  body: string | null;
  error: string | null;
}

/** POSTs one delivery attempt (with the SSRF guard, 10 s, no redirects). */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookResponse>;
}

declare module '../kernel/capability-ports.ts' {
  interface CapabilityOwnPorts {
    /** Publishes an event to the bus (workers only). */
    events: EventPublisher;
    /** Every event emitted, recorded with the change causing it (event-port.ts). */
    eventLog: EventLog;
    /** Webhooks: endpoints, deliveries, the secrets' sealer, the dispatcher queue and the sender. */
    webhookEndpoints: WebhookEndpointStore;
    webhookDeliveries: DeliveryStore;
    sealer: SecretSealer;
    webhookQueue: WebhookQueue;
    webhookSender: WebhookSender;
  }
}

declare module '../kernel/http/route.ts' {
  interface RouteUses {
    /** Sends to the webhook dispatcher's queue. */
    webhookQueue: true;
    /** Seals webhook signing secrets (KMS). */
    sealer: true;
  }
}
