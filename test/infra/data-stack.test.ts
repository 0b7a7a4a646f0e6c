import { beforeAll, describe, expect, it } from 'vitest';
import { CURSOR_SECRET_LENGTH, tableConstructId } from '../../lib/data-stack.ts';
import { allTables, type TableDefinition, tableDefinitions } from '../../shared/kernel/infra/tables.ts';
import { logicalIdOf, resourcesOf, type Synthesized, synthesize, type TemplateResource } from './synth.ts';

const keySchema = (definition: { partitionKey: { name: string }; sortKey?: { name: string } }) => [
  { AttributeName: definition.partitionKey.name, KeyType: 'HASH' },
  ...(definition.sortKey ? [{ AttributeName: definition.sortKey.name, KeyType: 'RANGE' }] : []),
];

/** The table whose key schema is the definition's: tables carry no physical name to match on. */
function tableFor(synth: Synthesized, definition: TableDefinition): TemplateResource {
  const logicalId = logicalIdOf(synth.data, synth.data.node.findChild(tableConstructId(definition.id)));
  const table = resourcesOf(synth.dataTemplate, 'AWS::DynamoDB::Table')[logicalId];
  if (!table) throw new Error(`no table for ${definition.id}`);
  return table;
}

function secretOf(synth: Synthesized, constructId: string): TemplateResource {
  const logicalId = logicalIdOf(synth.data, synth.data.node.findChild(constructId));
  const secret = resourcesOf(synth.dataTemplate, 'AWS::SecretsManager::Secret')[logicalId];
  if (!secret) throw new Error(`no secret ${constructId}`);
  return secret;
}

describe('DataStack', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize();
  }, 120_000);

  it('is named after the stage', () => {
    expect(synth.data.stackName).toBe('CompanyRegister-dev-Data');
    expect(synth.api.stackName).toBe('CompanyRegister-dev-Api');
  });

  it('creates exactly the tables described in shared/kernel/infra/tables.ts', () => {
    expect(Object.keys(resourcesOf(synth.dataTemplate, 'AWS::DynamoDB::Table'))).toHaveLength(
      allTables.length,
    );
  });

  describe.each(allTables.map((definition) => [definition.id, definition] as const))(
    'table %s',
    (_, definition) => {
      it('has the key schema, attribute types and global indexes of its definition', () => {
        const props = tableFor(synth, definition).Properties;
        expect(props.KeySchema).toEqual(keySchema(definition));

        const attributes = [
          definition.partitionKey,
          ...(definition.sortKey ? [definition.sortKey] : []),
          ...definition.globalIndexes.flatMap((index) => [
            index.partitionKey,
            ...(index.sortKey ? [index.sortKey] : []),
          ]),
        ];
        for (const attribute of attributes) {
          expect(props.AttributeDefinitions).toContainEqual({
            AttributeName: attribute.name,
            AttributeType: attribute.type,
          });
        }

        const indexes = (props.GlobalSecondaryIndexes ?? []) as { IndexName: string; KeySchema: unknown }[];
        expect(indexes.map((index) => index.IndexName).sort()).toEqual(
          definition.globalIndexes.map((index) => index.indexName).sort(),
        );
        for (const index of definition.globalIndexes) {
          expect(indexes.find((candidate) => candidate.IndexName === index.indexName)).toMatchObject({
            KeySchema: keySchema(index),
            Projection: { ProjectionType: 'ALL' },
          });
        }
      });

      it('expires items on its TTL attribute, if it has one', () => {
        const props = tableFor(synth, definition).Properties;
        if (definition.ttlAttribute) {
          expect(props.TimeToLiveSpecification).toEqual({
            AttributeName: definition.ttlAttribute,
            Enabled: true,
          });
        } else {
          expect(props.TimeToLiveSpecification).toBeUndefined();
        }
      });

      it('is on-demand, encrypted, point-in-time recoverable, deletion protected and retained', () => {
        const table = tableFor(synth, definition);
        expect(table.Properties).toMatchObject({
          BillingMode: 'PAY_PER_REQUEST',
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          SSESpecification: { SSEEnabled: true },
          DeletionProtectionEnabled: true,
        });
        // AWS-managed key: no customer key to manage or grant.
        expect(table.Properties.SSESpecification).not.toHaveProperty('KMSMasterKeyId');
        expect(table.DeletionPolicy).toBe('Retain');
        expect(table.UpdateReplacePolicy).toBe('Retain');
      });
    },
  );

  it('has exactly two secrets: the cursor signing key and the registry credential', () => {
    synth.dataTemplate.resourceCountIs('AWS::SecretsManager::Secret', 2);
    const secrets = resourcesOf(synth.dataTemplate, 'AWS::SecretsManager::Secret');
    expect(Object.keys(secrets).sort()).toEqual(
      [
        logicalIdOf(synth.data, synth.data.node.findChild('CursorSigningSecret')),
        logicalIdOf(synth.data, synth.data.node.findChild('RegistryCredentialSecret')),
      ].sort(),
    );
  });

  it('generates a retained 64-character cursor signing secret', () => {
    const secret = secretOf(synth, 'CursorSigningSecret');
    expect(secret.DeletionPolicy).toBe('Retain');
    expect(secret.UpdateReplacePolicy).toBe('Retain');
    expect(secret.Properties.GenerateSecretString).toMatchObject({
      PasswordLength: CURSOR_SECRET_LENGTH,
      ExcludePunctuation: true,
    });
    expect(CURSOR_SECRET_LENGTH).toBe(64);
  });

  it('creates a retained registry credential secret with a generated placeholder, never a literal', () => {
    const secret = secretOf(synth, 'RegistryCredentialSecret');
    expect(secret.DeletionPolicy).toBe('Retain');
    expect(secret.UpdateReplacePolicy).toBe('Retain');
    expect(secret.Properties.GenerateSecretString).toBeDefined();
    expect(secret.Properties).not.toHaveProperty('SecretString');
    expect(String(secret.Properties.Description)).toMatch(/registry/i);
  });

  it('outputs the name of every table and the ARN of every secret', () => {
    const outputs = Object.keys(synth.dataTemplate.findOutputs('*'));
    for (const definition of allTables) expect(outputs).toContain(`${tableConstructId(definition.id)}Name`);
    expect(outputs).toContain('IdempotencyTableName');
    expect(outputs).toContain('CursorSigningSecretArn');
    expect(outputs).toContain('RegistryCredentialSecretArn');
  });

  it('has the Powertools idempotency table: key id only, TTL on expiration, like every other table', () => {
    const table = tableFor(synth, tableDefinitions.idempotency);
    expect(table.Properties).toMatchObject({
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      TimeToLiveSpecification: { AttributeName: 'expiration', Enabled: true },
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
      DeletionProtectionEnabled: true,
    });
    expect(table.Properties.GlobalSecondaryIndexes).toBeUndefined();
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
    expect(tableDefinitions.idempotency.envVar).toBe('IDEMPOTENCY_TABLE');
  });

  it('holds no function, API or other stateless resource', () => {
    const types = new Set(
      Object.values(synth.dataTemplate.toJSON().Resources as Record<string, { Type: string }>).map(
        (r) => r.Type,
      ),
    );
    expect([...types].sort()).toEqual([
      'AWS::DynamoDB::Table',
      // Seals webhook signing secrets: stateful with the table that holds them.
      'AWS::KMS::Key',
      'AWS::S3::Bucket',
      'AWS::S3::BucketPolicy',
      'AWS::SecretsManager::Secret',
    ]);
  });
});

describe('stage context', () => {
  it('names the stacks and the API stage after -c stage', () => {
    const synth = synthesize({ context: { stage: 'prod' } });
    expect(synth.data.stackName).toBe('CompanyRegister-prod-Data');
    expect(synth.api.stackName).toBe('CompanyRegister-prod-Api');
    synth.apiTemplate.hasResourceProperties('AWS::ApiGateway::Stage', { StageName: 'prod' });
  }, 120_000);

  it('refuses a stage name that cannot name a stack and an API stage', () => {
    expect(() => synthesize({ context: { stage: 'Prod Stage' } })).toThrow(/stage/);
  });
});
