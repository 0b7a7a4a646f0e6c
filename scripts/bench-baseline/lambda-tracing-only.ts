/**
 * Stands in for Powertools Tracer in a yardstick bundle (scripts/bench.ts): the baseline handler
 * as it starts when tracing is left to Lambda's active tracing, with no tracing library loaded.
 */
export class Tracer {
  captureAWSv3Client<T>(client: T): T {
    return client;
  }
}

/** A middleware that does nothing (middy wants one of before, after, onError). */
export const captureLambdaHandler = (_tracer: Tracer) => ({ before: () => undefined });
