import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { capsContext, scopeOf, setCap } from '../../shared/spend-caps/caps.ts';
import { spendCaps } from '../../shared/spend-caps/composition.ts';
import * as spendCapRoutes from '../../shared/spend-caps/routes.ts';

export const createHandler = (ports: RoutePorts<typeof spendCapRoutes.setKeySpendCap>) =>
  createHttpHandler(spendCapRoutes.setKeySpendCap, ports, async (input) => {
    const context = capsContext(ports, input.auth);
    const scope = await scopeOf(context, input.path.keyId);
    return { body: await setCap(context, scope, input.body) };
  });

export const handler = createHandler(awsRoutePorts(spendCapRoutes.setKeySpendCap, { spendCaps }));
