import type { ComponentType } from 'react';
import type { AppRoute } from '../app/routes.ts';

/** What every admin screen receives: the route's parameters (`id`, `tab`, `slug`). */
export interface AdminScreenProps {
  params: Record<string, string | undefined>;
}

type AdminRoute = Extract<AppRoute, `admin${string}`>;
type ScreenModule = { default: ComponentType<AdminScreenProps> };

/**
 * The admin area's screens, one chunk each, keyed by route name (src/islands/app/routes.ts). A
 * route whose screen is not here is not an app path either: add both together.
 */
export const ADMIN_SCREENS: Record<AdminRoute, () => Promise<ScreenModule>> = {
  adminDashboard: () => import('./DashboardScreen.tsx'),
  adminUsers: () => import('./users/UsersScreen.tsx'),
  adminUserCreate: () => import('./users/UserCreateScreen.tsx'),
  adminUser: () => import('./users/UserScreen.tsx'),
  adminPages: () => import('./pages/PagesScreen.tsx'),
  adminPage: () => import('./pages/PageEditorScreen.tsx'),
  adminSettings: () => import('./settings/SettingsScreen.tsx'),
  adminLanguage: () => import('./languages/LanguagesScreen.tsx'),
  adminPlans: () => import('./plans/PlansScreen.tsx'),
  adminPlanCreate: () => import('./plans/PlanCreateScreen.tsx'),
  adminPlan: () => import('./plans/PlanScreen.tsx'),
  adminSubscriptions: () => import('./subscriptions/SubscriptionsScreen.tsx'),
  adminPayments: () => import('./payments/PaymentsScreen.tsx'),
  adminInvoices: () => import('./invoices/InvoicesScreen.tsx'),
};

/** The admin area's tabs: the routes each one stays active on. */
export const ADMIN_NAV: { href: string; key: string; routes: AdminRoute[] }[] = [
  { href: '/admin/dashboard', key: 'admin.dashboard', routes: ['adminDashboard'] },
  { href: '/admin/users', key: 'admin_users.title', routes: ['adminUsers', 'adminUserCreate', 'adminUser'] },
  { href: '/admin/pages', key: 'admin_pages.title', routes: ['adminPages', 'adminPage'] },
  { href: '/admin/settings', key: 'admin_settings.title', routes: ['adminSettings'] },
  { href: '/admin/language', key: 'admin_language.title', routes: ['adminLanguage'] },
  { href: '/admin/plans', key: 'billing_plans.title', routes: ['adminPlans', 'adminPlanCreate', 'adminPlan'] },
  { href: '/admin/subscriptions', key: 'billing_plans.subscriptions_title', routes: ['adminSubscriptions'] },
  { href: '/admin/payments', key: 'billing_pay.admin_title', routes: ['adminPayments'] },
  { href: '/admin/invoices', key: 'billing_ledger.admin_invoices_title', routes: ['adminInvoices'] },
];

export function isAdminRoute(route: string | undefined): route is AdminRoute {
  return !!route && Object.hasOwn(ADMIN_SCREENS, route);
}
