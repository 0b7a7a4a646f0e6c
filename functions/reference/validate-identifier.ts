import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { checkIdentifier } from '../../shared/kernel/identifiers.ts';
import * as referenceRoutes from '../../shared/reference/routes.ts';

export const createHandler = (ports: RoutePorts<typeof referenceRoutes.validateIdentifier>) =>
  createHttpHandler(referenceRoutes.validateIdentifier, ports, async ({ path, query }) => ({
    body: { ...checkIdentifier(path.value, query.hint) },
  }));

export const handler = createHandler(awsRoutePorts(referenceRoutes.validateIdentifier, {}));
