import type { Page, Route } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, shot, signUpAndOpen, test } from './fixtures.ts';

/**
 * The team screens' states, each drawn from a fixed answer of /api/teams/* (the server's own flow
 * is in teams.spec.ts): what an owner and a member with each permission are offered, the dialogs,
 * the empty places, and the invitation page, in light, dark and at phone width.
 */

const NOW = '2026-11-20T10:00:00.000Z';
const TEAM_FOLDER = '11111111-1111-4111-8111-111111111111';

function item(id: string, name: string, type: 'folder' | 'file', parent: string | null) {
  return {
    id,
    type,
    attributes: {
      name,
      color: null,
      emoji: null,
      items: type === 'folder' ? 2 : null,
      parent_id: parent,
      deleted_at: null,
      mimetype: type === 'file' ? 'text/plain' : null,
      file_url: type === 'file' ? `/file/${id}` : null,
      thumbnail: null,
      size: type === 'file' ? 2048 : 0,
      created_at: NOW,
      updated_at: NOW,
    },
    relationships: { shared: null },
  };
}

const root = item(TEAM_FOLDER, 'Design team', 'folder', null);
const contents = [item('22222222-2222-4222-8222-222222222222', 'Sketches', 'folder', TEAM_FOLDER), item('33333333-3333-4333-8333-333333333333', 'brief.txt', 'file', TEAM_FOLDER)];
const members = [
  { id: 'm1', name: 'Marie Curie', email: 'marie@example.test', avatar: null, color: '#0f766e', permission: 'can_edit' },
  { id: 'm2', name: 'Alan Turing', email: 'alan@example.test', avatar: null, color: '#7c3aed', permission: 'can_view' },
];
const invitations = [{ id: 'inv1', email: 'new.person@example.test', permission: 'can_view', status: 'pending', expires_at: '2026-12-04T10:00:00.000Z' }];
const owner = { id: 'o1', name: 'Grace Hopper', email: 'grace@example.test', avatar: null, color: '#b45309' };

/** What the server says each principal may do (files/abilities.ts): the owner everything, a can_edit member all but sharing, a can_view member only downloads. */
function abilitiesOf(as: string, target: { type: string }, isRoot = false) {
  const owner = as === 'owner';
  const edit = owner || as === 'can_edit';
  const change = owner || (edit && !isRoot);
  const into = edit && target.type === 'folder';
  return { rename: change, move: change, share: owner, delete: change, download: true, upload: into, create_folder: into, restore: false };
}
const withAbilities = <T extends { type: string }>(as: string, entry: T, isRoot = false) => ({ ...entry, meta: { abilities: abilitiesOf(as, entry, isRoot) } });

const json = (route: Route, body: unknown, status = 200) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });

/** Answers the team calls as a server with one team folder would, for its owner or a member. */
async function mockTeams(page: Page, as: 'owner' | 'can_edit' | 'can_view' | 'none'): Promise<string[]> {
  const calls: string[] = [];
  await page.route('**/api/teams/**', (route) => {
    const url = new URL(route.request().url());
    const body = route.request().postDataJSON() as { _method?: string } | null;
    const method = body?._method?.toUpperCase() ?? route.request().method();
    calls.push(`${method} ${url.pathname}`);
    if (method === 'POST' && url.pathname.endsWith('/invitations')) return json(route, { message: 'You have reached the limit of 10 team members.', code: 'max_team_members_reached' }, 403);
    if (method === 'PUT' && url.pathname.startsWith('/api/teams/invitations/')) return json(route, { data: { folder_id: TEAM_FOLDER, team_id: 't1', permission: 'can_edit' } });
    if (method === 'POST' && url.pathname.endsWith('/convert')) return json(route, { data: root, meta: { team: { id: 't1', folder_id: TEAM_FOLDER, members: [], invitations: [] } } }, 201);
    if (method !== 'GET') return route.fulfill({ status: 204 });
    if (url.pathname === '/api/teams/folders') return json(route, { data: as === 'none' ? [] : [withAbilities('owner', root)], meta: { teams: { [TEAM_FOLDER]: { id: 't1', folder_id: TEAM_FOLDER, members, invitations } }, next_cursor: null } });
    if (url.pathname === '/api/teams/shared-with-me') return json(route, { data: as === 'none' || as === 'owner' ? [] : [withAbilities(as, root, true)], meta: { teams: { [TEAM_FOLDER]: { id: 't1', owner, permission: as } }, next_cursor: null } });
    if (url.pathname.endsWith('/tree')) return json(route, { data: [{ id: TEAM_FOLDER, name: 'Design team', color: null, emoji: null, parent_id: null, folders: [] }] });
    const data = contents.map((c) => withAbilities(as, c));
    const here = { root: withAbilities(as, root, true), abilities: abilitiesOf(as, root, true), next_cursor: null };
    if (url.pathname.startsWith('/api/teams/folders/')) return json(route, { data, meta: { ...here, team: { id: 't1', folder_id: TEAM_FOLDER, members, invitations } } });
    return json(route, { data, meta: { ...here, team: { id: 't1', folder_id: TEAM_FOLDER, owner, permission: as } } });
  });
  return calls;
}

test('an owner: the empty team folders place, the create dialog, a team folder with its members dialog', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await mockTeams(page, 'none');
  await signUpAndOpen(page, '/platform/team-folders');
  const sidebar = page.getByRole('complementary', { name: 'Main navigation' });
  await expect(sidebar.getByRole('link', { name: 'Team folders' })).toHaveAttribute('aria-current', 'page');
  await expect(sidebar.getByRole('link', { name: 'Shared with me' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No team folders yet' })).toBeVisible();
  await shot(page, 'teams-empty-light-desktop');
  await expectNoSeriousA11yViolations(page, 'teams-empty-light-desktop');

  await page.getByRole('button', { name: 'Create team folder' }).first().click();
  const create = page.getByRole('dialog', { name: 'Create a team folder' });
  await create.getByRole('textbox', { name: 'Member’s email' }).fill('not an email');
  await create.getByRole('button', { name: 'Invite' }).click();
  await expect(create.getByRole('alert')).toContainText('without spaces');
  await create.getByRole('textbox', { name: 'Member’s email' }).fill('marie@example.test');
  await create.getByRole('button', { name: 'Invite' }).click();
  await expect(create.getByRole('list', { name: 'People to invite' })).toContainText('marie@example.test');
  await shot(page, 'teams-create-light-desktop');
  await expectNoSeriousA11yViolations(page, 'teams-create-light-desktop');
  await page.keyboard.press('Escape');

  await page.unrouteAll();
  await mockTeams(page, 'owner');
  await page.reload();
  await expect(page.getByTestId('items')).toContainText('3 members');
  await page.goto(`/platform/team-folders/${TEAM_FOLDER}`);
  await expect(page.getByRole('heading', { name: 'Design team' })).toBeVisible();
  await expect(page.getByTestId('team-bar')).toContainText('3 members');
  await expect(page.getByRole('button', { name: 'Upload' })).toBeVisible();
  await page.getByRole('button', { name: 'Members' }).click();
  const dialog = page.getByRole('dialog', { name: 'Members of Design team' });
  await expect(dialog.getByTestId('team-member')).toHaveCount(3);
  await expect(dialog.getByRole('combobox', { name: 'Permission of Alan Turing' })).toHaveValue('can_view');
  await expect(dialog.getByTestId('team-invitations')).toContainText('new.person@example.test');
  // Past the member limit the server refuses, and says why under the field.
  await dialog.getByRole('textbox', { name: 'Member’s email' }).fill('one.more@example.test');
  await dialog.getByRole('textbox', { name: 'Member’s email' }).press('Enter');
  await expect(dialog.getByRole('alert')).toHaveText('You have reached the limit of 10 team members.');
  await shot(page, 'teams-members-light-desktop');
  await expectNoSeriousA11yViolations(page, 'teams-members-light-desktop');
  // The theme is applied as the page loads.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await page.getByRole('button', { name: 'Members' }).click();
  await expect(dialog.getByTestId('team-member')).toHaveCount(3);
  await shot(page, 'teams-members-dark-desktop');
  await expectNoSeriousA11yViolations(page, 'teams-members-dark-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'teams-members-dark-phone');

  // Dissolving asks first, with the spec's confirmation.
  await dialog.getByRole('button', { name: 'Dissolve team' }).click();
  const confirm = page.getByRole('dialog', { name: 'Dissolve the team of “Design team”?' });
  await expect(confirm).toContainText('Members lose access at once');
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('navigation', { name: 'Places' }).getByRole('link', { name: 'Team folders' })).toHaveAttribute('aria-current', 'page');
  await shot(page, 'teams-folder-dark-phone');
  await expectNoSeriousA11yViolations(page, 'teams-folder-dark-phone');
});

test('a can_view member browses without any write, a can_edit member may write, and leaving asks first', async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await mockTeams(page, 'can_view');
  await signUpAndOpen(page, '/platform/shared-with-me');
  await expect(page.getByRole('option', { name: 'Design team', exact: true })).toBeVisible();
  // Whose the folder is, and what I may do in it, beside its name.
  await expect(page.getByTestId('items')).toContainText('Owned by Grace Hopper · Can view');
  await shot(page, 'shared-list-light-desktop');
  await page.getByRole('option', { name: 'Design team', exact: true }).dblclick();
  await expect(page).toHaveURL(new RegExp(`/platform/shared-with-me/${TEAM_FOLDER}$`));
  await expect(page.getByTestId('my-permission')).toHaveText('Can view');
  await expect(page.getByTestId('team-bar')).toContainText('Owned by Grace Hopper');
  await expect(page.getByRole('button', { name: 'Upload' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New folder' })).toHaveCount(0);
  await page.getByRole('option', { name: 'brief.txt', exact: true }).click({ button: 'right' });
  const menu = page.getByTestId('item-menu');
  await expect(menu.getByRole('menuitem', { name: 'Download' })).toBeVisible();
  for (const write of ['Rename', 'Move', 'Move to trash', 'Share']) await expect(menu.getByRole('menuitem', { name: write })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await shot(page, 'shared-view-light-desktop');
  await expectNoSeriousA11yViolations(page, 'shared-view-light-desktop');

  await page.getByRole('button', { name: 'Leave team' }).click();
  await expect(page.getByRole('dialog', { name: 'Leave “Design team”?' })).toContainText('You lose access to this folder');
  await page.keyboard.press('Escape');

  await page.unrouteAll();
  await mockTeams(page, 'can_edit');
  await page.reload();
  await expect(page.getByTestId('my-permission')).toHaveText('Can edit');
  await expect(page.getByRole('button', { name: 'Upload' })).toBeVisible();
  await page.getByRole('option', { name: 'brief.txt', exact: true }).click({ button: 'right' });
  for (const write of [/^Rename/, /^Move$/, /^Move to trash/]) await expect(menu.getByRole('menuitem', { name: write })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Share' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId('my-permission')).toHaveText('Can edit');
  await expect(page.getByRole('navigation', { name: 'Places' }).getByRole('link', { name: 'Shared with me' })).toBeInViewport();
  await shot(page, 'shared-edit-dark-phone');
  await expectNoSeriousA11yViolations(page, 'shared-edit-dark-phone');
});

test('the invitation page: signed out it offers sign-in and sign-up with the address, signed in as someone else it says so', async ({ page, browser }) => {
  const info = { id: 'inv-1', email: 'invited@example.test', permission: 'can_edit', status: 'pending', expires_at: null, folder: { name: 'Design team' }, inviter: { name: 'Grace Hopper', avatar: null, color: '#b45309' }, has_account: false };
  const visitor = await browser.newContext();
  const guest = await visitor.newPage();
  await guest.route('**/api/teams/invitations/inv-1', (route) => json(route, { data: info }));
  await guest.setViewportSize({ width: 1280, height: 800 });
  await guest.goto(`${process.env.E2E_BASE_URL}/team-folder-invitation/inv-1`);
  await expect(guest.getByRole('heading', { name: 'Join the team folder “Design team”' })).toBeVisible();
  await expect(guest.getByText('Grace Hopper invites you')).toBeVisible();
  const signUp = guest.getByRole('link', { name: 'Create an account to join' });
  await expect(signUp).toHaveAttribute('href', /email=invited%40example.test/);
  await shot(guest, 'invitation-light-desktop');
  await expectNoSeriousA11yViolations(guest, 'invitation-light-desktop');
  await guest.emulateMedia({ colorScheme: 'dark' });
  await guest.setViewportSize({ width: 390, height: 844 });
  await guest.reload();
  await expect(guest.getByText('Grace Hopper invites you')).toBeVisible();
  await shot(guest, 'invitation-dark-phone');
  await expectNoSeriousA11yViolations(guest, 'invitation-dark-phone');
  await signUp.click();
  await expect(guest.getByLabel('Email')).toHaveValue('invited@example.test');
  await visitor.close();

  await page.route('**/api/teams/invitations/inv-1', (route) => json(route, { data: info }));
  await signUpAndOpen(page, '/team-folder-invitation/inv-1');
  await expect(page.getByTestId('wrong-account')).toContainText('This invitation is for invited@example.test, but you are signed in as');
  await expect(page.getByRole('button', { name: 'Accept' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('link', { name: 'I have an account: sign in' })).toBeVisible();
});

test('a team invitation in the notification centre: Accept clears its buttons and says so; a folder converts, unless team folders are off', async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const calls = await mockTeams(page, 'can_edit');
  const email = await signUpAndOpen(page);
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(`${process.env.E2E_DATA_DIR}/database.sqlite`);
  const userId = (db.prepare('select id from users where email = ?').get(email) as { id: string }).id;
  const insert = db.prepare('insert into notifications (id, user_id, category, title, description, action, read_at, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)');
  const action = (id: string) => JSON.stringify({ type: 'invitation', params: { id, route: 'team-folder-invitation', button: 'accept' } });
  insert.run(crypto.randomUUID(), userId, 'team-invitation', 'Team invitation', 'Grace Hopper invites you to Design team.', action('inv-a'), null, new Date().toISOString());
  insert.run(crypto.randomUUID(), userId, 'team-invitation', 'Team invitation', 'Ada invites you to Budget.', action('inv-b'), null, new Date().toISOString());
  await page.reload();
  await page.getByRole('region', { name: 'Account' }).getByRole('button', { name: 'Notifications (2 Unread)' }).click();
  const panel = page.getByRole('dialog');
  await expect(panel.getByRole('button', { name: 'Accept' })).toHaveCount(2);
  await shot(page, 'teams-notification-invitation');
  await expectNoSeriousA11yViolations(page, 'teams-notification-invitation');
  await panel.getByRole('listitem').filter({ hasText: 'Design team' }).getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByText('You accepted the invitation').first()).toBeVisible();
  await panel.getByRole('listitem').filter({ hasText: 'Budget' }).getByRole('button', { name: 'Decline' }).click();
  await expect(page.getByText('You declined the invitation.').first()).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Accept' })).toHaveCount(0);
  expect(calls).toEqual(expect.arrayContaining(['PUT /api/teams/invitations/inv-a', 'DELETE /api/teams/invitations/inv-b']));
  await page.keyboard.press('Escape');

  const made = await page.request.post('/api/create-folder', { data: { name: 'Budget', parent_id: null }, headers: { Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest' } });
  expect(made.status()).toBe(201);
  await page.reload();
  await page.getByRole('option', { name: 'Budget', exact: true }).click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Convert to team folder' }).click();
  const convert = page.getByRole('dialog', { name: 'Make “Budget” a team folder' });
  await convert.getByRole('textbox', { name: 'Member’s email' }).fill('marie@example.test');
  await convert.getByRole('button', { name: 'Invite' }).click();
  await convert.getByRole('button', { name: 'Convert to team folder' }).click();
  await expect(page.getByText('The folder is now a team folder').first()).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/platform/team-folders/${TEAM_FOLDER}$`));
  expect(calls.some((c) => /^POST \/api\/teams\/folders\/[0-9a-f-]{36}\/convert$/.test(c))).toBe(true);

  db.prepare('update users set restrictions = ? where id = ?').run(JSON.stringify({ canCreateTeamFolder: false }), userId);
  db.close();
  await page.goto('/platform/files');
  await page.getByRole('option', { name: 'Budget', exact: true }).click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Convert to team folder' }).click();
  await expect(page.getByRole('dialog', { name: 'Not available right now' })).toContainText('Creating team folders is temporarily disabled');
});
