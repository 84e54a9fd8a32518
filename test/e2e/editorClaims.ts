/**
 * What the README and docs/operations.md say the editor shows, checked in the editor (registered by editor.e2e.ts, in its browser and n8n),
 * against a sandbox of its own. One workflow holds a node per claim (imported: the claims are about the panels, the
 * by-hand checks in editorByHand.ts build nodes from the search); each panel is opened as a person opens it and
 * the list clicked open:
 *   - dropdowns loaded from Lofty: agents and stages (Lead > Create), ponds, transaction types and statuses,
 *     routing roles, webhook subscriptions, the Lofty Trigger's stage and transaction-field filters (tags and custom fields: editorByHand.ts, editorNoCode.ts);
 *   - searchable lists (From List) of transactions, tasks, appointments, agents and team members (leads:
 *     editorByHand.ts);
 *   - the Lofty Polling Trigger's Fetch Test Event: the newest records, nothing changed in Lofty.
 * Lists are compared with the sandbox's seed (named ponds, roles, agents, subscriptions) where it names them.
 */
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore
import type { Locator } from 'playwright-core';

import { type Sandbox, startSandbox } from '../../sandbox';
import { PACKAGE_NAME } from './n8nServer';
import type { EditorTools } from './editorNoCode';

interface ClaimNode {
	name: string;
	type?: string;
	parameters: Record<string, unknown>;
}

/** One node per claim; `name` is what the canvas shows. */
const NODES: ClaimNode[] = [
	{ name: 'Agent dropdown', parameters: { resource: 'lead', operation: 'create', firstName: 'x', additionalFields: { assignedUserId: '', stage: '' } } },
	{ name: 'Pond dropdown', parameters: { resource: 'leadPond', operation: 'get' } },
	{ name: 'Deal dropdowns', parameters: { resource: 'transaction', operation: 'create', additionalFields: { transactionType: '', transactionStatus: '' } } },
	{ name: 'Role dropdown', parameters: { resource: 'routing', operation: 'getRules', options: { roleId: '' } } },
	{ name: 'Webhook dropdown', parameters: { resource: 'webhook', operation: 'delete' } },
	{ name: 'Deal list', parameters: { resource: 'transaction', operation: 'get' } },
	{ name: 'Task list', parameters: { resource: 'task', operation: 'get' } },
	{ name: 'Appointment list', parameters: { resource: 'appointment', operation: 'get' } },
	{ name: 'Agent list', parameters: { resource: 'agent', operation: 'addTags' } },
	{ name: 'Member list', parameters: { resource: 'member', operation: 'get' } },
	{ name: 'Polling', type: 'loftyPollingTrigger', parameters: { events: ['lead'] } },
	{ name: 'Trigger filters', type: 'loftyTrigger', parameters: { events: [12, 5], options: { stageTo: [], changedFields: [] } } },
];

export function claimEditorChecks(t: EditorTools): void {
	let sandbox: Sandbox;
	let workflowId = '';
	const page = () => t.page();
	const input = (param: string): Locator => t.ndv().locator(`[data-test-id=parameter-input-${param}]`).first();

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, rateLimit: { perWindow: 1_000_000, windowMs: 60_000 } });
	});
	afterAll(async () => await sandbox?.stop());

	async function open(name: string): Promise<void> {
		if (await t.ndv().isVisible()) {
			await page().locator('[data-test-id=ndv-close-button]').click();
			await t.ndv().waitFor({ state: 'hidden' });
		}
		await page().locator('[data-test-id=canvas-node]', { hasText: name }).first().dblclick();
		await t.ndv().waitFor();
	}

	/** The options of an options parameter of the open panel, as its dropdown lists them (closed again). */
	async function dropdown(param: string): Promise<string[]> {
		// The select's own box (a field inside a collection has its delete button beside it). A click while the panel
		// still settles may not open it: once more then.
		const box = input(param).locator('.el-select__wrapper, .el-select, input').first();
		const items = page().locator('.el-select-dropdown__item:visible');
		for (let i = 0; i < 3; i++) {
			await box.click();
			if (await items.first().waitFor({ timeout: 5000 }).then(() => true, () => false)) break;
		}
		const names = await t.openOptions().catch(async (e: Error) => {
			await t.shot('light', `claims-${param}`);
			throw e;
		});
		await t.closeDropdown();
		return names;
	}

	/** The entries a resource locator's From List shows (the list closed again). */
	async function fromList(param: string): Promise<string[]> {
		await input(param).locator('input').last().click();
		const items = page().locator('[data-test-id=rlc-item]:visible');
		await items.first().waitFor({ timeout: 15_000 });
		const names = (await items.allInnerTexts()).map((s) => s.trim().split('\n')[0]);
		await page().keyboard.press('Escape');
		return names;
	}

	test('the README\'s dropdowns come from Lofty: agents, stages, ponds, transaction types and statuses, routing roles, trigger filters, webhook subscriptions', async () => {
		const credential = await t.server.createCredential('Lofty API (claims)', 'loftyApi', { apiKey: sandbox.apiKey, baseUrl: sandbox.url });
		const credentials = { loftyApi: { id: credential, name: 'Lofty API (claims)' } };
		workflowId = await t.server.createWorkflow({
			name: 'README claims',
			nodes: NODES.map((n, i) => ({
				id: `claim-${i}`,
				name: n.name,
				type: `${PACKAGE_NAME}.${n.type ?? 'lofty'}`,
				typeVersion: n.type ? 1 : 1.2,
				position: [i * 220, n.type ? 300 : 0],
				parameters: { authentication: 'apiKey', ...n.parameters },
				credentials,
			})),
			connections: {},
		});
		await page().goto(`${t.server.base}/workflow/${workflowId}`);
		await page().locator('[data-test-id=canvas-node]').first().waitFor({ timeout: 60_000 });

		await open('Agent dropdown');
		const agents = await dropdown('assignedUserId');
		expect(agents).toEqual(expect.arrayContaining([expect.stringMatching(/^Dana Demo\b/)]));
		// The lead pipeline's stages, in Lofty's order (the sandbox adds two beyond the usual ones).
		expect(await dropdown('stage')).toEqual(expect.arrayContaining(['Past Client', 'Sphere of Influence']));

		await open('Pond dropdown');
		expect(await dropdown('id')).toEqual(expect.arrayContaining(['Company Pond', 'North Austin Pond']));

		await open('Deal dropdowns');
		const types = await dropdown('transactionType');
		const statuses = await dropdown('transactionStatus');
		t.log(`claims: transaction types ${types.join(', ')}; statuses ${statuses.slice(0, 6).join(', ')}…`);
		expect(types.length).toBeGreaterThan(0);
		expect(statuses.length).toBeGreaterThan(0);

		await open('Role dropdown');
		expect(await dropdown('roleId')).toEqual(expect.arrayContaining(['Assistant', 'Showing Assistant']));

		// The Lofty Trigger's filters: the lead pipeline's stages; the transaction fields, the team's custom fields last.
		await open('Trigger filters');
		expect(await dropdown('stageTo')).toEqual(expect.arrayContaining(['Past Client', 'Sphere of Influence']));
		expect(await dropdown('changedFields')).toEqual(expect.arrayContaining(['Transaction Name', 'Lender Name (Custom Field)']));

		await open('Webhook dropdown');
		expect(await dropdown('subscribeId')).toEqual(expect.arrayContaining([expect.stringMatching(/hooks\.example\.com\/lofty\/leads/)]));
		await t.shot('light', 'claims-dropdowns');
		await t.expectNoErrorOnScreen('README dropdowns');
	});

	test('the README\'s searchable lists: transactions, tasks, appointments, agents, team members', async () => {
		const shown: Record<string, string[]> = {};
		for (const [node, param] of [
			['Deal list', 'transactionId'],
			['Task list', 'taskId'],
			['Appointment list', 'appointmentId'],
			['Agent list', 'agentId'],
			['Member list', 'userId'],
		] as const) {
			await open(node);
			shown[param] = await fromList(param).catch(async (e: Error) => {
				await t.shot('light', `claims-${param}`);
				throw e;
			});
		}
		t.log(`claims: From List shows ${Object.entries(shown).map(([k, v]) => `${k} ${v.length} (${v[0]})`).join('; ')}`);
		for (const names of Object.values(shown)) expect(names.length).toBeGreaterThan(0);
		expect(shown.userId).toEqual(expect.arrayContaining([expect.stringMatching(/^Dana Demo\b/)]));
		await t.expectNoErrorOnScreen('README lists');
	});

	test('the Lofty Polling Trigger\'s Fetch Test Event shows the newest lead and changes nothing', async () => {
		// A lead of today (the seed's are older than the 7 days Fetch Test Event looks back).
		const created = await fetch(`${sandbox.url}/v1.0/leads`, {
			method: 'POST',
			headers: { Authorization: `token ${sandbox.apiKey}`, 'Content-Type': 'application/json' },
			body: JSON.stringify({ firstName: 'Fetched', lastName: 'Today' }),
		});
		expect(created.status).toBe(200);
		const writes = () => sandbox.requests.filter((r) => r.method !== 'GET').length;
		const before = writes();
		await open('Polling');
		const fetchButton = t.ndv().locator('[data-test-id=node-execute-button]');
		expect((await fetchButton.innerText()).trim()).toMatch(/Fetch Test Event/);
		await fetchButton.click();
		const output = t.ndv().locator('[data-test-id=output-panel]');
		await output.getByText(/Fetched/).first().waitFor({ timeout: 30_000 }).catch(async (e: Error) => {
			await t.shot('light', 'claims-fetch-test-event-failed');
			throw e;
		});
		await t.shot('light', 'claims-fetch-test-event');
		expect(writes()).toBe(before);
		await t.expectNoErrorOnScreen('Fetch Test Event');
		await page().locator('[data-test-id=ndv-close-button]').click();
	});
}
