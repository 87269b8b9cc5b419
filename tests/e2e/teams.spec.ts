import type { Browser, Page } from '@playwright/test';
import { dropSignIn, e2eEmail, expect, expectNoSeriousA11yViolations, PASSWORD, shot, signUpAndOpen, test } from './fixtures.ts';

/**
 * Team folders end to end against the server, an owner and a member in two browsers. The
 * invitation reaches the member's open bell, and the member's upload the owner's open listing,
 * through the live event stream, without a reload.
 */

const headers = () => ({ Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest' });
const item = (page: Page, name: string) => page.getByRole('option', { name, exact: true });

async function memberPage(browser: Browser, path = '/platform/shared-with-me'): Promise<{ page: Page; email: string; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  const email = await signUpAndOpen(page, path, 'Marie Curie');
  return { page, email, close: () => context.close() };
}

/** A team folder made through the API, with invitations; its id and the invitations' ids. */
async function apiTeam(page: Page, name: string, invitations: { email: string; permission: 'can_edit' | 'can_view' }[]): Promise<{ id: string; invitations: { id: string; email: string }[] }> {
  const res = await page.request.post('/api/teams/folders', { data: { name, parent_id: null, invitations }, headers: headers() });
  expect(res.status()).toBe(201);
  const id = (await res.json()).data.id as string;
  const listing = await (await page.request.get(`/api/teams/folders/${id}/`, { headers: headers() })).json();
  return { id, invitations: listing.meta.team.invitations };
}

test('an owner creates a team folder and invites; the member accepts, uploads, is made a viewer, and leaves', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const member = await memberPage(browser);
  await expect(member.page.getByRole('heading', { name: 'Nothing shared with you yet' })).toBeVisible();

  await signUpAndOpen(page, '/platform/team-folders');
  await page.getByRole('button', { name: 'Create team folder' }).first().click();
  const create = page.getByRole('dialog', { name: 'Create a team folder' });
  await create.getByLabel('Name').fill('Project X');
  await create.getByRole('textbox', { name: 'Member’s email' }).fill(member.email);
  await create.getByRole('button', { name: 'Invite' }).click();
  await create.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page).toHaveURL(/\/platform\/team-folders\/[0-9a-f-]{36}$/);
  const folderId = page.url().split('/').pop()!;
  await expect(page.getByRole('heading', { name: 'Project X' })).toBeVisible();
  await page.getByRole('button', { name: 'Members' }).click();
  await expect(page.getByTestId('team-invitations')).toContainText(member.email);
  await page.keyboard.press('Escape');

  // The invitation arrives in the member's open bell, live.
  await member.page.getByRole('region', { name: 'Account' }).getByRole('button', { name: 'Notifications (1 Unread)' }).click();
  const panel = member.page.getByRole('dialog');
  await panel.getByRole('button', { name: 'Accept' }).click();
  await expect(member.page.getByText('You accepted the invitation').first()).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Accept' })).toHaveCount(0);
  await member.page.keyboard.press('Escape');
  await member.page.goto('/platform/shared-with-me');
  await item(member.page, 'Project X').dblclick();
  await expect(member.page).toHaveURL(new RegExp(`/platform/shared-with-me/${folderId}$`));
  await expect(member.page.getByTestId('my-permission')).toHaveText('Can edit');
  await member.page.getByTestId('upload-files-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('member notes') });
  await expect(item(member.page, 'notes.txt')).toBeVisible();
  // An editor creates folders, and moves only inside the team folder: the picker holds its tree, not home.
  await member.page.getByRole('button', { name: 'New folder' }).click();
  await member.page.getByRole('dialog', { name: 'Create a folder' }).getByLabel('Name').fill('Drafts');
  await member.page.getByRole('dialog', { name: 'Create a folder' }).getByRole('button', { name: 'Create' }).click();
  await expect(item(member.page, 'Drafts')).toBeVisible();
  await item(member.page, 'notes.txt').click({ button: 'right' });
  await member.page.getByTestId('item-menu').getByRole('menuitem', { name: 'Move', exact: true }).click();
  const picker = member.page.getByRole('radiogroup', { name: 'Destination folder' });
  await expect(picker.getByRole('radio')).toHaveText(['Project X', 'Drafts']);
  await member.page.keyboard.press('Escape');
  await shot(member.page, 'teams-member-edit-light-desktop');
  await expectNoSeriousA11yViolations(member.page, 'teams-member-edit-light-desktop');

  // The owner's open listing shows the member's upload live (the stream's refresh waits 250 ms for more changes).
  await expect(item(page, 'notes.txt')).toBeVisible();
  // The owner was told the member joined, with a way to the team folder.
  await page.getByRole('region', { name: 'Account' }).getByRole('button', { name: /^Notifications \(\d+ Unread\)$/ }).click();
  await expect(page.getByRole('dialog').getByRole('link', { name: 'Open' }).first()).toHaveAttribute('href', `/platform/team-folders/${folderId}`);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Members' }).click();
  await page.getByRole('combobox', { name: 'Permission of Marie Curie' }).selectOption('can_view');
  await expect(page.getByText('Permission changed').first()).toBeVisible();
  await page.keyboard.press('Escape');

  // The member is now a viewer: no writes offered, and a write sent anyway is refused.
  await member.page.reload();
  await expect(member.page.getByTestId('my-permission')).toHaveText('Can view');
  await expect(member.page.getByRole('button', { name: 'Upload' })).toHaveCount(0);
  await item(member.page, 'notes.txt').click({ button: 'right' });
  await expect(member.page.getByTestId('item-menu').getByRole('menuitem', { name: /^Rename/ })).toHaveCount(0);
  await member.page.keyboard.press('Escape');
  // A viewer still previews and downloads.
  await item(member.page, 'notes.txt').dblclick();
  await expect(member.page.getByRole('dialog', { name: 'notes.txt' })).toContainText('member notes');
  await member.page.keyboard.press('Escape');
  await item(member.page, 'notes.txt').click({ button: 'right' });
  const [download] = await Promise.all([member.page.waitForEvent('download'), member.page.getByTestId('item-menu').getByRole('menuitem', { name: 'Download' }).click()]);
  expect(download.suggestedFilename()).toBe('notes.txt');
  const refused = await member.page.request.post('/api/create-folder', { data: { name: 'Sneaky', parent_id: folderId }, headers: headers() });
  expect(refused.status()).toBe(403);

  await member.page.getByRole('button', { name: 'Leave team' }).click();
  await member.page.getByRole('dialog', { name: 'Leave “Project X”?' }).getByRole('button', { name: 'Leave team' }).click();
  await expect(member.page).toHaveURL(/\/platform\/shared-with-me$/);
  await expect(member.page.getByRole('heading', { name: 'Nothing shared with you yet' })).toBeVisible();
  await member.close();
});

test('dissolving a team asks first; the member loses the folder and the owner keeps it', async ({ page, browser }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const member = await memberPage(browser);
  await signUpAndOpen(page, '/platform/team-folders');
  const team = await apiTeam(page, 'Launch', [{ email: member.email, permission: 'can_view' }]);
  const accepted = await member.page.request.put(`/api/teams/invitations/${team.invitations[0]!.id}`, { headers: headers() });
  expect(accepted.status()).toBe(200);
  await member.page.reload();
  await expect(item(member.page, 'Launch')).toBeVisible();

  await page.goto(`/platform/team-folders/${team.id}`);
  await page.getByRole('button', { name: 'Members' }).click();
  await expect(page.getByTestId('team-member')).toHaveCount(2);
  await page.getByRole('button', { name: 'Dissolve team' }).click();
  const confirm = page.getByRole('dialog', { name: 'Dissolve the team of “Launch”?' });
  await expect(confirm).toContainText('Members lose access at once');
  await confirm.getByRole('button', { name: 'Dissolve team' }).click();
  await expect(page.getByText('The team was dissolved').first()).toBeVisible();
  await expect(page).toHaveURL(/\/platform\/team-folders$/);
  await expect(page.getByRole('heading', { name: 'No team folders yet' })).toBeVisible();
  await page.goto(`/platform/files/${team.id}`);
  await expect(page.getByRole('heading', { name: 'Launch' })).toBeVisible();

  // The member is told at once (a team-dissolved notice), and their open list loses the folder without a reload.
  await expect(member.page.getByRole('heading', { name: 'Nothing shared with you yet' })).toBeVisible();
  // The folder's own address now says it is not there, with the way back to Shared with me.
  await member.page.goto(`/platform/shared-with-me/${team.id}`);
  await member.page.getByRole('link', { name: 'Open Shared with me' }).click();
  await expect(member.page).toHaveURL(/\/platform\/shared-with-me$/);
  await member.close();
});

test('an invitee without an account signs up from the invitation page and lands in the team', async ({ page, browser }) => {
  test.setTimeout(90_000);
  await signUpAndOpen(page, '/platform/team-folders');
  const invitee = e2eEmail('invitee');
  const team = await apiTeam(page, 'Field notes', [{ email: invitee, permission: 'can_edit' }]);

  const context = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': '198.18.77.7' } });
  const guest = await context.newPage();
  await guest.setViewportSize({ width: 1280, height: 800 });
  await guest.goto(`${process.env.E2E_BASE_URL}/team-folder-invitation/${team.invitations[0]!.id}`);
  await expect(guest.getByRole('heading', { name: 'Join the team folder “Field notes”' })).toBeVisible();
  await shot(guest, 'teams-invitation-signed-out');
  await expectNoSeriousA11yViolations(guest, 'teams-invitation-signed-out');
  await guest.getByRole('link', { name: 'Create an account to join' }).click();
  await expect(guest.getByLabel('Email')).toHaveValue(invitee);
  await guest.getByLabel('Full name').fill('Rosalind Franklin');
  await guest.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await guest.getByLabel('Confirm password').fill(PASSWORD);
  await guest.getByRole('button', { name: 'Create account' }).click();
  await expect(guest).toHaveURL(/\/sign-in\?/);
  await expect(guest.getByLabel('Email')).toHaveValue(invitee);
  await guest.getByLabel('Password').fill(PASSWORD);
  await guest.getByRole('button', { name: 'Sign in', exact: true }).click();
  // Straight into the team folder, not only the list of them.
  await expect(guest).toHaveURL(new RegExp(`/platform/shared-with-me/${team.id}$`));
  await expect(guest.getByRole('heading', { name: 'Field notes' })).toBeVisible();
  await context.close();
});

test('an invitee with an account signs in from the invitation page and is taken into the team', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext();
  const guest = await context.newPage();
  await guest.setViewportSize({ width: 390, height: 844 });
  const invitee = await signUpAndOpen(guest, '/platform/files', 'Lise Meitner');
  await dropSignIn(guest);

  await signUpAndOpen(page, '/platform/team-folders');
  const team = await apiTeam(page, 'Lab book', [{ email: invitee, permission: 'can_view' }]);
  await guest.goto(`/team-folder-invitation/${team.invitations[0]!.id}`);
  await expect(guest.getByRole('heading', { name: 'Join the team folder “Lab book”' })).toBeVisible();
  await guest.getByRole('link', { name: 'I have an account: sign in' }).click();
  await expect(guest.getByLabel('Email')).toHaveValue(invitee);
  await guest.getByLabel('Password').fill(PASSWORD);
  await guest.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(guest).toHaveURL(new RegExp(`/platform/shared-with-me/${team.id}$`));
  await expect(guest.getByRole('heading', { name: 'Lab book' })).toBeVisible();
  await expect(guest.getByTestId('my-permission')).toHaveText('Can view');
  await expect(guest.getByRole('button', { name: 'Upload' })).toHaveCount(0);
  await shot(guest, 'teams-member-view-light-phone');
  await expectNoSeriousA11yViolations(guest, 'teams-member-view-light-phone');
  await context.close();
});

test('an unknown invitation says so, and an address that is no invitation id is the 404 page', async ({ page }) => {
  await page.goto('/team-folder-invitation/0b7c3f0e-1b2a-4c3d-9e8f-001122334455');
  await expect(page.getByRole('heading', { name: 'This invitation is not available' })).toBeVisible();
  const res = await page.goto('/team-folder-invitation/not%20an%20id!');
  expect(res?.status()).toBe(404);
});
