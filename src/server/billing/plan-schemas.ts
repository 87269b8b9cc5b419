import { z } from 'zod';
import { isCurrency } from './geo.ts';

/** 1 PiB: beyond any disk, and still an exact integer in JSON and JavaScript. */
const MAX_STORAGE_BYTES = 2 ** 50;
/** 10 billion in minor units: far beyond any price, and exact. */
const MAX_MINOR = 10 ** 12;
const MAX_MICROS = 10 ** 12;

const name = z
  .string({ error: 'The name is required.' })
  .trim()
  .min(1, 'The name is required.')
  .max(80, 'The name may not be greater than 80 characters.');
const description = z.string({ error: 'The description must be text.' }).trim().max(1000, 'The description may not be greater than 1000 characters.');
const currency = z
  .string({ error: 'The currency must be an ISO 4217 code, such as USD.' })
  .trim()
  .toUpperCase()
  .refine(isCurrency, 'The currency must be an ISO 4217 code, such as USD.');
const positive = (field: string, max: number) =>
  z
    .number({ error: `The ${field} must be a number.` })
    .int(`The ${field} must be a whole number.`)
    .min(1, `The ${field} must be greater than 0.`)
    .max(max, `The ${field} may not be greater than ${max}.`);
const nonNegative = (field: string, max: number) =>
  z
    .number({ error: `The ${field} must be a number.` })
    .int(`The ${field} must be a whole number.`)
    .min(0, `The ${field} may not be negative.`)
    .max(max, `The ${field} may not be greater than ${max}.`);
const status = z.enum(['active', 'archived'], { error: 'The status must be active or archived.' });

/** A fixed plan (SPEC §1): a price per interval (SPEC §9: month, year), storage and a team-member limit. */
const FIXED = {
  name,
  description,
  currency,
  interval: z.enum(['month', 'year'], { error: 'The interval must be month or year.' }),
  /** The price per interval in the currency's minor unit (cents). */
  amount_minor: positive('price', MAX_MINOR),
  storage_bytes: positive('storage capacity', MAX_STORAGE_BYTES),
  max_team_members: positive('team member limit', 100_000),
};

/** A metered plan: unit prices in millionths of the major unit, and a flat monthly fee in minor units. */
const METERED = {
  name,
  description,
  currency,
  storage_gb_day_micros: nonNegative('storage price per GB-day', MAX_MICROS),
  bandwidth_gb_micros: nonNegative('bandwidth price per GB', MAX_MICROS),
  member_day_micros: nonNegative('team member price per day', MAX_MICROS),
  flat_fee_minor: nonNegative('flat fee', MAX_MINOR),
};

/** A field of the other plan type (or a made-up one) is named, not silently dropped. */
const strict = <T extends z.ZodRawShape>(shape: T, type: 'fixed' | 'metered') =>
  z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `${issue.keys.join(', ')} ${issue.keys.length > 1 ? 'are not fields' : 'is not a field'} of a ${type} plan.` : undefined),
  });

export const CreateFixedPlan = strict({ ...FIXED, description: description.default('') }, 'fixed');
export const CreateMeteredPlan = strict({ ...METERED, description: description.default(''), flat_fee_minor: METERED.flat_fee_minor.default(0) }, 'metered');

const atLeastOne = (v: Record<string, unknown>) => Object.values(v).some((value) => value !== undefined);
const SEND_ONE = { message: 'Send at least one field to change.', path: ['_'] };

export const UpdateFixedPlan = strict({ ...FIXED, status }, 'fixed').partial().refine(atLeastOne, SEND_ONE);
export const UpdateMeteredPlan = strict({ ...METERED, status }, 'metered').partial().refine(atLeastOne, SEND_ONE);

export const PlanType = z.enum(['fixed', 'metered'], { error: 'The plan type must be fixed or metered.' });
