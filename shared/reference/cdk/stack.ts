/** The daily reference refresh in the stage's API stack (lib/capability-constructs.ts). */
import { defineCapabilityConstructs } from '../../../lib/capability-construct.ts';
import { byModuleName } from '../../../lib/constructs/worker-function.ts';
import { REFERENCE_ALARM_THRESHOLDS } from './alarms.ts';
import { ReferenceRefresh } from './refresh.ts';

export default defineCapabilityConstructs({
  alarmThresholds: REFERENCE_ALARM_THRESHOLDS,
  registryCallers: { scheduled: 1 },
  build: (scope) => {
    const refresh = new ReferenceRefresh(scope.stack, 'ReferenceRefresh', {
      mainTable: scope.tables.main,
      registryUrl: scope.settings.registryUrl,
      registryCredentialSecret: scope.registryCredentialSecret,
      entryFor: scope.entryFor,
      alarms: scope.alarms,
      failedEvents: scope.failedEvents,
      liveAliases: scope.liveAliases,
      ...(scope.registryConcurrency === undefined ? {} : { registryConcurrency: scope.registryConcurrency }),
    });
    return {
      construct: refresh,
      functions: [['Reference refresh', byModuleName(refresh.function)]],
    };
  },
});
