/**
 * The dashboard in a real browser, end to end, as an operator's first day goes: set the admin
 * password from the start banner's link, sign in, make a key and copy it, use it with the
 * `openai` SDK, see the call in usage, revoke the key (the SDK gets 401), add a channel to a
 * fake upstream, test it and route a call through it, open a finished task's preview, sign
 * out. Every page is scanned by axe-core (no serious or critical violation) and photographed.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshot, seriousViolations } from './browser.js';
import { ensureDashboardBuilt, type GatewayProcess, startGatewayProcess } from './gateway-process.js';

const MASTER_KEY = 'gg-browser-test-master-key-0123456789';
const PASSWORD = 'a long admin password';

describe('the dashboard in Chromium', () => {
  let gateway: GatewayProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ensureDashboardBuilt();
    gateway = await startGatewayProcess({ GENGATE_MASTER_KEY: MASTER_KEY, GENGATE_SANDBOX_TASK_MS: '300' });
    browser = await launchChromium();
    // axe-core is injected as a script, which the dashboard's strict CSP would refuse.
    context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gateway.url });
    page = await context.newPage();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
  });

  /** Scans and photographs the page as it is now. */
  async function check(name: string): Promise<void> {
    await screenshot(page, name);
    expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
  }

  async function openNav(label: string): Promise<void> {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true }).click();
  }

  it('sets the first admin password from the banner link and signs in', async () => {
    await page.goto(gateway.adminLink);
    await expect.poll(() => page.getByTestId('setup-email').textContent()).toBe('admin@gengate.local');
    expect(page.url()).not.toContain('token=');
    await check('setup');
    await page.getByLabel('Email to sign in with').fill('ops@example.com');
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();

    await page.getByTestId('account-menu').click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByTestId('sign-in-form').waitFor();
    await check('sign-in');
    await page.getByLabel('Email').fill('ops@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
  }, 60_000);
});
