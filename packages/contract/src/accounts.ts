import { z } from 'zod';
import { Timestamp } from './common.js';

import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, ROLES } from './constants.js';

export const RoleSchema = z.enum(ROLES);

export const UserName = z
  .string()
  .trim()
  .min(1, 'give a name')
  .max(64, 'at most 64 characters')
  .regex(/^[\p{L}\p{N}._@-]+$/u, 'letters, digits and . _ @ - only (no spaces)');

export const Password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `at most ${PASSWORD_MAX_LENGTH} characters`);

/** Who is calling: a signed-in user, or a device token. */
export const Identity = z.object({
  kind: z.enum(['user', 'token']),
  id: z.number().int(),
  name: z.string(),
  role: RoleSchema,
});
export type Identity = z.infer<typeof Identity>;

export const SessionInfo = z.object({
  /** Null when nobody is signed in. */
  identity: Identity.nullable(),
  /** No account exists yet: the first admin is made through the setup link or `wcs user add`. */
  setup_required: z.boolean(),
  /** The demo's data folder: its login page says to sign in as demo / demo. */
  demo: z.boolean(),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

export const LoginRequest = z.object({
  name: z.string().trim().min(1, 'give your name').max(64),
  // Any length is checked against the stored hash; the limits apply when a password is set.
  password: z.string().min(1, 'give your password').max(PASSWORD_MAX_LENGTH),
});

export const SetupRequest = z.object({
  token: z.string().min(1).max(200),
  name: UserName,
  password: Password,
});

export const User = z.object({
  id: z.number().int(),
  name: z.string(),
  role: RoleSchema,
  created_at: Timestamp,
  password_changed_at: Timestamp,
  /** Browsers signed in now. */
  active_sessions: z.number().int(),
});
export type User = z.infer<typeof User>;

export const UserCreate = z.object({ name: UserName, role: RoleSchema, password: Password });
export const UserUpdate = z
  .object({ role: RoleSchema.optional(), password: Password.optional() })
  .refine(
    (value) => value.role !== undefined || value.password !== undefined,
    'change the role or the password',
  );

export const PasswordChange = z.object({
  current_password: z.string().min(1, 'give your current password').max(PASSWORD_MAX_LENGTH),
  new_password: Password,
});

export const ApiToken = z.object({
  id: z.number().int(),
  name: z.string(),
  role: RoleSchema,
  created_at: Timestamp,
  created_by: z.string().nullable(),
  expires_at: Timestamp.nullable(),
  revoked_at: Timestamp.nullable(),
  last_used_at: Timestamp.nullable(),
});
export type ApiToken = z.infer<typeof ApiToken>;

export const TokenCreate = z.object({
  name: z.string().trim().min(1, 'name the device or script').max(64),
  role: RoleSchema,
  /** Days until the token stops working; absent: it works until revoked. */
  expires_in_days: z.number().int().min(1).max(3650).optional(),
});

export const TokenCreated = z.object({
  /** Shown once: only its hash is stored. */
  token: z.string(),
  info: ApiToken,
});

export const AuditEntry = z.object({
  id: z.number().int(),
  at: Timestamp,
  actor_kind: z.enum(['user', 'token', 'anonymous']),
  actor_name: z.string(),
  action: z.string(),
  kind: z.string(),
  target_id: z.string().nullable(),
  summary: z.string(),
  method: z.string().nullable(),
  path: z.string().nullable(),
  status: z.number().int().nullable(),
  address: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** Who made a recording, playlist or download entry. */
export const CreatedBy = z
  .object({ kind: z.enum(['user', 'token']), id: z.number().int(), name: z.string() })
  .nullable();
export type CreatedBy = z.infer<typeof CreatedBy>;
