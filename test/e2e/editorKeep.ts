/**
 * Issue 46, item 1 by clicking (registered by editor.e2e.ts, in its browser and n8n), against a sandbox of its own; run
 * alone with `-t 'signs in|keep:'`. What the person did: an intake flow (Webhook with mock data -> Lofty Lead > Create)
 * with Financing picked from its dropdown, Must-Haves mapped from an expression and a choice picked in Multi-Choice
 * Custom Fields; then, in the Lofty node's panel, the Webhook node clicked on the panel's left edge, its mock data
 * edited and saved, the Lofty node clicked on the right edge to come back, the workflow saved and the page reloaded.
 * n8n 2.41.1 then held `customFieldValues: {value: {}}` with every field removed (the mapper emptied itself when the
 * values it depended on, read from the Webhook node, changed). Asserted: what the panel shows when coming back, the
 * saved workflow after the reload, and a run after it that writes every value to the sandbox's lead. The same for a
 * node saved by node version 1.3 (its values as the person had them), which n8n emptied the same way: both nodes in one
 * workflow, one save, one reload and one run (the editor run's time). The Multi-Choice Custom Fields dropdown lists every
 * choice of the field by name (what editorPeople.ts checked before). Screenshots: keep-*.png.
 */
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore
import type { Locator } from 'playwright-core';
import { randomUUID } from 'node:crypto';

import { type Sandbox, startSandbox } from '../../sandbox';
import { NODE_TYPE } from './n8nServer';
import type { EditorTools } from './editorNoCode';

const CREDENTIAL = 'Lofty API (keep)';
const exact = (s: string): RegExp => new RegExp(`^\\s*${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);

interface SavedNode {
	name: string;
	typeVersion: number;
	parameters: Record<string, unknown> & { customFieldValues?: { value?: Record<string, unknown> | null; schema?: Array<{ id: string; removed?: boolean }> }; customFieldChoices?: string[] };
}

export function keepEditorChecks(t: EditorTools): void {
	let sandbox: Sandbox;
	let credentialId = '';
	const page = () => t.page();
	const param = (name: string): Locator => t.ndv().locator(`[data-test-id="parameter-input-${name}"]`);

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, rateLimit: { perWindow: 1_000_000, windowMs: 60_000 } });
	});
	afterAll(async () => await sandbox?.stop());

	/** One Lofty credential, on this sandbox (each check can run alone). */
	async function oneCredential(): Promise<void> {
		const listed = await t.server.rest('GET', '/rest/credentials');
		for (const c of (listed.json?.data ?? []) as Array<{ id: string; type: string }>) {
			if (c.type === 'loftyApi') expect((await t.server.rest('DELETE', `/rest/credentials/${c.id}`)).status).toBe(200);
		}
		credentialId = await t.server.createCredential(CREDENTIAL, 'loftyApi', { apiKey: sandbox.apiKey, baseUrl: sandbox.url });
	}

	/** The intake flow: a Webhook with mock data, then Lofty nodes (name: version and parameters); opened in a fresh editor. */
	async function intakeFlow(name: string, nodes: Record<string, { typeVersion: number; parameters: Record<string, unknown> }>): Promise<string> {
		const webhook = { id: randomUUID(), name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: randomUUID(), parameters: { httpMethod: 'POST', path: `intake-${randomUUID()}`, options: {} } };
		const lofty = Object.entries(nodes).map(([nodeName, { typeVersion, parameters }], i) => ({
			id: randomUUID(), name: nodeName, type: NODE_TYPE, typeVersion, position: [320, i * 200],
			parameters: { authentication: 'apiKey', resource: 'lead', operation: 'create', firstName: '={{ $json.body.firstName }}', additionalFields: { lastName: nodeName }, ...parameters },
			credentials: { loftyApi: { id: credentialId, name: CREDENTIAL } },
		}));
		const created = await t.server.rest('POST', '/rest/workflows', {
			name, nodes: [webhook, ...lofty], connections: { Webhook: { main: [lofty.map((n) => ({ node: n.name, type: 'main', index: 0 }))] } }, settings: { executionOrder: 'v1' }, active: false,
			pinData: { Webhook: [{ json: { body: { firstName: name, mustHaves: 'Pool, Garage' } } }] },
		});
		expect(created.status).toBe(200);
		const id = String((created.json?.data ?? created.json).id);
		const leave = (d: { accept: () => Promise<void> }) => void d.accept();
		page().on('dialog', leave);
		await page().goto(`${t.server.base}/workflow/${id}`);
		page().off('dialog', leave);
		await page().locator('[data-test-id=canvas-node]').first().waitFor();
		return id;
	}

	async function openLofty(name: string): Promise<void> {
		await page().locator('[data-test-id=canvas-node]').filter({ hasText: name }).first().dblclick();
		await t.ndv().waitFor();
	}

	async function savedNodes(id: string): Promise<SavedNode[]> {
		const saved = await t.server.rest('GET', `/rest/workflows/${id}`);
		return (saved.json?.data ?? saved.json).nodes as SavedNode[];
	}

	/** Waits until the mapper shows the field `id` with its input (the list loaded). */
	async function mapperShows(id: string): Promise<void> {
		await param(id).first().waitFor({ timeout: 20_000 });
	}

	/** Switches a mapper field to Expression (the switch shown on hover) and types `text` as its value. */
	async function mapExpression(id: string, text: string): Promise<void> {
		// The field's row: the nearest element around its input that holds its Fixed/Expression switch.
		const row = param(id).first().locator('xpath=ancestor::*[.//*[@data-test-id="radio-button-expression"]][1]');
		const editor = row.locator('[data-test-id=inline-expression-editor-input]').first();
		for (let i = 0; i < 3 && !(await editor.isVisible()); i++) {
			await row.hover();
			await row.locator('[data-test-id=radio-button-expression]').first().click();
			await editor.waitFor({ timeout: 15_000 }).catch(() => undefined);
		}
		const content = row.locator('[data-test-id=inline-expression-editor-input] .cm-content').first();
		for (let i = 0; i < 3 && (await content.innerText()).trim() !== text; i++) {
			await editor.click();
			await page().keyboard.press('ControlOrMeta+A');
			await page().keyboard.press('Delete');
			// Typed key by key, the editor closes each "{{" itself: the text goes in whole.
			await page().keyboard.insertText(text);
		}
		expect((await content.innerText()).trim()).toBe(text);
		await t.ndv().locator('[data-test-id=node-title-container]').first().click();
	}

	/** What the person did: the Webhook on the panel's edge, its mock data edited, back to the Lofty node. */
	async function editMockDataAndComeBack(tag: string, node: string): Promise<string[]> {
		await page().locator('[data-test-id=floating-node][data-node-name="Webhook"]').click();
		await t.ndv().locator('[data-test-id=ndv-edit-pinned-data]').first().click();
		const editor = t.ndv().locator('.cm-content').first();
		await editor.waitFor();
		await editor.click();
		await page().keyboard.press('Control+A');
		await page().keyboard.insertText(`[{"body": {"firstName": "${tag} edited", "mustHaves": "Pool, Garage, Yard"}}]`);
		await t.shot('light', `keep-${tag}-mock-data`);
		await page().getByRole('button', { name: /^Save$/ }).first().click();
		await t.ndv().getByText(`${tag} edited`).first().waitFor();
		await page().locator(`[data-test-id=floating-node][data-node-name="${node}"]`).click();
		await mapperShows('Financing');
		await mapperShows('Must-Haves');
		await t.shot('light', `keep-${tag}-back`);
		return await t.ndvLabels();
	}

	/** Saves (Ctrl+S), reloads the page and gives the nodes as n8n then holds them. */
	async function saveAndReload(id: string): Promise<SavedNode[]> {
		await page().keyboard.press('Escape');
		await t.ndv().waitFor({ state: 'hidden' });
		await page().keyboard.press('Control+s');
		for (let i = 0; i < 50 && (await page().locator('[data-test-id=workflow-save-button]').filter({ hasText: /^\s*Saved\s*$/ }).count()) === 0; i++) await page().waitForTimeout(200);
		await page().reload();
		await page().locator('[data-test-id=canvas-node]').first().waitFor();
		return await savedNodes(id);
	}

	function expectKept(node: SavedNode, where: string): void {
		const { value, schema } = node.parameters.customFieldValues ?? {};
		t.log(`keep: ${where}: customFieldValues.value ${JSON.stringify(value)}, shown ${JSON.stringify((schema ?? []).filter((f) => f.removed === false).map((f) => f.id))}, choices ${JSON.stringify(node.parameters.customFieldChoices)}`);
		expect(value).toEqual({ Financing: 'FHA', 'Must-Haves': '={{ $json.body.mustHaves }}' });
		expect((schema ?? []).filter((f) => f.removed === false).map((f) => f.id).sort()).toEqual(['Financing', 'Must-Haves']);
		expect(node.parameters.customFieldChoices).toEqual([JSON.stringify(['Must-Haves', 'Home Office'])]);
	}

	/** Runs the saved workflow from the Webhook's mock data; the sandbox's lead made by each node (its last name), by field. */
	async function runAndRead(id: string, firstName: string, nodes: string[]): Promise<Record<string, Record<string, unknown>>> {
		const result = await t.server.runWorkflow(id, 'Webhook');
		expect(result.status).toBe('success');
		const byNode: Record<string, Record<string, unknown>> = {};
		for (const node of nodes) {
			const lead = [...sandbox.store.leads.values()].find((l) => l.firstName === firstName && l.lastName === node);
			byNode[node] = Object.fromEntries((lead?.customAttributes ?? []).map((a) => [a.attributeName, a.value]));
		}
		return byNode;
	}

	test('keep: custom fields set by clicking, and those of a node saved by 1.3, survive the input node opened from the panel, its mock data edited, a save and a reload', async () => {
		await oneCredential();
		await page().emulateMedia({ colorScheme: 'light' });
		const schema = [
			{ id: 'Financing', displayName: 'Financing', required: false, defaultMatch: false, canBeUsedToMatch: false, display: true, removed: false, type: 'options', options: ['Cash', 'Conventional', 'FHA', 'VA'].map((v) => ({ name: v, value: v })) },
			{ id: 'Must-Haves', displayName: 'Must-Haves (Several, Comma-Separated)', required: false, defaultMatch: false, canBeUsedToMatch: false, display: true, removed: false, type: 'string' },
		];
		const older = {
			customFieldValues: { mappingMode: 'defineBelow', value: { Financing: 'FHA', 'Must-Haves': '={{ $json.body.mustHaves }}' }, matchingColumns: [], schema, attemptToConvertTypes: false, convertFieldsToString: true },
			customFieldChoices: [JSON.stringify(['Must-Haves', 'Home Office'])],
		};
		const id = await intakeFlow('Keep', { 'Intake 1.4': { typeVersion: 1.4, parameters: {} }, 'Intake 1.3': { typeVersion: 1.3, parameters: older } });
		await openLofty('Intake 1.4');
		// Financing from its dropdown, Must-Haves from an expression, a choice from Multi-Choice Custom Fields.
		const add = t.ndv().locator('button', { hasText: /Add custom field/ });
		for (const field of ['Financing', 'Must-Haves (List)']) {
			await add.click();
			await page().locator('[role=menuitem]:visible').filter({ hasText: exact(field) }).first().click();
		}
		await param('Financing').locator('input').first().click();
		await page().locator('.el-select-dropdown__item:visible', { hasText: exact('FHA') }).click();
		await mapExpression('Must-Haves', '{{ $json.body.mustHaves }}');
		// n8n disables the select while it loads the choices from Lofty: click until the list opens.
		const listed = page().locator('.el-select-dropdown__item:visible').first();
		for (let i = 0; i < 4 && !(await listed.isVisible()); i++) {
			await param('customFieldChoices').locator('.el-select').first().click();
			await listed.waitFor({ timeout: 10_000 }).catch(() => undefined);
		}
		expect(await t.openOptions()).toEqual(expect.arrayContaining(['Must-Haves: Pool', 'Must-Haves: Garage', 'Must-Haves: Yard', 'Must-Haves: Home Office']));
		await page().locator('.el-select-dropdown__item:visible', { hasText: exact('Must-Haves: Home Office') }).click();
		await t.closeDropdown();
		await t.shot('light', 'keep-set');
		const labels = await editMockDataAndComeBack('Keep', 'Intake 1.4');
		expect(labels).toEqual(expect.arrayContaining(['Custom Fields', 'Financing', 'Must-Haves (List)', 'Multi-Choice Custom Fields']));
		// The node saved by 1.3: opened, the same clicks.
		await page().keyboard.press('Escape');
		await t.ndv().waitFor({ state: 'hidden' });
		await openLofty('Intake 1.3');
		await mapperShows('Financing');
		await editMockDataAndComeBack('Keep', 'Intake 1.3');
		const nodes = await saveAndReload(id);
		expect(nodes.find((n) => n.name === 'Intake 1.3')!.typeVersion).toBe(1.3);
		for (const name of ['Intake 1.4', 'Intake 1.3']) expectKept(nodes.find((n) => n.name === name)!, `${name} after the panel switch, a save and a reload`);
		await t.shot('light', 'keep-reloaded');
		const written = { Financing: 'FHA', 'Must-Haves': '["Home Office","Pool","Garage","Yard"]' };
		expect(await runAndRead(id, 'Keep edited', ['Intake 1.4', 'Intake 1.3'])).toEqual({ 'Intake 1.4': written, 'Intake 1.3': written });
		await t.expectNoErrorOnScreen('custom fields kept');
	});
}
