import type { HttpPorts } from '../../shared/app/ports.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { checkIdentifier } from '../../shared/kernel/identifiers.ts';
import { referenceRoutes } from '../../shared/reference/routes.ts';

export const createHandler = (ports: HttpPorts) =>
  createHttpHandler(referenceRoutes.validateIdentifier, ports, async ({ path, query }) => ({
    body: { ...checkIdentifier(path.value, query.hint) },
  }));

export const handler = createHandler(awsHttpPorts({}));
