import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { capsContext, listCaps } from '../../shared/spend-caps/caps.ts';
import { spendCaps } from '../../shared/spend-caps/composition.ts';
import * as spendCapRoutes from '../../shared/spend-caps/routes.ts';

export const createHandler = (ports: RoutePorts<typeof spendCapRoutes.listSpendCaps>) =>
  createHttpHandler(spendCapRoutes.listSpendCaps, ports, async ({ auth }) => {
    const data = await listCaps(capsContext(ports, auth));
    return { body: { object: 'list', data, hasMore: false, nextCursor: null, totalCount: data.length } };
  });

export const handler = createHandler(awsRoutePorts(spendCapRoutes.listSpendCaps, { spendCaps }));
