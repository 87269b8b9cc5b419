import { describe, expect, it } from 'vitest';
import { AppError, errorBody, validationError } from '../../src/server/http/errors.ts';
import { parseErrorBody } from '../../src/stores/api.ts';

describe('errorBody (server) and parseErrorBody (client)', () => {
  it('builds { message, code?, errors?, ...details } and the client reads message, code and errors back', () => {
    const quota = new AppError(423, 'There is not enough storage space left for this file.', { code: 'storage_limit_exceeded' });
    expect(errorBody(quota)).toEqual({ message: quota.message, code: 'storage_limit_exceeded' });
    expect(parseErrorBody(JSON.stringify(errorBody(quota)))).toEqual({ message: quota.message, code: 'storage_limit_exceeded' });

    const invalid = validationError({ name: ['The name is required.'] });
    expect(errorBody(invalid)).toEqual({ message: 'The name is required.', errors: { name: ['The name is required.'] } });
    expect(parseErrorBody(errorBody(invalid))).toEqual({ message: 'The name is required.', errors: { name: ['The name is required.'] } });

    // Details never overwrite the message or the code.
    const conflict = new AppError(409, 'The upload is complete.', { code: 'upload_complete', details: { offset: 3, message: 'x', code: 'y' } });
    expect(errorBody(conflict)).toEqual({ message: 'The upload is complete.', code: 'upload_complete', offset: 3 });
  });

  it('reads nothing usable from text that is not a JSON error body', () => {
    expect(parseErrorBody('<html>502 Bad Gateway</html>')).toEqual({});
    expect(parseErrorBody(undefined)).toEqual({});
    expect(parseErrorBody({ message: 5, code: ['x'] })).toEqual({});
  });
});
