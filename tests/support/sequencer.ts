import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The integration files that take longest (30-90 s each on the CI machine, measured by npm test's
 * slowest-files list), started first: with three files at a time, one of them started last would
 * run on alone while the other workers sit idle. vitest orders by the durations it cached on an
 * earlier run, and by file size on a fresh clone, where these would start anywhere.
 */
const SLOWEST = ['authorization-table', 'webdav-rclone-tree', 'files-bulk', 'uploads-crash', 'jobs-nodes', 'tus-s3-crash', 'abuse', 'tus-s3-staging', 'chunks-s3-staging', 'uploads-tus-lifecycle'];

const rank = (spec: TestSpecification) => {
  const index = SLOWEST.indexOf(path.basename(spec.moduleId, '.test.ts'));
  return index === -1 ? SLOWEST.length : index;
};

export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: everything else keeps vitest's order.
    return sorted.sort((a, b) => (a.project.name === b.project.name ? rank(a) - rank(b) : 0));
  }
}
