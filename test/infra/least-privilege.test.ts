/**
 * Least privilege, on the synthesized prod templates (every stack and nested stack): who may use
 * the webhook secrets key (its key policy, the role tags it checks and the IAM grants, walked
 * together), which roles may list the orders bucket and under which prefixes, and which functions
 * may delete DynamoDB items.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { functionDescription } from '../../lib/api-stack.ts';
import { SOURCE_ACCOUNT_SERVICES } from '../../lib/constructs/service-principal.ts';
import {
  KEY_ADMIN_ACTIONS,
  SECRET_ROLE_TAG,
  type SecretUse,
} from '../../lib/constructs/webhook-secrets-key.ts';
import { ORDER_BLOB_PREFIXES, tableConstructId } from '../../lib/data-stack.ts';
import { PROJECT_ROOT } from '../../lib/routes.ts';
import { routeList } from '../../shared/app/routes.ts';
import { DOCS_CONTENT_SECURITY_POLICY } from '../../shared/docs/pages.ts';
import { type TableId, tableDefinitions } from '../../shared/kernel/infra/tables.ts';
import { SWEEPER_DESCRIPTION, taskDescription } from '../../shared/orders/cdk/fulfilment.ts';
import { taskNamed } from '../../shared/orders/infra.ts';
import { DISPATCHER_DESCRIPTION } from '../../shared/webhooks/cdk/webhooks.ts';
import { SECRET_CONTEXT_KEYS, SECRET_CONTEXT_PURPOSE } from '../../shared/webhooks/infra.ts';
import { webhookRoutes } from '../../shared/webhooks/routes.ts';
import { undocumentedCapabilities, undocumentedCapabilityRoutes } from './new-capabilities.ts';
import { actionsOf, logicalIdOf, type PolicyStatementJson, type Synthesized, synthesize } from './synth.ts';

interface Resource {
  Type: string;
  Properties?: Record<string, unknown>;
}

interface RoleUse {
  /** The template's construct path and the role's logical id in it. */
  template: string;
  role: string;
  /** Descriptions of the functions that run as the role. */
  functions: string[];
  statements: PolicyStatementJson[];
  tags: Record<string, string>;
}

/** Every role of every template, with the functions running as it, its statements and its tags. */
function rolesOf(synth: Synthesized): RoleUse[] {
  const roles: RoleUse[] = [];
  for (const template of synth.templates) {
    const resources = Object.entries(template.json.Resources ?? {}) as [string, Resource][];
    for (const [id, resource] of resources) {
      if (resource.Type !== 'AWS::IAM::Role') continue;
      const ref = JSON.stringify({ Ref: id });
      const statements = resources
        .filter(([, r]) => r.Type === 'AWS::IAM::Policy')
        .filter(([, r]) => JSON.stringify(r.Properties?.Roles ?? []).includes(ref))
        .flatMap(
          ([, r]) =>
            (r.Properties?.PolicyDocument as { Statement: PolicyStatementJson[] } | undefined)?.Statement ??
            [],
        );
      const functions = resources
        .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
        .filter(
          ([, r]) => JSON.stringify(r.Properties?.Role) === JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] }),
        )
        .map(([, r]) => String(r.Properties?.Description));
      const tags = Object.fromEntries(
        ((resource.Properties?.Tags ?? []) as { Key: string; Value: string }[]).map((t) => [t.Key, t.Value]),
      );
      roles.push({ template: template.path, role: id, functions, statements, tags });
    }
  }
  return roles;
}

describe('prod: least privilege', () => {
  let synth: Synthesized;
  let roles: RoleUse[];
  beforeAll(() => {
    synth = synthesize({ context: { stage: 'prod' } });
    roles = rolesOf(synth);
  }, 120_000);

  const keyLogicalId = () => logicalIdOf(synth.data, synth.data.node.findChild('WebhookSecretsKey'));
  const keyPolicy = () => {
    const key = synth.dataTemplate.findResources('AWS::KMS::Key')[keyLogicalId()] as {
      Properties: { KeyPolicy: { Statement: (PolicyStatementJson & Record<string, unknown>)[] } };
    };
    return key.Properties.KeyPolicy.Statement;
  };
  /** The stage's account (prod names one). */
  const root = { AWS: 'arn:aws:iam::111122223333:root' };
  const contextConditions = {
    'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': [...SECRET_CONTEXT_KEYS] },
    Null: {
      'kms:EncryptionContext:purpose': 'false',
      'kms:EncryptionContext:account': 'false',
      'kms:EncryptionContext:endpoint': 'false',
    },
  };
  const sealing = [webhookRoutes.createWebhookEndpoint, webhookRoutes.rotateWebhookSecret].map(
    functionDescription,
  );

  describe('the webhook secrets key', () => {
    it('has a written-out policy: the account administers it, never uses it or grants its use', () => {
      const statements = keyPolicy();
      expect(statements.map((s) => s.Sid)).toStrictEqual([
        'AdministerOnly',
        'SealWithTaggedRoles',
        'OpenWithTaggedRoles',
      ]);
      const [admin] = statements;
      expect(admin).toMatchObject({ Effect: 'Allow', Principal: root, Resource: '*' });
      expect(admin?.Condition).toBeUndefined();
      expect(actionsOf(admin as PolicyStatementJson).sort()).toStrictEqual([...KEY_ADMIN_ACTIONS].sort());
      for (const action of actionsOf(admin as PolicyStatementJson)) {
        expect(action).not.toMatch(/\*|Encrypt|Decrypt|GenerateDataKey|ReEncrypt|CreateGrant/);
      }
    });

    it.each([
      ['SealWithTaggedRoles', 'kms:Encrypt', 'seal'],
      ['OpenWithTaggedRoles', 'kms:Decrypt', 'open'],
    ])(
      '%s: %s by roles tagged %s, only with the purpose, account and endpoint as context',
      (sid, action, use) => {
        const statement = keyPolicy().find((s) => s.Sid === sid);
        expect(statement).toStrictEqual({
          Sid: sid,
          Effect: 'Allow',
          Principal: root,
          Action: action,
          Resource: '*',
          Condition: {
            StringEquals: {
              'kms:EncryptionContext:purpose': SECRET_CONTEXT_PURPOSE,
              [`aws:PrincipalTag/${SECRET_ROLE_TAG}`]: use,
            },
            ...contextConditions,
          },
        });
      },
    );

    it('is used by the two sealing routes (Encrypt) and the dispatcher (Decrypt), no other role', () => {
      const tagged = roles
        .filter((r) => r.tags[SECRET_ROLE_TAG] !== undefined)
        .map((r) => ({ use: r.tags[SECRET_ROLE_TAG], functions: r.functions }));
      expect(
        tagged.sort((a, b) => String(a.functions[0]).localeCompare(String(b.functions[0]))),
      ).toStrictEqual(
        [
          ...sealing.map((description) => ({ use: 'seal', functions: [description] })),
          { use: 'open', functions: [DISPATCHER_DESCRIPTION] },
        ].sort((a, b) => String(a.functions[0]).localeCompare(String(b.functions[0]))),
      );

      // Whatever the tags say, the IAM side grants the same roles, the same actions, with the context.
      const kmsUsers = roles.flatMap((r) =>
        r.statements
          .filter((s) => actionsOf(s).some((a) => a.startsWith('kms:') || a === '*'))
          .map((s) => ({ role: r, statement: s })),
      );
      const expected: Record<string, SecretUse> = Object.fromEntries([
        ...sealing.map((d) => [d, 'seal'] as const),
        [DISPATCHER_DESCRIPTION, 'open'] as const,
      ]);
      expect(kmsUsers.map((u) => u.role.functions).sort()).toStrictEqual(
        Object.keys(expected)
          .map((d) => [d])
          .sort(),
      );
      for (const { role, statement } of kmsUsers) {
        const use = expected[String(role.functions[0])];
        expect(role.tags[SECRET_ROLE_TAG]).toBe(use);
        expect(actionsOf(statement)).toStrictEqual([use === 'seal' ? 'kms:Encrypt' : 'kms:Decrypt']);
        expect(JSON.stringify(statement.Resource)).toContain(keyLogicalId());
        expect((statement as unknown as { Condition: unknown }).Condition).toStrictEqual({
          StringEquals: { 'kms:EncryptionContext:purpose': SECRET_CONTEXT_PURPOSE },
          ...contextConditions,
        });
      }
    });
  });

  describe('the orders bucket', () => {
    const bucketId = () => logicalIdOf(synth.data, synth.data.ordersBucketResource);

    it('lets a role list it only under the prefixes it reads, never the whole bucket by name', () => {
      const listers = roles.flatMap((r) =>
        r.statements
          .filter((s) => actionsOf(s).some((a) => a === 's3:ListBucket' || a === 's3:*' || a === '*'))
          .map((s) => ({ role: r, statement: s as PolicyStatementJson & { Condition?: unknown } })),
      );
      // The two routes that read PDFs and results, and the workflow tasks that write or mail them.
      expect(listers.length).toBeGreaterThanOrEqual(5);
      for (const { role, statement } of listers) {
        expect(actionsOf(statement), role.functions.join()).toStrictEqual(['s3:ListBucket']);
        expect(JSON.stringify(statement.Resource)).toContain(bucketId().slice(0, 12));
        expect(statement.Condition, role.functions.join()).toStrictEqual({
          StringLike: { 's3:prefix': ORDER_BLOB_PREFIXES.map((prefix) => `${prefix}*`) },
        });
      }
    });
  });

  describe('the idempotency table', () => {
    it('lets every keyed route keep an answer of any size: GetItem, PutItem and UpdateItem on it, for the record and its parts', () => {
      const table = logicalIdOf(synth.data, synth.data.node.findChild(tableConstructId('idempotency')));
      const keyed = routeList.filter((route) => route.idempotent);
      expect(keyed.length).toBeGreaterThanOrEqual(10);
      for (const route of keyed) {
        const description = functionDescription(route);
        const actions = roles
          .filter((role) => role.functions.includes(description))
          .flatMap((role) => role.statements)
          .filter((statement) => JSON.stringify(statement.Resource).includes(table))
          .flatMap(actionsOf);
        expect(actions, route.name).toEqual(
          expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']),
        );
      }
    });
  });

  describe('DynamoDB deletes', () => {
    /** The functions that delete items, by table: the routes by name, the workers by description. */
    const DELETING_ROUTES: Readonly<Record<string, readonly TableId[]>> = {
      // A purchase the registry refused is forgotten; a failed request's idempotency record goes.
      PurchaseCompanyExtract: ['main', 'idempotency'],
      PurchasePersonExtracts: ['main', 'idempotency'],
      PurchaseWeeklySummary: ['main', 'idempotency'],
      PurchaseRegisterExtract: ['main', 'idempotency'],
      OrderChargesExtract: ['idempotency'],
      OrderDocumentImages: ['idempotency'],
      CreateOfflineSearch: ['idempotency'],
      CreateMonitor: ['idempotency'],
      ImportMonitors: ['idempotency'],
      CreateSandboxMonitorEvent: ['idempotency'],
      DeleteWebhookEndpoint: ['main'],
      DeleteMonitor: ['main'],
      // A removed member, its address's claim and its passkeys (keys table: MEMBER#, EMAIL# and
      // PASSKEY# items only); a member's own passkey.
      RemoveConsoleMember: ['keys'],
      RemoveConsolePasskey: ['keys'],
    };
    const DELETING_WORKERS = [
      taskDescription(taskNamed('MarkProcessing')),
      taskDescription(taskNamed('Finish')),
      SWEEPER_DESCRIPTION,
    ];

    it('is granted to exactly the functions that delete, on the tables they delete from', () => {
      const tableIds = Object.fromEntries(
        (Object.keys(tableDefinitions) as TableId[]).map((id) => [
          logicalIdOf(synth.data, synth.data.node.findChild(tableConstructId(id))),
          id,
        ]),
      );
      const deleting = new Map<string, TableId[]>();
      for (const role of roles) {
        for (const statement of role.statements) {
          const actions = actionsOf(statement);
          if (!actions.some((a) => a === 'dynamodb:DeleteItem' || a === 'dynamodb:*' || a === '*')) continue;
          const named = Object.entries(tableIds)
            .filter(([logicalId]) => JSON.stringify(statement.Resource).includes(logicalId))
            .map(([, id]) => id);
          expect(named.length, role.functions.join()).toBeGreaterThan(0);
          for (const fn of role.functions) deleting.set(fn, [...(deleting.get(fn) ?? []), ...named]);
        }
      }
      const byDescription = new Map(routeList.map((route) => [functionDescription(route), route.name]));
      const found = Object.fromEntries(
        [...deleting].map(([description, tables]) => [
          byDescription.get(description) ?? description,
          [...new Set(tables)].sort(),
        ]),
      );
      expect(found).toStrictEqual({
        ...Object.fromEntries(
          Object.entries(DELETING_ROUTES).map(([name, tables]) => [name, [...tables].sort()]),
        ),
        ...Object.fromEntries(DELETING_WORKERS.map((description) => [description, ['main']])),
        // A capability not yet in docs/infrastructure.md: the tables its routes' grants delete from
        // (an idempotent route's idempotency table among them).
        ...Object.fromEntries(
          undocumentedCapabilityRoutes().flatMap((route) => {
            const tables = Object.entries(route.tables ?? {})
              .filter(([, access]) => access === 'readWriteDelete')
              .map(([table]) => table)
              .sort();
            return tables.length > 0 ? [[route.name, tables]] : [];
          }),
        ),
      });
    });
  });

  it('lets only the console functions that email a link send mail, from mailFrom alone', () => {
    const senders = roles
      .filter((role) => role.statements.some((s) => actionsOf(s).some((a) => a.startsWith('ses:'))))
      .flatMap((role) => role.functions);
    const byDescription = new Map(routeList.map((route) => [functionDescription(route), route.name]));
    const routeSenders = senders.map((fn) => byDescription.get(fn)).filter((name) => name !== undefined);
    expect(routeSenders.sort()).toEqual(['InviteConsoleMember', 'RequestEmailSignIn']);
    for (const role of roles.filter((r) =>
      r.functions.some((fn) => routeSenders.includes(byDescription.get(fn) ?? '')),
    )) {
      const ses = role.statements.filter((s) => actionsOf(s).some((a) => a.startsWith('ses:')));
      expect(ses.map((s) => [actionsOf(s), (s as { Condition?: unknown }).Condition])).toEqual([
        [['ses:SendEmail', 'ses:SendRawEmail'], { StringEquals: { 'ses:FromAddress': expect.any(String) } }],
      ]);
    }
  });

  describe('the keys table', () => {
    const WRITE_ACTIONS = [
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:BatchWriteItem',
    ];
    /** Every statement of every role that may write the keys table, with the functions running as it. */
    const keyWrites = () => {
      const keysId = logicalIdOf(synth.data, synth.data.node.findChild(tableConstructId('keys')));
      return roles.flatMap((role) =>
        role.statements
          .filter((s) => JSON.stringify(s.Resource).includes(keysId))
          .filter((s) =>
            actionsOf(s).some((a) => WRITE_ACTIONS.includes(a) || a === 'dynamodb:*' || a === '*'),
          )
          .map((s) => ({
            role,
            statement: s as PolicyStatementJson & { Condition?: Record<string, Record<string, unknown>> },
          })),
      );
    };
    const byDescription = () => new Map(routeList.map((route) => [functionDescription(route), route]));
    const leadingKeys = (condition: Record<string, Record<string, unknown>> | undefined) =>
      condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] as string[] | undefined;
    /** The one write every keyed route makes: its key's last-used hour, that attribute only. */
    const isRecordUse = (
      statement: PolicyStatementJson & { Condition?: Record<string, Record<string, unknown>> },
    ) =>
      JSON.stringify(actionsOf(statement)) === '["dynamodb:UpdateItem"]' &&
      JSON.stringify(statement.Condition?.['ForAllValues:StringEquals']) ===
        JSON.stringify({ 'dynamodb:Attributes': ['pk', 'lastUsedHour'] });

    it('is written by the console functions only, each conditioned to the items it needs', () => {
      const found: Record<string, string[]> = {};
      for (const { role, statement } of keyWrites()) {
        if (isRecordUse(statement)) {
          expect(leadingKeys(statement.Condition), role.functions.join()).toStrictEqual(['KEY#*']);
          continue;
        }
        const prefixes = leadingKeys(statement.Condition);
        // No write to the keys table goes unconditioned.
        expect(prefixes, role.functions.join()).toBeDefined();
        for (const fn of role.functions) {
          const name = byDescription().get(fn)?.name ?? fn;
          found[name] = [...new Set([...(found[name] ?? []), ...(prefixes ?? [])])].sort();
        }
      }
      // A member's first sign-in marks it active in the transaction that opens its session.
      const sessions = ['AUDIT#*', 'LINK#*', 'MEMBER#*', 'SESSION#*'];
      const members = ['AUDIT#*', 'EMAIL#*', 'LINK#*', 'MEMBER#*', 'PASSKEY#*'];
      // Spending a challenge opens a session or stores a passkey, with its audit record.
      const passkeys = ['AUDIT#*', 'CHALLENGE#*', 'PASSKEY#*', 'SESSION#*'];
      expect(found).toStrictEqual({
        CreateConsoleLink: sessions,
        SignInWithConsoleLink: sessions,
        SignOutOfConsole: sessions,
        CreateConsoleKey: ['AUDIT#*', 'KEY#*'],
        LabelConsoleKey: ['AUDIT#*', 'KEY#*'],
        InviteConsoleMember: members,
        ChangeConsoleMemberRole: members,
        RemoveConsoleMember: members,
        // The sign-in page's form: a link and the counts that limit it, nothing else, though anyone may post it.
        RequestEmailSignIn: ['LINK#*', 'SIGNIN#*'],
        RollConsoleKey: ['AUDIT#*', 'KEY#*'],
        RevokeConsoleKey: ['AUDIT#*', 'KEY#*'],
        // The options routes (the sign-in one anyone may post): a challenge, nothing else.
        StartConsolePasskeyRegistration: ['CHALLENGE#*'],
        StartPasskeySignIn: ['CHALLENGE#*'],
        RegisterConsolePasskey: passkeys,
        RemoveConsolePasskey: passkeys,
        SignInWithPasskey: passkeys,
      });
    });

    it('lets the link page (a GET, unauthenticated) write nothing, and the sign-in POST no key item', () => {
      const writers = keyWrites()
        .flatMap(({ role }) => role.functions)
        .map((fn) => byDescription().get(fn)?.name);
      expect(writers).not.toContain('OpenConsoleLink');
      expect(writers).toContain('SignInWithConsoleLink');
    });

    it('lets no function behind an unauthenticated route, and only create, label, roll and revoke, write a key item', () => {
      const keyWriters = new Set<string>();
      for (const { role, statement } of keyWrites()) {
        if (isRecordUse(statement)) continue;
        if (
          !(leadingKeys(statement.Condition) ?? ['*']).some((prefix) =>
            'KEY#x'.startsWith(prefix.replace('*', '')),
          )
        )
          continue;
        for (const fn of role.functions) keyWriters.add(byDescription().get(fn)?.name ?? fn);
      }
      expect([...keyWriters].sort()).toStrictEqual([
        'CreateConsoleKey',
        'LabelConsoleKey',
        'RevokeConsoleKey',
        'RollConsoleKey',
      ]);
      for (const name of keyWriters)
        expect(routeList.find((route) => route.name === name)?.public).toBeUndefined();
      // An unauthenticated route does not even record a key's use.
      for (const { role, statement } of keyWrites()) {
        if (!isRecordUse(statement)) continue;
        for (const fn of role.functions) expect(byDescription().get(fn)?.public, fn).toBeUndefined();
      }
    });
  });

  describe('service-role trust policies', () => {
    it('let each service that sends aws:SourceAccount assume its role only for this account: none missing', () => {
      const missing: string[] = [];
      const byService: Record<string, number> = {};
      for (const template of synth.templates) {
        for (const [id, resource] of Object.entries(template.json.Resources ?? {}) as [string, Resource][]) {
          if (resource.Type !== 'AWS::IAM::Role') continue;
          const document = resource.Properties?.AssumeRolePolicyDocument as {
            Statement: {
              Principal?: { Service?: string };
              Condition?: Record<string, Record<string, unknown>>;
            }[];
          };
          for (const statement of document.Statement) {
            const service = statement.Principal?.Service;
            if (!service) continue;
            byService[service] = (byService[service] ?? 0) + 1;
            if (!(SOURCE_ACCOUNT_SERVICES as readonly string[]).includes(service)) continue;
            if (
              JSON.stringify(statement.Condition) !==
              JSON.stringify({ StringEquals: { 'aws:SourceAccount': '111122223333' } })
            )
              missing.push(`${template.path} ${id} (${service})`);
          }
        }
      }
      expect(missing).toEqual([]);
      // Every service role of the templates is of a known service: the three above, the 14 CodeDeploy
      // deployment roles among them; and the two API Gateway roles and Lambda's, which take no key.
      expect(Object.keys(byService).sort()).toEqual([
        'apigateway.amazonaws.com',
        'codedeploy.amazonaws.com',
        'lambda.amazonaws.com',
        'scheduler.amazonaws.com',
        'states.amazonaws.com',
      ]);
      // One per area stack with routes, the workers' and monitoring's.
      expect(byService['codedeploy.amazonaws.com']).toBe(15 + undocumentedCapabilities().length);
      expect(byService['apigateway.amazonaws.com']).toBe(2);
    });
  });

  describe('docs/infrastructure.md says what the templates hold', () => {
    const doc = () =>
      readFileSync(join(PROJECT_ROOT, 'docs', 'infrastructure.md'), 'utf8').replace(/\s+/g, ' ');

    it('names the key policy statements, the tag and the encryption context keys', () => {
      for (const statement of keyPolicy()) expect(doc()).toContain(`\`${statement.Sid}\``);
      expect(doc()).toContain(`\`aws:PrincipalTag/${SECRET_ROLE_TAG} = seal\``);
      expect(doc()).toContain(`\`purpose = ${SECRET_CONTEXT_PURPOSE}\``);
      for (const key of SECRET_CONTEXT_KEYS) expect(doc()).toContain(`\`${key}\``);
    });

    it('gives the ListBucket condition the template has', () => {
      const prefixes = ORDER_BLOB_PREFIXES.map((prefix) => `"${prefix}*"`).join(', ');
      expect(doc()).toContain(`\`StringLike s3:prefix [${prefixes}]\``);
    });

    it('lists every function granted DeleteItem, and no other', () => {
      const start = '`DeleteItem` goes only to the functions that delete';
      const section = doc().slice(doc().indexOf(start) + start.length);
      const listed = section.slice(0, section.indexOf('A route asks for it'));
      for (const name of [
        'PurchaseCompanyExtract',
        'PurchasePersonExtracts',
        'PurchaseWeeklySummary',
        'PurchaseRegisterExtract',
        'OrderChargesExtract',
        'OrderDocumentImages',
        'CreateOfflineSearch',
        'CreateMonitor',
        'ImportMonitors',
        'CreateSandboxMonitorEvent',
        'DeleteWebhookEndpoint',
        'DeleteMonitor',
        'RemoveConsoleMember',
        'RemoveConsolePasskey',
        'MarkProcessing',
        'Finish',
        'SweepStalledFulfilment',
      ])
        expect(listed).toContain(`\`${name}\``);
      expect(listed.match(/`[A-Z][A-Za-z]+`/g)?.length).toBe(17);
    });

    it("gives the documentation pages' policy as served, but for the script's hash", () => {
      const written = DOCS_CONTENT_SECURITY_POLICY.replace(
        /'sha256-[^']+'/,
        "'sha256-<the page's own script>'",
      );
      expect(doc()).toContain(`\`Content-Security-Policy: ${written}\``);
    });
  });
});
