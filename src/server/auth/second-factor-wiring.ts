import { passkeyFactors } from './passkeys.ts';
import { addSecondFactorSource } from './second-step.ts';

let wired = false;

/**
 * Registers each kind of second factor with second-step.ts, once. Called from src/middleware.ts:
 * the sign-in endpoints run inside the built Astro bundle, which holds its own copy of
 * second-step.ts's registry, so a registration from src/main.ts's imports would never reach them.
 */
export function wireSecondFactors(): void {
  if (wired) return;
  wired = true;
  addSecondFactorSource(passkeyFactors);
}
