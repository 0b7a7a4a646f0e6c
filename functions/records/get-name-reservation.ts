import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { getNameReservation } from '../../shared/records/name-reservations.ts';
import { presentNameReservation } from '../../shared/records/present.ts';
import * as recordRoutes from '../../shared/records/routes.ts';

export const createHandler = (ports: RoutePorts<typeof recordRoutes.getNameReservation>) =>
  createHttpHandler(recordRoutes.getNameReservation, ports, async ({ path, auth, requestId }) => {
    const registry = ports.registryFor(auth.environment);
    const reservation = await getNameReservation(registry, path.id, { accountId: auth.accountId, requestId });
    return { body: presentNameReservation(reservation) };
  });

export const handler = createHandler(awsRoutePorts(recordRoutes.getNameReservation, { registryFor }));
