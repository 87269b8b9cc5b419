// npm run admin:create -- --email you@example.com --password '...' [--name 'Your Name']
// Creates an admin account (or promotes an existing one) until the setup wizard does it.
import { parseArgs } from 'node:util';
import { migrateToLatest } from '../db/index.ts';
import { createUser } from '../src/server/auth/service.ts';
import { emailField, nameField, passwordField } from '../src/server/auth/schemas.ts';
import { commandLine } from '../src/server/config/command-line.ts';
import { loadConfig } from '../src/server/config/env.ts';
import { createContext } from '../src/server/context.ts';
import { findUserByEmail, updateUser } from '../src/server/users/queries.ts';

const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string', default: 'Admin' } } });
const email = emailField.safeParse(values.email);
const password = passwordField.safeParse(values.password);
const name = nameField.safeParse(values.name);
if (!email.success || !password.success || !name.success) {
  console.error(`Usage: ${commandLine('admin:create')} --email <email> --password <at least 8 characters> [--name <name>]`);
  process.exit(2);
}
const ctx = await createContext(await loadConfig(), {});
await migrateToLatest(ctx.db);
const existing = await findUserByEmail(ctx, email.data);
if (existing) {
  await updateUser(ctx, existing.id, { role: 'admin' });
  console.log(`${email.data} is now an admin.`);
} else {
  await createUser(ctx, { email: email.data, password: password.data, name: name.data, role: 'admin', verified: true });
  console.log(`Admin ${email.data} created.`);
}
await ctx.db.destroy();
