import { SesMailer } from '../../adapters/aws/ses-mailer.ts';
import { ORDER_ENV } from '../../infra/workflow.ts';
import type { Mailer } from '../../ports/orders.ts';
import { overrides, requiredEnv } from './overrides.ts';

let built: Mailer | undefined;

export const mailer = (): Mailer => {
  if (overrides.mailer) return overrides.mailer;
  built ??= new SesMailer(requiredEnv(ORDER_ENV.mailFrom));
  return built;
};
