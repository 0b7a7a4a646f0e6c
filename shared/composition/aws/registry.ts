import { createRegistries } from '../../adapters/registries.ts';
import type { CapabilityFactory } from './root.ts';

export const registryFor: CapabilityFactory<'registryFor'> = (root) => createRegistries(root);
