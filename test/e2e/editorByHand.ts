/**
 * Flows built by hand, as a person who does not write code builds them (registered by editor.e2e.ts, in its browser
 * and n8n), against a sandbox of their own:
 *   - the Custom Fields list loads the first time the node is opened, also when the credential was created after the
 *     editor was loaded (another tab, the Credentials page) and the editor picks it automatically, late (no closing
 *     and opening the node);
 *   - a lead: the node found by searching "lead" (what the person wants, not the product's name), First Name typed, a
 *     tag picked from the dropdown of Lofty's tags, a custom field added and set, the step run: the output shows the
 *     lead and the sandbox has it with that tag and value;
 *   - a task for that lead: found by searching "create a task", the lead picked from the list, the due date picked
 *     with the date picker (no offset typed: the Lofty user's time zone applies), the step run: the sandbox has it.
 * The requests the editor makes for the list are recorded: none may fail.
 */
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore
import type { Locator, Response } from 'playwright-core';

import { DateTime } from 'luxon';

import { type Sandbox, startSandbox } from '../../sandbox';
import { taskState } from '../../sandbox/resources/task';
import type { EditorTools } from './editorNoCode';

const exact = (s: string): RegExp => new RegExp(`^\\s*${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);

export function byHandEditorChecks(t: EditorTools): void {
	let sandbox: Sandbox;
	const page = () => t.page();
	const mapperAnswers: string[] = [];
	const onResponse = (r: Response) => {
		if (r.url().includes('resource-mapper-fields')) mapperAnswers.push(`${r.status()}`);
	};

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, rateLimit: { perWindow: 1_000_000, windowMs: 60_000 } });
	});
	afterAll(async () => {
		page()?.off('response', onResponse);
		await sandbox?.stop();
	});

	test('Custom Fields on first open, credential created after the editor loaded: the list or a notice saying what to do, never nothing', async () => {
		// A person with one Lofty account: the credentials of the checks before are removed, so that the editor has
		// exactly one to pick (with two it picks one of them, not necessarily the newest).
		const listed = await t.server.rest('GET', '/rest/credentials');
		for (const c of (listed.json?.data ?? []) as Array<{ id: string; type: string }>) {
			if (c.type === 'loftyApi') expect((await t.server.rest('DELETE', `/rest/credentials/${c.id}`)).status).toBe(200);
		}
		await t.newWorkflow();
		page().on('response', onResponse);
		// Created elsewhere (the Credentials page, another tab): this editor's list of credentials does not have it yet.
		const name = 'Lofty API (by hand)';
		await t.server.createCredential(name, 'loftyApi', { apiKey: sandbox.apiKey, baseUrl: sandbox.url });
		await t.addFromNodeSearch(page().locator('[data-test-id=canvas-add-button]'), 'Lofty', 'Create a lead');
		// n8n 2.41 picks the credential by itself once it has fetched the list; 2.8 leaves the choice to the person.
		const picked = await t.pickedCredential(10_000);
		await t.shot('light', 'by-hand-first-open');
		const add = t.ndv().locator('button', { hasText: /Add custom field/ });
		const notice = t.ndv().locator('[data-test-id=empty-fields-notice]');
		await add.or(notice).first().waitFor({ timeout: 20_000 });
		// With a credential picked after the panel opened, the list may come a moment after the notice: no closing and
		// opening the node, the person only waits.
		if (picked) await add.waitFor({ timeout: 15_000 }).catch(() => undefined);
		const firstOpen = (await add.isVisible()) ? 'fields' : `notice: ${(await notice.innerText()).trim()}`;
		t.log(`by hand: credential ${picked ? `picked by the editor (${picked})` : 'not picked'}; mapper answered ${mapperAnswers.join(', ')}; first open shows ${firstOpen}`);
		expect(mapperAnswers.filter((s) => s !== '200')).toEqual([]);
		if (!picked) {
			// n8n 2.8 offers a credential made elsewhere only after the editor is loaded again (the next test does):
			// the notice says what to do.
			expect(firstOpen).toMatch(/listed from Lofty once a credential is chosen above.*Close this node and open it again/);
			t.log('by hand: this n8n does not offer the new credential until the editor reloads; the notice is what the person sees');
			return;
		}
		// Picked by the editor after the panel opened: no custom-field list depends on another parameter (issue 46 item 1:
		// n8n 2.41.1's mapper emptied a value when one changed), so the list may not ask again by itself; then the notice
		// says what to do, never nothing.
		if (firstOpen !== 'fields') expect(firstOpen).toMatch(/listed from Lofty once a credential is chosen above.*Close this node and open it again/);
		expect(mapperAnswers.length).toBeGreaterThanOrEqual(1);
		expect(picked).toBe(name);
		expect(mapperAnswers.filter((s) => s !== '200')).toEqual([]);
		await t.shot('light', 'by-hand-mapper-loaded');
	});

	/** Adds a Lofty action from the node search, searching for `words` as a person would (a screenshot when it fails). */
	async function addFromSearch(opener: Locator, words: string, action: string): Promise<void> {
		await t.addFromNodeSearch(opener, words, action).catch(async (e: Error) => {
			await t.shot('light', `by-hand-search-${words.replace(/\W+/g, '-')}`);
			throw e;
		});
	}

	/** Adds the field `label` from a collection's "Add ..." list of the open panel. */
	async function addOptional(collectionLabel: string, label: RegExp): Promise<string> {
		const block = t.ndv().locator('[data-test-id=parameter-item]').filter({ has: page().locator('label', { hasText: exact(collectionLabel) }) }).first();
		await block.locator('[data-test-id=collection-parameter-add]').click();
		const names = await t.openOptions().catch(async (e: Error) => {
			await t.shot('light', `by-hand-add-${collectionLabel.replace(/\W+/g, '-')}`);
			throw e;
		});
		const name = names.find((n) => label.test(n));
		if (!name) throw new Error(`no ${label} in ${collectionLabel}: ${names.join(', ')}`);
		await page().locator('.el-select-dropdown__item:visible').nth(names.indexOf(name)).click();
		// The list fades out: until it is gone its items still count as visible (and would be read as the next list's).
		await page().locator('.el-select-dropdown__item:visible', { hasText: exact(names[0]) }).first().waitFor({ state: 'hidden' });
		return name;
	}

	test('a lead by hand: search "lead", credential picked, First Name, a tag from the dropdown, a custom field, run', async () => {
		// A freshly loaded editor: it knows the credential.
		await t.newWorkflow();
		await addFromSearch(page().locator('[data-test-id=canvas-add-button]'), 'lead', 'Create a lead');
		expect(await t.pickedCredential()).toBe('Lofty API (by hand)');
		await t.ndv().locator('[data-test-id=parameter-input-firstName] input').fill('Handmade');
		// A tag from the list Lofty has: a dropdown, not free text. n8n asks for the team's tags (its options request,
		// when the field appears or the list opens); on a busy machine that answer takes as long as it takes, so the
		// wait follows it rather than a fixed time: the answer, or the items when they are already there.
		const isTagOptions = (r: Response) => r.url().includes('/dynamic-node-parameters/options') && (r.request().postData() ?? '').includes('getTags');
		const tagsAnswered = page().waitForResponse(isTagOptions, { timeout: 0 });
		tagsAnswered.catch(() => undefined);
		expect(await addOptional('Additional Fields', /^Tags$/)).toBe('Tags');
		const tagInput = t.ndv().locator('[data-test-id=parameter-input-tags]');
		// The select's box (its inner input sits under the chips' layer, which takes the click).
		await tagInput.locator('.el-select').first().click({ timeout: 10_000 }).catch(async (e: Error) => {
			await t.shot('light', 'by-hand-tags');
			throw e;
		});
		const tagItems = page().locator('.el-select-dropdown__item:visible').first().waitFor({ timeout: 0 });
		tagItems.catch(() => undefined);
		await Promise.race([tagsAnswered, tagItems]);
		const tags = await t.openOptions();
		expect(tags).toEqual(expect.arrayContaining(['Hot Lead', 'VIP']));
		await page().locator('.el-select-dropdown__item:visible', { hasText: exact('VIP') }).first().click();
		await t.closeDropdown();
		// A custom field, listed on first open.
		await t.ndv().locator('button', { hasText: /Add custom field/ }).click();
		await page().locator('[role=menuitem]:visible', { hasText: exact('Financing') }).first().click();
		await t.ndv().locator('[data-test-id="parameter-input-Financing"] input').first().click();
		await page().locator('.el-select-dropdown__item:visible', { hasText: exact('VA') }).first().click();
		await t.shot('light', 'by-hand-lead');
		await t.ndv().locator('[data-test-id=node-execute-button]').click();
		const output = t.ndv().locator('[data-test-id=output-panel]');
		await output.getByText(/leadId/).first().waitFor({ timeout: 60_000 });
		const lead = [...sandbox.store.leads.values()].find((l) => l.firstName === 'Handmade');
		expect(lead?.tags.map((tag) => tag.tagName)).toEqual(['VIP']);
		expect(lead?.customAttributes.map((a) => [a.attributeName, a.value])).toEqual([['Financing', 'VA']]);
		await t.shot('light', 'by-hand-lead-run');
		await t.expectNoErrorOnScreen('lead by hand');
	});

	test('a task by hand: search "create a task", the lead from the list, the due date from the date picker, run', async () => {
		await page().locator('[data-test-id=ndv-close-button]').click();
		await t.ndv().waitFor({ state: 'hidden' });
		await addFromSearch(page().locator('[data-test-id=canvas-handle-plus]').last(), 'create a task', 'Create a task');
		expect(await t.pickedCredential()).toBe('Lofty API (by hand)');
		// The lead, picked from the list Lofty gives (searched by name).
		const lead = t.ndv().locator('[data-test-id=parameter-input-leadId]');
		// Beside the mode (From list / By ID / By URL), the list's own input.
		await lead.getByPlaceholder(/Select a lead/).click();
		// The list Lofty gives, searched by name (a lead of the sandbox's team).
		const search = page().getByPlaceholder('Search...').last();
		await search.waitFor({ timeout: 10_000 }).catch(async (e: Error) => {
			await t.shot('light', 'by-hand-lead-picker');
			throw e;
		});
		await search.fill('Noah Patel');
		await page().getByText(/^Noah Patel \(/).first().click();
		await t.ndv().locator('[data-test-id=parameter-input-content] input, [data-test-id=parameter-input-content] textarea').first().fill('Call Noah about the tour');
		// Due At from the date picker: the 15th of next month, the picker's time left as it is.
		const due = t.ndv().locator('[data-test-id=parameter-input-endAt] input').first();
		const picked = await t.pickDayNextMonth(due, '15');
		t.log(`by hand: Due At picked as "${picked}"`);
		expect(picked).toMatch(/^\d{4}-\d{2}-15/);
		await t.shot('light', 'by-hand-task');
		await t.ndv().locator('[data-test-id=node-execute-button]').click();
		const output = t.ndv().locator('[data-test-id=output-panel]');
		// The task, or the error the run shows (before a picked date meant the workflow's zone: "no UTC offset").
		await output.getByText(/taskId|error|problem/i).first().waitFor({ timeout: 60_000 });
		const shownText = (await output.innerText()).replace(/\s+/g, ' ').slice(0, 400);
		t.log(`by hand: task run output: ${shownText}`);
		expect(shownText).toMatch(/taskId/);
		await t.shot('light', 'by-hand-task-run');
		await t.expectNoErrorOnScreen('task by hand');
		const task = [...taskState(sandbox.store).entries.values()].find((x) => x.content === 'Call Noah about the tour');
		// No offset was typed: the time picked is the assignee's, the lead's agent (the sandbox's owner works in Los
		// Angeles, its agents elsewhere).
		const noah = [...sandbox.store.leads.values()].find((l) => l.firstName === 'Noah' && l.lastName === 'Patel');
		const agentZone = noah?.assignedUserId == null ? undefined : sandbox.store.users.get(String(noah.assignedUserId))?.timeZoneId;
		if (!agentZone) throw new Error('the sandbox gives Noah Patel no agent with a zone');
		const expected = DateTime.fromISO(picked.replace(' ', 'T'), { zone: agentZone });
		expect(task && DateTime.fromMillis(task.endAt).toUTC().toISO()).toBe(expected.toUTC().toISO());
	});
}
