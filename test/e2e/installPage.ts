/**
 * The editor in Chromium for the install tests (install-editor.e2e.ts, installQueue.ts): a browser whose requests to
 * registry.npmjs.org (the editor asks npm about community packages) go to the local registry's stand-in, signing in,
 * and a node's Execute step as a person runs it.
 */
import * as fs from 'node:fs';

// Types only: erased at run time (see editor.e2e.ts).
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore
import type { Browser, Locator, Page } from 'playwright-core';

import { OWNER } from './n8nServer';

export const CHROMIUM = process.env.LOFTY_E2E_CHROMIUM || '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Why the editor cannot be driven here, or undefined. */
export function browserMissing(): string | undefined {
	if (!fs.existsSync(CHROMIUM)) return `${CHROMIUM} not found (apt-get update && apt-get install -y chromium)`;
	try {
		require.resolve('playwright-core');
	} catch {
		return 'playwright-core is not installed (a devDependency: npm install)';
	}
	return undefined;
}

/** Chromium with a signed-in page on n8n at `base`; its HTTPS requests go through `proxy` (the registry's stand-in). */
export async function signedInPage(base: string, proxy: string): Promise<{ browser: Browser; page: Page }> {
	const { chromium } = require('playwright-core'); // eslint-disable-line @typescript-eslint/no-require-imports
	const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, proxy: { server: proxy, bypass: '127.0.0.1,localhost' } });
	const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, ignoreHTTPSErrors: true });
	const page: Page = await context.newPage();
	page.setDefaultTimeout(30_000);
	await page.goto(`${base}/signin`);
	await page.locator('input[name=emailOrLdapLoginId]').fill(OWNER.email);
	await page.locator('input[name=password]').fill(OWNER.password);
	await page.locator('button[type=submit], [data-test-id=form-submit-button]').first().click();
	await page.waitForURL((u: URL) => !u.pathname.startsWith('/signin'));
	return { browser, page };
}

/** Opens node `node` of workflow `workflowId` (its parameter panel). */
export async function openNode(page: Page, base: string, workflowId: string, node: string): Promise<Locator> {
	await page.goto(`${base}/workflow/${workflowId}`);
	await page.locator('[data-test-id=canvas-node]', { hasText: node }).first().dblclick();
	const ndv = page.locator('[data-test-id=ndv]');
	await ndv.waitFor();
	return ndv;
}

/** The output panel's text once it shows `expected` (or an error), after `start` (e.g. a click on Execute step). */
export async function outputAfter(ndv: Locator, expected: RegExp, start: () => Promise<void>, timeoutMs = 120_000): Promise<string> {
	await start();
	const output = ndv.locator('[data-test-id=output-panel]');
	await output.getByText(new RegExp(`${expected.source}|error|problem`, 'i')).first().waitFor({ timeout: timeoutMs });
	return (await output.innerText()).replace(/\s+/g, ' ');
}

/** Node `node`'s Execute step in workflow `workflowId`, as a person clicks it; resolves the output panel's text. */
export async function executeStep(page: Page, base: string, workflowId: string, node: string, expected: RegExp): Promise<string> {
	const ndv = await openNode(page, base, workflowId, node);
	const text = await outputAfter(ndv, expected, () => ndv.locator('[data-test-id=node-execute-button]').click());
	await page.locator('[data-test-id=ndv-close-button]').click();
	return text;
}
