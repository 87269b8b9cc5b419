import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, shot, signUpAndOpen, test } from './fixtures.ts';

// The navigation tree is answered a level at a time: a branch's subfolders load when it is expanded.

const headers = () => ({ Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest' });

async function apiFolder(page: Page, name: string, parentId: string | null = null): Promise<string> {
  const res = await page.request.post('/api/create-folder', { data: { name, parent_id: parentId }, headers: headers() });
  expect(res.status()).toBe(201);
  return (await res.json()).data.id;
}

/** Projects/{Alpha/{Deep}, Beta} and Archive at home. */
async function seedTree(page: Page) {
  const projects = await apiFolder(page, 'Projects');
  const alpha = await apiFolder(page, 'Alpha', projects);
  const deep = await apiFolder(page, 'Deep', alpha);
  await apiFolder(page, 'Beta', projects);
  await apiFolder(page, 'Archive');
  return { projects, alpha, deep };
}

const isTree = (url: string, param: string) => new URL(url).pathname === '/api/browse/navigation' && new URL(url).searchParams.has(param);

test('a branch of the folder tree loads its subfolders when expanded, from the keyboard or the pointer', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpAndOpen(page);
  const { projects, alpha } = await seedTree(page);
  // Leave the file area first: its own tree request may still be under way, and its answer is not this page's.
  await page.goto('about:blank');
  const first = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/browse/navigation');
  await page.goto('/platform/files');
  // The first answer holds the top level only.
  const top = (await (await first).json()).data as { name: string; has_folders: boolean; folders: unknown[] }[];
  expect(top.map((n) => [n.name, n.has_folders, n.folders.length])).toEqual([
    ['Archive', false, 0],
    ['Projects', true, 0],
  ]);
  const tree = page.getByRole('tree', { name: 'Folders' });
  const treeitem = (name: string) => tree.getByRole('treeitem', { name, exact: true });
  await expect(treeitem('Projects')).toHaveAttribute('aria-expanded', 'false');
  await expect(treeitem('Archive')).not.toHaveAttribute('aria-expanded', /.*/);
  await expect(treeitem('Alpha')).toHaveCount(0);

  // Right expands: the branch asks for its subfolders and shows them, Right again goes into them.
  await treeitem('Projects').focus();
  const branch = page.waitForResponse((r) => isTree(r.url(), 'parent_id') && new URL(r.url()).searchParams.get('parent_id') === projects);
  await page.keyboard.press('ArrowRight');
  expect((await branch).status()).toBe(200);
  await expect(treeitem('Projects')).toHaveAttribute('aria-expanded', 'true');
  await expect(treeitem('Alpha')).toHaveAttribute('aria-level', '2');
  await expect(treeitem('Alpha')).toHaveAttribute('aria-setsize', '2');
  await page.keyboard.press('ArrowRight');
  await expect(treeitem('Alpha')).toBeFocused();
  await expect(treeitem('Alpha')).toHaveAttribute('aria-expanded', 'false');

  // The pointer: the chevron opens Alpha, whose subfolder arrives the same way.
  const deeper = page.waitForResponse((r) => isTree(r.url(), 'parent_id') && new URL(r.url()).searchParams.get('parent_id') === alpha);
  await treeitem('Alpha').locator('span.cursor-pointer').click();
  await deeper;
  await expect(treeitem('Deep')).toHaveAttribute('aria-level', '3');
  // Collapsed and opened again, the loaded branch shows at once, asking nothing more.
  let asked = 0;
  page.on('request', (r) => {
    if (isTree(r.url(), 'parent_id')) asked += 1;
  });
  await treeitem('Projects').focus();
  await page.keyboard.press('ArrowLeft');
  await expect(treeitem('Alpha')).toHaveCount(0);
  await page.keyboard.press('ArrowRight');
  await expect(treeitem('Deep')).toBeVisible();
  expect(asked).toBe(0);

  await shot(page, 'navigation-tree-expanded-light-desktop');
  await expectNoSeriousA11yViolations(page, 'navigation-tree-expanded-light-desktop');
});

test('a folder opened by its address shows its branch in the tree, open down to it', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpAndOpen(page);
  const { deep } = await seedTree(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`/platform/files/${deep}`);
  await expect(page.getByRole('heading', { name: 'Deep', level: 1 })).toBeVisible();
  const tree = page.getByRole('tree', { name: 'Folders' });
  await expect(tree.getByRole('treeitem', { name: 'Deep', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(tree.getByRole('treeitem', { name: 'Projects', exact: true })).toHaveAttribute('aria-expanded', 'true');
  await expect(tree.getByRole('treeitem', { name: 'Alpha', exact: true })).toHaveAttribute('aria-expanded', 'true');
  // The breadcrumb is built from the same branch.
  const crumbs = page.getByRole('navigation', { name: 'Location' });
  await expect(crumbs.getByRole('link', { name: 'Alpha' })).toBeVisible();
  await expect(crumbs.getByRole('link', { name: 'Projects' })).toBeVisible();
  await shot(page, 'navigation-tree-open-branch-dark-desktop');
  await expectNoSeriousA11yViolations(page, 'navigation-tree-open-branch-dark-desktop');
});

test('the move picker loads a branch’s subfolders when it is opened, on a phone too', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUpAndOpen(page);
  await seedTree(page);
  await page.goto('/platform/files');
  const archive = page.getByRole('option', { name: 'Archive', exact: true });
  await archive.click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Move', exact: true }).click();
  const dialog = page.getByRole('dialog');
  const picker = dialog.getByRole('radiogroup');
  await expect(picker.getByRole('radio', { name: 'Projects' })).toBeVisible();
  await expect(picker.getByRole('radio', { name: 'Alpha' })).toHaveCount(0);
  await picker.getByRole('button', { name: 'Projects' }).click();
  await expect(picker.getByRole('radio', { name: 'Alpha' })).toBeVisible();
  await expect(picker.getByRole('radio', { name: 'Beta' })).toBeVisible();
  await picker.getByRole('radio', { name: 'Alpha' }).click();
  await shot(page, 'navigation-tree-move-picker-light-phone');
  await expectNoSeriousA11yViolations(page, 'navigation-tree-move-picker-light-phone');
  await dialog.getByRole('button', { name: 'Move here' }).click();
  await expect(archive).toHaveCount(0);
});
