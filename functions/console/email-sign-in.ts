import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { emailSignInPage, signInHtml } from '../../shared/console/pages.ts';
import * as consoleRoutes from '../../shared/console/routes.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

/** A member's sign-in page: the email field. */
export const createHandler = (ports: RoutePorts<typeof consoleRoutes.showEmailSignIn>) =>
  createHttpHandler(consoleRoutes.showEmailSignIn, ports, async () => signInHtml(200, emailSignInPage()));

export const handler = createHandler(awsRoutePorts(consoleRoutes.showEmailSignIn, {}));
