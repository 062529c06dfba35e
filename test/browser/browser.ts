/**
 * Chromium driven by playwright-core (never a browser downloaded by Playwright), an axe-core scan
 * of the page, and screenshots kept under test-artifacts/dashboard/ for people to look at.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { systemBinary } from '../helpers/system-binary.js';
import { registryChromium } from './registry-chromium.js';

export const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'dashboard');

/** `GENGATE_CHROMIUM`, else `chromium` on PATH (Debian's), else the build `@sparticuz/chromium` ships. */
export async function launchChromium(): Promise<Browser> {
  const system = process.env.GENGATE_CHROMIUM ?? systemBinary('chromium');
  if (system) {
    try {
      return await chromium.launch({ executablePath: system, args: ['--headless', '--no-sandbox'] });
    } catch (error) {
      throw new Error(`cannot start Chromium at ${system} (GENGATE_CHROMIUM, or chromium on PATH): ${(error as Error).message}`);
    }
  }
  try {
    const { executablePath, env } = await registryChromium();
    return await chromium.launch({ executablePath, args: ['--no-sandbox'], env: { ...process.env, ...env } });
  } catch (error) {
    throw new Error(
      `cannot start the Chromium that @sparticuz/chromium ships; run npm install, or set GENGATE_CHROMIUM to a Chromium: ${(error as Error).message}`,
    );
  }
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** The serious and critical WCAG 2.x A/AA violations axe-core finds on the page as it is now. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ content: axeSource });
  // A string, evaluated in the page: this file is compiled without the DOM library.
  const violations = (await page.evaluate(`axe
    .run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
    .then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => JSON.stringify(n.target)) })))`)) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}
