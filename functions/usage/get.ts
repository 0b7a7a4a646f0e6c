import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { ledger } from '../../shared/extracts/composition.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { usageReport } from '../../shared/usage/report.ts';
import * as usageRoutes from '../../shared/usage/routes.ts';

export const createHandler = (ports: RoutePorts<typeof usageRoutes.getUsage>) =>
  createHttpHandler(usageRoutes.getUsage, ports, async ({ query, auth }) => {
    const { page, from, to, totals, days, amounts } = await usageReport({
      ledger: ports.ledger,
      cursors: ports.cursors,
      owner: auth,
      now: ports.clock.now(),
      query,
    });
    return {
      body: {
        object: 'list',
        ...page,
        data: page.data.map(({ accountId: _a, environment: _e, ...entry }) => ({
          object: 'feeEntry',
          ...entry,
        })),
        from,
        to,
        totals,
        days,
        amounts,
      },
    };
  });

export const handler = createHandler(awsRoutePorts(usageRoutes.getUsage, { ledger }));
