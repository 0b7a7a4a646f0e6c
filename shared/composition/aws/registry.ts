import { createRegistries } from '../registry/registries.ts';
import type { CapabilityFactory } from './root.ts';

export const registryFor: CapabilityFactory<'registryFor'> = (root) => createRegistries(root);
