import type { z } from 'zod';
import { validationError } from './errors.ts';

/** Parses input with a zod schema, or throws a 422 naming every bad field. */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length ? issue.path.join('.') : '_';
    (errors[field] ??= []).push(issue.message);
  }
  throw validationError(errors);
}
