import { api } from '../../../stores/api.ts';

/** The two-factor settings API (src/pages/api/user/two-factor), typed for the card. */
export interface TwoFactorStatus {
  enabled: boolean;
  enabled_at: string | null;
  pending: boolean;
  recovery_codes_left: number;
  recovery_codes_low: boolean;
  disable_with: 'password' | 'code';
}
export interface Setup {
  key: string;
  uri: string;
}
export type Proof = { password: string } | { code: string };

export const getStatus = () => api.get<{ data: { attributes: TwoFactorStatus } }>('/api/user/two-factor').then((r) => r.data.attributes);
export const startSetup = () => api.post<{ data: Setup }>('/api/user/two-factor/setup', {}).then((r) => r.data);
export const confirmSetup = (code: string) => api.post<{ data: { recovery_codes: string[] } }>('/api/user/two-factor/confirm', { code }).then((r) => r.data.recovery_codes);
export const newRecoveryCodes = (proof: Proof) => api.post<{ data: { recovery_codes: string[] } }>('/api/user/two-factor/recovery-codes', proof).then((r) => r.data.recovery_codes);
export const turnOff = (proof: Proof | Record<string, never>) => api.delete<void>('/api/user/two-factor', proof);

/** The key as authenticator apps show it: groups of four. */
export const groupKey = (key: string) => key.match(/.{1,4}/g)?.join(' ') ?? key;
