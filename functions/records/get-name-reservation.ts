import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { getNameReservation } from '../../shared/records/name-reservations.ts';
import { presentNameReservation } from '../../shared/records/present.ts';
import { recordRoutes } from '../../shared/records/routes.ts';

export const createHandler = (ports: HttpPorts<'registryFor'>) =>
  createHttpHandler(recordRoutes.getNameReservation, ports, async ({ path, auth, requestId }) => {
    const registry = ports.registryFor(auth.environment);
    const reservation = await getNameReservation(registry, path.id, { accountId: auth.accountId, requestId });
    return { body: presentNameReservation(reservation) };
  });

export const handler = createHandler(awsHttpPorts({ registryFor }));
