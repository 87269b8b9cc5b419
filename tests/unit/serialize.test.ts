import { describe, expect, it } from 'vitest';
import { jsonForScript } from '../../src/server/http/serialize.ts';

describe('jsonForScript', () => {
  it('cannot be closed from inside a value and still parses back to the same data', () => {
    const hostile = { name: '</script><script>alert(1)</script>', other: '<!-- & \u2028 \u2029 -->' };
    const out = jsonForScript(hostile);
    expect(out).not.toMatch(/<|>/);
    expect(out).not.toContain('\u2028');
    expect(JSON.parse(out)).toEqual(hostile);
  });
});
