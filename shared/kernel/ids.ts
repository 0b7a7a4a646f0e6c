import { randomBytes } from 'node:crypto';

/** `ext_`, `psr_`, `prs_` … followed by 24 random hex digits. */
export const newId = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;
