/**
 * The sandbox's try-out page (sandbox/web, GET /tryout) in Chromium, as a person uses it, against a sandbox that
 * delivers webhooks on real timers to a loopback receiver subscribed to Lead Info, Call, Email, Text and Pipeline
 * Change (what n8n's Lofty Trigger subscribes to): the person creates a lead, changes its stage, calls it (recorded),
 * texts and emails it. After each click: what the page says, what the sandbox now holds, and the event the receiver
 * got (the recording of the call is a real file behind the call's link). Screenshots in screenshots/tryout/.
 *
 * No n8n here (test/e2e/editorTryout.ts fires a real trigger from this page). Skips when Chromium is missing.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore
import type { Browser, Locator, Page } from 'playwright-core';

import { type Sandbox, parseJson, startSandbox } from '../../sandbox';
import { commState } from '../../sandbox/resources/communication/state';
import { type ReceivedRequest, ScriptedReceiver } from '../harness/receiver';
import { ROOT, httpRequest } from './n8nServer';

const CHROMIUM = process.env.LOFTY_E2E_CHROMIUM || '/usr/bin/chromium';
const SHOTS = path.join(ROOT, 'screenshots', 'tryout');
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const missing = fs.existsSync(CHROMIUM) ? undefined : `${CHROMIUM} not found (apt-get install -y chromium)`;
if (missing) process.stdout.write(`[try-out page e2e] SKIPPED: ${missing}\n`);

/** Waits until `check` gives a value (state, not time: the machine may be slow). */
async function until<T>(check: () => T | undefined | Promise<T | undefined>, what: () => string, timeoutMs = 30_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
		await new Promise((r) => setTimeout(r, 100));
	}
}

(missing ? describe.skip : describe)('the try-out page in Chromium', () => {
	let sandbox: Sandbox;
	let receiver: ScriptedReceiver;
	let browser: Browser;
	let page: Page;
	const auth = (): Record<string, string> => ({ Authorization: `token ${sandbox.apiKey}` });
	/** The events the receiver got under `key` (createdLead, updatedLeadstage ...), flattened; IDs above 2^53 kept exact. */
	const received = (key: string): Array<Record<string, unknown>> =>
		receiver.deliveries.flatMap((r: ReceivedRequest) => {
			const body = parseJson(r.text) as Record<string, unknown>;
			return Array.isArray(body[key]) ? (body[key] as Array<Record<string, unknown>>) : [];
		});
	const eventFor = (key: string, leadId: string) => until(() => received(key).find((e) => String(e.leadId) === leadId), () => `a ${key} event for lead ${leadId}; got ${receiver.deliveries.map((r) => r.text).join(' | ') || 'nothing'}`);
	const row = (leadId: string): Locator => page.locator(`[data-test=lead-row][data-lead-id="${leadId}"]`);

	/** Clicks, then waits for the page's answer to that click and returns its text. */
	async function click(target: Locator): Promise<string> {
		await page.evaluate(() => {
			(globalThis as unknown as { document: { querySelector(s: string): { dataset: Record<string, string> } } }).document.querySelector('#result').dataset.ok = 'pending';
		});
		await target.click();
		await page.locator('#result:not([data-ok=pending])').waitFor();
		expect(await page.locator('#result').getAttribute('data-ok')).toBe('true');
		return page.locator('#result').innerText();
	}

	beforeAll(async () => {
		fs.rmSync(SHOTS, { recursive: true, force: true });
		fs.mkdirSync(SHOTS, { recursive: true });
		sandbox = await startSandbox({ port: 0, web: true, webhooks: { autoDeliver: true, allowHttpCallbacks: true }, rateLimit: { perWindow: 100_000, windowMs: 60_000 } });
		receiver = await new ScriptedReceiver().start();
		for (const listId of [2, 6, 7, 8, 12]) {
			const r = await httpRequest('POST', `${sandbox.url}/v1.0/webhook`, { listId, callbackUrl: receiver.url }, auth());
			expect(r.status).toBe(200);
		}
		const { chromium } = require('playwright-core'); // eslint-disable-line @typescript-eslint/no-require-imports
		browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
		page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
		page.setDefaultTimeout(20_000);
	});

	afterAll(async () => {
		await browser?.close().catch(() => undefined);
		await receiver?.stop();
		await sandbox?.stop();
	});

	let leadId = '';

	test('opens with the team\'s leads and the five subscriptions listening', async () => {
		await page.goto(`${sandbox.url}/tryout`);
		await page.locator('body[data-loaded=true]').waitFor();
		expect(await page.locator('[data-test=lead-row]').count()).toBeGreaterThan(5);
		const subs = await page.locator('[data-test=subscription]').allInnerTexts();
		expect(subs.map((s) => s.split('\t')[0].trim()).sort()).toEqual(['Call', 'Email', 'Lead Info', 'Pipeline Change', 'Text']);
		await page.screenshot({ path: path.join(SHOTS, '01-page.png'), fullPage: true });
	});

	test('New lead: the lead is in the sandbox and a createdLead event reached the receiver', async () => {
		const form = page.locator('[data-test=new-lead]');
		await form.locator('input[name=firstName]').fill('Grace');
		await form.locator('input[name=lastName]').fill('Hopper');
		await form.locator('input[name=email]').fill('grace.page@example.com');
		await form.locator('input[name=phone]').fill('4155550177');
		const said = await click(form.locator('button[data-action=lead]'));
		leadId = /New lead (\d+)/.exec(said)![1];
		const lead = sandbox.store.getLead(BigInt(leadId))!;
		expect([lead.firstName, lead.lastName, lead.emails, lead.phones]).toEqual(['Grace', 'Hopper', ['grace.page@example.com'], ['4155550177']]);
		await eventFor('createdLead', leadId);
		await row(leadId).waitFor();
	});

	test('Change stage: the lead moves, and an updatedLeadstage event says from where to where', async () => {
		const before = sandbox.store.getLead(BigInt(leadId))!.stage;
		const to = sandbox.store.stages.map((s) => s.name).find((s) => s !== before)!;
		await row(leadId).locator('select[data-field=stage]').selectOption(to);
		const said = await click(row(leadId).locator('button[data-action=stage]'));
		expect(said).toContain(`${before} -> ${to}`);
		expect(sandbox.store.getLead(BigInt(leadId))!.stage).toBe(to);
		const event = await eventFor('updatedLeadstage', leadId);
		expect(event.changeInfo).toEqual({ oldstage: before, newstage: to });
	});

	test('Call (recorded): a dialer call with a recording; its Call event\'s callId gives a real WAV file', async () => {
		const said = await click(row(leadId).locator('button[data-action=call]'));
		const callId = /Dialer call (\d+)/.exec(said)![1];
		const call = commState(sandbox.store).list(Date.now(), (c) => c.leadId === BigInt(leadId) && c.kind === 'CALL')[0];
		expect([call.communicationType, call.recordingSwitch, String(call.dialerCallRecordId)]).toEqual(['MANUAL', true, callId]);
		const event = await eventFor('createdCall', leadId);
		expect(String(event.callId)).toBe(callId);
		const link = await httpRequest('GET', `${sandbox.url}/v1.0/call/url/${callId}`, undefined, auth());
		const file = await fetch(link.json.calls.url);
		expect([file.status, file.headers.get('content-type')]).toEqual([200, 'audio/wav']);
		expect(Buffer.from(await file.arrayBuffer()).subarray(0, 4).toString('ascii')).toBe('RIFF');
	});

	test('Text and Email: stored as sent by the agent, with a createdText and a createdEmail event', async () => {
		await click(row(leadId).locator('button[data-action=text]'));
		await click(row(leadId).locator('button[data-action=email]'));
		const kinds = commState(sandbox.store)
			.list(Date.now(), (c) => c.leadId === BigInt(leadId))
			.map((c) => `${c.kind} ${c.communicationType}`);
		expect(kinds.sort()).toEqual(['CALL MANUAL', 'EMAIL MANUAL', 'TEXT MANUAL']);
		await eventFor('createdText', leadId);
		await eventFor('createdEmail', leadId);
	});

	test('the deliveries table shows each event delivered (200)', async () => {
		const keys = ['createdLead', 'updatedLeadstage', 'createdCall', 'createdText', 'createdEmail'];
		// The table refreshes every 2 seconds: wait for the row of each event.
		const rows = await until(
			async () => {
				const text = (await page.locator('[data-test=delivery]').allInnerTexts()).join('\n');
				return keys.every((key) => new RegExp(`${key}.*200 delivered`).test(text)) ? text : undefined;
			},
			() => `a "200 delivered" row for each of ${keys.join(', ')} in the deliveries table`,
		);
		expect(rows).not.toMatch(/hooks\.example\.com/); // the seeded example subscriptions are not shown
		await page.screenshot({ path: path.join(SHOTS, '02-events-delivered.png'), fullPage: true });
	});

	test('the deliveries table tells a delivery that started the workflow from one its filters dropped (started: 0)', async () => {
		// What the Lofty Trigger answers: {received, started}; started 0 when its filters dropped every event.
		receiver.respond = (r: ReceivedRequest) => ({ status: 200, body: JSON.stringify({ received: 1, started: r.text.includes('createdText') ? 0 : 1 }) });
		try {
			await click(row(leadId).locator('button[data-action=text]'));
			await click(row(leadId).locator('button[data-action=email]'));
			const rows = await until(
				async () => {
					const text = (await page.locator('[data-test=delivery]').allInnerTexts()).join('\n');
					return /createdText.*200 delivered, filtered out \(started: 0\)/.test(text) && /createdEmail.*200 delivered, started the workflow \(started: 1\)/.test(text) ? text : undefined;
				},
				() => 'a filtered-out Text row and a started Email row in the deliveries table',
			);
			expect(rows).toMatch(/filtered out/);
			await page.screenshot({ path: path.join(SHOTS, '03-started-or-filtered.png'), fullPage: true });
			if (process.env.LOFTY_E2E_SHOTS_COPY) await page.screenshot({ path: path.join(process.env.LOFTY_E2E_SHOTS_COPY, 'tryout-deliveries-started-or-filtered.png'), fullPage: true });
		} finally {
			receiver.respond = undefined;
		}
	});

	test('a refused event says why on the page and changes nothing', async () => {
		const before = sandbox.store.leads.size;
		const r = await httpRequest('POST', `${sandbox.url}/tryout/events`, { kind: 'stage', leadId: '1' });
		expect([r.status, r.json.ok, r.json.detail]).toEqual([400, false, 'Not made: no lead 1']);
		expect(sandbox.store.leads.size).toBe(before);
	});
});
