import { z } from 'zod';
import { nameField } from '../files/schemas.ts';
import { EMAIL_ADDRESS } from '../sharing/schemas.ts';

export const DEFAULT_EXPIRATION_HOURS = 72;

export const CreateUploadRequestInput = z.object({
  folder_id: z.union([z.string().trim().max(100, 'The folder id is not valid.'), z.null()]).optional().transform((v) => (v ? v : null)),
  name: z.union([nameField, z.null(), z.literal('')]).optional().transform((v) => (v ? v : null)),
  notes: z.union([z.string({ error: 'The notes must be text.' }).trim().max(2000, 'The notes may not be longer than 2000 characters.'), z.null()]).optional().transform((v) => (v ? v : null)),
  email: z
    .union([z.string({ error: 'The email must be text.' }).trim().toLowerCase().max(254, 'The email is too long.').regex(EMAIL_ADDRESS, 'The email is not valid.'), z.literal(''), z.null()])
    .optional()
    .transform((v) => (v ? v : null)),
  expiration: z.coerce.number({ error: 'The expiration must be a number of hours.' }).int('The expiration must be whole hours.').min(1, 'The expiration must be at least 1 hour.').max(24 * 30, 'The expiration may not be longer than 30 days.').default(DEFAULT_EXPIRATION_HOURS),
});
