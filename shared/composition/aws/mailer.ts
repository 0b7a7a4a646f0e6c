import { SesMailer } from '../../adapters/aws/ses-mailer.ts';
import { required } from '../../kernel/config.ts';
import type { CapabilityFactory } from './root.ts';

export const mailer: CapabilityFactory<'mailer'> = (root) =>
  new SesMailer(required(root.config.mailFrom, 'MAIL_FROM'));
