import { CfnOutput, Duration, Fn, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import {
  type Attribute,
  AttributeType,
  BillingMode,
  type ITable,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import { type IKey, Key } from 'aws-cdk-lib/aws-kms';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type IBucket,
  type LifecycleRule,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY } from 'aws-cdk-lib/cx-api';
import type { Construct } from 'constructs';
import {
  allTables,
  type KeyAttribute,
  type TableDefinition,
  type TableId,
} from '../shared/kernel/infra/tables.ts';
import { webhookSecretsKeyPolicy } from './constructs/webhook-secrets-key.ts';
import { acknowledgements } from './nag.ts';

/** Construct id of a table: `keys` → `KeysTable`. */
export const tableConstructId = (id: TableId): string => `${id.charAt(0).toUpperCase()}${id.slice(1)}Table`;

/**
 * Key prefixes of the orders bucket: compiled order PDFs and offline search results. Functions are
 * granted these prefixes only, and the lifecycle rules expire exactly these.
 */
export const ORDER_BLOB_PREFIXES = ['orders/', 'offline-searches/'] as const;

/**
 * Days an object of the orders bucket is kept. A download link works for 7 days after `readyAt`,
 * but the PDF is compiled before the order is ready (image polling may take up to a day, a
 * stalled order is restarted by the sweeper) and an emailed or posted order may need a resend or a
 * support look later: 30 days covers all of these with room, and nothing is kept for long.
 */
export const ORDER_BLOB_RETENTION_DAYS = 30;

/** Days an overwritten or deleted object of the orders bucket stays restorable. */
export const NONCURRENT_VERSION_DAYS = 7;

/**
 * Days the orders bucket's server access logs are kept (an audit trail of who read which PDF): a
 * year, as long as a live stage's API and function logs (billing disputes start late).
 */
export const ACCESS_LOG_RETENTION_DAYS = 365;

/** Export names of the orders bucket (see `DataStack.ordersBucket`). */
export const ordersBucketExports = (stackName: string) =>
  ({ name: `${stackName}:OrdersBucketName`, arn: `${stackName}:OrdersBucketArn` }) as const;

/** Length of the generated cursor signing secret (alphanumeric, so 64 × ~5.95 bits of entropy). */
export const CURSOR_SECRET_LENGTH = 64;

const attribute = (key: KeyAttribute): Attribute => ({
  name: key.name,
  type: key.type === 'N' ? AttributeType.NUMBER : AttributeType.STRING,
});

/**
 * The stateful stack: the DynamoDB tables (built only from `shared/kernel/infra/tables.ts`), the cursor
 * signing secret, the registry credential secret and the orders bucket (with its access log
 * bucket). Everything here is retained on stack deletion and protected against
 * accidental deletion; the stateless API stack can be destroyed and redeployed freely.
 */
export class DataStack extends Stack {
  readonly tables: Readonly<Record<TableId, ITable>>;
  /** HMAC key that signs pagination cursors (64 generated characters). */
  readonly cursorSecret: ISecret;
  /**
   * The credential the service presents to the live registry (`Authorization: Bearer …`). Created
   * with a random placeholder value that the registry refuses; operators put the credential the
   * registry issued with `aws secretsmanager put-secret-value` (docs/infrastructure.md).
   */
  readonly registryCredentialSecret: ISecret;
  /**
   * The private bucket of compiled order PDFs and offline search results (`ORDERS_BUCKET`), as
   * other stacks must use it: by the stack's named exports `<stackName>:OrdersBucketName` and
   * `<stackName>:OrdersBucketArn`. Automatic cross-stack references would name the bucket by a
   * generated export (`…ExportsOutputFnGetAttOrdersBucket<hash>Arn<hash>`), and the cdk-nag findings
   * for the object grants (`<arn>/orders/*`), which carry that name, could not be acknowledged by a
   * stable id. Never use it inside this stack (a stack cannot import its own export).
   */
  readonly ordersBucket: IBucket;
  /** The bucket itself, for this stack and the tests. */
  readonly ordersBucketResource: Bucket;
  /**
   * Seals webhook endpoints' signing secrets (stored encrypted in the main table): retained with
   * the table, since deleting it would make every stored secret unreadable. Rotated yearly by KMS.
   */
  readonly webhookKey: IKey;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    // The access log bucket admits S3's log delivery by bucket policy instead of the legacy
    // LogDeliveryWrite ACL, so it can keep ACLs disabled (BucketOwnerEnforced) like the orders bucket.
    this.node.setContext(S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY, true);

    const tables: Partial<Record<TableId, ITable>> = {};
    for (const definition of allTables) {
      const table = this.createTable(definition);
      tables[definition.id] = table;
      new CfnOutput(this, `${tableConstructId(definition.id)}Name`, {
        value: table.tableName,
        description: `Physical name of the ${definition.id} table (${definition.envVar})`,
      });
    }
    this.tables = tables as Record<TableId, ITable>;

    const cursorSecret = new Secret(this, 'CursorSigningSecret', {
      description: 'HMAC-SHA256 key that signs pagination cursors',
      generateSecretString: { passwordLength: CURSOR_SECRET_LENGTH, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(cursorSecret).acknowledge(acknowledgements.cursorSecretRotation);
    this.cursorSecret = cursorSecret;
    new CfnOutput(this, 'CursorSigningSecretArn', { value: cursorSecret.secretArn });

    const registryCredentialSecret = new Secret(this, 'RegistryCredentialSecret', {
      description:
        'Credential of the live company registry (bearer token); replace the generated placeholder ' +
        'with the credential the registry issued',
      // A placeholder the registry refuses, so that nothing secret is ever in the template.
      generateSecretString: { passwordLength: 32, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(registryCredentialSecret).acknowledge(acknowledgements.registryCredentialRotation);
    this.registryCredentialSecret = registryCredentialSecret;
    new CfnOutput(this, 'RegistryCredentialSecretArn', { value: registryCredentialSecret.secretArn });

    this.webhookKey = new Key(this, 'WebhookSecretsKey', {
      description:
        'Seals the signing secrets of webhook endpoints (Encrypt by the endpoint routes, Decrypt by the dispatcher)',
      enableKeyRotation: true,
      // Written out: the account administers the key; only the tagged roles seal and open.
      policy: webhookSecretsKeyPolicy(),
      removalPolicy: RemovalPolicy.RETAIN,
    });
    new CfnOutput(this, 'WebhookSecretsKeyArn', { value: this.webhookKey.keyArn });

    const ordersBucket = this.createOrdersBucket();
    this.ordersBucketResource = ordersBucket;
    const exports = ordersBucketExports(this.stackName);
    new CfnOutput(this, 'OrdersBucketName', { value: ordersBucket.bucketName, exportName: exports.name });
    new CfnOutput(this, 'OrdersBucketArn', { value: ordersBucket.bucketArn, exportName: exports.arn });
    this.ordersBucket = Bucket.fromBucketAttributes(this, 'OrdersBucketExports', {
      bucketName: Fn.importValue(exports.name),
      bucketArn: Fn.importValue(exports.arn),
    });
  }

  private createOrdersBucket(): Bucket {
    const privateBucket = {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      removalPolicy: RemovalPolicy.RETAIN,
    } as const;
    const accessLogs = new Bucket(this, 'OrdersAccessLogsBucket', {
      ...privateBucket,
      versioned: false,
      lifecycleRules: [{ id: 'ExpireAccessLogs', expiration: Duration.days(ACCESS_LOG_RETENTION_DAYS) }],
    });
    const expiring = ORDER_BLOB_PREFIXES.map(
      (prefix): LifecycleRule => ({
        id: `Expire-${prefix.replace(/\/$/, '')}`,
        prefix,
        expiration: Duration.days(ORDER_BLOB_RETENTION_DAYS),
      }),
    );
    return new Bucket(this, 'OrdersBucket', {
      ...privateBucket,
      // An overwritten or deleted PDF can be restored for a while (a fault in a task, an operator's
      // mistake); the old versions then expire on their own.
      versioned: true,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'orders-bucket/',
      lifecycleRules: [
        ...expiring,
        {
          id: 'ExpireNoncurrentVersions',
          noncurrentVersionExpiration: Duration.days(NONCURRENT_VERSION_DAYS),
          expiredObjectDeleteMarker: true,
        },
        { id: 'AbortIncompleteUploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
    });
  }

  private createTable(definition: TableDefinition): Table {
    const table = new Table(this, tableConstructId(definition.id), {
      partitionKey: attribute(definition.partitionKey),
      ...(definition.sortKey ? { sortKey: attribute(definition.sortKey) } : {}),
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      ...(definition.ttlAttribute ? { timeToLiveAttribute: definition.ttlAttribute } : {}),
    });
    for (const index of definition.globalIndexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: attribute(index.partitionKey),
        ...(index.sortKey ? { sortKey: attribute(index.sortKey) } : {}),
      });
    }
    return table;
  }
}
