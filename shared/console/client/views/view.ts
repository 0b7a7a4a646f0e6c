import type { Session } from '../api.ts';

export interface ViewContext {
  session: Session;
  /** The route's parameters (`#/webhooks/we_123` → `['we_123']`). */
  params: string[];
  /** Announces a result in the page's live region. */
  announce(message: string): void;
  /** Draws the view again (after a change). */
  refresh(): void;
  /** Runs when the view is left (timers). */
  onLeave(cleanup: () => void): void;
}

/** One page of the console: adding a page is adding one module like this to views/index.ts. */
export interface View {
  /** `#/<route>`; `:param` segments match one path segment. */
  readonly route: string;
  readonly title: string;
  /** Shown in the navigation (top-level pages only). */
  readonly nav?: string;
  /**
   * The roles the page is for (the service refuses the others' calls anyway: `consoleRoles` on
   * the routes); not said: admins and developers.
   */
  readonly roles?: readonly Session['role'][];
  render(context: ViewContext): Promise<Node[]>;
}

/** Whether a session of `role` sees the page. */
export const viewFor = (view: View, role: Session['role']): boolean =>
  (view.roles ?? ['admin', 'developer']).includes(role);

/** A section with a heading (`h2`). */
export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
