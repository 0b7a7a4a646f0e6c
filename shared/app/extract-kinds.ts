/**
 * Every kind of extract with all its parts, joined from the two modules that each hold one role
 * for every kind (present-extract.ts: how a held extract is shown; reconcile-purchases.ts: how the
 * sweeper stores and settles a purchase). No function imports this join: each imports only the
 * role it runs, so a read bundles no purchase and the sweeper no presenter. It exists so that a
 * kind missing from either module, or a part missing from a kind, does not compile.
 */
import type { ExtractKindParts } from './extract-kind-parts.ts';
import { presentByKind } from './present-extract.ts';
import { settleByKind } from './reconcile-purchases.ts';

export const extractKindParts: ExtractKindParts = {
  company: { ...settleByKind.company, ...presentByKind.company },
  person: { ...settleByKind.person, ...presentByKind.person },
  register: { ...settleByKind.register, ...presentByKind.register },
  weeklySummary: { ...settleByKind.weeklySummary, ...presentByKind.weeklySummary },
};
