import { type AppError, validationError } from '../http/errors.ts';

// Validation of amounts and currencies; formatting and parsing are the one money module's (components/billing/money.ts).

/** ISO 4217 codes the runtime knows (Intl, a maintained source: issue 15 §8). */
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** An amount in minor units: a positive whole number (money is never a float). */
export function assertAmount(value: unknown, field = 'amount_minor'): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw validationError({ [field]: ['The amount must be a positive whole number of minor units (cents).'] });
  }
  return value;
}

export function assertCurrency(value: unknown, field = 'currency'): string {
  if (typeof value !== 'string' || !/^[A-Z]{3}$/.test(value) || !CURRENCIES.has(value)) {
    throw validationError({ [field]: ['The currency must be an ISO 4217 code such as EUR or USD.'] });
  }
  return value;
}

export function currencyMismatch(account: string, given: string): AppError {
  return validationError({ currency: [`This account is billed in ${account}; the amount is in ${given}.`] }, `This account is billed in ${account}; the amount is in ${given}.`);
}
