#!/usr/bin/env node
/**
 * CDK app entry (`cdk.json`: `tsx bin/app.ts`). Context: `stage` (default dev), `docsUrl`,
 * `waf` (default true for prod only), `registryUrl` (the live registry's base URL; default a
 * placeholder), `mailFrom` (sender of order emails; default a placeholder). See
 * docs/infrastructure.md.
 */
import { App } from 'aws-cdk-lib';
import { buildApp } from '../lib/app.ts';

const app = new App();
buildApp(app);
app.synth();
