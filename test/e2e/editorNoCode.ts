/**
 * The editor check's part for people who do not write code (registered by editor.e2e.ts, in its browser and n8n):
 * a Lofty API credential pointing at a sandbox on loopback, then
 *   - Lead > Create: the Custom Fields mapper lists the sandbox's lead custom fields by name; fields are added, given
 *     values with the input of their type (number, choice, date, comma-separated choices) and the node runs: the
 *     sandbox's lead has them in Lofty's shape;
 *   - Lead > Create or Update: its fields in order;
 *   - Transaction > Update: the mapper lists the transaction custom fields;
 *   - Lead > Get: the Output choice (Simplified / Raw / Selected Fields, Fields shown for Selected Fields);
 *   - the two trigger modes: "Lofty" and "Lofty Polling" in the trigger search of a new workflow, the polling
 *     trigger's panel (Poll Times, Trigger On, the notice on when to choose which).
 */
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore
import type { Locator, Page } from 'playwright-core';

import { type Sandbox, startSandbox } from '../../sandbox';
import type { N8nServer } from './n8nServer';

export interface EditorTools {
	server: N8nServer;
	page: () => Page;
	ndv: () => Locator;
	shot: (theme: 'light' | 'dark', name: string) => Promise<void>;
	pick: (scope: Locator, param: string, name: string) => Promise<void>;
	openOptions: () => Promise<string[]>;
	closeDropdown: () => Promise<void>;
	ndvLabels: () => Promise<string[]>;
	expectNoErrorOnScreen: (where: string) => Promise<void>;
	/** Adds a Lofty action from the node search that `opener` opens (editorPage.ts) */
	addFromNodeSearch: (opener: Locator, words: string, action: string) => Promise<void>;
	/** The credential the editor picked for the open panel, once it shows one */
	pickedCredential: (withinMs?: number) => Promise<string>;
	/** Picks a day of next month in a date picker; the value shown */
	pickDayNextMonth: (input: Locator, day: string) => Promise<string>;
	/** A new workflow in a freshly loaded editor (the "leave?" prompt of an unsaved one accepted) */
	newWorkflow: () => Promise<void>;
	log: (msg: string) => void;
}

const exact = (s: string): RegExp => new RegExp(`^\\s*${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);

export function noCodeEditorChecks(t: EditorTools): void {
	let sandbox: Sandbox;
	const page = () => t.page();
	const addButton = () => t.ndv().locator('button', { hasText: /Add custom field/ });
	const menuItems = () => page().locator('[role=menuitem]:visible');
	const mapperInput = (id: string) => t.ndv().locator(`[data-test-id="parameter-input-${id}"]`);
	/** The field labels, the same on both n8n versions (2.8.x labels the Fixed/Expression switch and words Credential longer). */
	const labels = async () => (await t.ndvLabels()).filter((l) => l !== 'Fixed' && l !== 'Expression').map((l) => (l.startsWith('Credential') ? 'Credential' : l));

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, rateLimit: { perWindow: 1_000_000, windowMs: 60_000 } });
	});
	afterAll(async () => await sandbox?.stop());

	/** The names offered by "Add custom field"; the menu is closed again by picking `then` (if given). */
	async function offeredFields(then?: string): Promise<string[]> {
		await addButton().click();
		await menuItems().first().waitFor();
		const names = (await menuItems().allInnerTexts()).map((s) => s.trim()).filter(Boolean);
		if (then) await menuItems().filter({ hasText: exact(then) }).first().click();
		return names;
	}

	test('Custom Fields mapper: Lead > Create lists the sandbox\'s lead custom fields by name, with typed inputs, and the run sends them', async () => {
		await t.server.createCredential('Lofty API (sandbox)', 'loftyApi', { apiKey: sandbox.apiKey, baseUrl: sandbox.url });
		await page().emulateMedia({ colorScheme: 'light' });
		// A fresh editor knows the new credential; the unsaved workflow is left (its "leave?" prompt accepted).
		const leave = (d: { accept: () => Promise<void> }) => void d.accept();
		page().on('dialog', leave);
		await page().goto(`${t.server.base}/workflow/new`);
		page().off('dialog', leave);
		await t.addFromNodeSearch(page().locator('[data-test-id=canvas-add-button]'), 'Lofty', 'Create a lead');
		const credential = t.ndv().locator('[data-test-id=node-credentials-select] input').first();
		for (let i = 0; i < 100 && (await credential.inputValue()) !== 'Lofty API (sandbox)'; i++) await page().waitForTimeout(100);
		expect(await credential.inputValue()).toBe('Lofty API (sandbox)');
		await addButton().waitFor();
		expect(await labels()).toEqual(['Credential', 'Resource', 'Operation', 'First Name', 'Output', 'Custom Fields', 'Multi-Choice Custom Fields', 'Additional Fields', 'Request Options']);

		const offered = await offeredFields('Financing');
		expect(offered).toEqual([
			'Budget Ceiling',
			'Down Payment',
			'Financing',
			'Home Anniversary',
			'Household Size',
			'Move-In Date',
			'Must-Haves (List)',
			'Preferred School District',
		]);
		for (const name of ['Budget Ceiling', 'Move-In Date', 'Must-Haves (List)', 'Preferred School District']) await offeredFields(name);
		// The choices of a single-choice field come from Lofty.
		await mapperInput('Financing').locator('input').first().click();
		expect(await t.openOptions()).toEqual(['Cash', 'Conventional', 'FHA', 'VA']);
		await page().locator('.el-select-dropdown__item:visible', { hasText: exact('FHA') }).click();
		await t.ndv().locator('[data-test-id=parameter-input-firstName] input').fill('Editor Mapper');
		await mapperInput('Budget Ceiling').locator('input').first().fill('450000');
		await mapperInput('Must-Haves').locator('input').first().fill('Pool, Yard');
		await mapperInput('Preferred School District').locator('input').first().fill('Lincoln');
		await mapperInput('Move-In Date').locator('input').first().fill('2026-04-15 00:00:00');
		await page().keyboard.press('Enter');
		await t.ndv().locator('[data-test-id=parameter-input-firstName] input').click();
		// Every field's input ends where the others end: a long label must not push its input out of the column. The
		// plain text field (Preferred School District) is there to tell the label from the input's kind: on n8n 2.41.1
		// it ends with the number, date and select inputs (914 px), while a multi-choice field labelled
		// "Must-Haves (comma-separated)", cut short beside the Fixed/Expression switch, ended at 920 px.
		const rightEdges = [];
		const diag = [];
		for (const id of ['Budget Ceiling', 'Move-In Date', 'Must-Haves', 'Preferred School District']) {
			const box = await mapperInput(id).boundingBox();
			rightEdges.push(Math.round((box?.x ?? 0) + (box?.width ?? 0)));
			const inner = await mapperInput(id).locator('input').first().boundingBox();
			diag.push(`${id}: wrapper x=${Math.round(box?.x ?? 0)} w=${Math.round(box?.width ?? 0)}, input ends ${Math.round((inner?.x ?? 0) + (inner?.width ?? 0))}`);
		}
		t.log(`Custom Fields inputs end at ${rightEdges.join(', ')} px (${diag.join('; ')})`);
		await t.shot('light', 'custom-fields-mapper');
		// The multi-choice field's label (its choices are offered in Multi-Choice Custom Fields) may be cut with "…" and its
		// input then ends a few pixels further (920 px against 914 on 2.41.1), still inside the column; the others end together.
		const [budget, moveIn, mustHaves, school] = rightEdges;
		expect(new Set([budget, moveIn, school]).size).toBe(1);
		expect(mustHaves - budget).toBeGreaterThanOrEqual(0);
		expect(mustHaves - budget).toBeLessThanOrEqual(8);

		await t.ndv().locator('[data-test-id=node-execute-button]').click();
		const output = t.ndv().locator('[data-test-id=output-panel]');
		await output.getByText(/leadId/).first().waitFor({ timeout: 60_000 });
		const created = [...sandbox.store.leads.values()].find((l) => l.firstName === 'Editor Mapper');
		const byName = (a: Record<string, unknown>, b: Record<string, unknown>) => String(a.attributeName).localeCompare(String(b.attributeName));
		expect([...(created?.customAttributes ?? [])].sort(byName)).toEqual([
			{ attributeName: 'Budget Ceiling', attributeType: 'currency', value: '450000' },
			{ attributeName: 'Financing', attributeType: 'single_select', value: 'FHA' },
			{ attributeName: 'Move-In Date', attributeType: 'date', value: 'Apr 15, 2026' },
			{ attributeName: 'Must-Haves', attributeType: 'multi_select', value: '["Pool","Yard"]' },
			{ attributeName: 'Preferred School District', attributeType: 'text', value: 'Lincoln' },
		]);
		await t.shot('light', 'custom-fields-run');
		await t.expectNoErrorOnScreen('Custom Fields mapper');
		t.log(`Custom Fields mapper: ${offered.length} lead fields offered; the run stored ${created?.customAttributes.length} values`);
	});

	test('Lead > Create or Update: First Name, Match By, Email, Phone, Output, Custom Fields, then Additional Fields and Options', async () => {
		await t.pick(t.ndv(), 'operation', 'Create or Update');
		// The mapper lists the fields again for the new operation.
		await addButton().waitFor();
		// The custom fields set under Create stay set (issue 46 item 1: no list drops a field the node holds a value for);
		// Multi-Choice Values (add or replace) shows for a write that may meet an existing lead.
		const shown = await labels();
		const kept = shown.slice(shown.indexOf('Custom Fields') + 1, shown.indexOf('Multi-Choice Custom Fields'));
		expect(kept).toContain('Financing');
		expect(shown.filter((l) => !kept.includes(l))).toEqual(['Credential', 'Resource', 'Operation', 'First Name', 'Match By', 'Email', 'Phone', 'Output', 'Custom Fields', 'Multi-Choice Custom Fields', 'Multi-Choice Values', 'Additional Fields', 'Options', 'Request Options']);
		await t.ndv().locator('[data-test-id=parameter-input-matchBy]').click();
		expect(await t.openOptions()).toEqual(['Email', 'Email, Then Phone', 'Phone']);
		await t.closeDropdown();
		await t.shot('light', 'lead-create-or-update');
		await t.expectNoErrorOnScreen('Lead > Create or Update');
	});

	test('Transaction > Update: the mapper lists the transaction custom fields', async () => {
		await t.pick(t.ndv(), 'resource', 'Transaction');
		await t.pick(t.ndv(), 'operation', 'Update');
		const offered = await offeredFields('Closing Agent');
		expect(offered).toEqual(['Closing Agent', 'Lender Name', 'Option Period End', 'Referral Fee', 'Showing Days (List)']);
		await mapperInput('1001').locator('input').first().click();
		expect(await t.openOptions()).toEqual(['Option A', 'Option B']);
		await t.closeDropdown();
		await t.shot('light', 'transaction-custom-fields');
		await t.expectNoErrorOnScreen('Transaction > Update');
	});

	test('Lead > Get: Output is Simplified, Raw or Selected Fields; Selected Fields asks for the fields', async () => {
		await t.pick(t.ndv(), 'resource', 'Lead');
		await t.pick(t.ndv(), 'operation', 'Get');
		expect(await labels()).toEqual(expect.arrayContaining(['Lead', 'Output', 'Options']));
		await t.ndv().locator('[data-test-id=parameter-input-output]').click();
		expect(await t.openOptions()).toEqual(['Raw', 'Selected Fields', 'Simplified']);
		await page().locator('.el-select-dropdown__item:visible').filter({ hasText: 'Selected Fields' }).first().click();
		await t.ndv().locator('[data-test-id=parameter-input-outputFields]').waitFor();
		expect(await labels()).toEqual(expect.arrayContaining(['Output', 'Fields']));
		await t.shot('light', 'lead-get-output');
		await t.expectNoErrorOnScreen('Lead > Get');
	});

	test('the two trigger modes: the Lofty Polling Trigger (Poll Times, Trigger On, when to choose it) and the pointer in the Lofty Trigger', async () => {
		// A new workflow: "What triggers this workflow?" offers both Lofty triggers.
		const leave = (d: { accept: () => Promise<void> }) => void d.accept();
		page().on('dialog', leave);
		await page().goto(`${t.server.base}/workflow/new`);
		page().off('dialog', leave);
		await page().locator('[data-test-id=canvas-add-button]').click();
		await page().locator('[data-test-id=node-creator-search-bar]').fill('Lofty');
		const items = page().locator('[data-test-id=node-creator-item-name]');
		await items.filter({ hasText: exact('Lofty Polling') }).first().waitFor();
		// n8n names the entries without "Trigger": "Lofty" (the node and the webhook trigger) and "Lofty Polling".
		const offered = (await page().locator('[data-test-id=node-creator]').innerText()).replace(/\s+/g, ' ');
		t.log(`node search "Lofty" on an empty workflow: ${offered.slice(0, 400)}`);
		expect(offered).toMatch(/Lofty .*Lofty Polling/);
		await t.shot('light', 'trigger-modes-search');
		await items.filter({ hasText: exact('Lofty Polling') }).first().click();
		// Its details say what it is for and list one trigger per kind of new record.
		const details = page().locator('[data-test-id=node-creator]');
		await details.getByText('Triggers (4)').waitFor();
		expect((await details.innerText()).replace(/\s+/g, ' ')).toContain('Start workflows on new Lofty leads, calls, texts and emails by checking on a schedule: no public HTTPS address needed');
		for (const event of ['On new call', 'On new email', 'On new lead', 'On new text']) expect(await details.innerText()).toContain(event);
		await page().locator('[data-test-id=node-creator-item-name]', { hasText: exact('On new lead') }).first().click();
		await t.ndv().waitFor();
		const panel = await t.ndv().locator('[data-test-id=node-parameters]').innerText();
		expect(panel).toMatch(/works without a public address/);
		expect(panel).toMatch(/the Lofty Trigger gets every change/);
		const shown = await labels();
		expect(shown).toEqual(expect.arrayContaining(['Poll Times', 'Trigger On', 'Options']));
		await t.ndv().locator('[data-test-id=parameter-input-events]').click();
		expect(await t.openOptions()).toEqual(['New Call', 'New Email', 'New Lead', 'New Text']);
		await t.closeDropdown();
		await t.shot('light', 'polling-trigger');
		await t.expectNoErrorOnScreen('Lofty Polling Trigger');
		t.log(`Lofty Polling Trigger: ${shown.join(' | ')}`);
	});
}
