/** The console's settings, named once for CDK (cdk/bindings.ts), its composition and the local stack. */

/**
 * The passkey routes' WebAuthn relying party: its id (a domain) and the origin the console's page
 * runs at (lib/settings.ts validates them); unset, the host and origin of the API's base URL.
 */
export const PASSKEY_ENV = { rpId: 'PASSKEY_RP_ID', origin: 'PASSKEY_ORIGIN' } as const;
