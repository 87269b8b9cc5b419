import { z } from 'zod';
import { CreateFolderInput } from '../files/schemas.ts';

/** Input shapes of the team endpoints; each refuses what it does not expect with a 422. */

export const permissionField = z.enum(['can_edit', 'can_view'], { error: 'The permission must be can_edit or can_view.' });

/** SPEC §5 email check: an address with no spaces; stored trimmed and in lower case. */
export const emailField = z
  .string({ error: 'The email must be text.' })
  .trim()
  .min(1, 'The email is required.')
  .max(254, 'The email may not be greater than 254 characters.')
  .regex(/^[^\s@]+@[^\s@]+$/, 'The email must be a valid email address.')
  .transform((v) => v.toLowerCase());

export const InvitationInput = z.object({ email: emailField, permission: permissionField });

const invitationList = z
  .array(InvitationInput, { error: 'The invitations must be a list.' })
  .max(20, 'At most 20 invitations at once.')
  .optional()
  .default([]);

export const CreateTeamInput = CreateFolderInput.extend({ invitations: invitationList });

export const ConvertTeamInput = z.object({ invitations: invitationList });

export const PermissionInput = z.object({ permission: permissionField });

/** Ids in paths: a uuid for items and users, a base32 token for invitations. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const INVITATION_ID = /^[a-z2-7]{32,64}$/;
