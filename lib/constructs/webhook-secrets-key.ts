import { Tags } from 'aws-cdk-lib';
import { AccountRootPrincipal, PolicyDocument, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { SECRET_CONTEXT_KEYS, SECRET_CONTEXT_PURPOSE, WEBHOOK_ENV } from '../../shared/webhooks/infra.ts';

/**
 * Who may use the key sealing webhook signing secrets, written out in its key policy rather than
 * left to IAM. The functions live in the API stack, deployed after the data stack that holds the
 * key, so the policy cannot name their roles (KMS refuses a principal that does not exist yet, and
 * the references would run both ways between the stacks). It names a role tag instead: a role may
 * seal only if it carries `SECRET_ROLE_TAG = seal` (the two routes that create and rotate secrets),
 * open only with `= open` (the dispatcher), and then only with the encryption context of
 * shared/webhooks/adapters/kms-sealer.ts (purpose, account, endpoint). Tagging a role is an
 * administrator's act (`iam:TagRole`), as editing the key policy is.
 */
export const SECRET_ROLE_TAG = 'company-register:webhook-secrets';
export type SecretUse = 'seal' | 'open';

/** The KMS actions sealing (routes that create or rotate secrets) and opening (the dispatcher) need. */
export const SEAL_ACTIONS = ['kms:Encrypt'] as const;
export const OPEN_ACTIONS = ['kms:Decrypt'] as const;
const ACTIONS: Readonly<Record<SecretUse, readonly string[]>> = { seal: SEAL_ACTIONS, open: OPEN_ACTIONS };

/**
 * What the account's administrators keep: managing the key (its policy, rotation, aliases, tags,
 * deletion), never using it and never granting its use (no `kms:CreateGrant`, no `kms:*`).
 */
export const KEY_ADMIN_ACTIONS = [
  'kms:CancelKeyDeletion',
  'kms:CreateAlias',
  'kms:DeleteAlias',
  'kms:DescribeKey',
  'kms:DisableKey',
  'kms:DisableKeyRotation',
  'kms:EnableKey',
  'kms:EnableKeyRotation',
  'kms:GetKeyPolicy',
  'kms:GetKeyRotationStatus',
  'kms:ListAliases',
  'kms:ListGrants',
  'kms:ListKeyPolicies',
  'kms:ListKeyRotations',
  'kms:ListResourceTags',
  'kms:PutKeyPolicy',
  'kms:RevokeGrant',
  'kms:RotateKeyOnDemand',
  'kms:ScheduleKeyDeletion',
  'kms:TagResource',
  'kms:UntagResource',
  'kms:UpdateAlias',
  'kms:UpdateKeyDescription',
] as const;

/**
 * The encryption context a call must carry: the purpose, and an account and an endpoint, and no
 * other key. Which account and endpoint cannot be checked here (the caller is a function, not the
 * customer); that they are there means a sealed secret opens only for the endpoint it was sealed for.
 */
export const secretContextConditions = (): Record<string, Record<string, unknown>> => ({
  StringEquals: { 'kms:EncryptionContext:purpose': SECRET_CONTEXT_PURPOSE },
  'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': [...SECRET_CONTEXT_KEYS] },
  Null: Object.fromEntries(
    SECRET_CONTEXT_KEYS.map((key) => [`kms:EncryptionContext:${key}`, 'false'] as const),
  ),
});

const useStatement = (use: SecretUse): PolicyStatement => {
  const conditions = secretContextConditions();
  return new PolicyStatement({
    sid: use === 'seal' ? 'SealWithTaggedRoles' : 'OpenWithTaggedRoles',
    principals: [new AccountRootPrincipal()],
    actions: [...ACTIONS[use]],
    resources: ['*'],
    conditions: {
      ...conditions,
      StringEquals: { ...conditions.StringEquals, [`aws:PrincipalTag/${SECRET_ROLE_TAG}`]: use },
    },
  });
};

/** The key's whole policy: administration by the account, sealing and opening by tagged roles only. */
export const webhookSecretsKeyPolicy = (): PolicyDocument =>
  new PolicyDocument({
    statements: [
      new PolicyStatement({
        sid: 'AdministerOnly',
        principals: [new AccountRootPrincipal()],
        actions: [...KEY_ADMIN_ACTIONS],
        resources: ['*'],
      }),
      useStatement('seal'),
      useStatement('open'),
    ],
  });

/**
 * Lets a function seal or open webhook secrets: the key's ARN in its environment, its role tagged
 * for the key policy, and the IAM grant (the same actions and context conditions) on that key.
 */
export function allowSecretUse(fn: LambdaFunction, key: IKey, use: SecretUse): void {
  if (!fn.role) throw new Error(`${fn.node.path} has no role to tag`);
  fn.addEnvironment(WEBHOOK_ENV.keyId, key.keyArn);
  Tags.of(fn.role).add(SECRET_ROLE_TAG, use);
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: [...ACTIONS[use]],
      resources: [key.keyArn],
      conditions: secretContextConditions(),
    }),
  );
}
