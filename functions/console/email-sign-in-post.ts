import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { mailer } from '../../shared/composition/aws/mailer.ts';
import { memberSignInLinks } from '../../shared/console/composition.ts';
import { emailSignInLinks, isEmail, normaliseEmail } from '../../shared/console/members.ts';
import { emailLimitedPage, emailSentPage, emailSignInPage, signInHtml } from '../../shared/console/pages.ts';
import * as consoleRoutes from '../../shared/console/routes.ts';
import { isSameOriginPost } from '../../shared/console/sign-in.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

/**
 * The sign-in page's form: emails a link to a member's address, and answers the same page for any
 * well-formed address (members or not); 429 with `Retry-After` past the hour's limits, for members
 * and others alike.
 */
export const createHandler = (ports: RoutePorts<typeof consoleRoutes.requestEmailSignIn>) =>
  createHttpHandler(consoleRoutes.requestEmailSignIn, ports, async ({ body, headers, sourceIp }) => {
    if (!isSameOriginPost(headers))
      return signInHtml(
        403,
        emailSignInPage('This form came from another site, so nothing was sent. Enter your address here.'),
      );
    const email = normaliseEmail(body.email ?? '');
    if (!isEmail(email))
      return signInHtml(422, emailSignInPage('Enter an email address, such as name@example.com.'));
    const asked = await emailSignInLinks(
      { store: ports.memberSignInLinks, mailer: ports.mailer },
      { email, sourceIp, baseUrl: ports.config.apiBaseUrl, now: ports.clock.now() },
    );
    if (asked.outcome === 'limited')
      return signInHtml(429, emailLimitedPage(asked.retryAfterSeconds), {
        'Retry-After': String(asked.retryAfterSeconds),
      });
    return signInHtml(200, emailSentPage());
  });

export const handler = createHandler(
  awsRoutePorts(consoleRoutes.requestEmailSignIn, { memberSignInLinks, mailer }),
);
