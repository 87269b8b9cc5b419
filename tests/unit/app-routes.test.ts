import { describe, expect, it } from 'vitest';
import { isAppPath } from '../../src/islands/app/routes.ts';
import { SETTINGS_TABS } from '../../src/islands/admin/settings/tabs.ts';

describe('isAppPath', () => {
  it('knows the admin settings screen with no tab and with each of its tabs', () => {
    expect(isAppPath('/admin/settings')).toBe(true);
    expect(isAppPath('/admin/settings/')).toBe(true);
    for (const tab of SETTINGS_TABS) expect(isAppPath(`/admin/settings/${tab}`), tab).toBe(true);
  });

  it('does not know a settings tab that does not exist, so the server answers 404', () => {
    for (const path of ['/admin/settings/nope', '/admin/settings/Appearance', '/admin/settings/appearance/x', '/admin/settings/%61ppearance']) {
      expect(isAppPath(path), path).toBe(false);
    }
  });

  it('still lets any segment through where a route takes any (a folder id)', () => {
    expect(isAppPath('/platform/files/0b7c3f0e-1b2a-4c3d-9e8f-001122334455')).toBe(true);
    expect(isAppPath('/platform/files')).toBe(true);
    expect(isAppPath('/platform/nothing')).toBe(false);
  });

  it('knows the team folder places, with and without a folder', () => {
    for (const place of ['team-folders', 'shared-with-me']) {
      expect(isAppPath(`/platform/${place}`)).toBe(true);
      expect(isAppPath(`/platform/${place}/0b7c3f0e-1b2a-4c3d-9e8f-001122334455`)).toBe(true);
      expect(isAppPath(`/platform/${place}/a/b`)).toBe(false);
    }
  });
});
