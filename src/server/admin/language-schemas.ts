import { z } from 'zod';
import { UNSAFE_PERSON_NAME } from '../files/names.ts';
import { canonicalCode } from '../i18n/languages.ts';

/** Input shapes of /api/admin/languages. */

const name = z
  .string({ error: 'The name must be text.' })
  .trim()
  .min(1, 'The name field is required.')
  .max(60, 'The name may not be greater than 60 characters.')
  .refine((v) => !UNSAFE_PERSON_NAME.test(v), 'The name may not contain control or text-direction characters.');

const rtl = z.boolean({ error: 'rtl must be true or false.' });

export const CreateLanguageInput = z.object({
  code: z
    .string({ error: 'The code must be text.' })
    .trim()
    .min(1, 'The code field is required.')
    .transform((raw, c) => {
      const code = canonicalCode(raw);
      if (!code) c.addIssue({ code: 'custom', message: `“${raw.slice(0, 40)}” is not a BCP 47 language tag (like fr, pt-BR or sr-Latn).` });
      return code ?? raw;
    }),
  name,
  rtl: rtl.optional().default(false),
});

export const UpdateLanguageInput = z
  .strictObject(
    {
      name: name.optional(),
      rtl: rtl.optional(),
      /** Makes this language the instance default (the `locale` setting); only `true` means anything. */
      default: z.literal(true, { error: 'default can only be set to true: make another language the default instead.' }).optional(),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? 'Only name, rtl and default can be changed.' : undefined) },
  )
  .refine((v) => v.name !== undefined || v.rtl !== undefined || v.default !== undefined, 'Nothing to update.');

/** The longest string we keep for one key: far above any of ours, small enough for a quick page. */
export const MAX_TRANSLATION_LENGTH = 5000;
/** Keys one request may change: the audit entry lists each. */
export const MAX_STRINGS_PER_UPDATE = 100;

export const PutStringsInput = z.object({
  /** Key → its new text, or null to go back to the built-in one. */
  strings: z
    .record(
      z.string(),
      z.union([
        z
          .string({ error: 'A translation must be text or null.' })
          .min(1, 'A translation may not be empty: send null to go back to the built-in text.')
          .max(MAX_TRANSLATION_LENGTH, `A translation may not be greater than ${MAX_TRANSLATION_LENGTH} characters.`),
        z.null(),
      ], { error: 'A translation must be text or null.' }),
      { error: 'strings must be an object of keys and texts.' },
    )
    .refine((v) => Object.keys(v).length >= 1, 'Send at least one string.')
    .refine((v) => Object.keys(v).length <= MAX_STRINGS_PER_UPDATE, `At most ${MAX_STRINGS_PER_UPDATE} strings at once.`),
});

export const STRING_FILTERS = ['all', 'changed', 'untranslated'] as const;
export const StringsQuery = z.object({
  search: z.string().max(200, 'The search may not be greater than 200 characters.').default(''),
  filter: z.enum(STRING_FILTERS, { error: 'The filter must be all, changed or untranslated.' }).default('all'),
});
