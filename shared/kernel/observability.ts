import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';

/** One set of Powertools instances per process, shared by every handler and adapter. */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'company-register' });
/** Metrics of one route (one per Lambda function), with the route as a fixed dimension. */
export const routeMetrics = (route: string): Metrics =>
  new Metrics({
    serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'company-register',
    namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'CompanyRegister',
    defaultDimensions: { route },
  });

const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'cookie', 'x-csrf-token', 'svc-signature']);

/** Headers safe to log: credentials and signatures replaced. */
export function redactHeaders(
  headers: Record<string, string | undefined>,
): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      SECRET_HEADERS.has(name.toLowerCase()) ? '[REDACTED]' : value,
    ]),
  );
}
