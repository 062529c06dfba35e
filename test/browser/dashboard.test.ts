/**
 * The dashboard in a real browser, end to end, as an operator's first day goes: set the admin
 * password from the start banner's link, sign in, make a key and copy it, use it with the
 * `openai` SDK, see the call in usage, revoke the key (the SDK gets 401), see a call refused by a
 * per-minute limit counted in the usage page's Refusals panel (and its Errors panel, by error type), add a channel to a
 * fake upstream (its Options checked, a refused one showing the gateway's message), test it and route a call through it, open a finished task's preview, sign
 * out. Every page is scanned by axe-core (no serious or critical violation) and photographed.
 */
import OpenAI from 'openai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshot, seriousViolations } from './browser.js';
import { FAKE_OPENAI_API_KEY, type FakeOpenAIUpstream, startFakeOpenAIUpstream } from '../fakes/fake-openai-upstream.js';
import { ensureDashboardBuilt, type GatewayProcess, startGatewayProcess } from './gateway-process.js';

const MASTER_KEY = 'gg-browser-test-master-key-0123456789';
const PASSWORD = 'a long admin password';

describe('the dashboard in Chromium', () => {
  let gateway: GatewayProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let upstream: FakeOpenAIUpstream;

  beforeAll(async () => {
    ensureDashboardBuilt();
    upstream = await startFakeOpenAIUpstream();
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
    await upstream?.close();
  });

  /** Scans and photographs the page as it is now. */
  async function check(name: string): Promise<void> {
    await screenshot(page, name);
    expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
  }

  /** The usage table after asking again: a call's row reaches the database within a batch (100 ms), maybe after the page asked. */
  async function usageTableAfterApply(): Promise<string | null> {
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForLoadState('networkidle');
    return page.getByTestId('usage-table').textContent();
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

  it('creates a key and copies it, the openai SDK works with it, the call shows in usage, and revoking it gets the SDK a 401', async () => {
    await openNav('API keys');
    await page.getByLabel('Name', { exact: true }).fill('browser-key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByTestId('secret-dialog');
    await dialog.waitFor();
    const shown = await page.getByTestId('new-key-secret').inputValue();
    expect(shown).toMatch(/^gg-[A-Za-z0-9]{42}$/);
    await check('key-created');
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await dialog.getByText('Copied.').waitFor();
    const copied = (await page.evaluate('navigator.clipboard.readText()')) as string;
    expect(copied).toBe(shown);
    await dialog.getByRole('button', { name: 'Done' }).click();
    // The list shows the key's hint, never the key again.
    await expect.poll(() => page.getByTestId('keys-table').textContent()).toContain('browser-key');
    expect(await page.getByTestId('keys-table').textContent()).not.toContain(shown);
    await check('keys');

    const client = new OpenAI({ apiKey: copied, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const answer = await client.chat.completions.create({ model: 'textmodel-b-4o-mini', messages: [{ role: 'user', content: 'Hello from the browser test' }] });
    expect(answer.choices[0].message.content).toBeTruthy();

    await openNav('Usage');
    await page.getByLabel('Group by').selectOption('key');
    await expect.poll(() => usageTableAfterApply(), { timeout: 10_000 }).toContain('browser-key');

    await openNav('API keys');
    await page.getByRole('button', { name: 'Revoke browser-key' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke', exact: true }).click();
    await expect.poll(() => page.getByTestId('keys-table').textContent()).toMatch(/revoked/i);
    const refused = await client.chat.completions
      .create({ model: 'textmodel-b-4o-mini', messages: [{ role: 'user', content: 'again' }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.AuthenticationError);
  }, 60_000);

  it('sets a monthly budget on a key from its limits dialog and shows the spend-against-budget bar, then clears it', async () => {
    await openNav('API keys');
    await page.getByLabel('Name', { exact: true }).fill('budget-key');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByTestId('secret-dialog').getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Limits of budget-key' }).click();
    const dialog = page.getByTestId('limits-dialog');
    await dialog.getByText('No budget.').waitFor();
    await dialog.getByLabel('Budget period').selectOption('month');
    await dialog.getByLabel('Budget in USD').fill('12.5');
    await dialog.getByLabel('Warn past USD').fill('10');
    await dialog.getByRole('button', { name: 'Set budget' }).click();
    const budget = dialog.getByTestId('budget-month');
    await budget.waitFor();
    expect(await budget.textContent()).toContain('key monthly budget');
    expect(await budget.textContent()).toContain('of $12.50');
    const bar = budget.getByRole('meter');
    expect(await bar.getAttribute('max')).toBe('12500000000');
    expect(await bar.getAttribute('aria-label')).toContain('of $12.50');
    await check('key-budget');

    await dialog.getByLabel('Budget in USD').fill('-1');
    await dialog.getByRole('button', { name: 'Set budget' }).click();
    await expect.poll(() => dialog.getByTestId('limits-error').textContent()).toContain('limitUsd');

    await dialog.getByRole('button', { name: 'Clear key monthly budget' }).click();
    await dialog.getByText('No budget.').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
  }, 60_000);

  it('adds a channel to a fake upstream, tests it, and routes a call through it without a restart', async () => {
    await openNav('Channels');
    await page.getByRole('button', { name: 'Add channel' }).click();
    const form = page.getByTestId('channel-form');
    await form.getByLabel('Name', { exact: true }).fill('browser-openai');
    await form.locator('select').selectOption('openai');
    await form.getByLabel('Base URL').fill(upstream.url);
    await form.getByLabel('API key').fill(FAKE_OPENAI_API_KEY);
    await form.getByLabel('Models').fill('browser-only-model');
    await form.getByLabel('Probe the upstream periodically').check();
    await form.getByLabel('Probe every (s)').fill('30');
    // Options: not JSON is caught before sending; one the gateway refuses shows the gateway's 400 message.
    const options = form.getByLabel('Options');
    await options.fill('{streamUsage: false}');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByTestId('channel-form-error').textContent()).toContain('Options must be JSON');
    await options.fill('{"streamUsage": {"nested": true}}');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByTestId('channel-form-error').textContent()).toContain('channel.options.streamUsage must be');
    await options.fill('{"streamUsage": false}');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('channel-browser-openai').waitFor({ timeout: 10_000 });
    // Probes on (the first one comes within 30 s), no call yet.
    await expect.poll(() => page.getByTestId('health-browser-openai').textContent()).toMatch(/closed(Not probed yet|Probe OK).*No calls in 5 min/);
    await page.getByRole('button', { name: 'Test browser-openai' }).click();
    await expect.poll(() => page.getByTestId('test-result-browser-openai').textContent(), { timeout: 20_000 }).toMatch(/^OK browser-only-model/);
    await check('channels');

    const client = new OpenAI({ apiKey: MASTER_KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const { data, response } = await client.chat.completions
      .create({ model: 'browser-only-model', messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(response.headers.get('x-gengate-channel')).toBe('browser-openai');
    expect(data.choices[0].message.content).toBeTruthy();
    expect(upstream.requests.some((r) => r.headers.authorization === `Bearer ${FAKE_OPENAI_API_KEY}`)).toBe(true);

    await openNav('Usage');
    await page.getByLabel('Group by').selectOption('channel');
    await expect.poll(() => usageTableAfterApply(), { timeout: 10_000 }).toContain('browser-openai');
    await check('usage');

    // The channels page counts the call in the channel's error rate.
    await openNav('Channels');
    await expect.poll(() => page.getByTestId('health-browser-openai').textContent()).toContain('0% errors of 1 call (5 min)');
  }, 60_000);

  it("counts a call refused by a per-minute limit in the usage page's Refusals panel, by the limit that refused it", async () => {
    const admin = async (method: string, path: string, body: object) => {
      const response = await fetch(`${gateway.url}/admin/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status, `${method} ${path}`).toBeLessThan(300);
      return response.json();
    };
    const created = (await admin('POST', '/keys', { name: 'limited-key' })) as { key: { id: string }; secret: string };
    await admin('POST', '/limits', { scope: 'key', subject: created.key.id, kind: 'requests_per_minute', limit: 1 });

    const client = new OpenAI({ apiKey: created.secret, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const ask = () => client.chat.completions.create({ model: 'textmodel-b-4o-mini', messages: [{ role: 'user', content: 'one a minute' }] });
    expect((await ask()).choices[0].message.content).toBeTruthy();
    expect(await ask().catch((error: unknown) => error)).toBeInstanceOf(OpenAI.RateLimitError);

    await openNav('Usage');
    const panel = page.getByTestId('usage-refusals');
    // The refusal's usage row reaches the database within a batch, maybe after the page asked.
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Apply filters' }).click();
          await page.waitForLoadState('networkidle');
          return panel.textContent();
        },
        { timeout: 10_000 },
      )
      .toContain('key requests per minute (1): 1');
    await check('usage-refusals');

    // The same refusal, counted by whose fault it was (a policy's), and listed when its type is chosen.
    const errors = page.getByTestId('usage-errors');
    await expect.poll(() => errors.textContent(), { timeout: 10_000 }).toContain('policy.rate_limited: 1');
    await errors.getByLabel('Error type').selectOption('policy.rate_limited');
    await expect.poll(() => page.getByTestId('usage-failures').textContent(), { timeout: 10_000 }).toContain('rate_limit');
    await check('usage-errors');
  }, 60_000);

  it('opens a finished image task and its preview, and a video task plays', async () => {
    const submit = (path: string, body: object) =>
      fetch(`${gateway.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const image = (await (
      await submit('/imagegen1/create', { model: 'black-forest-labs/flux-schnell', prompt: 'a lighthouse at dawn', width: 512, height: 512 })
    ).json()) as { id: string };
    const video = (await (await submit('/videogen1/video', { prompt: 'waves at dusk', duration: 5, aspect_ratio: '16:9' })).json()) as {
      data: { task_id: string };
    };
    expect(image.id).toBeTruthy();

    await openNav('Tasks');
    await expect.poll(() => page.getByRole('table').textContent(), { timeout: 10_000 }).toContain(image.id);
    await check('tasks');
    // The list refreshes itself while a task is unfinished.
    await expect.poll(() => page.getByRole('row', { name: new RegExp(image.id) }).textContent(), { timeout: 30_000 }).toContain('succeeded');
    await page.getByRole('link', { name: image.id }).click();
    const preview = page.getByTestId('task-preview').locator('img').first();
    await preview.waitFor();
    await expect.poll(() => preview.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    await check('task');

    // The task page refreshes itself until the task ends.
    await page.goto(`${gateway.url}/dashboard/tasks/${encodeURIComponent(video.data.task_id)}`);
    const player = page.getByTestId('task-preview').locator('video');
    await expect.poll(() => player.count(), { timeout: 60_000 }).toBe(1);
    await expect
      .poll(() => player.evaluate((v) => ((v as unknown as { readyState: number }).readyState >= 1 ? (v as unknown as { duration: number }).duration : 0)), {
        timeout: 20_000,
      })
      .toBeGreaterThan(1);
  }, 120_000);

  it('streams a playground answer, shows the models, accounts and audit log, and signs out', async () => {
    await openNav('Playground');
    // The select is inside its label, so its accessible name also holds the chosen option.
    await page.locator('form.playground select').selectOption('textmodel-b-4o-mini');
    await page.getByLabel('Message').fill('Say hello to the dashboard.');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('playground-result').textContent(), { timeout: 20_000 }).toContain('via sandbox');
    expect(await page.getByTestId('message-assistant').last().textContent()).toMatch(/\w/);
    await check('playground');

    await openNav('Models');
    const row = page.getByRole('row', { name: /^textmodel-b-4o-mini\b/ });
    await expect.poll(() => row.textContent()).toContain('sandbox');
    // Each price says where it was read and when.
    expect(await row.getByTestId('price-source').textContent()).toBe('https://openai.com/api/pricing/, 2026-07');
    // A web address is a link to it, opened apart from the dashboard.
    const sourceLink = row.getByTestId('price-source').getByRole('link');
    expect(await sourceLink.getAttribute('href')).toBe('https://openai.com/api/pricing/');
    expect(await sourceLink.getAttribute('rel')).toBe('noreferrer noopener');
    await check('models');
    // An admin changes a price; the catalog shows it at once.
    await page.getByRole('button', { name: 'Edit textmodel-b-4o-mini' }).click();
    await page.getByLabel('Input, USD per million tokens').fill('0.2');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.textContent()).toContain('input 0.2');
    expect(await row.textContent()).toContain('edited');

    await openNav('Accounts');
    await expect.poll(() => page.getByRole('table').first().textContent()).toContain('ops@example.com');
    await check('accounts');

    await openNav('Audit log');
    await expect.poll(() => page.getByRole('table').first().textContent()).toContain('channel.create');
    await check('audit');

    // A phone-sized screen: the same pages still work and pass the scan.
    await page.setViewportSize({ width: 375, height: 800 });
    const menu = page.getByRole('button', { name: 'Menu' });
    if (await menu.isVisible()) await menu.click();
    await openNav('Usage');
    await page.getByTestId('usage-totals').waitFor();
    await check('usage-phone');
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByTestId('account-menu').click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByTestId('sign-in-form').waitFor();
    const after = await page.evaluate(`fetch('/admin/v1/session').then((r) => r.status)`);
    expect(after).toBe(401);
  }, 90_000);
});
