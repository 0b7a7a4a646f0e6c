/** An OpenAPI request example of a route (each capability's examples.ts; joined in shared/app/openapi/examples.ts). */
export interface RequestExample {
  /** What the example shows, in the sandbox's terms. */
  readonly summary: string;
  readonly path?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string | readonly string[]>>;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /**
   * Sent with a live key, to the registry simulator: the sandbox does not serve the product
   * (weekly summaries answer test keys `sandbox_product_unavailable`).
   */
  readonly live?: boolean;
}
