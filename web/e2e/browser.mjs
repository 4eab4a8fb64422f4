// Debian's Chromium driven by playwright-core (no browser download): headless, sandbox off (containers
// run as root), a fresh profile (user data directory) per test.
import axe from 'axe-core';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOTS = 'web/test-results/screenshots';

/** One browser with a fresh profile (--user-data-dir, given as playwright asks) for one test. */
export async function launchBrowser(viewport) {
  const profile = mkdtempSync(join(tmpdir(), 'risk-console-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    acceptDownloads: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Serious and critical axe-core violations of the page as it is now (WCAG 2 A and AA rules). */
export async function seriousViolations(page) {
  // A modal or drawer fading in has text at partial opacity, which axe reads as low contrast: check the settled page.
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  // Evaluated through the devtools protocol, not as an inline <script>: the console's CSP forbids those.
  await page.evaluate(axe.source);
  const result = await page.evaluate(async () => {
    const run = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
    return run.violations.map((violation) => ({ id: violation.id, impact: violation.impact, nodes: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')) }));
  });
  return result.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}
