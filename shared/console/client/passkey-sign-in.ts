/**
 * "Sign in with a passkey" (the signed-out page and the members' sign-in page): a sign-in challenge
 * from the service, the browser's passkey prompt (SimpleWebAuthn's browser half), and the answer
 * posted back, which sets the session cookie; then the console. No session is needed, so these
 * calls carry none.
 */
import { browserSupportsWebAuthn, startAuthentication } from '@simplewebauthn/browser';
import { base } from './api.ts';
import { h } from './dom.ts';

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(base + path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json().catch(() => ({}))) as Record<string, { message?: string }>;
  if (!response.ok) throw new Error(json.error?.message ?? response.statusText);
  return json;
}

/** What a failed prompt means to a person (the browser's own names for it are not for them). */
export function promptFailure(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError')
    return 'The passkey prompt was closed or timed out. Try again, or use an emailed link.';
  if (name === 'InvalidStateError')
    return 'This device already holds one of your passkeys: it is in the list. Use another device or security key.';
  return error instanceof Error ? error.message : String(error);
}

/** The button and the line that says what went wrong; nothing where the browser has no passkeys. */
export function passkeySignIn(): HTMLElement[] {
  if (!browserSupportsWebAuthn()) return [];
  const problem = h('p', { class: 'error', role: 'alert', hidden: true });
  const button = h('button', { type: 'button' }, 'Sign in with a passkey');
  button.addEventListener('click', async () => {
    button.disabled = true;
    problem.hidden = true;
    try {
      const { options } = await post('console/sign-in/passkey/options', {});
      // biome-ignore lint/suspicious/noExplicitAny: the service's options JSON, as the library takes it
      const response = await startAuthentication({ optionsJSON: options as any });
      await post('console/sign-in/passkey', { response });
      location.assign(`${base}console`);
    } catch (error) {
      problem.textContent = promptFailure(error);
      problem.hidden = false;
      button.disabled = false;
    }
  });
  return [h('p', {}, 'Or, with a passkey registered on the Passkeys page:'), button, problem];
}
