import { describe, expect, it } from 'vitest';
import { chooseNodeRelease, TargetUnavailable } from '../../scripts/package/target.ts';

describe('the Node release of another processor’s executable (npm run package)', () => {
  it('is this Node’s own version when the registry has it for the target', () => {
    expect(chooseNodeRelease('24.22.3', { target: ['24.22.1', '24.22.3'], here: ['24.22.3'] })).toEqual({ version: '24.22.3', blobMaker: null });
  });

  it('is the newest release of the same major line published for both processors when it has not, and that release makes the blob', () => {
    const published = { target: ['22.20.0', '24.21.0', '24.22.0', '24.22.1', '25.0.0', '24.23.0-rc.1'], here: ['24.21.0', '24.22.1', '24.22.3', '25.0.0'] };
    expect(chooseNodeRelease('24.22.3', published)).toEqual({ version: '24.22.1', blobMaker: '24.22.1' });
  });

  it('is none when the major line is not there for both: the target is skipped, with the reason', () => {
    expect(() => chooseNodeRelease('24.22.3', { target: ['22.20.0', '25.0.0'], here: ['24.22.3'] })).toThrow(TargetUnavailable);
    expect(() => chooseNodeRelease('24.22.3', { target: [], here: [] })).toThrow('the npm registry has no Node 24.x release for both processors (this Node is 24.22.3)');
  });
});
