/**
 * The account console (docs/console.md): a page and its script and styles, served without a key,
 * that drive the published API with a session cookie instead of a key (shared/kernel/sessions.ts);
 * and the few operations the API has no equivalent for: exchanging a key for a sign-in link (the
 * one operation of the published contract), opening it, the session itself, signing out, and the
 * account's keys. The page's data comes from the API's own routes, so every rule stays in one place.
 */
import * as z from 'zod/mini';
import { KEY_LABEL_PATTERN, KEY_LABEL_RULE } from '../kernel/api-keys.ts';
import { defineRoute, NO_RESPONSE } from '../kernel/http/route.ts';
import { metaSchema, named, noBody, noPath, noQuery } from '../kernel/http/schemas.ts';
import { CONSOLE_ROLES, DEVELOPER_ROLES, EVERY_ROLE } from '../kernel/sessions.ts';
import { shakable } from '../kernel/shakable.ts';
import { REQUEST_ID_PATTERN } from './requests.ts';

/** The console's built script and its style sheet (`npm run console:build`; test/unit/console-bundle.test.ts). */
export const CONSOLE_SCRIPT = 'shared/console/dist/console.js';
export const CONSOLE_STYLES = 'shared/console/client/console.css';

const text = (mediaType: string) =>
  z.string().register(z.globalRegistry, { contentMediaType: mediaType, description: mediaType });

const asset = {
  status: 200,
  billable: false,
  product: null,
  public: true,
  internal: true,
  errors: [],
} as const;
const own = { status: 200, billable: false, product: null, internal: true } as const;

/**
 * A sign-in link's query: its token, and any other argument ignored (a mail client or a campaign
 * tool may add `utm_source=…`). A missing or malformed token is the "does not work" page, never
 * the JSON envelope: a person reads the answer.
 */
const signInQuery = /* @__PURE__ */ shakable(() => z.object({ token: z.optional(z.string()) }));

const keyPath = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    keyId: z.string().check(z.regex(/^key_[0-9a-f]{20}$/, 'keyId must be key_ and 20 hex digits')),
  }),
);

const keyLabel = /* @__PURE__ */ shakable(() => z.string().check(z.regex(KEY_LABEL_PATTERN, KEY_LABEL_RULE)));

/** What the page sends once per "Create key" dialog: the same token again makes no second key. */
const clientToken = /* @__PURE__ */ shakable(() =>
  z
    .string()
    .check(
      z.regex(
        /^[A-Za-z0-9_-]{16,64}$/,
        'clientToken must be 16 to 64 letters, digits, _ or - (one per dialog)',
      ),
    ),
);

const requestPath = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    requestId: z
      .string()
      .check(z.regex(REQUEST_ID_PATTERN, 'requestId must be req_ and a lowercase UUID, as in X-Request-Id')),
  }),
);

export const consoleLinkSchema = /* @__PURE__ */ shakable(() =>
  z
    .object({
      object: z.literal('consoleLink'),
      url: z.string(),
      expiresAt: z.string(),
      meta: metaSchema,
    })
    .register(z.globalRegistry, {
      description:
        'A single-use link to the account console, for the account and environment of the key that asked for it, valid for 5 minutes. Opening it starts a browser session of at most 8 hours.',
    }),
);

const sessionSchema = /* @__PURE__ */ shakable(() =>
  z.object({
    object: z.literal('consoleSession'),
    accountId: z.string(),
    environment: z.enum(['test', 'live']),
    keyId: z.string(),
    sessionId: z.string(),
    csrfToken: z.string(),
    expiresAt: z.string(),
    /** `admin` for a session opened with a key's link. */
    role: z.enum(CONSOLE_ROLES),
    /** A member's session: the member; null for a key's. */
    member: z.nullable(z.object({ memberId: z.string(), email: z.string() })),
    meta: metaSchema,
  }),
);

const memberPath = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    memberId: z.string().check(z.regex(/^mem_[0-9a-f]{20}$/, 'memberId must be mem_ and 20 hex digits')),
  }),
);

const memberSchema = /* @__PURE__ */ shakable(() =>
  z.object({
    object: z.literal('consoleMember'),
    id: z.string(),
    email: z.string(),
    role: z.enum(CONSOLE_ROLES),
    status: z.enum(['invited', 'active']),
    invitedAt: z.string(),
    invitedBy: z.string(),
    joinedAt: z.nullable(z.string()),
  }),
);

const keySchema = /* @__PURE__ */ shakable(() =>
  z.object({
    object: z.literal('apiKey'),
    id: z.string(),
    environment: z.enum(['test', 'live']),
    /** The key's label, or null when it has none. */
    label: z.nullable(z.string()),
    /** What to call it: its label, else `Test key …Ab3d`. */
    name: z.string(),
    status: z.enum(['active', 'expired', 'revoked']),
    lastFour: z.string(),
    createdAt: z.string(),
    expiresAt: z.nullable(z.string()),
    revokedAt: z.nullable(z.string()),
    /** The hour the key was last used in (`YYYY-MM-DDTHH:00:00Z`), or null. */
    lastUsedHour: z.nullable(z.string()),
  }),
);

export const createConsoleLink = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'CreateConsoleLink',
    method: 'POST',
    path: '/v1/console/sessions',
    handler: 'console/create-link',
    summary:
      'A single-use sign-in link to the account console, valid 5 minutes, for this key’s account and environment',
    request: { path: noPath, query: noQuery, body: noBody },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : consoleLinkSchema,
    status: 201,
    billable: false,
    product: null,
    errors: [],
    ports: ['consoleSessions'],
  }),
);

export const openConsoleLink = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'OpenConsoleLink',
    method: 'GET',
    path: '/console/sign-in',
    handler: 'console/sign-in',
    summary:
      'Shows a sign-in link: a page with a button that signs in (nothing is spent by opening it), or why it cannot',
    request: { path: noPath, query: signInQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : text('text/html'),
    ...asset,
    ports: ['consoleSessions'],
    // Opening the link in a browser (or a mail scanner) reads it and changes nothing.
    readOnly: true,
  }),
);

export const signInWithConsoleLink = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'SignInWithConsoleLink',
    method: 'POST',
    path: '/console/sign-in',
    handler: 'console/sign-in-post',
    summary:
      "The link page's button: marks the link used, sets the session cookie and goes to the console, or explains why not",
    request: { path: noPath, query: signInQuery, body: noBody },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : text('text/html'),
    ...asset,
    ports: ['consoleSessions'],
  }),
);

export const showEmailSignIn = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ShowEmailSignIn',
    method: 'GET',
    path: '/console/sign-in/email',
    handler: 'console/email-sign-in',
    summary: "A member's sign-in page: an email address field that asks for a single-use sign-in link",
    request: { path: noPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : text('text/html'),
    ...asset,
    ports: [],
    readOnly: true,
  }),
);

export const requestEmailSignIn = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'RequestEmailSignIn',
    method: 'POST',
    path: '/console/sign-in/email',
    handler: 'console/email-sign-in-post',
    summary:
      'Emails a single-use sign-in link (5 minutes) for each account the address is a member of; answers the same page whether or not it is one. At most 5 requests an hour per address and 20 per source address, then 429 with Retry-After, members or not',
    request: {
      path: noPath,
      query: noQuery,
      body: named(
        'RequestEmailSignInRequest',
        z.object({ email: z.optional(z.string().check(z.maxLength(320))) }),
      ),
    },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : text('text/html'),
    ...asset,
    formBody: true,
    ports: ['memberSignInLinks', 'mailer'],
  }),
);

export const getConsoleSession = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetConsoleSession',
    consoleRoles: EVERY_ROLE,
    method: 'GET',
    path: '/console/session',
    handler: 'console/session',
    summary: 'The signed-in session: account, environment, expiry and the CSRF token for changes',
    request: { path: noPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : sessionSchema,
    ...own,
    errors: [],
    ports: [],
  }),
);

export const signOut = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'SignOutOfConsole',
    consoleRoles: EVERY_ROLE,
    method: 'POST',
    path: '/console/sign-out',
    handler: 'console/sign-out',
    summary: 'Ends the console session at once, and clears its cookie',
    request: { path: noPath, query: noQuery, body: noBody },
    response: process.env.ROUTE_RESPONSES_OMITTED
      ? NO_RESPONSE
      : z.object({ object: z.literal('signedOut'), meta: metaSchema }),
    ...own,
    errors: [],
    ports: ['consoleSessions'],
  }),
);

export const listKeys = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ListConsoleKeys',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/console/keys',
    handler: 'console/keys',
    summary: "The account's keys in the session's environment, with the hour each was last used",
    request: { path: noPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED
      ? NO_RESPONSE
      : z.object({ object: z.literal('list'), data: z.array(keySchema), meta: metaSchema }),
    ...own,
    errors: [],
    ports: ['keyAdministration'],
    readOnly: true,
  }),
);

export const createKey = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'CreateConsoleKey',
    consoleRoles: DEVELOPER_ROLES,
    method: 'POST',
    path: '/console/keys',
    handler: 'console/create-key',
    summary:
      "A new key of the session's account and environment, its secret answered once (201); the same clientToken again answers the key it made, without its secret (200)",
    request: {
      path: noPath,
      query: noQuery,
      body: named('CreateConsoleKeyRequest', z.strictObject({ label: z.optional(keyLabel), clientToken })),
    },
    response: process.env.ROUTE_RESPONSES_OMITTED
      ? NO_RESPONSE
      : z.object({
          object: z.literal('createdKey'),
          key: keySchema,
          /** The secret, on the request that made the key only; null on a repeat of it. */
          secret: z.nullable(z.string()),
          meta: metaSchema,
        }),
    ...own,
    status: 201,
    errors: ['api_key_limit_reached'],
    ports: ['keyAdministration'],
  }),
);

export const labelKey = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'LabelConsoleKey',
    consoleRoles: DEVELOPER_ROLES,
    method: 'POST',
    path: '/console/keys/{keyId}/label',
    handler: 'console/label-key',
    summary: 'Names the key (or removes its name with null): shown on the key page and in npm run keys',
    request: {
      path: keyPath,
      query: noQuery,
      body: named('LabelConsoleKeyRequest', z.strictObject({ label: z.nullable(keyLabel) })),
    },
    response: process.env.ROUTE_RESPONSES_OMITTED
      ? NO_RESPONSE
      : z.object({ ...keySchema.shape, meta: metaSchema }),
    ...own,
    errors: ['api_key_not_found'],
    ports: ['keyAdministration'],
  }),
);

export const rollKey = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'RollConsoleKey',
    consoleRoles: DEVELOPER_ROLES,
    method: 'POST',
    path: '/console/keys/{keyId}/roll',
    handler: 'console/roll-key',
    summary: 'A new key replacing this one (its secret shown once); the old one works for the grace period',
    request: {
      path: keyPath,
      query: noQuery,
      body: named('RollConsoleKeyRequest', z.strictObject({ grace: z.enum(['1h', '24h', '7d']) })),
    },
    response: process.env.ROUTE_RESPONSES_OMITTED
      ? NO_RESPONSE
      : z.object({
          object: z.literal('rolledKey'),
          key: keySchema,
          secret: z.string(),
          replacedKeyExpiresAt: z.string(),
          meta: metaSchema,
        }),
    ...own,
    errors: ['api_key_not_found', 'api_key_not_active'],
    ports: ['keyAdministration'],
  }),
);

export const revokeKey = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'RevokeConsoleKey',
    consoleRoles: DEVELOPER_ROLES,
    method: 'POST',
    path: '/console/keys/{keyId}/revoke',
    handler: 'console/revoke-key',
    summary: 'Revokes the key: refused from the next request (and its console sessions end)',
    request: { path: keyPath, query: noQuery, body: noBody },
    response: process.env.ROUTE_RESPONSES_OMITTED
      ? NO_RESPONSE
      : z.object({ object: z.literal('revokedKey'), id: z.string(), meta: metaSchema }),
    ...own,
    errors: ['api_key_not_found', 'api_key_not_active'],
    ports: ['keyAdministration'],
  }),
);

export const findRequest = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'FindConsoleRequest',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/console/requests/{requestId}',
    handler: 'console/find-request',
    summary:
      "One of the account's requests in the session's environment, by its X-Request-Id: route, status, time and error code (kept 30 days)",
    request: { path: requestPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED
      ? NO_RESPONSE
      : z.object({
          object: z.literal('requestRecord'),
          id: z.string(),
          method: z.string(),
          path: z.string(),
          route: z.string(),
          status: z.number(),
          errorCode: z.nullable(z.string()),
          receivedAt: z.string(),
          latencyMs: z.number(),
          keyId: z.string(),
          viaConsole: z.boolean(),
          meta: metaSchema,
        }),
    ...own,
    errors: ['request_not_found'],
    ports: [],
    readOnly: true,
  }),
);

export const listMembers = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ListConsoleMembers',
    method: 'GET',
    path: '/console/members',
    handler: 'console/members',
    summary: "The account's console members in the session's environment, with their roles (admins only)",
    request: { path: noPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED
      ? NO_RESPONSE
      : z.object({ object: z.literal('list'), data: z.array(memberSchema), meta: metaSchema }),
    ...own,
    errors: [],
    ports: ['consoleMembers'],
    readOnly: true,
  }),
);

export const inviteMember = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'InviteConsoleMember',
    method: 'POST',
    path: '/console/members',
    handler: 'console/invite-member',
    summary: 'Invites an email address as a member with a role: it is sent a single-use link, valid 72 hours',
    request: {
      path: noPath,
      query: noQuery,
      body: named(
        'InviteConsoleMemberRequest',
        z.strictObject({ email: z.string().check(z.maxLength(254)), role: z.enum(CONSOLE_ROLES) }),
      ),
    },
    response: process.env.ROUTE_RESPONSES_OMITTED
      ? NO_RESPONSE
      : z.object({ ...memberSchema.shape, invitationExpiresAt: z.string(), meta: metaSchema }),
    ...own,
    status: 201,
    errors: ['member_already_exists'],
    ports: ['consoleMembers', 'mailer'],
  }),
);

export const changeMemberRole = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ChangeConsoleMemberRole',
    method: 'PATCH',
    path: '/console/members/{memberId}',
    handler: 'console/change-member-role',
    summary:
      "Changes a member's role; the member's sessions end at once. The last admin cannot lose the role (409 member_is_last_admin)",
    request: {
      path: memberPath,
      query: noQuery,
      body: named('ChangeConsoleMemberRoleRequest', z.strictObject({ role: z.enum(CONSOLE_ROLES) })),
    },
    response: process.env.ROUTE_RESPONSES_OMITTED
      ? NO_RESPONSE
      : z.object({ ...memberSchema.shape, meta: metaSchema }),
    ...own,
    errors: ['member_not_found', 'member_is_last_admin'],
    ports: ['consoleMembers'],
  }),
);

export const removeMember = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'RemoveConsoleMember',
    method: 'DELETE',
    path: '/console/members/{memberId}',
    handler: 'console/remove-member',
    summary:
      "Removes a member; the member's sessions end at once. The last admin cannot be removed (409 member_is_last_admin)",
    request: { path: memberPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED
      ? NO_RESPONSE
      : z.object({ object: z.literal('removedMember'), id: z.string(), meta: metaSchema }),
    ...own,
    errors: ['member_not_found', 'member_is_last_admin'],
    ports: ['consoleMembers'],
    deletes: ['keys'],
  }),
);

export const listAudit = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ListConsoleAudit',
    method: 'GET',
    path: '/console/audit',
    handler: 'console/audit',
    summary:
      "The account's audit records, newest first: sign-ins, invitations, role changes, removals, key rolls and revokes, with who and when (admins only)",
    request: { path: noPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED
      ? NO_RESPONSE
      : z.object({
          object: z.literal('list'),
          data: z.array(
            z.object({
              object: z.literal('auditRecord'),
              id: z.string(),
              action: z.string(),
              subject: z.string(),
              at: z.string(),
              by: z.string(),
              detail: z.string(),
            }),
          ),
          meta: metaSchema,
        }),
    ...own,
    errors: [],
    ports: ['keyAdministration'],
    readOnly: true,
  }),
);

export const getConsolePage = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetConsolePage',
    method: 'GET',
    path: '/console',
    handler: 'console/page',
    summary: 'The account console page (its script draws each view from the API)',
    request: { path: noPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : text('text/html'),
    ...asset,
    ports: [],
  }),
);

export const getConsoleScript = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetConsoleScript',
    method: 'GET',
    path: '/console/console.js',
    handler: 'console/script',
    summary: "The console's script, built by esbuild from shared/console/client/",
    request: { path: noPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : text('text/javascript'),
    ...asset,
    ports: [],
    assets: [CONSOLE_SCRIPT],
  }),
);

export const getConsoleStyles = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetConsoleStyles',
    method: 'GET',
    path: '/console/console.css',
    handler: 'console/styles',
    summary: "The console's style sheet",
    request: { path: noPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : text('text/css'),
    ...asset,
    ports: [],
    assets: [CONSOLE_STYLES],
  }),
);

/** The area's routes, by name. */
export const consoleRoutes = {
  createConsoleLink,
  openConsoleLink,
  signInWithConsoleLink,
  showEmailSignIn,
  requestEmailSignIn,
  getConsoleSession,
  signOut,
  listKeys,
  createKey,
  labelKey,
  rollKey,
  revokeKey,
  findRequest,
  listMembers,
  inviteMember,
  changeMemberRole,
  removeMember,
  listAudit,
  getConsolePage,
  getConsoleScript,
  getConsoleStyles,
} as const;
