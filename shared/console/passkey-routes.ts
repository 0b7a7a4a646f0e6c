/**
 * Passkeys of console members (shared/console/passkeys.ts): a signed-in member of any role lists,
 * registers and removes their own; anyone may ask for a sign-in challenge and answer it, which
 * opens a session of the passkey's member (public routes, like the emailed link's form). Console
 * routes, not operations of the published contract.
 */
import * as z from 'zod/mini';
import { defineRoute, NO_RESPONSE } from '../kernel/http/route.ts';
import { metaSchema, named, noBody, noPath, noQuery } from '../kernel/http/schemas.ts';
import { EVERY_ROLE } from '../kernel/sessions.ts';

const base64url = (name: string, max: number) =>
  z
    .string()
    .check(
      z.maxLength(max),
      z.regex(/^[A-Za-z0-9_-]+$/, `${name} must be base64url (letters, digits, _ and -, no padding)`),
    );

/** What an authenticator answers, as the browser's `PublicKeyCredential.toJSON()` writes it. */
const credentialFields = {
  id: base64url('id', 1400),
  rawId: base64url('rawId', 1400),
  type: z.literal('public-key'),
  authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'])),
  clientExtensionResults: z.record(z.string(), z.unknown()),
};

const registrationResponse = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: base64url('clientDataJSON', 4096),
    attestationObject: base64url('attestationObject', 16384),
    transports: z.optional(z.array(z.string().check(z.maxLength(32))).check(z.maxLength(8))),
  }),
});

const authenticationResponse = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: base64url('clientDataJSON', 4096),
    authenticatorData: base64url('authenticatorData', 4096),
    signature: base64url('signature', 1024),
    userHandle: z.optional(base64url('userHandle', 128)),
  }),
});

const passkeyPath = z.strictObject({
  passkeyId: z.string().check(z.regex(/^pk_[0-9a-f]{20}$/, 'passkeyId must be pk_ and 20 hex digits')),
});

const passkeySchema = z.object({
  object: z.literal('passkey'),
  id: z.string(),
  /** What the member called it. */
  name: z.string(),
  /** `multiDevice`: synced between the member's devices; `singleDevice`: bound to one authenticator. */
  deviceType: z.enum(['singleDevice', 'multiDevice']),
  backedUp: z.boolean(),
  createdAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
});

/** WebAuthn options as JSON (SimpleWebAuthn's `…OptionsJSON`): for the browser, read as they are. */
const webAuthnOptions = z.record(z.string(), z.unknown());

const own = { status: 200, billable: false, product: null, internal: true } as const;
const signIn = { ...own, public: true } as const;

export const passkeyRoutes = {
  listPasskeys: defineRoute({
    name: 'ListConsolePasskeys',
    consoleRoles: EVERY_ROLE,
    method: 'GET',
    path: '/console/passkeys',
    handler: 'console/passkeys',
    summary: "The signed-in member's passkeys, with when each was made and last used",
    request: { path: noPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED
      ? NO_RESPONSE
      : z.object({ object: z.literal('list'), data: z.array(passkeySchema), meta: metaSchema }),
    ...own,
    errors: ['passkey_member_only'],
    ports: ['passkeys'],
    readOnly: true,
  }),
  passkeyRegistrationOptions: defineRoute({
    name: 'StartConsolePasskeyRegistration',
    consoleRoles: EVERY_ROLE,
    method: 'POST',
    path: '/console/passkeys/options',
    handler: 'console/passkey-options',
    summary:
      "The options for navigator.credentials.create(): a challenge for the signed-in member, valid 5 minutes, once, and the member's passkeys to exclude",
    request: { path: noPath, query: noQuery, body: noBody },
    response: process.env.ROUTE_RESPONSES_OMITTED
      ? NO_RESPONSE
      : z.object({
          object: z.literal('passkeyRegistrationOptions'),
          options: webAuthnOptions,
          meta: metaSchema,
        }),
    ...own,
    errors: ['passkey_member_only', 'passkey_limit_reached'],
    ports: ['passkeyChallenges'],
  }),
  registerPasskey: defineRoute({
    name: 'RegisterConsolePasskey',
    consoleRoles: EVERY_ROLE,
    method: 'POST',
    path: '/console/passkeys',
    handler: 'console/register-passkey',
    summary: "Verifies the authenticator's answer to the member's challenge and stores the passkey",
    request: {
      path: noPath,
      query: noQuery,
      body: named(
        'RegisterConsolePasskeyRequest',
        z.strictObject({
          name: z.optional(z.string().check(z.maxLength(60))),
          response: registrationResponse,
        }),
      ),
    },
    response: process.env.ROUTE_RESPONSES_OMITTED
      ? NO_RESPONSE
      : z.object({ ...passkeySchema.shape, meta: metaSchema }),
    ...own,
    status: 201,
    errors: ['passkey_member_only', 'passkey_challenge_invalid', 'passkey_registration_failed'],
    ports: ['passkeys'],
  }),
  removePasskey: defineRoute({
    name: 'RemoveConsolePasskey',
    consoleRoles: EVERY_ROLE,
    method: 'DELETE',
    path: '/console/passkeys/{passkeyId}',
    handler: 'console/remove-passkey',
    summary: 'Removes one of the signed-in member’s passkeys: it signs in no more',
    request: { path: passkeyPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED
      ? NO_RESPONSE
      : z.object({ object: z.literal('removedPasskey'), id: z.string(), meta: metaSchema }),
    ...own,
    errors: ['passkey_member_only', 'passkey_not_found'],
    ports: ['passkeys'],
    deletes: ['keys'],
  }),
  passkeySignInOptions: defineRoute({
    name: 'StartPasskeySignIn',
    method: 'POST',
    path: '/console/sign-in/passkey/options',
    handler: 'console/passkey-sign-in-options',
    summary:
      'The options for navigator.credentials.get(): a sign-in challenge, valid 5 minutes, once (no session needed)',
    request: { path: noPath, query: noQuery, body: noBody },
    response: process.env.ROUTE_RESPONSES_OMITTED
      ? NO_RESPONSE
      : z.object({
          object: z.literal('passkeySignInOptions'),
          options: webAuthnOptions,
          meta: metaSchema,
        }),
    ...signIn,
    errors: ['csrf_token_invalid'],
    ports: ['passkeyChallenges'],
  }),
  signInWithPasskey: defineRoute({
    name: 'SignInWithPasskey',
    method: 'POST',
    path: '/console/sign-in/passkey',
    handler: 'console/passkey-sign-in',
    summary:
      "Verifies a passkey's answer to a sign-in challenge: opens a session of its member (the session cookie) and spends the challenge",
    request: {
      path: noPath,
      query: noQuery,
      body: named('SignInWithPasskeyRequest', z.strictObject({ response: authenticationResponse })),
    },
    response: process.env.ROUTE_RESPONSES_OMITTED
      ? NO_RESPONSE
      : z.object({
          object: z.literal('passkeySignIn'),
          accountId: z.string(),
          environment: z.enum(['test', 'live']),
          expiresAt: z.string(),
          meta: metaSchema,
        }),
    ...signIn,
    errors: ['csrf_token_invalid', 'passkey_challenge_invalid', 'passkey_not_recognised'],
    ports: ['passkeys'],
  }),
} as const;
