/**
 * Tags by hand (issue 28, items 4 and 7), registered by editor.e2e.ts in its browser and n8n, against a sandbox of
 * their own:
 *   - Get Many with Has Any Tag "Hot Leads" (a typo, given in Expression mode): no "not supported" flag on the field;
 *     the run fails before anything is sent, naming the nearest tag, "Hot Lead";
 *   - Create with one tag picked from the dropdown and one new tag typed in Expression mode: neither flagged; both land;
 *   - the shipped AI example's "AI Assistant" tag (not in the team's list) is shown without a flag.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { type Sandbox, startSandbox } from '../../sandbox';
import type { EditorTools } from './editorNoCode';
import { OWNER, PACKAGE_NAME, ROOT } from './n8nServer';

const exact = (s: string): RegExp => new RegExp(`^\\s*${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
const CREDENTIAL = 'Lofty API (tags by hand)';

export function tagEditorChecks(t: EditorTools): void {
	let sandbox: Sandbox;
	const page = () => t.page();

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, rateLimit: { perWindow: 1_000_000, windowMs: 60_000 } });
	});
	afterAll(async () => await sandbox?.stop());

	/** One Lofty credential, on this sandbox, so that the editor picks it. */
	async function onlyOurCredential(): Promise<string> {
		const listed = await t.server.rest('GET', '/rest/credentials');
		for (const c of (listed.json?.data ?? []) as Array<{ id: string; type: string }>) {
			if (c.type === 'loftyApi') expect((await t.server.rest('DELETE', `/rest/credentials/${c.id}`)).status).toBe(200);
		}
		return await t.server.createCredential(CREDENTIAL, 'loftyApi', { apiKey: sandbox.apiKey, baseUrl: sandbox.url });
	}

	/** Opens `where` in the editor, signing in first when these checks run alone (`-t 'tags by hand'`). */
	async function open(where: string, ready: string): Promise<void> {
		const leave = (d: { accept: () => Promise<void> }) => void d.accept();
		page().on('dialog', leave);
		await page().goto(`${t.server.base}${where}`);
		page().off('dialog', leave);
		const signIn = page().locator('input[name=emailOrLdapLoginId]');
		await page().locator(ready).or(signIn).first().waitFor({ timeout: 60_000 });
		if (await signIn.isVisible()) {
			await signIn.fill(OWNER.email);
			await page().locator('input[name=password]').fill(OWNER.password);
			await page().locator('[data-test-id=form-submit-button]').click();
			await page().waitForURL((u: URL) => !u.pathname.startsWith('/signin'));
			await page().goto(`${t.server.base}${where}`);
		}
		await page().locator(ready).first().waitFor({ timeout: 60_000 });
	}

	const newWorkflow = async () => await open('/workflow/new', '[data-test-id=canvas-add-button]');

	/** The first action: the node search, the words a person types, then the action; the editor picks the one Lofty credential. */
	async function addAction(words: string, action: string): Promise<void> {
		await t.addFromNodeSearch(page().locator('[data-test-id=canvas-add-button]'), words, action);
		expect(await t.pickedCredential()).toBe(CREDENTIAL);
	}

	/** The field `label` added from the collection `collectionLabel` of the open panel. */
	async function addOptional(collectionLabel: string, label: string): Promise<void> {
		const block = t.ndv().locator('[data-test-id=parameter-item]').filter({ has: page().locator('label', { hasText: exact(collectionLabel) }) }).first();
		await block.locator('[data-test-id=collection-parameter-add]').click();
		const names = await t.openOptions().catch(async (e: Error) => {
			await t.shot('light', `tags-add-${label.replace(/\W+/g, '-')}`);
			throw e;
		});
		expect(names).toContain(label);
		await page().locator('.el-select-dropdown__item:visible').nth(names.indexOf(label)).click();
		await page().locator('.el-select-dropdown__item:visible', { hasText: exact(names[0]) }).first().waitFor({ state: 'hidden' });
	}

	/** A field of the open panel, by the field's name: its input, and its row (label, Fixed/Expression switch, issue icon). */
	const field = (name: string) => t.ndv().locator(`[data-test-id=parameter-input-${name}]`).first();
	const fieldRow = (name: string) => t.ndv().locator('[data-test-id=parameter-item]').filter({ has: page().locator(`label[for="${name}"]`) }).last();

	/** Switches the field to Expression (the Fixed/Expression switch shown on hover) and types `text` as its whole value. */
	async function typeInExpression(name: string, text: string): Promise<void> {
		const row = fieldRow(name);
		const editor = row.locator('[data-test-id=inline-expression-editor-input] .cm-content, [data-test-id=inline-expression-editor-input]').first();
		const expression = row.locator(`[data-test-id=${name}-parameter-input-options-container] [data-test-id=radio-button-expression]`);
		// The switch shows on hover; on a busy machine a click can land while it is still fading in: click until the
		// field is in Expression mode.
		for (let i = 0; i < 3 && !(await editor.isVisible()); i++) {
			await row.hover();
			await expression.click();
			await editor.waitFor({ timeout: 15_000 }).catch(() => undefined);
		}
		await editor.waitFor({ timeout: 5000 }).catch(async (e: Error) => {
			await t.shot('light', `tags-expression-${name}`);
			throw e;
		});
		const content = row.locator('[data-test-id=inline-expression-editor-input] .cm-content').first();
		// n8n puts the fixed value there first (`{{ ["VIP"] }}`): select it all and type over it, until the field holds the text.
		for (let i = 0; i < 3 && ((await content.innerText()).trim() !== text); i++) {
			await editor.click();
			await page().keyboard.press('ControlOrMeta+A');
			await page().keyboard.press('Delete');
			await page().keyboard.type(text);
		}
		expect((await content.innerText()).trim()).toBe(text);
		// The value is stored once the editor shows what it evaluates to (the result under the field).
		await row.locator('[data-test-id^=parameter-expression-preview]', { hasText: text }).first().waitFor({ timeout: 20_000 });
		// Out of the field: the editor evaluates the expression and shows any issue.
		await t.ndv().locator('[data-test-id=node-title-container]').first().click();
	}

	/** Whether the field shows n8n's issue icon ("The value ... is not supported!"), with the icon's text. */
	async function issuesOf(name: string): Promise<string[]> {
		const icons = fieldRow(name).locator('[data-test-id=parameter-issues]');
		const out: string[] = [];
		for (let i = 0; i < (await icons.count()); i++) if (await icons.nth(i).isVisible()) out.push((await icons.nth(i).innerText()) || 'issue icon');
		return out;
	}

	async function runStep(): Promise<string> {
		await t.ndv().locator('[data-test-id=node-execute-button]').click();
		const output = t.ndv().locator('[data-test-id=output-panel]');
		await output.getByText(/leadId|Hot Leads|error|problem/i).first().waitFor({ timeout: 60_000 });
		return (await output.innerText()).replace(/\s+/g, ' ');
	}

	test('tags by hand: Get Many with a typo in Has Any Tag fails naming the nearest tag; Create with a picked and a typed new tag, no flag, both land', async () => {
		// Signed in (n8n answering), then the credential, then a freshly loaded editor that knows it.
		await newWorkflow();
		await onlyOurCredential();

		// Item 4: a filter naming a tag the team does not have.
		await newWorkflow();
		await addAction('lead', 'Search leads by email, phone, name or other filters');
		await addOptional('Filters', 'Has Any Tag');
		await typeInExpression('anyTags', 'Hot Leads');
		expect(await issuesOf('anyTags')).toEqual([]);
		await t.shot('light', 'tags-filter-typo');
		const filterRun = await runStep();
		t.log(`tags by hand: Get Many with "Hot Leads": ${filterRun.slice(0, 300)}`);
		expect(filterRun).toMatch(/the team has no tag "Hot Leads", so no lead could match; the nearest is "Hot Lead"/);
		expect(sandbox.count('GET', '/v1.0/leads')).toBe(0);
		// After a run the editor evaluates the expression and checks the value against the list: still no flag.
		expect(await issuesOf('anyTags')).toEqual([]);
		await t.shot('light', 'tags-filter-typo-run');

		// Item 7: one tag picked, one new tag typed.
		await newWorkflow();
		await addAction('lead', 'Create a lead');
		await field('firstName').locator('input').fill('Tagged By Hand');
		await addOptional('Additional Fields', 'Tags');
		// n8n disables the select while it loads the team's tags: click until the list opens.
		const options = page().locator('.el-select-dropdown__item:visible').first();
		for (let i = 0; i < 4 && !(await options.isVisible()); i++) {
			await field('tags').locator('.el-select').first().click();
			await options.waitFor({ timeout: 10_000 }).catch(() => undefined);
		}
		const listed = await t.openOptions().catch(async (e: Error) => {
			await t.shot('light', 'tags-dropdown');
			throw e;
		});
		expect(listed).toEqual(expect.arrayContaining(['Hot Lead', 'VIP']));
		// Letters and digits first: the tag named "*" is not the first entry.
		expect(listed[0]).not.toBe('*');
		await page().locator('.el-select-dropdown__item:visible', { hasText: exact('VIP') }).first().click();
		await t.closeDropdown();
		expect(await issuesOf('tags')).toEqual([]);
		await t.shot('light', 'tags-picked');
		// A tag Lofty does not have yet: typed in Expression mode, beside the picked one, as the field's hint says.
		const hint = (await fieldRow('tags').innerText()).replace(/\s+/g, ' ');
		expect(hint).toMatch(/for a new tag, switch to Expression and type names separated by commas/);
		await typeInExpression('tags', 'VIP, Open House May');
		expect(await issuesOf('tags')).toEqual([]);
		await t.shot('light', 'tags-typed-new');
		const createRun = await runStep();
		expect(createRun).toMatch(/leadId/);
		const lead = [...sandbox.store.leads.values()].find((l) => l.firstName === 'Tagged By Hand');
		expect(lead?.tags.map((x) => x.tagName).sort()).toEqual(['Open House May', 'VIP']);
		expect(await issuesOf('tags')).toEqual([]);
		await t.shot('light', 'tags-typed-new-run');
		await t.expectNoErrorOnScreen('tags by hand');
	});

	test('tags by hand: the shipped AI example\'s "AI Assistant" tag is shown without a flag', async () => {
		await newWorkflow();
		const credId = await onlyOurCredential();
		const example = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', 'ai-agent-lead-assistant.json'), 'utf8')) as {
			name: string;
			nodes: Array<{ name: string; type: string; credentials?: unknown }>;
			connections: unknown;
			settings?: unknown;
		};
		for (const n of example.nodes) if (n.type.startsWith(`${PACKAGE_NAME}.`)) n.credentials = { loftyApi: { id: credId, name: CREDENTIAL } };
		const id = await t.server.createWorkflow({ name: `${example.name} (tags)`, nodes: example.nodes, connections: example.connections, settings: example.settings });
		await open(`/workflow/${id}`, '[data-test-id=canvas-node]');
		const node = page().locator('[data-test-id=canvas-node]').filter({ hasText: 'Create or Update Lead' }).first();
		await node.dblclick();
		await t.ndv().waitFor();
		await field('tags').waitFor();
		// The list has loaded (the field shows the tag, not "Loading options").
		await fieldRow('tags').getByText('AI Assistant').first().waitFor({ timeout: 20_000 });
		expect(await issuesOf('tags')).toEqual([]);
		await t.shot('light', 'tags-ai-example');
	});
}
