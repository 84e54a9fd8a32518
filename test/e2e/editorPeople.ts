/**
 * Issue 28, items 1, 2 and 8 by clicking (registered by editor.e2e.ts, in its browser and n8n), against a sandbox of
 * their own; run alone with `-t 'signs in|people:'`:
 *   - Create or Update with default Match By: Ada Lovelace with the phone Maria Santos already has makes a new lead;
 *     the output shows `notMergedWith` naming Maria's lead; Maria is unchanged;
 *   - Task > Create: "Times Without Offset Are In" shows the Lofty user's zone (Los Angeles) before the run; the due
 *     time picked is stored as that time in Los Angeles and the output says `timesReadIn`;
 * (A multi-choice field's choices picked from their dropdown and written: editorKeep.ts, in the same run.)
 */
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore
import type { Locator } from 'playwright-core';

import { DateTime } from 'luxon';

import { type Sandbox, parseJson, startSandbox } from '../../sandbox';
import { taskState } from '../../sandbox/resources/task';
import type { EditorTools } from './editorNoCode';

const CREDENTIAL = 'Lofty API (people)';

export function peopleEditorChecks(t: EditorTools): void {
	let sandbox: Sandbox;
	const page = () => t.page();
	const param = (name: string): Locator => t.ndv().locator(`[data-test-id=parameter-input-${name}]`);

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, rateLimit: { perWindow: 1_000_000, windowMs: 60_000 } });
	});
	afterAll(async () => await sandbox?.stop());

	/** Adds the Lofty action `action` from the node search of an empty canvas; the editor picks the one credential there is. */
	async function addAction(action: string): Promise<void> {
		await t.addFromNodeSearch(page().locator('[data-test-id=canvas-add-button]'), 'Lofty', action);
		expect(await t.pickedCredential()).toBe(CREDENTIAL);
	}

	/** Runs the step and gives the output panel's text once it shows `expected`. */
	async function runStep(expected: RegExp): Promise<string> {
		await t.ndv().locator('[data-test-id=node-execute-button]').click();
		const output = t.ndv().locator('[data-test-id=output-panel]');
		await output.getByText(expected).first().waitFor({ timeout: 60_000 });
		return (await output.innerText()).replace(/\s+/g, ' ');
	}

	/** One Lofty credential, on this sandbox, so that the editor picks it (each check can run alone). */
	async function oneCredential(): Promise<void> {
		const listed = await t.server.rest('GET', '/rest/credentials');
		const lofty = ((listed.json?.data ?? []) as Array<{ id: string; type: string; name: string }>).filter((c) => c.type === 'loftyApi');
		if (lofty.length === 1 && lofty[0].name === CREDENTIAL) return;
		for (const c of lofty) expect((await t.server.rest('DELETE', `/rest/credentials/${c.id}`)).status).toBe(200);
		await t.server.createCredential(CREDENTIAL, 'loftyApi', { apiKey: sandbox.apiKey, baseUrl: sandbox.url });
	}

	test('people: Create or Update does not merge Ada into Maria, who has her phone; the output says which lead and why', async () => {
		await oneCredential();
		const answer = await fetch(`${sandbox.url}/v1.0/leads`, {
			method: 'POST',
			headers: { authorization: `token ${sandbox.apiKey}`, 'content-type': 'application/json' },
			body: JSON.stringify({ firstName: 'Maria', lastName: 'Santos', emails: ['maria@example.com'], phones: ['(415) 555-0123'] }),
		});
		const maria = String((parseJson(await answer.text()) as { leadId: string }).leadId);
		await page().emulateMedia({ colorScheme: 'light' });
		await t.newWorkflow();
		await addAction('Create or update a lead');
		// What the README's curl line sends: Ada, her email, the phone Maria has.
		await param('firstName').locator('input').fill('Ada');
		await param('email').locator('input').fill('ada@example.com');
		await param('phone').locator('input').fill('4155550123');
		await t.shot('light', 'people-upsert');
		const shown = await runStep(/notMergedWith/);
		t.log(`people: Create or Update output: ${shown.slice(0, 500)}`);
		expect(shown).toMatch(/created/);
		expect(shown).toContain(maria);
		expect(shown).toMatch(/another first name/);
		await t.shot('light', 'people-not-merged');
		await t.expectNoErrorOnScreen('Create or Update of Ada');
		const leads = [...sandbox.store.leads.values()];
		expect(leads.find((l) => String(l.leadId) === maria)).toMatchObject({ firstName: 'Maria', emails: ['maria@example.com'] });
		expect(leads.filter((l) => l.firstName === 'Ada')).toHaveLength(1);
	});

	test("people: a task's due time picked in the date picker is the assignee's time; the zones show before and after the run", async () => {
		await oneCredential();
		await t.newWorkflow();
		await addAction('Create a task');
		// Before the run: whose zone a picked time means (the sandbox's user works in Los Angeles; the lead's agent may not).
		const assignee = "The Assignee's Zone (Read From Lofty When the Node Runs; Yours: America/Los_Angeles)";
		const zone = param('timesIn').locator('input').first();
		await zone.waitFor();
		// Shown without a click: the default names the Lofty user's zone.
		for (let i = 0; i < 100 && !/Los_Angeles/.test(await zone.inputValue()); i++) await page().waitForTimeout(100);
		expect(await zone.inputValue()).toBe(assignee);
		await zone.click();
		const readings = await t.openOptions();
		t.log(`people: Times Without Offset Are In offers ${readings.join(' | ')}`);
		expect(readings).toEqual([assignee, "The Workflow's Zone (America/New_York)"]);
		await t.shot('light', 'people-task-zone-choices');
		await t.closeDropdown();
		// The lead from the list Lofty gives.
		await param('leadId').getByPlaceholder(/Select a lead/).click();
		const search = page().getByPlaceholder('Search...').last();
		await search.waitFor({ timeout: 10_000 });
		await search.fill('Noah Patel');
		await page().getByText(/^Noah Patel \(/).first().click();
		await param('content').locator('input, textarea').first().fill('Call Noah at nine');
		// Due At from the date picker: the 15th of next month, the picker's time left as it is.
		const due = param('endAt').locator('input').first();
		const picked = await t.pickDayNextMonth(due, '15');
		t.log(`people: Due At picked as "${picked}"`);
		expect(picked).toMatch(/^\d{4}-\d{2}-15/);
		await t.shot('light', 'people-task-zone');
		const shown = await runStep(/timesReadIn/);
		t.log(`people: task output: ${shown.slice(0, 500)}`);
		// The zone of the agent Lofty assigns (from the sandbox's members), named in the output beside the user's.
		const noah = [...sandbox.store.leads.values()].find((l) => l.firstName === 'Noah' && l.lastName === 'Patel');
		const agentZone = noah?.assignedUserId == null ? undefined : sandbox.store.users.get(String(noah.assignedUserId))?.timeZoneId;
		if (!agentZone) throw new Error('the sandbox gives Noah Patel no agent with a zone');
		expect(agentZone).not.toBe('America/Los_Angeles');
		expect(shown).toContain(agentZone);
		expect(shown).toMatch(/America\/Los_Angeles/);
		await t.shot('light', 'people-task-run');
		await t.expectNoErrorOnScreen('task in the assignee zone');
		const task = [...taskState(sandbox.store).entries.values()].find((x) => x.content === 'Call Noah at nine');
		// The time picked, where the agent who makes the call works; not the workflow's zone (n8n's default, New York).
		const expected = DateTime.fromISO(picked.replace(' ', 'T'), { zone: agentZone });
		expect(task && DateTime.fromMillis(task.endAt).toUTC().toISO()).toBe(expected.toUTC().toISO());
	});
}
