import { logger } from '../../observability.ts';
import type { FulfilmentDeps } from '../fulfil.ts';
import { fulfilmentDeps } from './fulfilment.ts';

/**
 * A workflow Task's Lambda handler: the step with its dependencies, and one log line naming the
 * order, so that a run can be followed across its steps.
 */
export function workflowStep<I extends { id: string }, O>(
  name: string,
  step: (deps: FulfilmentDeps, input: I) => Promise<O>,
) {
  return async (input: I): Promise<O> => {
    logger.appendKeys({ step: name, id: input.id });
    try {
      const output = await step(fulfilmentDeps(), input);
      logger.info('step completed');
      return output;
    } catch (error) {
      logger.warn('step failed', { error: error as Error });
      throw error;
    } finally {
      logger.removeKeys(['step', 'id']);
    }
  };
}
