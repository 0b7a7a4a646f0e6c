import { CfnOutput, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import {
  type Attribute,
  AttributeType,
  BillingMode,
  type ITable,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { allTables, type KeyAttribute, type TableDefinition, type TableId } from '../shared/infra/tables.ts';
import { acknowledgements } from './nag.ts';

/** Construct id of a table: `keys` → `KeysTable`. */
export const tableConstructId = (id: TableId): string => `${id.charAt(0).toUpperCase()}${id.slice(1)}Table`;

/** Length of the generated cursor signing secret (alphanumeric, so 64 × ~5.95 bits of entropy). */
export const CURSOR_SECRET_LENGTH = 64;

const attribute = (key: KeyAttribute): Attribute => ({
  name: key.name,
  type: key.type === 'N' ? AttributeType.NUMBER : AttributeType.STRING,
});

/**
 * The stateful stack: the DynamoDB tables (built only from `shared/infra/tables.ts`), the cursor
 * signing secret and the registry credential secret. Everything here is retained on stack deletion and protected against
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

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

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
