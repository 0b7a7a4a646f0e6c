/**
 * The console's role table: which routes a member's session of each role may call
 * (`consoleRoles` on the route entries, shared/kernel/sessions.ts). Billing reads usage only;
 * developers everything but the members; a route that declares nothing is for admins only.
 */
import { describe, expect, it } from 'vitest';
import { routeList } from '../../shared/app/routes.ts';
import { CONSOLE_ROLES, type ConsoleRole, roleMayCall } from '../../shared/kernel/sessions.ts';

const keyed = routeList.filter((route) => !route.public);
const callableBy = (role: ConsoleRole) =>
  keyed.filter((route) => roleMayCall(route.consoleRoles, role)).map((route) => route.name);

describe('console roles', () => {
  it('a route that declares nothing is for admins only', () => {
    expect(roleMayCall(undefined, 'admin')).toBe(true);
    expect(roleMayCall(undefined, 'developer')).toBe(false);
    expect(roleMayCall(undefined, 'billing')).toBe(false);
  });

  it('admins may call every keyed route', () => {
    expect(callableBy('admin')).toEqual(keyed.map((route) => route.name));
  });

  it('billing members may call their session, sign-out, their own passkeys, the usage report and the spend caps (read only), nothing else', () => {
    expect(callableBy('billing').sort()).toEqual([
      'GetAccountSpendCap',
      'GetConsoleSession',
      'GetKeySpendCap',
      'GetUsage',
      'ListConsolePasskeys',
      'ListSpendCaps',
      'RegisterConsolePasskey',
      'RemoveConsolePasskey',
      'SignOutOfConsole',
      'StartConsolePasskeyRegistration',
    ]);
  });

  it('developers may call everything but the members, the audit, the key-exchange link and setting spend caps', () => {
    const refused = keyed.filter((route) => !roleMayCall(route.consoleRoles, 'developer')).map((r) => r.name);
    expect(refused.sort()).toEqual([
      'ChangeConsoleMemberRole',
      'CreateConsoleLink',
      'DeleteAccountSpendCap',
      'DeleteKeySpendCap',
      'InviteConsoleMember',
      'ListConsoleAudit',
      'ListConsoleMembers',
      'RemoveConsoleMember',
      'SetAccountSpendCap',
      'SetKeySpendCap',
    ]);
  });

  it('public routes declare no roles (no session is asked for)', () => {
    expect(routeList.filter((route) => route.public && route.consoleRoles).map((r) => r.name)).toEqual([]);
  });

  it('names only known roles', () => {
    for (const route of keyed)
      for (const role of route.consoleRoles ?? []) expect(CONSOLE_ROLES).toContain(role);
  });
});
