import { z } from 'zod';
import type { Settings } from '../settings/service.ts';

/** SPEC §4/§9: how the instance charges for storage. Chosen in the setup wizard and in admin settings. */
export const SUBSCRIPTION_TYPES = ['none', 'fixed', 'metered'] as const;
export type SubscriptionType = (typeof SUBSCRIPTION_TYPES)[number];

export const subscriptionTypeField = z.enum(SUBSCRIPTION_TYPES, { error: 'The subscription type must be none, fixed or metered.' });

/** True when fixed plans give users their storage and team-member limits. */
export function plansSetLimits(settings: Pick<Settings, 'subscription_type'>): boolean {
  return settings.subscription_type === 'fixed';
}
