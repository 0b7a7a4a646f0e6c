/** Company monitoring: request and response schemas (docs/monitoring.md). */
import * as z from 'zod/mini';
import { codedSchema, companyNumber, companySummarySchema, timestamp } from '../companies/shared-schemas.ts';
import {
  cursorParam,
  exactlyOneOf,
  limitParam,
  listEnvelope,
  metaSchema,
  named,
  uniqueItems,
  withMeta,
} from '../kernel/http/schemas.ts';
import { shakable } from '../kernel/shakable.ts';
import { calendarDate } from '../kernel/time-params.ts';
import { personNameField } from '../people/person-names.ts';
import { monitoringEventTypes } from '../webhooks/event-types.ts';
import { MAX_IMPORT_ROWS } from './settings.ts';

export const monitorPath = /* @__PURE__ */ shakable(() => z.strictObject({ monitorId: z.string() }));

const eventTypeList = /* @__PURE__ */ shakable(() =>
  uniqueItems(
    z
      .array(
        z.enum(monitoringEventTypes, {
          error: `each entry must be one of ${monitoringEventTypes.join(', ')}`,
        }),
        { error: 'eventTypes must be a list of event types' },
      )
      .check(
        z.minLength(1, 'eventTypes must name at least one event type (leave it out for all)'),
        z.maxLength(
          monitoringEventTypes.length,
          `eventTypes may have at most ${monitoringEventTypes.length} entries`,
        ),
      )
      .register(z.globalRegistry, {
        description:
          "The event types to notify, each once; all of the monitor's kind when left out. A company monitor takes only `company.*` types and a person monitor only `person.*` types (422 `validation_error` otherwise).",
      }),
    'validation_error',
    (type) => `${String(type)} is listed twice`,
  ),
);

export const monitoredPersonBody = /* @__PURE__ */ shakable(() =>
  named(
    'MonitoredPersonRequest',
    z.strictObject({
      familyName: personNameField('validation_error'),
      givenNames: z
        .array(personNameField('validation_error'), { error: 'givenNames must be a list of names' })
        .check(
          z.minLength(1, 'givenNames must hold at least one name'),
          z.maxLength(5, 'givenNames may hold at most 5 names'),
        ),
      birthDate: calendarDate('birthDate'),
    }),
    'The person to watch: family name, one to five given names, date of birth.',
  ),
);

/** An import row's person, checked by the very schema of POST /v1/monitors (its params `person.…`). */
export const importRowPerson = /* @__PURE__ */ shakable(() => z.object({ person: monitoredPersonBody }));

export const createMonitorBody = /* @__PURE__ */ shakable(() =>
  named(
    'CreateMonitorRequest',
    exactlyOneOf(
      z.strictObject({
        company: z.optional(companyNumber),
        person: z.optional(monitoredPersonBody),
        eventTypes: z.optional(eventTypeList),
      }),
      ['company', 'person'],
      {
        none: 'company (the company to watch) or person (the person) is required.',
        both: 'company and person cannot both be given: a monitor watches one of them.',
      },
    ),
  ),
);

/**
 * A JSON import row, as the contract types it. The service takes any value here and checks each
 * row on its own (a row that does not fit is reported in `problems` as `invalid`, not refused),
 * so the row's schema is what the contract says, not what the request is parsed with.
 */
const importRowSchema = /* @__PURE__ */ shakable(() =>
  named(
    'MonitorImportRow',
    z.strictObject({
      company: z.optional(companyNumber),
      person: z.optional(monitoredPersonBody),
      eventTypes: z.optional(eventTypeList),
    }),
    'One monitor to create: `company` or `person`, with `eventTypes` if not all. Each row is checked on its own: one that breaks a rule is reported in `problems` as `invalid`, and the others are still created.',
  ),
);
const importRow = /* @__PURE__ */ shakable(() =>
  z.union([importRowSchema, z.unknown()]).register(z.globalRegistry, {
    override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
      const [row] = jsonSchema.anyOf as unknown[];
      delete jsonSchema.anyOf;
      Object.assign(jsonSchema, row);
    },
  }),
);

export const importMonitorsBody = /* @__PURE__ */ shakable(() =>
  named(
    'ImportMonitorsRequest',
    exactlyOneOf(
      z.strictObject({
        /** True: every row's outcome, nothing created. */
        dryRun: z.optional(z.boolean({ error: 'dryRun must be true or false' })),
        /** JSON rows: each {company} or {person}, with eventTypes if not all. Checked row by row. */
        rows: z.optional(
          z
            .array(importRow, { error: 'rows must be a list' })
            .check(
              z.minLength(1, 'rows must hold at least one row'),
              z.maxLength(MAX_IMPORT_ROWS, `rows may hold at most ${MAX_IMPORT_ROWS} rows`),
            ),
        ),
        /** CSV text: a header (company, familyName, givenNames, birthDate, eventTypes; the export's other columns ignored), then a row per line. */
        csv: z.optional(z.string({ error: 'csv must be a string' })),
      }),
      ['rows', 'csv'],
      {
        none: 'rows (JSON rows) or csv (CSV text) is required.',
        both: 'rows and csv cannot both be given: send the rows one way.',
      },
    ),
  ),
);

export const sandboxEventBody = /* @__PURE__ */ shakable(() =>
  named(
    'CreateSandboxMonitorEventRequest',
    z.strictObject({
      type: z
        .enum(monitoringEventTypes, { error: `type must be one of ${monitoringEventTypes.join(', ')}` })
        .register(z.globalRegistry, {
          description:
            'The event type to fire: one of those the monitor wants (its `eventTypes`), else 422 `validation_error`.',
        }),
    }),
  ),
);

export const updateMonitorBody = /* @__PURE__ */ shakable(() =>
  named('UpdateMonitorRequest', z.strictObject({ eventTypes: eventTypeList })),
);

export const monitorListQuery = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    company: z.optional(companyNumber),
    limit: limitParam,
    cursor: cursorParam,
  }),
);

export const monitorFeedQuery = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    /** A position from an earlier page (`nextPosition`); the feed's start when absent. */
    after: z.optional(
      z.string().check(z.minLength(1, 'after must not be empty'), z.maxLength(200, 'after is too long')),
    ),
    company: z.optional(companyNumber),
    limit: limitParam,
  }),
);

// ---- responses ------------------------------------------------------------------------------

const documentRef = /* @__PURE__ */ shakable(() =>
  named(
    'MonitoredDocument',
    z.object({
      documentNumber: z.string(),
      formCode: z.string(),
      formDescription: z.string(),
      receivedAt: z.string(),
    }),
  ),
);

export const monitorSnapshotSchema = /* @__PURE__ */ shakable(() =>
  z
    .object({
      status: codedSchema,
      name: z.string(),
      type: codedSchema,
      latestDocument: z.nullable(documentRef),
      at: timestamp,
    })
    .register(z.globalRegistry, {
      id: 'MonitorSnapshot',
      description: 'What a company check compares: status, name, type and the newest lodged document.',
    }),
);

export const monitoredPersonSchema = /* @__PURE__ */ shakable(() =>
  z
    .object({ familyName: z.string(), givenNames: z.array(z.string()), birthDate: z.string() })
    .register(z.globalRegistry, { id: 'MonitoredPerson' }),
);

export const monitorSchema = /* @__PURE__ */ shakable(() =>
  z
    .object({
      object: z.literal('monitor'),
      id: z.string().check(z.regex(/^mon_[0-9a-f]{24}$/)),
      kind: z.enum(['company', 'person']),
      /**
       * The watched company's number (ACN, ARBN or ARSN), for a company monitor; also before an
       * imported monitor's first daily check fills `company` in. Null for a person monitor.
       */
      companyNumber: z.nullable(z.string().check(z.regex(/^\d{9}$/))),
      company: z.nullable(companySummarySchema),
      person: z.nullable(monitoredPersonSchema),
      eventTypes: z.array(z.enum(monitoringEventTypes)),
      /** The state recorded when the monitor was created (company monitors). */
      baseline: z.nullable(monitorSnapshotSchema),
      /** The sequence number of the last event emitted for this monitor (0 before any). */
      sequence: z.int(),
      livemode: z.boolean(),
      createdAt: timestamp,
      updatedAt: timestamp,
    })
    .register(z.globalRegistry, {
      id: 'Monitor',
      description: 'A company or a person watched by the account.',
    }),
);

const importProblem = /* @__PURE__ */ shakable(() =>
  named(
    'MonitorImportProblem',
    z.object({
      row: z.int(),
      outcome: z.enum(['already_watched', 'invalid', 'duplicate', 'over_cap']),
      monitorId: z.optional(z.string()),
      duplicateOf: z.optional(z.int()),
      error: z.optional(
        named(
          'MonitorImportRowError',
          z.object({ code: z.string(), param: z.nullable(z.string()), message: z.string() }),
        ),
      ),
    }),
  ),
);

export const monitorImportPath = /* @__PURE__ */ shakable(() => z.strictObject({ importId: z.string() }));

export const monitorImportSchema = /* @__PURE__ */ shakable(() =>
  z
    .object({
      object: z.literal('monitorImport'),
      /** The committed import (`mimp_…`), readable for 30 days; null for a dry run. */
      id: z.nullable(z.string().check(z.regex(/^mimp_[0-9a-f]{24}$/))),
      /** `processing` while the worker creates its rows (a 202 commit), then `succeeded`. */
      status: z.enum(['processing', 'succeeded']),
      dryRun: z.boolean(),
      rows: z.int(),
      /** Rows whose outcome is known: all of them once `succeeded`. */
      processedRows: z.int(),
      totals: named(
        'MonitorImportTotals',
        z.object({
          created: z.int(),
          wouldCreate: z.int(),
          alreadyWatched: z.int(),
          invalid: z.int(),
          duplicate: z.int(),
          overCap: z.int(),
        }),
      ),
      /**
       * Every processed row not created (in a dry run: not to be created), in row order; the others
       * are (or would be).
       */
      problems: z.array(importProblem),
      createdAt: z.nullable(timestamp),
      /** When the last row was processed (null while processing, and for a dry run). */
      completedAt: z.nullable(timestamp),
      meta: metaSchema,
    })
    .register(z.globalRegistry, {
      id: 'MonitorImport',
      description:
        'A bulk import: its status, totals, and every row that is not (or would not be) created, with why.',
    }),
);

export const monitorResponseSchema = /* @__PURE__ */ shakable(() =>
  named('MonitorResponse', withMeta(monitorSchema)),
);
export const monitorListSchema = /* @__PURE__ */ shakable(() => listEnvelope('MonitorList', monitorSchema));
export const deletedMonitorSchema = /* @__PURE__ */ shakable(() =>
  named(
    'DeletedMonitor',
    z.object({
      object: z.literal('monitor'),
      id: z.string(),
      deleted: z.literal(true),
      meta: metaSchema,
    }),
  ),
);

const changedValue = /* @__PURE__ */ shakable(() => z.nullable(z.union([z.string(), codedSchema])));

/** The `data` of every monitoring event. */
export const monitorEventDataSchema = /* @__PURE__ */ shakable(() =>
  z
    .object({
      object: z.literal('monitorEvent'),
      company: z.nullable(companySummarySchema),
      person: z.nullable(monitoredPersonSchema),
      before: z.optional(changedValue),
      after: z.optional(changedValue),
      document: z.optional(documentRef),
      appointee: z.optional(
        z.nullable(
          named(
            'MonitorEventAppointee',
            z.record(z.string(), z.unknown()),
            'The officeholder appointed or ceased, as the registry gives it.',
          ),
        ),
      ),
      licenceNumber: z.optional(z.nullable(z.string())),
      date: z.optional(z.nullable(z.string())),
      /** Person events: how the item matched (licence items carry no birth date). */
      match: z.optional(z.enum(['names_and_birth_date', 'names'])),
      source: named(
        'MonitorEventSource',
        z.object({
          kind: z.enum(['daily_check', 'weekly_summary', 'sandbox']),
          checkedAt: z.optional(timestamp),
          summaryType: z.optional(z.string()),
          subType: z.optional(codedSchema),
          weekStarting: z.optional(z.string()),
          documentNumber: z.optional(z.nullable(z.string())),
        }),
      ),
      monitorIds: z.array(z.string()),
      sequence: z.int(),
    })
    .register(z.globalRegistry, {
      id: 'MonitorEventData',
      description:
        'What a monitoring event reports: the company (number and summary) or person, before and after, its source, the monitors it matched and the sequence number of the account and company.',
    }),
);

export const monitorEventSchema = /* @__PURE__ */ shakable(() =>
  z
    .object({
      object: z.literal('event'),
      id: z.string().check(z.startsWith('evt_')),
      type: z.enum(monitoringEventTypes),
      createdAt: timestamp,
      livemode: z.boolean(),
      data: monitorEventDataSchema,
    })
    .register(z.globalRegistry, { id: 'MonitorEvent' }),
);

export const monitorFeedSchema = /* @__PURE__ */ shakable(() =>
  z
    .object({
      object: z.literal('list'),
      data: z.array(monitorEventSchema),
      hasMore: z.boolean(),
      /** Where the next read starts: pass it as `after`. Never expires (events are kept 90 days). */
      nextPosition: z.nullable(z.string()),
      meta: metaSchema,
    })
    .register(z.globalRegistry, { id: 'MonitorFeed' }),
);

export const sandboxEventSchema = /* @__PURE__ */ shakable(() =>
  named(
    'SandboxMonitorEvent',
    z.object({
      object: z.literal('sandboxEvent'),
      /** The id the event will have in the feed and in webhook deliveries (within seconds). */
      id: z.string().check(z.startsWith('evt_')),
      type: z.enum(monitoringEventTypes),
      monitorId: z.string(),
      status: z.literal('queued'),
      meta: metaSchema,
    }),
  ),
);
