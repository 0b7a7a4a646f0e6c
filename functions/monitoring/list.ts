import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { monitors } from '../../shared/monitoring/composition.ts';
import { monitorsCsv, prefersCsv } from '../../shared/monitoring/csv.ts';
import { listMonitorsAs } from '../../shared/monitoring/monitors.ts';
import { presentMonitor } from '../../shared/monitoring/present.ts';
import * as monitoringRoutes from '../../shared/monitoring/routes.ts';

const headerOf = (headers: Readonly<Record<string, string>>, name: string) =>
  Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];

export const createHandler = (ports: RoutePorts<typeof monitoringRoutes.listMonitors>) =>
  createHttpHandler(monitoringRoutes.listMonitors, ports, async ({ query, auth, headers }) => {
    const request = {
      monitors: ports.monitors,
      cursors: ports.cursors,
      owner: { accountId: auth.accountId, environment: auth.environment },
      route: monitoringRoutes.listMonitors,
      query,
    };
    if (prefersCsv(headerOf(headers, 'accept'))) {
      const page = await listMonitorsAs(request, (monitor) => monitor);
      return {
        body: {},
        headers: {
          'Content-Disposition': 'attachment; filename="monitors.csv"',
          'X-Total-Count': String(page.totalCount),
          ...(page.nextCursor ? { 'X-Next-Cursor': page.nextCursor } : {}),
        },
        file: {
          contentType: 'text/csv; charset=utf-8',
          bytes: new TextEncoder().encode(monitorsCsv(page.data)),
          filename: 'monitors.csv',
        },
      };
    }
    const page = await listMonitorsAs(request, presentMonitor);
    return { body: { object: 'list', ...page } };
  });

export const handler = createHandler(awsRoutePorts(monitoringRoutes.listMonitors, { monitors }));
