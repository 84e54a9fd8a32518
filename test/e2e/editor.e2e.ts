/**
 * The editor in a real browser (`npx jest -c jest.e2e.config.js test/e2e/editor.e2e.ts`): Debian's Chromium
 * (/usr/bin/chromium) driven by playwright-core against a real n8n (n8nServer.ts: the packed package installed
 * as a community node, owner created without the UI). It does what a person does and asserts on what they see:
 *
 *   - signs in at /signin with the owner's email and password
 *   - node search: typing "Lofty" finds the package with its icon; its details list the Lofty Trigger's events
 *     (Triggers) and the Lofty node's operations (Actions)
 *   - Lofty Trigger: "Trigger On" with the events, the HTTPS notice
 *   - the credential dialog for both types: Lofty API (API Key, Base URL) and Lofty OAuth2 API (Grant Type with
 *     Authorization Code / with PKCE, Client ID, Client Secret and Client Authentication hidden for PKCE)
 *   - Lofty: Lead > Create, Lead > Get Many, Transaction > Get Many, System Log > Get Many picked in the
 *     Resource/Operation dropdowns: field labels in order, required fields before the optional ones,
 *     "Additional Fields"/"Filters" with their options, Return All hiding Limit
 *   - no error notifications, no browser errors that concern the package (console errors, uncaught page
 *     errors, failed requests whose address names the package); the rest is written to the log
 *   - custom fields by name, Lead > Create or Update and the Output choice, against a sandbox (editorNoCode.ts)
 *   - flows built by hand from the node search: credential picked, fields, a tag from the dropdown, a custom field, a
 *     date from the picker, run (editorByHand.ts); what the README and docs/operations.md say the editor shows (editorClaims.ts); the
 *     follow-up-tasks example run twice (examplesNoCode.ts)
 *   - every search phrase docs/operations.md names, and the credential a new Lofty node gets with the try-out's
 *     credentials (editorSearch.ts); Lofty's tool server called without a model by n8n's MCP Client node
 *     (toolServerNoModel.ts)
 *   - screenshots in light and dark (prefers-color-scheme, which n8n follows by default) under
 *     screenshots/editor/ (git-ignored)
 *
 * Skips with a log line when /usr/bin/chromium or playwright-core is missing. No browser is downloaded.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

// Types only: erased at run time. The ts-ignore keeps the file compiling (and the suite skipping) on a machine
// without playwright-core; with it installed, the types are the real ones.
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore
import type { Browser, ConsoleMessage, Page, Request, Response } from 'playwright-core';

import { RESOURCES } from '../../nodes/Lofty/resources';
import { byHandEditorChecks } from './editorByHand';
import { claimEditorChecks } from './editorClaims';
import { noCodeEditorChecks } from './editorNoCode';
import { tagEditorChecks } from './editorTags';
import { peopleEditorChecks } from './editorPeople';
import { exampleRunChecks } from './examplesNoCode';
import { tryoutEditorChecks } from './editorTryout';
import { searchEditorChecks } from './editorSearch';
import { keepEditorChecks } from './editorKeep';
import { toolServerNoModelChecks } from './toolServerNoModel';
import { editorPage, exact } from './editorPage';
import { N8nServer, OWNER, ROOT } from './n8nServer';

const VERSION = process.env.LOFTY_E2E_N8N_VERSION || '2.41.1';
const CHROMIUM = process.env.LOFTY_E2E_CHROMIUM || '/usr/bin/chromium';
const SHOTS = path.join(ROOT, 'screenshots', 'editor');
// The flags the machine notes prescribe: without the background-networking ones Chromium keeps dialling out
// into a closed network.
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function missingPrerequisite(): string | undefined {
	if (!fs.existsSync(CHROMIUM)) return `${CHROMIUM} not found (install it with: apt-get update && apt-get install -y chromium)`;
	try {
		require.resolve('playwright-core');
	} catch {
		return 'playwright-core is not installed (it is a devDependency: npm install)';
	}
	return undefined;
}

const missing = missingPrerequisite();
if (missing) process.stdout.write(`[editor e2e] SKIPPED: ${missing}\n`);


/** A browser problem seen during the run; `ours` when it concerns the package. */
interface Problem {
	kind: string;
	text: string;
	ours: boolean;
}

(missing ? describe.skip : describe)(`the editor in Chromium (n8n ${VERSION})`, () => {
	const server = new N8nServer(VERSION, `editor-${VERSION}`);
	let browser: Browser;
	let page: Page;
	const problems: Problem[] = [];
	const t0 = Date.now();
	let shotCount = 0;
	const shots: string[] = [];

	const log = (msg: string): void => {
		process.stdout.write(`[editor e2e +${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}\n`);
	};

	async function shot(theme: 'light' | 'dark', name: string): Promise<void> {
		const file = path.join(SHOTS, `${String(++shotCount).padStart(2, '0')}-${theme}-${name}.png`);
		await page.screenshot({ path: file });
		shots.push(path.relative(ROOT, file));
	}

	// The page functions (editorPage.ts) on this run's page.
	const ui = editorPage(() => page);
	const { ndv, credentialModal, creator, labelsIn, ndvLabels, openOptions, pick, closeDropdown, dropdownClosed, expectValue, expectBefore } = ui;
	const { collectionOptions, expectNoErrorOnScreen, expectOurIcon, openNodeCreatorAndSearch, closeCredentialModalWithoutSaving, closeNdv, openNewCredentialDialog } = ui;
	const { addFromNodeSearch, pickedCredential, pickDayNextMonth } = ui;

	beforeAll(async () => {
		fs.rmSync(SHOTS, { recursive: true, force: true });
		fs.mkdirSync(SHOTS, { recursive: true });
		await server.start();
		const { chromium } = require('playwright-core'); // eslint-disable-line @typescript-eslint/no-require-imports
		browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
		const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
		page = await context.newPage();
		page.setDefaultTimeout(20_000);
		const origin = server.base;
		const concernsUs = (s: string): boolean => /lofty/i.test(s);
		page.on('console', (m: ConsoleMessage) => {
			if (m.type() !== 'error') return;
			const loc = m.location()?.url ?? '';
			problems.push({ kind: 'console', text: `${m.text()}${loc ? ` (${loc})` : ''}`, ours: concernsUs(m.text()) });
		});
		page.on('pageerror', (e: Error) => problems.push({ kind: 'pageerror', text: `${e.message}\n${e.stack ?? ''}`, ours: concernsUs(`${e.message} ${e.stack}`) }));
		page.on('requestfailed', (r: Request) => {
			const url = r.url();
			// The editor asks registry.npmjs.org about community packages from the browser: offline here.
			problems.push({ kind: 'requestfailed', text: `${r.method()} ${url}: ${r.failure()?.errorText}`, ours: url.startsWith(origin) && concernsUs(url) });
		});
		page.on('response', (r: Response) => {
			if (r.status() < 400) return;
			const url = r.url();
			// n8n probes /schemas/<type>/<version>.json for a schema preview of a node's output; a package without
			// __schema__ files answers 404 there, as most community packages do. Reported, not failed.
			const schemaProbe = r.status() === 404 && new URL(url).pathname.startsWith('/schemas/');
			problems.push({ kind: `http ${r.status()}`, text: `${r.request().method()} ${url}`, ours: url.startsWith(origin) && concernsUs(url) && !schemaProbe });
		});
		log(`Chromium ${browser.version()} (${CHROMIUM}), screenshots in ${path.relative(ROOT, SHOTS)}/`);
	});

	afterAll(async () => {
		await browser?.close().catch(() => undefined);
		await server.stop();
		if (problems.length) {
			const lines = problems.map((p) => `${p.ours ? 'OURS ' : 'other'} ${p.kind}: ${p.text.split('\n')[0]}`);
			fs.writeFileSync(path.join(server.dir, 'browser-problems.log'), `${lines.join('\n')}\n`);
			log(`browser problems not concerning the package (${problems.filter((p) => !p.ours).length}), see ${path.relative(ROOT, path.join(server.dir, 'browser-problems.log'))}:\n  ${[...new Set(lines)].join('\n  ')}`);
		}
		log(`screenshots:\n  ${shots.join('\n  ')}`);
		log(`done in ${((Date.now() - t0) / 1000).toFixed(1)}s (n8n: ${JSON.stringify(server.timings)})`);
	});

	afterEach(() => {
		const ours = problems.filter((p) => p.ours);
		if (ours.length) throw new Error(`browser problems concerning the package:\n${ours.map((p) => `${p.kind}: ${p.text}`).join('\n')}`);
	});

	test('signs in at /signin with email and password', async () => {
		await page.goto(`${server.base}/signin`);
		await page.locator('input[name=emailOrLdapLoginId]').fill(OWNER.email);
		await page.locator('input[name=password]').fill(OWNER.password);
		await page.locator('[data-test-id=form-submit-button]').click();
		await page.waitForURL((u: URL) => !u.pathname.startsWith('/signin'));
		log(`signed in, at ${new URL(page.url()).pathname}`);
	});

	test('node search: "Lofty" finds the package with its icon; Triggers (Lofty Trigger) and Actions (Lofty)', async () => {
		await page.goto(`${server.base}/workflow/new`);
		await page.locator('[data-test-id=canvas-add-button]').waitFor({ timeout: 60_000 });
		await openNodeCreatorAndSearch(page.locator('[data-test-id=canvas-add-button]'));
		// 2.41 lists the package as an action item, 2.8 as a node item.
		const item = creator().locator('[data-test-id=node-creator-action-item], [data-test-id=node-creator-node-item]').filter({ has: page.locator('[data-test-id=node-creator-item-name]', { hasText: exact('Lofty') }) });
		await expectOurIcon(item.first(), 'light');
		// 2.41 shows the node's description under its name in the search results; 2.8 shows the name only.
		const description = item.first().locator('[data-test-id=node-creator-item-description]');
		if (await description.count()) await expect(description.innerText()).resolves.toMatch(/Lofty/);
		else log(`node search: n8n ${VERSION} shows no description in the search results`);
		await shot('light', 'node-search');

		await item.first().click();
		const details = await creator().innerText();
		// The trigger's events and the action node's operations, under the one package entry.
		expect(details).toMatch(/Triggers \(12\)/);
		expect(details).toContain(`Actions (${RESOURCES.reduce((n, r) => n + r.operations.length, 0)})`);
		for (const t of ['On lead info', 'On transaction', 'On task']) expect(details).toContain(t);
		await expectOurIcon(creator(), 'light');
		await expectNoErrorOnScreen('node search');
		await shot('light', 'node-details');
	});

	test('Lofty Trigger: "Trigger On" with the events, the HTTPS notice', async () => {
		await creator().locator('[data-test-id=node-creator-item-name]', { hasText: exact('On lead info') }).first().click();
		await ndv().waitFor();
		await expect(ndv().locator('[data-test-id=node-title-container]').innerText()).resolves.toMatch(/Lofty Trigger/);
		await expectOurIcon(ndv().locator('[data-test-id=node-title-container]').locator('..'), 'light');
		const text = await ndv().locator('[data-test-id=node-parameters]').innerText();
		// One notice (not three boxes): HTTPS and WEBHOOK_URL, the other mode without a public address, the full records.
		expect(text).toMatch(/Lofty sends events only to a public HTTPS address/);
		expect(text).toMatch(/WEBHOOK_URL/);
		expect(text).toMatch(/Use the Lofty Polling Trigger/);
		expect(text).toMatch(/Webhook > Get Event Record/);
		const labels = await ndvLabels();
		expect(labels).toEqual(expect.arrayContaining(['Trigger On', 'Options']));
		// Fetch Full Record (replaced by Get Event Record) is shown only in workflows that have it on.
		expect(labels).not.toContain('Fetch Full Record');
		expectBefore(labels, 'Trigger On', ['Options']);
		// The event picked in the node search is preselected; the list has all 12 events.
		await expect(ndv().locator('[data-test-id=parameter-input-events]').innerText()).resolves.toMatch(/Lead Info/);
		await shot('light', 'trigger-panel');
		await ndv().locator('[data-test-id=parameter-input-events]').click();
		const events = await openOptions();
		expect(events).toEqual(expect.arrayContaining(['Agent Info', 'Appointment', 'Call', 'Email', 'Lead Activity', 'Lead Info', 'Listing Alert', 'Note', 'Pipeline Change', 'Task', 'Text', 'Transaction']));
		await shot('light', 'trigger-events');
		await page.keyboard.press('Escape');
		await expectNoErrorOnScreen('trigger panel');
		log(`Lofty Trigger: ${labels.join(' | ')}; ${events.length} events`);
	});

	test('credential dialogs: Lofty API (API Key, Base URL) and Lofty OAuth2 API (Grant Type, Client ID, Client Secret and Client Authentication hidden for PKCE)', async () => {
		await openNewCredentialDialog();
		const modal = credentialModal();
		await modal.waitFor();
		await expect(modal.innerText()).resolves.toMatch(/Lofty API/);
		await expectOurIcon(modal, 'light');
		let labels = await labelsIn(modal);
		expect(labels).toEqual(expect.arrayContaining(['API Key', 'Base URL', 'Rate Limit']));
		expectBefore(labels, 'API Key', ['Base URL', 'Rate Limit']);
		// Where the key is, in view above the field (not only in its tooltip).
		await expect(modal.innerText()).resolves.toMatch(/Your API key is in Lofty under Settings > Integrations > API/);
		await expectValue(modal, 'baseUrl', 'https://api.lofty.com');
		await expect(modal.locator('[data-test-id=parameter-input-apiKey] input').getAttribute('type')).resolves.toBe('password');
		await shot('light', 'credential-api-key');

		// The mode switch in the dialog: the node's Authentication options.
		// 2.41: a menu; 2.8: radio buttons.
		const modeMenu = modal.locator('[data-test-id=credential-mode-dropdown-trigger]');
		const modeRadios = modal.locator('[data-test-id=node-auth-type-selector]');
		await modeMenu.or(modeRadios).first().waitFor();
		if (await modeMenu.count()) {
			await modeMenu.click();
			await page.locator('[role=menuitem]:visible', { hasText: exact('OAuth2') }).first().click();
		} else await modeRadios.getByText('OAuth2', { exact: true }).first().click();
		await expect(modal.innerText()).resolves.toMatch(/Lofty OAuth2 API/);
		await modal.locator('[data-test-id=parameter-input-grantType]').waitFor();
		labels = await labelsIn(modal);
		expect(labels).toEqual(expect.arrayContaining(['Grant Type', 'Authorization URL', 'Access Token URL', 'Client ID', 'Client Secret', 'Client Authentication', 'Base URL']));
		await expectValue(modal, 'grantType', 'Authorization Code');
		await expectValue(modal, 'authentication', 'Header (HTTP Basic)');
		await modal.locator('[data-test-id=parameter-input-authentication]').click();
		expect(await openOptions()).toEqual(['Header (HTTP Basic)', 'Body']);
		await page.keyboard.press('Escape');
		await dropdownClosed();
		await modal.locator('[data-test-id=parameter-input-grantType]').click();
		expect(await openOptions()).toEqual(['Authorization Code', 'Authorization Code with PKCE', 'Client Credentials']);
		await page.keyboard.press('Escape');
		await modal.locator('[data-test-id=parameter-input-clientSecret]').scrollIntoViewIfNeeded();
		await shot('light', 'credential-oauth2');

		await pick(modal, 'grantType', 'Authorization Code with PKCE');
		await modal.locator('[data-test-id=parameter-input-clientSecret]').waitFor({ state: 'detached' });
		labels = await labelsIn(modal);
		expect(labels).toContain('Client ID');
		expect(labels).not.toContain('Client Secret');
		expect(labels).not.toContain('Client Authentication');
		await modal.locator('[data-test-id=parameter-input-baseUrl]').scrollIntoViewIfNeeded();
		await shot('light', 'credential-oauth2-pkce');
		await expectNoErrorOnScreen('credential dialog');
		log(`OAuth2 with PKCE: ${labels.join(' | ')}`);

		// Client Credentials: no browser step (no Authorization URL), the acting user's key instead.
		await pick(modal, 'grantType', 'Client Credentials');
		await modal.locator('[data-test-id=parameter-input-customerApiKey]').waitFor();
		labels = await labelsIn(modal);
		expect(labels).toEqual(expect.arrayContaining(['Customer Key', 'Client ID', 'Client Secret', 'Access Token URL']));
		expect(labels).not.toContain('Authorization URL');
		await expectNoErrorOnScreen('credential dialog, Client Credentials');
		log(`OAuth2 Client Credentials: ${labels.join(' | ')}`);
		await closeCredentialModalWithoutSaving();
		await closeNdv();
	});

	test('Lofty: Lead > Create (First Name first, then Additional Fields)', async () => {
		await openNodeCreatorAndSearch(page.locator('[data-test-id=canvas-handle-plus]').first());
		await creator().locator('[data-test-id=node-creator-item-name]', { hasText: exact('Lofty') }).first().click();
		await creator().locator('[data-test-id=node-creator-item-name]', { hasText: exact('Create a lead') }).first().click();
		await ndv().waitFor();
		await expectValue(ndv(), 'resource', 'Lead');
		await expectValue(ndv(), 'operation', 'Create');
		const labels = await ndvLabels();
		// No credential yet: the Custom Fields mapper, which lists the fields from Lofty, is not shown (editorNoCode.ts);
		// Multi-Choice Custom Fields is a dropdown, shown empty until a credential lists the choices.
		expect(labels).toEqual(['Credential', 'Resource', 'Operation', 'First Name', 'Output', 'Multi-Choice Custom Fields', 'Additional Fields', 'Request Options']);
		await expectOurIcon(ndv(), 'light');
		const fields = await collectionOptions('Additional Fields');
		expect(fields).toEqual(expect.arrayContaining(['Last Name', 'Emails', 'Phones', 'Source', 'Stage Name or ID', 'Tags', 'Assigned Agent Name or ID']));
		// One tag field on Create (node version 1.2; older versions keep Tags to Add for their saved workflows).
		expect(fields.filter((f) => /\bTags?\b/.test(f))).toEqual(['Tags']);
		await shot('light', 'lead-create');
		await expectNoErrorOnScreen('Lead > Create');
		log(`Lead > Create: ${labels.join(' | ')}; Additional Fields: ${fields.length} options`);
	});

	test('Lofty: Lead > Get Many (Return All hides Limit; Filters)', async () => {
		// Start from another resource, as a person who changes their mind would.
		await pick(ndv(), 'resource', 'Transaction');
		await pick(ndv(), 'resource', 'Lead');
		await pick(ndv(), 'operation', 'Get Many');
		const labels = await ndvLabels();
		expect(labels).toEqual(['Credential', 'Resource', 'Operation', 'Return All', 'Limit', 'Output', 'Filters', 'Options', 'Request Options']);
		await expectValue(ndv(), 'limit', '50');
		const filters = await collectionOptions('Filters');
		expect(filters).toEqual(expect.arrayContaining(['Search Text', 'Email', 'Phone', 'Stage Name or ID', 'Source']));
		await shot('light', 'lead-get-many');

		await ndv().locator('[data-test-id=parameter-input-returnAll] .el-switch, [data-test-id=parameter-input-returnAll] [role=switch]').first().click();
		await ndv().locator('[data-test-id=parameter-input-limit]').waitFor({ state: 'detached' });
		expect(await ndvLabels()).toEqual(['Credential', 'Resource', 'Operation', 'Return All', 'Output', 'Filters', 'Options', 'Request Options']);
		await shot('light', 'lead-get-many-return-all');
		await ndv().locator('[data-test-id=parameter-input-returnAll] .el-switch, [data-test-id=parameter-input-returnAll] [role=switch]').first().click();
		await ndv().locator('[data-test-id=parameter-input-limit]').waitFor();
		await expectNoErrorOnScreen('Lead > Get Many');
		log(`Lead > Get Many: ${labels.join(' | ')}; Filters: ${filters.length} options`);
	});

	test('Lofty: Transaction > Get Many (Transaction Type first, then Return All, Limit, Filters)', async () => {
		await pick(ndv(), 'resource', 'Transaction');
		await pick(ndv(), 'operation', 'Get Many');
		const labels = await ndvLabels();
		expect(labels).toEqual(expect.arrayContaining(['Transaction Type', 'Return All', 'Limit', 'Filters']));
		expectBefore(labels, 'Transaction Type', ['Return All', 'Limit', 'Simplify', 'Filters', 'Request Options']);
		expectBefore(labels, 'Return All', ['Limit', 'Filters']);
		const filters = await collectionOptions('Filters');
		expect(filters).toEqual(expect.arrayContaining(['Lead ID', 'Search Text']));
		await shot('light', 'transaction-get-many');
		await expectNoErrorOnScreen('Transaction > Get Many');
		log(`Transaction > Get Many: ${labels.join(' | ')}`);
	});

	test('Lofty: System Log > Get Many (Lead first, then Return All, Limit, Filters)', async () => {
		await pick(ndv(), 'resource', 'System Log');
		await expectValue(ndv(), 'operation', 'Get Many');
		const labels = await ndvLabels();
		expect(labels).toEqual(expect.arrayContaining(['Lead', 'Return All', 'Limit', 'Filters']));
		expectBefore(labels, 'Lead', ['Return All', 'Limit', 'Filters', 'Request Options']);
		const filters = await collectionOptions('Filters');
		expect(filters).toEqual(expect.arrayContaining(['From', 'To']));
		await shot('light', 'system-log-get-many');
		await expectNoErrorOnScreen('System Log > Get Many');
		log(`System Log > Get Many: ${labels.join(' | ')}`);
		await closeNdv();
		await expectOurIcon(page.locator('[data-test-id=canvas-node]').first(), 'light');
		await shot('light', 'canvas');
	});

	test('dark theme: canvas, node search, Lofty panel, credential dialog, trigger', async () => {
		await page.emulateMedia({ colorScheme: 'dark' });
		await page.waitForTimeout(500);
		const canvasNodes = page.locator('[data-test-id=canvas-node]');
		expect(await canvasNodes.count()).toBe(2);
		await expectOurIcon(canvasNodes.first(), 'dark');
		await shot('dark', 'canvas');

		await openNodeCreatorAndSearch(page.locator('[data-test-id=node-creator-plus-button]'));
		await expectOurIcon(creator(), 'dark');
		await shot('dark', 'node-search');
		await page.keyboard.press('Escape');
		await creator().waitFor({ state: 'hidden' }).catch(() => undefined);

		const actionNode = canvasNodes.filter({ hasNotText: 'Lofty Trigger' }).first();
		await actionNode.dblclick();
		await ndv().waitFor();
		await pick(ndv(), 'resource', 'Lead');
		await pick(ndv(), 'operation', 'Create');
		await expectOurIcon(ndv(), 'dark');
		await shot('dark', 'lead-create');
		await openNewCredentialDialog();
		await credentialModal().waitFor();
		await expectOurIcon(credentialModal(), 'dark');
		await shot('dark', 'credential-api-key');
		await closeCredentialModalWithoutSaving();
		await closeNdv();

		await canvasNodes.filter({ hasText: 'Lofty Trigger' }).first().dblclick();
		await ndv().waitFor();
		await expect(ndv().locator('[data-test-id=node-parameters]').innerText()).resolves.toMatch(/Lofty sends events only to a public HTTPS address/);
		await shot('dark', 'trigger-panel');
		await expectNoErrorOnScreen('dark theme');
		await closeNdv();
	});

	// What the checks in other files work the page with.
	const tools = {
		server, page: () => page, ndv, shot, pick, openOptions, closeDropdown, ndvLabels, expectNoErrorOnScreen, log,
		addFromNodeSearch, pickedCredential, pickDayNextMonth, newWorkflow: async () => await ui.newWorkflow(server.base),
	};

	// Custom fields by name, Create or Update and the Output choice, with a credential on a sandbox (editorNoCode.ts).
	noCodeEditorChecks(tools);

	// Flows built by hand: search, add, credential picked automatically, fields, run (editorByHand.ts).
	byHandEditorChecks(tools);

	// What the README and docs/operations.md say the editor shows: dropdowns from Lofty, From List pickers, Fetch Test Event (editorClaims.ts).
	claimEditorChecks(tools);

	// Issue 28 by clicking: no merge of two people, the agent's zone, multi-choice choices (editorPeople.ts).
	peopleEditorChecks(tools);

	// The follow-up-tasks example run twice (examplesNoCode.ts): Lofty as after one run, due 09:00 in each agent's zone.
	exampleRunChecks({ server, log });

	tagEditorChecks(tools);
	tryoutEditorChecks(tools); // editorTryout.ts
	// The search phrases docs/operations.md names, and the credential a new node gets with the try-out's (editorSearch.ts).
	searchEditorChecks(tools);
	keepEditorChecks(tools);
	// Lofty's tool server tried without a model: n8n's MCP Client node (toolServerNoModel.ts).
	toolServerNoModelChecks({ server, log });
});
