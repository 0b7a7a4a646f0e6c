/**
 * The whole error catalogue with its guide: the kernel's codes (those of the spec and the
 * platform's, shared/kernel/errors/), then each capability's own (its errors.ts, from the list of
 * capabilities). The error reference page, the OpenAPI document and its tests read it.
 */
import {
  type CatalogueEntry,
  type ErrorCode,
  errorCatalogue,
  serviceCodes,
} from '../kernel/errors/catalogue.ts';
import { type ErrorGuide, errorGuide } from '../kernel/errors/guide.ts';
import { capabilityList } from './capabilities.ts';

/** A code's catalogue entry and guide entry. */
export interface ServiceError extends CatalogueEntry, ErrorGuide {
  readonly addedByService: boolean;
}

/** Every code with its entry, its cause and fix, and whether the service added it to the spec's, in catalogue order. */
export const serviceErrors = Object.fromEntries([
  ...Object.entries(errorCatalogue).map(([code, entry]) => [
    code,
    {
      ...entry,
      ...errorGuide[code as keyof typeof errorGuide],
      addedByService: serviceCodes.has(code as keyof typeof errorCatalogue),
    },
  ]),
  ...capabilityList.flatMap((capability) =>
    Object.entries(capability.errors ?? {}).map(([code, entry]) => {
      const guide = capability.errorGuide?.[code];
      if (guide === undefined) throw new Error(`error code ${code} of ${capability.name} has no guide entry`);
      return [code, { ...entry, ...guide, addedByService: guide.addedByService === true }];
    }),
  ),
]) as Readonly<Record<ErrorCode, ServiceError>>;
