import * as extractRoutes from '../../shared/app/extract-routes.ts';
import type { RoutePorts } from '../../shared/app/ports.ts';
import { presentHeldExtract } from '../../shared/app/present-extract.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { heldExtracts } from '../../shared/extracts/composition.ts';
import { readHeldExtract } from '../../shared/extracts/lifecycle.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof extractRoutes.getExtract>) =>
  createHttpHandler(extractRoutes.getExtract, ports, async ({ path, auth }) => {
    const stored = await readHeldExtract(ports.heldExtracts, path.id, auth, ports.clock.now());
    const read = { store: ports.heldExtracts, cursors: ports.cursors, owner: auth };
    return { body: await presentHeldExtract(stored, read) };
  });

export const handler = createHandler(awsRoutePorts(extractRoutes.getExtract, { heldExtracts }));
