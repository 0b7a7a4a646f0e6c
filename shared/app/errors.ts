/**
 * The whole error catalogue with its guide: the kernel's codes (those of the spec and the
 * platform's, shared/kernel/errors/), then each capability's own (its errors.ts, from the list of
 * capabilities). The error reference page, the OpenAPI document and CDK's gateway answers read it.
 */
import {
  type ErrorCode,
  type ErrorDefinition,
  errorCatalogue,
  serviceCodes,
} from '../kernel/errors/catalogue.ts';
import { errorGuide } from '../kernel/errors/guide.ts';
import { capabilities } from './capabilities.ts';

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
  ...capabilities.flatMap((capability) =>
    Object.entries(capability.errors).map(([code, entry]) => [
      code,
      { ...entry, addedByService: entry.addedByService === true },
    ]),
  ),
]) as Readonly<Record<ErrorCode, ErrorDefinition & { readonly addedByService: boolean }>>;
