/**
 * SimpleWebAuthn's verifications, the file of their own that the two verifying functions load on
 * their first verification (lib/bundling.ts, `WEBAUTHN_CHUNK`; shared/console/passkey-verification.ts).
 */
export { verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
