/**
 * Register entry extracts: product `register_extract`, one fee per entry, the fee code by register
 * (spec document 1, 2.9: 959A auditors, B liquidators, C official liquidators, D disqualified
 * persons are named there; E/F grouping the old securities and futures licences and the G/H and
 * I/J splits of representatives and banned representatives, securities first as in the
 * register-types order, are our reading: reference data provenance of asic-fee-codes).
 */
import type { RegisterCode } from './registry-port.ts';

export const registerExtractProduct = {
  product: 'register_extract',
  feeCodes: {
    RA: '959A',
    RQ: '959B',
    OQ: '959C',
    DD: '959D',
    IA: '959E',
    SD: '959E',
    FB: '959F',
    FD: '959F',
    SP: '959G',
    FP: '959H',
    BS: '959I',
    BF: '959J',
  },
} as const satisfies { product: string; feeCodes: Record<RegisterCode, string> };
