/**
 * Reads a secret through AWS's Parameters and Secrets Lambda extension (a layer CDK adds to the
 * functions that sign cursors), which answers on localhost and caches, so no Secrets Manager
 * client is bundled.
 */
export async function readSecretFromExtension(arn: string): Promise<string> {
  const port = process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT ?? '2773';
  const response = await fetch(
    `http://localhost:${port}/secretsmanager/get?secretId=${encodeURIComponent(arn)}`,
    { headers: { 'X-Aws-Parameters-Secrets-Token': process.env.AWS_SESSION_TOKEN ?? '' } },
  );
  if (!response.ok)
    throw new Error(`secrets extension answered ${response.status} for the cursor signing secret`);
  const { SecretString } = (await response.json()) as { SecretString?: string };
  if (!SecretString) throw new Error('cursor signing secret is empty');
  return SecretString;
}

/**
 * A secret setting as a reader that fetches it once: a literal (local stack) as it is, an ARN
 * through the extension, kept after the first success and asked again after a failure.
 */
export function secretReader(secret: { value: string } | { arn: string } | undefined, names: string) {
  if (!secret) return () => Promise.reject(new Error(`${names} must be set`));
  if ('value' in secret) return () => Promise.resolve(secret.value);
  let cached: Promise<string> | undefined;
  return (): Promise<string> => {
    cached ??= readSecretFromExtension(secret.arn);
    cached.catch(() => {
      cached = undefined;
    });
    return cached;
  };
}
