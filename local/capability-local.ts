/**
 * The capabilities' local modules as the local stack runs them (the shape is
 * shared/kernel/capability-local.ts): what the stack tells and gives each, and the loader, which
 * imports every module a capability module names (`infrastructure.local`) from the list of
 * capabilities, in the order they start (the list's, each after its `after`).
 */
import { capabilityList } from '../shared/app/capabilities.ts';
import type { AppPorts } from '../shared/app/ports.ts';
import type { CapabilityLocal } from '../shared/kernel/capability-local.ts';
import { buildOrder } from '../shared/kernel/capability-order.ts';
import type { LocalCorePorts } from './composition.ts';
import type { LocalEventBus } from './event-bus.ts';
import type { OutboxMailer } from './outbox-mailer.ts';

/**
 * Settings of the capabilities' local modules, each under its capability's name: a module adds its
 * own entry (`declare module '…/local/capability-local.ts'`), so a caller of the stack sets them typed.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in each capability's local module.
export interface LocalCapabilitySettings {}

/** What a module is told of the stack (part of its `LocalContext`). */
export interface LocalSetup {
  /** The stack's folder for files (the outbox, events.jsonl, blobs, a sealing key): kept, or temporary. */
  readonly dir: string;
  /** Run as `npm start` does: scheduled jobs on their schedules, settings kept in `dir` or read from the environment. */
  readonly development: boolean;
  readonly settings: LocalCapabilitySettings;
}

/** The ports the stack's shared stand-ins give: the event bus and the outbox. */
export type SharedStandInPorts = Pick<AppPorts, 'events' | 'mailer'>;
/** The ports the capabilities' local modules give in place of AWS resources (their queues, a workflow's starter, a bucket). */
export type ProvidedPorts = Omit<AppPorts, keyof LocalCorePorts | keyof SharedStandInPorts>;

/** What a module is given to start. */
export interface LocalContext extends LocalSetup {
  readonly ports: LocalCorePorts & SharedStandInPorts;
  /** The event bus stand-in (EventBridge): a module's rule subscribes to it. */
  readonly bus: LocalEventBus;
  /** The outbox stand-in (SES). */
  readonly outbox: OutboxMailer;
  /** The registries as the workers that compile documents use them (the sandbox drawing its page images). */
  readonly imageRegistries: AppPorts['registryFor'];
  /** The API's base URL (for the lines `npm start` prints). */
  readonly baseUrl: string;
}

/** A capability's local module, as the local stack runs it. */
export type LocalModule<Handle> = CapabilityLocal<LocalContext, Partial<ProvidedPorts>, Handle>;

/** A local module's default export, with its handle's type kept for `stack.local(module)`. */
export const defineCapabilityLocal = <Handle>(module: LocalModule<Handle>): LocalModule<Handle> => module;

export interface LoadedLocalModule {
  readonly capability: string;
  readonly after?: readonly string[];
  readonly module: LocalModule<unknown>;
}

/** Every capability's local module, in the order the stack starts them (it stops them in reverse). */
export async function loadCapabilityLocals(): Promise<LoadedLocalModule[]> {
  const loaded = await Promise.all(
    capabilityList.flatMap((capability) => {
      const path = capability.infrastructure?.local;
      if (!path) return [];
      // Spelt out to its folder and extension: a bundle of the stack (the HTTP tests' stack
      // process, test/support/stack-bundle.ts) takes in the files the pattern matches.
      const name = path.slice('local/'.length, -'.ts'.length);
      return [
        (
          import(/* @vite-ignore */ `../shared/${capability.name}/local/${name}.ts`) as Promise<{
            default: LocalModule<unknown>;
          }>
        ).then(({ default: module }) => ({
          capability: capability.name,
          module,
          ...(module.after ? { after: module.after } : {}),
        })),
      ];
    }),
  );
  return buildOrder(loaded);
}
