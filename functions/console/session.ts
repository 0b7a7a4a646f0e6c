import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import * as consoleRoutes from '../../shared/console/routes.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof consoleRoutes.getConsoleSession>) =>
  createHttpHandler(consoleRoutes.getConsoleSession, ports, async ({ auth }) => {
    if (!auth.session)
      throw new ApiError('unauthorized', { message: 'Only a console session has one: sign in with a link.' });
    return {
      body: {
        object: 'consoleSession',
        accountId: auth.accountId,
        environment: auth.environment,
        keyId: auth.keyId,
        ...auth.session,
        member: auth.session.member ?? null,
      },
    };
  });

export const handler = createHandler(awsRoutePorts(consoleRoutes.getConsoleSession, {}));
