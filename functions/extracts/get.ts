import { extractRoutes } from '../../shared/app/extract-routes.ts';
import type { HttpPorts } from '../../shared/app/ports.ts';
import { presentHeldExtract } from '../../shared/app/present-extract.ts';
import { extracts } from '../../shared/composition/aws/extracts.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { readHeldExtract } from '../../shared/extracts/lifecycle.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: HttpPorts<'extracts'>) =>
  createHttpHandler(extractRoutes.getExtract, ports, async ({ path, auth }) => {
    const stored = await readHeldExtract(ports.extracts, path.id, auth, ports.clock.now());
    const read = { store: ports.extracts, cursors: ports.cursors, owner: auth };
    return { body: await presentHeldExtract(stored, read) };
  });

export const handler = createHandler(awsHttpPorts({ extracts }));
