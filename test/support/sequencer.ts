import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order in which the suite's files start, across projects (vitest.config.ts). vitest's own
 * order runs the projects one after another (by name: http, http-own-stacks, infra, unit) and,
 * on a fresh clone, the larger files of each first: a file that runs for a minute could start
 * near the end and leave the other core idle while it finished. Here:
 *
 * 1. the files that run longest (`longFiles`, in the order given) start first, whatever their project;
 * 2. then the infra files, one after another: a worker that runs an infra file goes on with the
 *    next only while the next in the queue is one too, and then keeps the apps it synthesized
 *    (test/infra/synth.ts); spread among other files, each would synthesize them again;
 * 3. then the rest in vitest's order (the files that failed last time first, then the longest
 *    last time, or the largest).
 */
export function longFilesFirst(longFiles: readonly string[], groupedProject: string) {
  return class LongFilesFirst extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      const rank = (spec: TestSpecification) =>
        longFiles.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      const long = sorted.filter((spec) => rank(spec) !== -1).sort((a, b) => rank(a) - rank(b));
      const rest = sorted.filter((spec) => rank(spec) === -1);
      return [
        ...long,
        ...rest.filter((spec) => spec.project.name === groupedProject),
        ...rest.filter((spec) => spec.project.name !== groupedProject),
      ];
    }
  };
}
