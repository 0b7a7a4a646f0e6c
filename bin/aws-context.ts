/**
 * Where and as whom `npm run keys -- … --aws` works: the region the AWS SDK would use (its region
 * provider chain: `AWS_REGION`, then the `region` of the profile `AWS_PROFILE` names, or of the
 * default profile, in the shared config files), and the operator's AWS identity for the audit
 * record (STS GetCallerIdentity, which needs no permission).
 */
import { userInfo } from 'node:os';

export async function resolveRegion(): Promise<string> {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const client = new DynamoDBClient({});
  try {
    return await client.config.region();
  } finally {
    client.destroy();
  }
}

/** The caller's ARN, as STS sees the credentials the SDK's default chain finds. */
export async function awsIdentity(): Promise<string> {
  const { signedRequest } = await import('../shared/adapters/aws/signed-request.ts');
  const answer = await signedRequest({
    service: 'sts',
    serviceId: 'STS',
    operation: 'GetCallerIdentity',
    host: (region) => `sts.${region}.amazonaws.com`,
    method: 'POST',
    path: '/',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    body: Buffer.from('Action=GetCallerIdentity&Version=2011-06-15'),
  });
  const arn = /<Arn>([^<]+)<\/Arn>/.exec(answer.body.toString('utf8'))?.[1];
  if (!arn) throw new Error('STS GetCallerIdentity answered without an ARN');
  return arn;
}

/** Who made a change on the local stack: the machine's user. */
export const localIdentity = (): string => `local:${userInfo().username}`;
