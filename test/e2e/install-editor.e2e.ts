/**
 * The package installed as a user installs it (n8n 2.41.1, Debian's Chromium driven by playwright-core): nothing is
 * copied into n8n's folder by hand. A local registry on loopback serves the packed tarball (installServer.ts,
 * scripts/registry.js), and in the editor, as a person does:
 *
 *   - Settings > Community Nodes > Install: `n8n-nodes-lofty` typed, the risk box ticked, Install; n8n fetches the
 *     package from the registry and lists it; a Lofty node's Execute step then runs against the sandbox
 *   - a newer version published to the registry is offered on the package's card; Update (and its confirmation)
 *     installs it: n8n's folder holds the new version and the node still runs
 *   - Uninstall (and its confirmation): the card is gone, n8n no longer knows the node types, and n8n's nodes folder
 *     holds what it held before the install (no package folder, no dependency entry, no tarball, no backup)
 *
 * Skips with a log line when /usr/bin/chromium or playwright-core is missing (CI installs Chromium first).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore
import type { Browser, Page } from 'playwright-core';

import { type Sandbox, SEED_IDS, startSandbox } from '../../sandbox';
import { PACKAGE_NAME, ROOT } from './n8nServer';
import { RegistryN8nServer, installedInNodesDir } from './installServer';
import { browserMissing, executeStep, signedInPage } from './installPage';
import { chain, loftyNode } from './suite';
import { byId } from './plan';

const VERSION = '2.41.1';
const SHOTS = path.join(ROOT, 'screenshots', 'install');
const missing = browserMissing();
if (missing) process.stdout.write(`[install e2e] SKIPPED: ${missing}\n`);

(missing ? describe.skip : describe)(`installed from a registry in the editor (n8n ${VERSION})`, () => {
	const server = new RegistryN8nServer(VERSION, 'install-editor');
	let sandbox: Sandbox;
	let browser: Browser;
	let page: Page;
	let workflowId = '';
	let before: string[] = [];
	let shots = 0;

	const shot = async (name: string) => page.screenshot({ path: path.join(SHOTS, `${String(++shots).padStart(2, '0')}-${name}.png`) });
	const card = () => page.locator('[data-test-id=community-package-card]', { hasText: PACKAGE_NAME });
	const notification = (text: RegExp) => page.locator('.el-notification:visible', { hasText: text }).first();

	/** The package's card on Settings > Community Nodes, freshly loaded (n8n asks npm about updates on load). */
	async function openCommunityNodes(): Promise<void> {
		await page.goto(`${server.base}/settings/community-nodes`);
		await page
			.locator('.n8n-heading', { hasText: /^Community nodes$/ })
			.first()
			.waitFor({ timeout: 60_000 })
			.catch(async (e: Error) => {
				await shot('community-nodes-not-shown');
				fs.writeFileSync(path.join(SHOTS, 'page.html'), await page.content());
				throw e;
			});
	}

	const runLofty = () => executeStep(page, server.base, workflowId, 'Lofty', /leadId/);

	/** The node types n8n knows of this package (what the node panel offers). */
	async function knownTypes(): Promise<string[]> {
		const r = await server.rest('GET', '/types/nodes.json');
		const list: Array<{ name: string }> = r.json ?? [];
		return [...new Set(list.map((t) => t.name).filter((n) => n.startsWith(`${PACKAGE_NAME}.`)))].sort();
	}

	beforeAll(async () => {
		fs.rmSync(SHOTS, { recursive: true, force: true });
		fs.mkdirSync(SHOTS, { recursive: true });
		sandbox = await startSandbox({ port: 0 });
		await server.start();
		before = installedInNodesDir(server.nodesDir).entries;
		// The editor asks registry.npmjs.org about packages from the browser too: through the same stand-in.
		({ browser, page } = await signedInPage(server.base, server.registry.env.HTTPS_PROXY));
	});

	afterAll(async () => {
		await browser?.close().catch(() => undefined);
		await server.stop();
		await sandbox?.stop();
	});

	test('Settings > Community Nodes > Install n8n-nodes-lofty: n8n fetches it from the registry, and a Lofty node runs against the sandbox', async () => {
		expect({ types: await knownTypes(), installed: installedInNodesDir(server.nodesDir).folder }).toEqual({ types: [], installed: undefined });
		await openCommunityNodes();
		await page.getByRole('button', { name: /^Install/ }).first().click();
		await page.locator('[data-test-id=package-name-input]').fill(PACKAGE_NAME);
		await page.locator('[data-test-id=user-agreement-checkbox]').click();
		await shot('install-dialog');
		await page.locator('[data-test-id=install-community-package-button]').click();
		await notification(/Package installed/).waitFor({ timeout: 180_000 });
		await card().waitFor();
		await shot('installed');
		expect(await card().innerText()).toContain(PACKAGE_NAME);
		expect(installedInNodesDir(server.nodesDir)).toMatchObject({ folder: server.pack!.version, listed: server.pack!.version });
		expect(await knownTypes()).toEqual([`${PACKAGE_NAME}.lofty`, `${PACKAGE_NAME}.loftyPollingTrigger`, `${PACKAGE_NAME}.loftyTool`, `${PACKAGE_NAME}.loftyTrigger`]);
		// What n8n fetched came from the local registry, through the stand-in.
		expect(server.registry.requests.filter((r: { path: string; status: number }) => r.path.endsWith('.tgz') && r.status === 200).length).toBeGreaterThan(0);

		const credential = await server.createCredential('Lofty API (installed)', 'loftyApi', { apiKey: sandbox.apiKey, baseUrl: sandbox.url });
		const creds = { api: { id: credential, name: 'Lofty API (installed)' }, oauth: {} };
		workflowId = await server.createWorkflow(chain('Installed from the registry', [loftyNode({ name: 'Lofty', resource: 'lead', operation: 'get', params: { leadId: byId(SEED_IDS.bigLeadId) } }, creds, 300)]));
		const shown = await runLofty();
		await shot('executed');
		expect(shown).toContain(SEED_IDS.bigLeadId);
	});

	test('a newer version published to the registry is offered, and Update installs it', async () => {
		const next = await server.publishNextVersion();
		await openCommunityNodes();
		const update = card().getByRole('button', { name: /Update/ });
		await update.waitFor({ timeout: 60_000 });
		await shot('update-offered');
		await update.click();
		await page.getByRole('button', { name: /Confirm update/ }).click();
		await notification(/Package updated/).waitFor({ timeout: 180_000 });
		await shot('updated');
		expect(installedInNodesDir(server.nodesDir)).toMatchObject({ folder: next, listed: next });
		const listed = await server.rest('GET', '/rest/community-packages');
		expect((listed.json?.data ?? listed.json).map((p: { packageName: string; installedVersion: string }) => `${p.packageName}@${p.installedVersion}`)).toEqual([`${PACKAGE_NAME}@${next}`]);
		expect(await runLofty()).toContain(SEED_IDS.bigLeadId);
	});

	test('Uninstall leaves nothing behind: no card, no node types, the nodes folder as before the install', async () => {
		await openCommunityNodes();
		await card().locator('[data-test-id=action-toggle]').click();
		await page.getByText('Uninstall package').last().click();
		await page.getByRole('button', { name: /Confirm uninstall/ }).click();
		await notification(/Package uninstalled/).waitFor({ timeout: 120_000 });
		await card().waitFor({ state: 'detached' });
		await shot('uninstalled');
		const listed = await server.rest('GET', '/rest/community-packages');
		expect(listed.json?.data ?? listed.json).toEqual([]);
		expect(await knownTypes()).toEqual([]);
		const after = installedInNodesDir(server.nodesDir);
		expect({ folder: after.folder, listed: after.listed }).toEqual({ folder: undefined, listed: undefined });
		expect(after.entries.filter((e) => !before.includes(e))).toEqual([]);
	});
});
