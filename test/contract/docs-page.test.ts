/**
 * GET /docs of the live service, opened in headless Chromium (Debian's package, driven by
 * playwright-core): the page renders the reference from what it carries, and asks no other
 * host for anything. Screenshots go to test-output/contract/docs-*.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { CONTRACT_OUTPUT, liveService } from './support/live-service';

const CHROMIUM = '/usr/bin/chromium';
// As root Chromium needs --no-sandbox (Playwright adds it); the rest keep it off the network.
const CHROMIUM_ARGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-gpu',
  '--disable-quic',
];

let browser: Browser;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
});

afterAll(async () => {
  await browser?.close();
});

describe('GET /docs in Chromium', () => {
  test('when the page is opened, then the error table and both operations render, it asks no other host for anything, and screenshots are saved', async () => {
    const { baseUrl } = liveService();
    const origin = new URL(baseUrl).origin;
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const requested: string[] = [];
    context.on('request', (request) => requested.push(request.url()));
    const page = await context.newPage();
    const pageErrors: string[] = [];
    const refusals: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (/Refused to (load|connect|frame|prefetch)/i.test(message.text())) refusals.push(message.text());
    });
    // A request that the page's Content-Security-Policy blocks never reaches the network:
    // record such attempts too. (Redoc's feature test of eval, refused as well, asks no host.)
    await page.addInitScript({
      content: `window.blockedUris = [];
        document.addEventListener('securitypolicyviolation', (e) => window.blockedUris.push(e.blockedURI));`,
    });

    const response = await page.goto(`${baseUrl}/docs`, { waitUntil: 'networkidle' });
    expect(response?.status()).toBe(200);

    const errorTable = page.locator('table').filter({ hasText: 'Invalid or inactive api key' }).first();
    await errorTable.waitFor({ state: 'visible' });
    const errorRows = await errorTable.locator('tr').allInnerTexts();
    expect(errorRows.length).toBeGreaterThanOrEqual(10);
    expect(errorRows.join('\n')).toEqual(expect.stringContaining('ThrottlerException: Too Many Requests'));
    mkdirSync(CONTRACT_OUTPUT, { recursive: true });
    await page.screenshot({ path: join(CONTRACT_OUTPUT, 'docs-overview.png') });

    // Redoc shows the operations on their tag's page, reached from the sidebar, and renders
    // each one as it comes into view: open each from the sidebar, as a reader would.
    await page.getByText('Snaps', { exact: true }).first().click();
    const sidebar = page.locator('[data-component-name="Menu/MenuItem"]');
    for (const [summary, path] of [
      ['Create a profile prediction', '/api/v1/snap'],
      ['Create communication advice for a stored snap', '/api/v1/snap/comms'],
    ] as const) {
      await sidebar.filter({ hasText: summary }).last().click();
      const heading = page.getByRole('heading', { name: summary });
      await heading.waitFor({ state: 'visible' });
      await expect(page.getByText(path, { exact: true }).first().isVisible()).resolves.toBe(true);
    }
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: join(CONTRACT_OUTPUT, 'docs-operations.png') });
    const blocked = ((await page.evaluate('window.blockedUris')) as string[]).filter((uri) => /^(https?|wss?|ftp):/i.test(uri));
    await context.close();

    const elsewhere = [...requested, ...blocked].filter((url) => !/^(data|blob):/.test(url) && new URL(url).origin !== origin);
    expect({ elsewhere, refusals, pageErrors }).toEqual({ elsewhere: [], refusals: [], pageErrors: [] });
    expect(requested).toContain(`${baseUrl}/docs`);
  });
});
