import { BaseProvider } from '@aws-lambda-powertools/parameters/base';

/**
 * Reads a secret through AWS's Parameters and Secrets Lambda extension (a layer CDK adds to the
 * functions that read one), which answers on localhost, so no Secrets Manager client is bundled.
 */
export async function readSecretFromExtension(arn: string): Promise<string> {
  const port = process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT ?? '2773';
  const response = await fetch(
    `http://localhost:${port}/secretsmanager/get?secretId=${encodeURIComponent(arn)}`,
    { headers: { 'X-Aws-Parameters-Secrets-Token': process.env.AWS_SESSION_TOKEN ?? '' } },
  );
  if (!response.ok) throw new Error(`the secrets extension answered ${response.status} for ${arn}`);
  const { SecretString } = (await response.json()) as { SecretString?: string };
  if (!SecretString) throw new Error(`${arn} has no SecretString`);
  return SecretString;
}

/**
 * How long a warm function keeps a secret before asking the extension again: a rotated secret is
 * in use everywhere within this (the extension keeps its own copy for as long, by default).
 */
export const SECRET_MAX_AGE_SECONDS = 300;

/** Powertools Parameters' caching (maximum age, failures never kept) over the extension. */
class ExtensionSecretsProvider extends BaseProvider {
  constructor() {
    super({});
  }

  protected _get(arn: string): Promise<string> {
    return readSecretFromExtension(arn);
  }

  protected _getMultiple(): Promise<undefined> {
    return Promise.reject(new Error('secrets are read one by one'));
  }
}

let provider: ExtensionSecretsProvider | undefined;

/**
 * A secret setting as a reader: a literal (local stack) as it is, an ARN through the extension,
 * kept for SECRET_MAX_AGE_SECONDS and asked again after a failure. A failure names the setting
 * and the secret it could not read.
 */
export function secretReader(secret: { value: string } | { arn: string } | undefined, names: string) {
  if (!secret) return () => Promise.reject(new Error(`${names} must be set`));
  if ('value' in secret) return () => Promise.resolve(secret.value);
  return async (): Promise<string> => {
    provider ??= new ExtensionSecretsProvider();
    try {
      return (await provider.get(secret.arn, { maxAge: SECRET_MAX_AGE_SECONDS })) as string;
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause ?? error;
      throw new Error(`could not read the secret of ${names} (${secret.arn}): ${(cause as Error).message}`, {
        cause,
      });
    }
  };
}
