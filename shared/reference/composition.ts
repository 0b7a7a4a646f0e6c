/**
 * The reference data's composition: a factory of each of its ports (shared/kernel/capability-ports.ts),
 * each in its own module under composition/ so that a function bundles only the data its route
 * serves (the form schedule or the code tables), and the ones the local stack builds the same way
 * (`localPorts`). The daily refresh's ports are composition/refresh.ts.
 */
import { codeTableSet } from './composition/code-tables.ts';
import { formSchedule } from './composition/form-schedule.ts';

export const localPorts = { formSchedule, codeTableSet };
