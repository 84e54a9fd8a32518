/**
 * The try-out's own events, in the editor check (registered by editor.e2e.ts, in its browser and n8n): the
 * call-recording example published, then fired from the sandbox's page (sandbox/web, /tryout) as a person does it:
 *   - the workflow on the canvas: the trigger's subtitle names its event ("Call"), its panel has the node's own test
 *     text ("Test with a real Lofty event");
 *   - published, n8n's subscription is listed on the sandbox page under "Listening now";
 *   - "Call (recorded)" on a lead of the page: the sandbox delivers the Call event, the workflow runs, Download
 *     Recording holds the call's WAV as binary data, and the page shows the delivery answered 200.
 * Also the credential test of a Client Credentials credential with a wrong Customer Key, as the editor runs it on
 * Save (n8n's own words: the node cannot change them; the field's hint names them).
 * Screenshots: tryout-canvas, tryout-trigger-panel (with its Docs link checked), tryout-page-listening, tryout-page-call,
 * tryout-execution, tryout-credential-customer-key.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore
import type { Page } from 'playwright-core';

import { DEMO_API_KEY, type Sandbox, startSandbox } from '../../sandbox';
import type { EditorTools } from './editorNoCode';
import { PACKAGE_NAME, ROOT, httpRequest } from './n8nServer';
import type { Json } from './plan';

const SHOTS = path.join(ROOT, 'screenshots', 'editor');

async function until<T>(check: () => Promise<T | undefined>, what: () => string, timeoutMs = 90_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check().catch(() => undefined);
		if (value !== undefined && value !== false) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
		await new Promise((r) => setTimeout(r, 250));
	}
}

export function tryoutEditorChecks(t: EditorTools): void {
	let sandbox: Sandbox;
	let workflowId = '';
	let tab: Page | undefined;
	const page = () => t.page();

	beforeAll(async () => {
		sandbox = await startSandbox({
			port: 0,
			web: true,
			webhooks: { autoDeliver: true, allowHttpCallbacks: true, timeoutMs: 5000 },
			rateLimit: { perWindow: 1_000_000, windowMs: 60_000 },
		});
	});
	afterAll(async () => {
		await tab?.close().catch(() => undefined);
		if (workflowId) await t.server.api('POST', `/workflows/${workflowId}/deactivate`).catch(() => undefined);
		await sandbox?.stop();
	});

	test('try-out: the call-recording example, published, fires from the sandbox page; the recording is in the execution', async () => {
		const { server } = t;
		const credId = await server.createCredential('Lofty API (try-out page)', 'loftyApi', { apiKey: sandbox.apiKey, baseUrl: sandbox.url });
		const example = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', 'call-recording-download.json'), 'utf8')) as { name: string; nodes: Json[]; connections: Json; settings: Json };
		for (const n of example.nodes) if (String(n.type).startsWith(`${PACKAGE_NAME}.`)) n.credentials = { loftyApi: { id: credId, name: 'Lofty API (try-out page)' } };
		workflowId = await server.createWorkflow({ ...example, name: 'Lofty e2e: try-out page fires the call-recording example' });

		// The canvas and the trigger's panel, as a person opens the workflow.
		await page().goto(`${server.base}/workflow/${workflowId}`);
		const triggerNode = page().locator('[data-test-id=canvas-node]', { hasText: 'Lofty Trigger' }).first();
		await triggerNode.waitFor({ timeout: 60_000 });
		await until(async () => /\bCall\b/.test(await triggerNode.innerText()) || undefined, () => 'the subtitle "Call" on the trigger');
		expect(await triggerNode.innerText()).not.toMatch(/Events: \d/);
		await t.shot('light', 'tryout-canvas');
		await triggerNode.dblclick();
		await t.ndv().waitFor();
		const panel = t.ndv().locator('[data-test-id=trigger-header]').first();
		await panel.waitFor();
		expect(await panel.innerText()).toMatch(/Test with a real Lofty event/);
		// The Docs link opens the README's section (n8n appends no query after its #).
		const docs = t.ndv().locator('a', { hasText: /^\s*Docs\s*$/ }).first();
		expect(await docs.getAttribute('href')).toBe('https://github.com/n8n-nodes-lofty/n8n-nodes-lofty#lofty-trigger');
		await t.shot('light', 'tryout-trigger-panel');
		await page().locator('[data-test-id=ndv-close-button]').click();
		await t.ndv().waitFor({ state: 'hidden' });

		// Published: n8n subscribes to Call events in the sandbox, and serves the callback.
		const activated = await server.api('POST', `/workflows/${workflowId}/activate`);
		if (activated.status !== 200) throw new Error(`activate answered ${activated.status}: ${activated.text.slice(0, 500)}`);
		const webhookId = String(example.nodes.find((n) => n.type === `${PACKAGE_NAME}.loftyTrigger`)!.webhookId);
		const subscribed = await until(
			async () => sandbox.requests.find((r) => r.method === 'POST' && r.path === '/v1.0/webhook' && r.status < 300 && r.body.includes(webhookId)),
			() => `the Call subscription\n${server.logTail(15)}`,
		);
		const callbackUrl = String((JSON.parse(subscribed.body) as { callbackUrl: string }).callbackUrl);
		await until(async () => (await httpRequest('POST', callbackUrl, '{"eventType":"ping","webhookId":1}', { 'content-type': 'application/json' })).status === 200 || undefined, () => 'n8n serving the webhook');

		// The sandbox page in a second tab: n8n listening, then a recorded call on the first lead with a phone.
		tab = await page().context().newPage();
		await tab.goto(`${sandbox.url}/tryout`);
		await tab.locator('body[data-loaded=true]').waitFor();
		await tab.locator('[data-test=subscription]', { hasText: callbackUrl.replace(/([?&]token=)[^&#]*/, '$1***') }).waitFor();
		await tab.screenshot({ path: path.join(SHOTS, 'tryout-page-listening.png') });
		const row = tab.locator('[data-test=lead-row]').filter({ hasText: /\+1\d{10}/ }).first();
		await row.locator('button[data-action=call]').click();
		await tab.locator('#result[data-ok=true]').waitFor();
		const callId = /Dialer call (\d+)/.exec(await tab.locator('#result').innerText())![1];

		// The execution: the trigger's item, then the recording as binary data, then its description.
		let seen = '';
		const execution = await until(
			async () => {
				const r = await server.api('GET', `/executions?workflowId=${workflowId}&includeData=true&limit=5`);
				const done = (r.json?.data ?? []).filter((e: Json) => e.finished || e.stoppedAt);
				seen = done.map((e: Json) => `${e.id} ${e.status}`).join(', ');
				return done.find((e: Json) => JSON.stringify(e.data?.resultData?.runData?.['Lofty Trigger'] ?? '').includes(callId));
			},
			() => `an execution for call ${callId} (executions: ${seen || 'none'}; deliveries: ${sandbox.webhooks.log.filter((e) => e.callbackUrl === callbackUrl).map((e) => `${e.outcome} ${e.status ?? ''}`).join(', ') || 'none'})\n${server.logTail(15)}`,
		);
		const download = execution.data.resultData.runData['Download Recording'][0].data.main[0][0];
		expect(download.binary.recording).toMatchObject({ mimeType: 'audio/wav', fileName: `${callId}.wav` });
		const described = execution.data.resultData.runData['Describe Recording'][0].data.main[0][0].json;
		expect(described.recording).toMatch(new RegExp(`^${callId}\\.wav \\(audio/wav, \\d+ bytes\\)$`));
		// The delivery reads as docs/try-it.md shows it: it started the run (n8n 2.41.1 answers "firstEntryJson" in place
		// of the trigger's count), or the trigger had the call already; never a bare "200 delivered".
		const delivered = tab.locator('[data-test=delivery][data-outcome=delivered]', { hasText: 'createdCall' }).first();
		await delivered.waitFor();
		let rowText = '';
		await until(
			async () => ((rowText = await delivered.innerText()), /200 delivered, (started the workflow|already run)/.test(rowText) || undefined),
			() => `the delivery row reads "${rowText}", not "200 delivered, started the workflow" or "200 delivered, already run" (docs/try-it.md)`,
		);
		t.log(`try-out page: the call's delivery reads "${rowText.split('\t').pop()}"`);
		await tab.screenshot({ path: path.join(SHOTS, 'tryout-page-call.png') });

		await page().goto(`${server.base}/workflow/${workflowId}/executions/${execution.id}`);
		// The run's canvas (in a frame), with n8n's production checklist closed: best effort, for the screenshot only.
		await page().frameLocator('iframe').first().locator('[data-test-id=canvas-node]').first().waitFor({ timeout: 30_000 }).catch(() => undefined);
		await page().locator('button[aria-label=Close], .el-popover [class*=close]').first().click({ timeout: 2000 }).catch(() => undefined);
		await t.shot('light', 'tryout-execution');
		t.log(`try-out page: call ${callId} -> execution ${execution.id}: ${described.recording}`);
	});

	test('try-out: the Client Credentials credential as npm start makes it: its name, and the Customer Key\'s hint in view', async () => {
		const { clientId, clientSecret } = sandbox.oauthClient;
		const name = 'Lofty OAuth2 (sandbox): Client Credentials';
		const id = await t.server.createCredential(name, 'loftyOAuth2Api', {
			grantType: 'clientCredentials',
			clientId,
			clientSecret,
			customerApiKey: sandbox.apiKey,
			authentication: 'header',
			accessTokenUrl: `${sandbox.url}/api/user-web/oauth/token`,
			baseUrl: sandbox.url,
		});
		await page().goto(`${t.server.base}/home/credentials/${id}`);
		const modal = page().locator('[data-test-id=editCredential-modal]');
		await modal.waitFor({ timeout: 60_000 });
		await modal.locator('[data-test-id=parameter-input-customerApiKey]').waitFor();
		const text = await modal.innerText();
		expect(text).toContain(name);
		expect(text).toMatch(/The API key of the Lofty user this workflow acts as: in Lofty, Settings > Integrations > API/);
		await modal.locator('[data-test-id=parameter-input-customerApiKey]').scrollIntoViewIfNeeded();
		await t.shot('light', 'tryout-credential-customer-key');
		await page().keyboard.press('Escape');
	});

	test('try-out: the credential test of Client Credentials with a wrong Customer Key (n8n\'s words, quoted by the field\'s hint)', async () => {
		const { clientId, clientSecret } = sandbox.oauthClient;
		const tested = await t.server.testCredential('loftyOAuth2Api', {
			grantType: 'clientCredentials',
			clientId,
			clientSecret,
			customerApiKey: `${DEMO_API_KEY}0`,
			authentication: 'header',
			accessTokenUrl: `${sandbox.url}/api/user-web/oauth/token`,
			baseUrl: sandbox.url,
		});
		t.log(`credential test, wrong Customer Key: ${tested.status}: ${tested.message}`);
		expect(tested.status).toBe('Error');
		expect(tested.message).toMatch(/authorization grant/i);
	});
}
