import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { passkeys, relyingParty } from '../../shared/console/composition.ts';
import { CONSOLE_HEADERS, sessionCookie } from '../../shared/console/pages.ts';
import { passkeyRoutes } from '../../shared/console/passkey-routes.ts';
import { signInWithPasskey } from '../../shared/console/passkey-verification.ts';
import { isSameOriginPost } from '../../shared/console/sign-in.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

/**
 * A passkey's answer: the session cookie of its member, as a link's button sets it. Only from the
 * console's own pages (login CSRF: another site must not sign a browser in to its own session).
 */
export const createHandler = (ports: RoutePorts<typeof passkeyRoutes.signInWithPasskey>) =>
  createHttpHandler(passkeyRoutes.signInWithPasskey, ports, async ({ body, headers }) => {
    if (!isSameOriginPost(headers))
      throw new ApiError('csrf_token_invalid', {
        message: 'Passkey sign-in starts from the console’s own page.',
      });
    const { token, session } = await signInWithPasskey(
      { store: ports.passkeys, members: ports.apiKeys },
      {
        response: body.response,
        relyingParty: relyingParty(ports.config.apiBaseUrl),
        now: ports.clock.now(),
      },
    );
    return {
      body: {
        object: 'passkeySignIn',
        accountId: session.accountId,
        environment: session.environment,
        expiresAt: session.expiresAt,
      },
      headers: { ...CONSOLE_HEADERS, 'Cache-Control': 'no-store', 'Set-Cookie': sessionCookie(token) },
    };
  });

export const handler = createHandler(awsRoutePorts(passkeyRoutes.signInWithPasskey, { passkeys }));
