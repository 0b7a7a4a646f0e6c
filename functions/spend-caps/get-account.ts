import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { capsContext, readCap, scopeOf } from '../../shared/spend-caps/caps.ts';
import { spendCaps } from '../../shared/spend-caps/composition.ts';
import * as spendCapRoutes from '../../shared/spend-caps/routes.ts';

export const createHandler = (ports: RoutePorts<typeof spendCapRoutes.getAccountSpendCap>) =>
  createHttpHandler(spendCapRoutes.getAccountSpendCap, ports, async (input) => {
    const context = capsContext(ports, input.auth);
    const scope = await scopeOf(context, undefined);
    return { body: await readCap(context, scope) };
  });

export const handler = createHandler(awsRoutePorts(spendCapRoutes.getAccountSpendCap, { spendCaps }));
