import { Fn, type IAspect, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { CfnLogGroup } from 'aws-cdk-lib/aws-logs';
import type { IConstruct } from 'constructs';
import type { Settings } from '../settings.ts';

/**
 * The audit trail's one rule, applied to every log group under a stack (access and execution
 * logs, each function's and the workflow's logs, the WAF's): the stage's `logRetentionDays`, and
 * on a live stage `Retain`, so that deleting or replacing a stack never deletes who fetched what.
 * An aspect rather than a prop on each construct, so that a log group added later cannot forget it.
 */
export class LogRetentionAspect implements IAspect {
  constructor(private readonly settings: Pick<Settings, 'logRetentionDays' | 'retainLogs'>) {}

  visit(node: IConstruct): void {
    if (!(node instanceof CfnLogGroup)) return;
    node.retentionInDays = this.settings.logRetentionDays;
    node.applyRemovalPolicy(this.settings.retainLogs ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY);
  }
}

/**
 * The name for a log group whose name a service fixes (WAF's `aws-waf-logs-` prefix, Step
 * Functions' `/aws/vendedlogs/`): `base`, then the GUID that ends the id of the stack holding
 * `scope` (a nested stack's own id). A stack keeps its id across updates and gets a new one each
 * time it is created, so the group a deleted stack retained never blocks the stack's next creation.
 */
export const perCreationLogGroupName = (scope: IConstruct, base: string): string =>
  `${base}-${Fn.select(2, Fn.split('/', Stack.of(scope).stackId))}`;
