/**
 * The console in the stage's API stack (lib/capability-constructs.ts): it builds nothing of its
 * own; the functions of its passkey routes read the stage's relying party (its host name and
 * origin, lib/settings.ts) from their environment, when the stage sets them.
 */
import { defineCapabilityConstructs, type RouteBinding } from '../../../lib/capability-construct.ts';
import { PASSKEY_ENV } from '../infra.ts';

const relyingParty: RouteBinding = (fn, { settings }) => {
  if (settings.passkeyRpId) fn.addEnvironment(PASSKEY_ENV.rpId, settings.passkeyRpId);
  if (settings.passkeyOrigin) fn.addEnvironment(PASSKEY_ENV.origin, settings.passkeyOrigin);
};

export default defineCapabilityConstructs({
  routeBindings: { ports: { passkeys: relyingParty, passkeyChallenges: relyingParty } },
});
