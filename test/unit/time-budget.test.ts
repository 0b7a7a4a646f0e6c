import { describe, expect, it } from 'vitest';
import { routeList } from '../../shared/app/routes.ts';
import {
  DEFAULT_RETRY_DELAY_MS,
  DEFAULT_TIMEOUTS,
  MIN_ATTEMPT_MS,
} from '../../shared/composition/registry/http-registry.ts';
import {
  COMMIT_RESERVE_MS,
  functionTimeoutMs,
  INTEGRATION_TIMEOUT_MS,
  registryDeadline,
  remainingMs,
  withDeadline,
} from '../../shared/kernel/http/time-budget.ts';

/**
 * One time budget for every route (issue 13, item 1): the registry's timeouts and the commit that
 * follows fit inside the function's timeout, which fits inside API Gateway's.
 */
describe('time budget', () => {
  const registryRoutes = routeList.filter((route) => route.usesRegistry);

  it('covers the registry routes (so the checks below check something)', () => {
    expect(registryRoutes.length).toBeGreaterThan(10);
    expect(registryRoutes.map((route) => route.name)).toEqual(
      expect.arrayContaining(['PurchaseCompanyExtract', 'PurchasePersonExtracts', 'GetCompany']),
    );
  });

  it.each(registryRoutes.map((route) => [route.name, route] as const))(
    '%s: a purchase attempt or a lookup with its retry, plus the commit, fits in the function timeout',
    (_, route) => {
      const timeout = functionTimeoutMs(route);
      expect(timeout).toBeLessThanOrEqual(INTEGRATION_TIMEOUT_MS);
      expect(DEFAULT_TIMEOUTS.purchaseMs + COMMIT_RESERVE_MS).toBeLessThanOrEqual(timeout);
      expect(2 * DEFAULT_TIMEOUTS.lookupMs + DEFAULT_RETRY_DELAY_MS + COMMIT_RESERVE_MS).toBeLessThanOrEqual(
        timeout,
      );
    },
  );

  it('gives routes that never call the registry the default 10 s, and long-running ones (the monitor import, the MCP server) 29 s', () => {
    const free = routeList.filter((route) => !route.usesRegistry && !route.longRunning);
    expect(free.length).toBeGreaterThan(0);
    expect(new Set(free.map(functionTimeoutMs))).toEqual(new Set([10_000]));
    expect(new Set(registryRoutes.map(functionTimeoutMs))).toEqual(new Set([INTEGRATION_TIMEOUT_MS]));
    const long = routeList.filter((route) => route.longRunning);
    expect(long.map((route) => [route.name, functionTimeoutMs(route)])).toEqual([
      ['ImportMonitors', INTEGRATION_TIMEOUT_MS],
      ['Mcp', INTEGRATION_TIMEOUT_MS],
    ]);
  });

  it('keeps the commit reserve back from what the function has left', () => {
    expect(registryDeadline(29_000, 1_000)).toBe(1_000 + 29_000 - COMMIT_RESERVE_MS);
    expect(COMMIT_RESERVE_MS).toBeGreaterThan(MIN_ATTEMPT_MS);
  });

  it('is seen by code running inside withDeadline, and only there', async () => {
    expect(remainingMs()).toBeUndefined();
    const seen = await withDeadline(Date.now() + 5_000, async () => {
      await new Promise((done) => setTimeout(done, 20));
      return remainingMs();
    });
    expect(seen).toBeGreaterThan(4_000);
    // Less than given: time passed (a timer may fire a millisecond early, so not 20 ms less).
    expect(seen).toBeLessThan(5_000);
    expect(remainingMs()).toBeUndefined();
  });
});
