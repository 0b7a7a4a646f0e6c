/**
 * The contract's own pages as the central places see them (shared/kernel/capability.ts): their
 * area. What they serve (the OpenAPI document, the error reference) is built from the whole
 * service when their functions are bundled (lib/bundling.ts), not from this module.
 */
import { defineCapability } from '../kernel/capability.ts';
import { docsRoutes } from './routes.ts';

export const docsCapability = defineCapability({
  name: 'docs',
  areas: [
    {
      name: 'Docs',
      tag: 'Contract',
      description: 'This document, served without an API key.',
      order: 130,
      routes: [docsRoutes],
    },
  ],
});
