/** The daily reference refresh in the stage's API stack (lib/capability-constructs.ts). */
import { defineCapabilityConstructs } from '../../../lib/capability-construct.ts';
import { byModuleName, workerScopeOf } from '../../../lib/constructs/worker-function.ts';
import { REFERENCE_ALARM_THRESHOLDS } from './alarms.ts';
import { ReferenceRefresh } from './refresh.ts';

export default defineCapabilityConstructs({
  alarmThresholds: REFERENCE_ALARM_THRESHOLDS,
  registryCallers: { scheduled: 1 },
  build: (scope) => {
    const refresh = new ReferenceRefresh(scope.stack, 'ReferenceRefresh', {
      ...workerScopeOf(scope),
      mainTable: scope.tables.main,
      registryUrl: scope.settings.registryUrl,
      registryCredentialSecret: scope.registryCredentialSecret,
      failedEvents: scope.failedEvents,
    });
    return {
      construct: refresh,
      functions: [['Reference refresh', byModuleName(refresh.function)]],
    };
  },
});
