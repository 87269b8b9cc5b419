import type { AppContext } from '../../context.ts';
import { validate } from '../../http/validate.ts';
import { failChallenge, openChallenge, passChallenge, type SignedIn } from '../second-step.ts';
import { redeemRecoveryCode } from './recovery-codes.ts';
import { SecondStepInput } from './schemas.ts';
import { checkTotp } from './totp.ts';

/**
 * The second step with a code from the app or a recovery code. The input is checked before the
 * challenge is opened, so a malformed code costs no try; every well-formed one does.
 */
export async function answerWithCode(ctx: AppContext, token: string | undefined, body: unknown): Promise<SignedIn> {
  const input = validate(SecondStepInput, body);
  const { challenge, user } = await openChallenge(ctx, token);
  if (input.code !== undefined) {
    if (!(await checkTotp(ctx, user, input.code))) await failChallenge(ctx, challenge, 'code', 'That code is not right, or was used already. Wait for the next one.');
  } else if (!(await redeemRecoveryCode(ctx, user.id, input.recovery_code ?? ''))) {
    await failChallenge(ctx, challenge, 'recovery_code', 'That recovery code is not right, or was used already.');
  }
  return passChallenge(ctx, challenge, user);
}
