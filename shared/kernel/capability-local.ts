/**
 * What a capability runs on the local stack beyond its routes' handlers (its workers on the local
 * clock, the stand-ins of its AWS resources, their `/__local/…` control endpoints): the default
 * export of a module of its folder, `shared/<capability>/local/…`, that its capability module names
 * (`infrastructure.local`, kernel/capability.ts), as its `cdk/` module is for CDK. Only the local
 * stack (local/capability-local.ts gives the context and the ports) loads it, by path, so no
 * function bundles it. Generic here: the kernel names no capability and no port.
 */

/** A control request as the local server hands it over: the body parsed from JSON, the pattern's groups. */
export interface LocalControlRequest {
  readonly url: URL;
  readonly body: Readonly<Record<string, unknown>>;
  readonly params: readonly string[];
}

/** A control endpoint's answer: its status and JSON body. */
export type LocalControlAnswer = readonly [status: number, body: unknown];

/** One local-only endpoint under `/__local/`: its path pattern and a handler per method. */
export interface LocalControlRoute {
  readonly pattern: RegExp;
  readonly methods: Readonly<
    Partial<
      Record<
        'GET' | 'POST' | 'DELETE',
        (request: LocalControlRequest) => Promise<LocalControlAnswer> | LocalControlAnswer
      >
    >
  >;
}

/** What a capability's local module gives the stack once started. */
export interface LocalCapability<Ports, Handle> {
  /** Its typed face for tests and demos (the stack's `local(module)` returns it). */
  readonly handle: Handle;
  /** Ports it provides in place of AWS resources (a queue), given to the routes and to later modules. */
  readonly ports?: Ports;
  /** Its control endpoints, under `/__local/`. */
  readonly control?: readonly LocalControlRoute[];
  /** Lines `npm start` prints about it (where to look, what to call). */
  readonly notes?: readonly string[];
  /** Stops its timers and workers; the stack calls it before the stand-ins they use stop. */
  stop(): Promise<void>;
}

/**
 * A capability's local module's default export. `Context` is what the stack hands it to start (its
 * settings among it): a module keeps its own configuration, the service's knows none of it.
 */
export interface CapabilityLocal<Context, Ports, Handle> {
  /**
   * Capabilities it must start after and stop before (their stand-ins outlive it: webhooks'
   * dispatcher queue receives the events a workflow or a monitoring run publishes).
   */
  readonly after?: readonly string[];
  start(context: Context): Promise<LocalCapability<Ports, Handle>>;
}
