/**
 * Stands in for `@aws-sdk/credential-provider-node` in Lambda bundles (see lib/bundling.ts).
 * Lambda always hands a function its role's credentials in environment variables, so the SDK's
 * full provider chain (SSO, INI files, process, IMDS, web identity, with their nested STS/SSO
 * clients) is dead weight: about 130 KB of every bundle and part of every cold start.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

export const defaultProvider = (init: Parameters<typeof fromEnv>[0] = {}) => fromEnv(init);
