/**
 * Stands in for `@aws-sdk/credential-provider-node` in Lambda bundles (see lib/bundling.ts).
 * Lambda always hands a function its role's credentials in environment variables, so the SDK's
 * full provider chain (SSO, INI files, process, IMDS, web identity, with their nested STS/SSO
 * clients) is dead weight: about 130 KB of every bundle and part of every cold start.
 *
 * It reads the variables itself, as `fromEnv` of `@aws-sdk/credential-provider-env` does: that
 * package's one function imports the SDK's client core and its INI-file loader (about 25 KB, and
 * `node:fs/promises` and `node:os` at init) for an error class and a user-agent tag.
 */

export interface EnvironmentCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
  credentialScope?: string;
  accountId?: string;
}

export const defaultProvider =
  (_init: unknown = {}) =>
  async (): Promise<EnvironmentCredentials> => {
    const env = process.env;
    const accessKeyId = env.AWS_ACCESS_KEY_ID;
    const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
    if (!accessKeyId || !secretAccessKey) {
      throw new Error('Unable to find environment variable credentials.');
    }
    return {
      accessKeyId,
      secretAccessKey,
      ...(env.AWS_SESSION_TOKEN && { sessionToken: env.AWS_SESSION_TOKEN }),
      ...(env.AWS_CREDENTIAL_EXPIRATION && { expiration: new Date(env.AWS_CREDENTIAL_EXPIRATION) }),
      ...(env.AWS_CREDENTIAL_SCOPE && { credentialScope: env.AWS_CREDENTIAL_SCOPE }),
      ...(env.AWS_ACCOUNT_ID && { accountId: env.AWS_ACCOUNT_ID }),
    };
  };
