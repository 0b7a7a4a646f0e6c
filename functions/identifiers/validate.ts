import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { checkIdentifier } from '../../shared/domain/identifiers.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { referenceRoutes } from '../../shared/http/routes/reference.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';

export const createHandler = (ports: HttpPorts) =>
  createHttpHandler(referenceRoutes.validateIdentifier, ports, async ({ path, query }) => ({
    body: { ...checkIdentifier(path.value, query.hint) },
  }));

export const handler = createHandler(awsHttpPorts({}));
