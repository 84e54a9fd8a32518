/**
 * Issue 46 items 1 and 3 by clicking (scripts/walkthrough46.js): an intake flow (Webhook with mock data -> Lead > Create
 * or Update); Financing = FHA picked, Must-Haves mapped, a choice in Multi-Choice Custom Fields on its first open, the
 * hint and Multi-Choice Values; run 1; the Webhook opened from the panel's edge, its mock data edited, back; saved,
 * reloaded: the fields, the saved workflow, the list's first open, run 2. What Lofty stored is read from the sandbox.
 */
'use strict';

const crypto = require('crypto');
const { NODE_TYPE, CRED, firstLeadId } = require('./tryout');
const { sleep, exact, note, soft, until, page, ndv, param, shot, textShot, openWorkflow, openNode, closeNdv, executeByClicking, openOptions, closeDropdown, mapExpression, multiChoiceOpen } = require('./editor');

async function item1and3({ base, rest, sandboxGet }) {
	const email = `wanda.walkthrough.${Date.now()}@example.com`;
	const id = await rest.createWorkflow({
		name: 'Walkthrough 46: web form intake with custom fields',
		nodes: [
			{ id: crypto.randomUUID(), name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: crypto.randomUUID(), parameters: { httpMethod: 'POST', path: 'walkthrough46-intake', options: {} } },
			{
				id: crypto.randomUUID(),
				name: 'Create or Update Lead',
				type: NODE_TYPE,
				typeVersion: 1.4,
				position: [320, 0],
				credentials: CRED,
				parameters: { authentication: 'apiKey', resource: 'lead', operation: 'upsert', firstName: '={{ $json.body.firstName }}', email: '={{ $json.body.email }}', phone: '={{ $json.body.phone }}', additionalFields: { lastName: '={{ $json.body.lastName }}' } },
			},
		],
		connections: { Webhook: { main: [[{ node: 'Create or Update Lead', type: 'main', index: 0 }]] } },
		pinData: { Webhook: [{ json: { body: { firstName: 'Wanda', lastName: 'Walkthrough', email, phone: '4155550146', mustHaves: 'Pool, Garage' } } }] },
	});
	await openWorkflow(base, id);
	await openNode('Create or Update Lead');

	// Financing from its dropdown, Must-Haves mapped from the webhook's body.
	const add = ndv().locator('button', { hasText: /Add custom field/ });
	for (const field of ['Financing', 'Must-Haves (List)']) {
		await add.click();
		await page().locator('[role=menuitem]:visible').filter({ hasText: exact(field) }).first().click();
	}
	await param('Financing').locator('input').first().click();
	await page().locator('.el-select-dropdown__item:visible', { hasText: exact('FHA') }).click();
	await mapExpression('Must-Haves', '{{ $json.body.mustHaves }}');
	const first = await multiChoiceOpen(1, 'multichoice-first-open', 'Multi-Choice Custom Fields, opened for the first time after the node panel opened');
	note(1, first.options.some((o) => /^Must-Haves: /.test(o)), `Multi-Choice Custom Fields on its first open: ${first.options.length ? first.options.join(', ') : `"${first.empty}"`}`);
	await page().locator('.el-select-dropdown__item:visible', { hasText: exact('Must-Haves: Home Office') }).first().click();
	await closeDropdown();
	await param('Financing').first().scrollIntoViewIfNeeded();
	const mapperText = await ndv().locator('[data-test-id=node-parameters]').innerText().catch(() => '');
	note(7, /Must-Haves \(List\)/.test(mapperText) && !/Several, Com/.test(mapperText), `the mapper's label for Must-Haves: ${(/Must-Haves[^\n]*/.exec(mapperText) ?? ['(not found)'])[0]}`);
	await shot(1, 'fields-set', 'Create or Update: Financing = FHA (dropdown), Must-Haves (List) mapped from {{ $json.body.mustHaves }}, Multi-Choice Custom Fields: Must-Haves: Home Office');

	// Item 3: the hint and description of Multi-Choice Custom Fields, and Multi-Choice Values.
	await soft(3, 'hint and Multi-Choice Values', async () => {
		const hintEl = ndv().getByText(/current choices/).first();
		await hintEl.scrollIntoViewIfNeeded();
		const hint = (await hintEl.innerText()).replace(/\s+/g, ' ').trim();
		// The description: n8n shows it on hovering the (?) next to the label.
		const label = ndv().getByText('Multi-Choice Custom Fields', { exact: true }).first();
		await label.hover();
		await label.locator('xpath=..').locator('svg, [class*=icon], [class*=info]').first().hover({ timeout: 3000 }).catch(() => undefined);
		await sleep(1200);
		const tooltip = (await page().locator('.el-popper:visible, [role=tooltip]:visible').allInnerTexts().catch(() => [])).join(' | ').replace(/\s+/g, ' ');
		await shot(3, 'multichoice-hint', `Multi-Choice Custom Fields: its hint ("${hint.slice(0, 160)}") and, hovered, its description`);
		note(3, /see Multi-Choice Values/.test(hint) && !/they replace the field's current choices/.test(hint), `hint under the field: "${hint}"; description on hover: "${tooltip.slice(0, 400) || '(no tooltip caught)'}"`);
		await page().mouse.move(5, 5);
		const mode = param('multiChoiceMode').first();
		await mode.scrollIntoViewIfNeeded();
		await mode.click();
		await page().locator('.el-select-dropdown__item:visible').first().waitFor({ timeout: 10_000 });
		const modes = await openOptions();
		await shot(3, 'add-or-replace', `Multi-Choice Values opened: ${modes.join(' / ')}`);
		note(3, modes.includes('Add to the Current Choices') && modes.includes('Replace the Current Choices'), `Multi-Choice Values offers: ${modes.join(', ')}`);
		await closeDropdown();
	});

	// Run 1 from the panel (the Webhook's mock data).
	let leadId;
	const customFields = async () => {
		const lead = JSON.parse(await sandboxGet(`/v1.0/leads/${leadId}`));
		const attrs = (lead.lead ?? lead.data ?? lead).customAttributes ?? [];
		return Object.fromEntries(attrs.map((a) => [a.attributeName ?? a.name, a.value]));
	};
	await soft(1, 'run 1', async () => {
		const before = new Set((await rest.executions(id)).map((e) => String(e.id)));
		await ndv().locator('[data-test-id=node-execute-button]').first().click();
		await until(async () => (await rest.executions(id)).some((e) => !before.has(String(e.id)) && e.status !== 'running' && e.status !== 'new'), 'run 1', 90_000, 1000);
		await sleep(1500);
		await shot(1, 'run1-output', 'Run 1 (Execute step in the panel): the output of Create or Update');
		leadId = firstLeadId(await sandboxGet(`/v1.0/leads?email=${encodeURIComponent(email)}`));
		const run1 = leadId ? await customFields() : {};
		note(1, run1.Financing === 'FHA' && /Pool/.test(String(run1['Must-Haves'])), `run 1 stored on lead ${leadId}: ${JSON.stringify(run1)}`);
	});

	// The Webhook from the panel's left edge, its mock data edited, back to the Lofty node.
	await page().locator('[data-test-id=floating-node][data-node-name="Webhook"]').click();
	await ndv().locator('[data-test-id=ndv-edit-pinned-data]').first().click();
	const editor = ndv().locator('.cm-content').first();
	await editor.waitFor();
	await editor.click();
	await page().keyboard.press('Control+A');
	await page().keyboard.insertText(JSON.stringify([{ body: { firstName: 'Wanda', lastName: 'Walkthrough', email, phone: '4155550146', mustHaves: 'Pool, Garage, Yard' } }]));
	await shot(1, 'webhook-mock-data-edited', 'The Webhook node opened from the left edge of the Lofty panel, its mock data edited (Must-Haves: Pool, Garage, Yard)');
	await page().getByRole('button', { name: /^Save$/ }).first().click();
	await sleep(1500);
	await page().locator('[data-test-id=floating-node][data-node-name="Create or Update Lead"]').click();
	const back = await param('Financing').first().waitFor({ timeout: 20_000 }).then(() => true, () => false);
	await sleep(1500);
	const labels = (await ndv().locator('[data-test-id=node-parameters]').innerText().catch(() => '')).replace(/\s+/g, ' ');
	await param('Financing').first().scrollIntoViewIfNeeded().catch(() => undefined);
	await shot(1, 'back-fields-kept', `Back in Create or Update from the Webhook: ${back ? 'Financing and Must-Haves still set' : 'the custom fields are NOT shown'}`);
	note(1, back && !/Currently no items exist/.test(labels), `back from the Webhook's mock data: Financing shown: ${back}; "Currently no items exist" shown: ${/Currently no items exist/.test(labels)}`);

	// Save, reload, the saved workflow.
	await closeNdv();
	await page().keyboard.press('Control+s');
	await until(async () => (await page().locator('[data-test-id=workflow-save-button]').filter({ hasText: /^\s*Saved\s*$/ }).count()) > 0, 'Saved', 15_000, 200).catch(() => undefined);
	await page().reload();
	await page().locator('[data-test-id=canvas-node]').first().waitFor({ timeout: 60_000 });
	const saved = (await rest.workflow(id)).nodes.find((n) => n.name === 'Create or Update Lead').parameters;
	const { value, schema } = saved.customFieldValues ?? {};
	const shown = (schema ?? []).filter((f) => f.removed === false).map((f) => f.id);
	note(1, value?.Financing === 'FHA' && value?.['Must-Haves'] === '={{ $json.body.mustHaves }}' && shown.includes('Financing'), `saved workflow after the reload: customFieldValues.value ${JSON.stringify(value)}, fields shown ${JSON.stringify(shown)}, customFieldChoices ${JSON.stringify(saved.customFieldChoices)}, multiChoiceMode ${JSON.stringify(saved.multiChoiceMode)}`);
	await textShot(1, 'saved-workflow', 'The saved node as n8n holds it after the save and reload (GET /rest/workflows/<id>)', 'Saved workflow: the "Create or Update Lead" node after save and reload', [
		['customFieldValues.value', JSON.stringify(value, null, 2)],
		['customFieldValues.schema (id, removed)', JSON.stringify((schema ?? []).map((f) => ({ id: f.id, displayName: f.displayName, removed: f.removed })), null, 2)],
		['customFieldChoices / multiChoiceMode', JSON.stringify({ customFieldChoices: saved.customFieldChoices, multiChoiceMode: saved.multiChoiceMode }, null, 2)],
		['additionalFields', JSON.stringify(saved.additionalFields, null, 2)],
	]);
	await openNode('Create or Update Lead');
	const afterReload = await multiChoiceOpen(1, 'multichoice-first-open-after-reload', 'After the reload: the node opened, Multi-Choice Custom Fields opened once');
	note(1, afterReload.options.some((o) => /^Must-Haves: /.test(o)), `after the reload, Multi-Choice Custom Fields on its first open: ${afterReload.options.length ? afterReload.options.join(', ') : `"${afterReload.empty}"`}`);
	await closeDropdown();
	await param('Financing').first().scrollIntoViewIfNeeded().catch(() => undefined);
	await shot(1, 'after-reload-fields', 'After the reload: Create or Update still shows Financing = FHA and the Must-Haves expression');
	await closeNdv();

	// Run 2 from the canvas, with the edited mock data.
	const exec = await executeByClicking(rest, id);
	await openNode('Create or Update Lead');
	await shot(1, 'run2-output', `Run 2 after the reload (Execute workflow, execution ${exec}): the output`);
	await closeNdv();
	leadId ??= firstLeadId(await sandboxGet(`/v1.0/leads?email=${encodeURIComponent(email)}`));
	const run2 = leadId ? await customFields() : {};
	note(1, run2.Financing === 'FHA' && /Yard/.test(String(run2['Must-Haves'])) && /Home Office/.test(String(run2['Must-Haves'])), `run 2 stored on lead ${leadId}: ${JSON.stringify(run2)}`);
	return { leadId };
}

module.exports = { item1and3 };
