import { SesMailer } from '../../adapters/aws/ses-mailer.ts';
import { ORDER_ENV } from '../../infra/workflow.ts';
import type { Mailer } from '../../ports/orders.ts';
import { requiredEnv } from './env.ts';

/** SES, sending from `MAIL_FROM`, its adapter built on first use. */
export function sesMailer(): Mailer {
  let built: Mailer | undefined;
  return {
    send: (message) => {
      built ??= new SesMailer(requiredEnv(ORDER_ENV.mailFrom));
      return built.send(message);
    },
  };
}
