/**
 * Call > Download Recording in a real n8n: the file is binary data of the execution, and n8n hands back the same
 * bytes the sandbox's file host served (read through n8n's binary-data REST endpoint when n8n keeps binary data
 * outside the execution, in its filesystem or database mode; from the execution itself in memory mode).
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';

import type { Sandbox } from '../../sandbox';
import { recordingAudio } from '../../sandbox/resources/call';
import { COMM_SEED, commState } from '../../sandbox/resources/communication';
import { configureDelivery } from '../../sandbox/resources/webhook/delivery';
import { emitCommunication } from '../../sandbox/resources/webhook/delivery/emit';
import { type N8nServer, PACKAGE_NAME, ROOT, httpRequest } from './n8nServer';
import type { Json } from './plan';

interface Setup {
	n8n: N8nServer;
	sandbox: Sandbox;
	creds: { api: Json };
	run: (wf: { name: string; nodes: Json[]; connections: Json }) => Promise<{ id: string; status: string; runData: Record<string, Json[]> }>;
	node: (step: { name: string; resource: string; operation: string; params?: Json }, x: number, extra?: Json) => Json;
	chain: (name: string, nodes: Json[]) => { name: string; nodes: Json[]; connections: Json };
}

/** GET with n8n's session cookie, the body as bytes. */
function getBytes(url: string, cookie: string): Promise<{ status: number; body: Buffer; type: string }> {
	return new Promise((resolve, reject) => {
		http
			.get(url, { headers: { cookie, 'browser-id': 'e2e-browser' } }, (res) => {
				const chunks: Buffer[] = [];
				res.on('data', (c: Buffer) => chunks.push(c));
				res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), type: String(res.headers['content-type'] ?? '') }));
			})
			.on('error', reject);
	});
}

export function defineRecordingDownloadTests(setup: () => Setup): void {
	test('the recording is binary data of the execution: type, name, size and the bytes the file host served; no Authorization went to it', async () => {
		const { n8n, sandbox, run, node, chain } = setup();
		const step = { name: 'Download Recording', resource: 'call', operation: 'downloadRecording', params: { callId: COMM_SEED.bigLeadCallId, binaryPropertyName: 'audio' } };
		const before = sandbox.requests.length;
		const ex = await run(chain('Lofty e2e: call recording as a file', [node(step, 220)]));
		expect(ex.status).toBe('success');
		const item = ex.runData[step.name][0].data.main[0][0];
		const expected = recordingAudio(COMM_SEED.bigLeadCallDialerId);
		const file = item.binary.audio;
		expect(file).toMatchObject({ mimeType: 'audio/wav', fileName: `${COMM_SEED.bigLeadCallDialerId}.wav`, fileExtension: 'wav' });
		expect(item.json).toMatchObject({ callId: COMM_SEED.bigLeadCallId, mimeType: 'audio/wav', fileSize: expected.length });
		let bytes: Buffer;
		if (file.id) {
			const got = await getBytes(`${n8n.base}/rest/binary-data?id=${encodeURIComponent(file.id)}&action=download`, n8n.cookie);
			expect([got.status, got.type]).toEqual([200, expect.stringMatching(/^audio\/wav/)]);
			bytes = got.body;
		} else bytes = Buffer.from(file.data, 'base64');
		expect(bytes.equals(expected)).toBe(true);
		n8n.log(`Download Recording: binary ${file.id ? `stored by n8n as ${String(file.id).split(':')[0]}` : 'in the execution (memory mode)'}, ${file.fileSize}`);
		const fileHost = sandbox.requests.slice(before).filter((r) => r.path.startsWith('/recordings/'));
		expect(fileHost.map((r) => [r.status, r.authScheme])).toEqual([[200, 'none']]);
	});

	test('examples/call-recording-download.json as shipped (credential swapped): a dialer call\'s event gives its file, a logged call\'s says why there is none', async () => {
		const { n8n, sandbox, creds } = setup();
		const example = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', 'call-recording-download.json'), 'utf8')) as { name: string; nodes: Json[]; connections: Json; settings: Json };
		for (const n of example.nodes) if (String(n.type).startsWith(`${PACKAGE_NAME}.`)) n.credentials = { loftyApi: creds.api };
		const workflowId = await n8n.createWorkflow(example);
		configureDelivery(sandbox.store, { autoDeliver: true, allowHttpCallbacks: true, timeoutMs: 5000 });
		try {
			const activated = await n8n.api('POST', `/workflows/${workflowId}/activate`);
			if (activated.status !== 200) throw new Error(`activate answered ${activated.status}: ${activated.text.slice(0, 500)}`);
			const hook = (e: { callbackUrl: string }) => e.callbackUrl.startsWith(n8n.base);
			const webhookId = String(example.nodes.find((n) => n.type === `${PACKAGE_NAME}.loftyTrigger`)!.webhookId);
			// 2.41.x activates through an outbox: the subscription comes shortly after the answer.
			const subscribed = await until(
				async () => sandbox.requests.find((r) => r.method === 'POST' && r.path === '/v1.0/webhook' && r.status < 300 && r.body.includes(webhookId)),
				'the Call subscription',
			);
			// n8n may subscribe a moment before it serves the webhook (a delivery then gets a 404 and waits for Lofty's
			// retry): a ping, which starts nothing, is answered 200 once it does.
			const callbackUrl = String((JSON.parse(subscribed.body) as { callbackUrl: string }).callbackUrl);
			await until(async () => (await httpRequest('POST', callbackUrl, '{"eventType":"ping","webhookId":1}', { 'content-type': 'application/json' })).status === 200, 'n8n serving the webhook');
			const state = commState(sandbox.store);
			for (const id of [COMM_SEED.bigLeadCallId, COMM_SEED.bigLeadLoggedCallId]) emitCommunication(sandbox.store, state.get(BigInt(id), Date.now())!, Date.now());
			let seen = '';
			const items = await until(
				async () => {
					const r = await n8n.api('GET', `/executions?workflowId=${workflowId}&includeData=true&limit=10`);
					const done = (r.json?.data ?? []).filter((e: Json) => e.finished || e.stoppedAt);
					seen = done.map((e: Json) => `${e.id} ${e.status} ran ${Object.keys(e.data?.resultData?.runData ?? {}).join('+')} ${e.data?.resultData?.error?.message ?? ''}`).join('; ');
					const all = done.flatMap((e: Json) => e.data?.resultData?.runData?.['Describe Recording']?.[0]?.data?.main?.[0] ?? []);
					return all.length >= 2 ? all : undefined;
				},
				() => `two items from "Describe Recording"; executions: ${seen || 'none'}; deliveries: ${sandbox.webhooks.log.filter(hook).map((e) => `${e.outcome} ${e.status ?? ''}`).join(', ') || 'none'}\n${n8n.logTail(15)}`,
			);
			const byCall = (id: string) => items.find((i: Json) => i.json.callId === id);
			const recorded = byCall(COMM_SEED.bigLeadCallDialerId);
			expect(recorded.json.recording).toBe(`${COMM_SEED.bigLeadCallDialerId}.wav (audio/wav, ${recordingAudio(COMM_SEED.bigLeadCallDialerId).length} bytes)`);
			expect(recorded.binary.recording).toMatchObject({ mimeType: 'audio/wav', fileName: `${COMM_SEED.bigLeadCallDialerId}.wav` });
			expect(byCall(COMM_SEED.bigLeadLoggedCallId).json.recording).toBe(`none: Call ${COMM_SEED.bigLeadLoggedCallId} has no recording (it was not recorded or was logged by hand)`);
		} finally {
			await n8n.api('POST', `/workflows/${workflowId}/deactivate`).catch(() => undefined);
			configureDelivery(sandbox.store, { autoDeliver: false });
		}
	});
}

/** Polls `read` (bounded, 30 s) until it gives a value. */
async function until<T>(read: () => Promise<T | undefined | false>, what: string | (() => string)): Promise<T> {
	const deadline = Date.now() + 30_000;
	for (;;) {
		const value = await read();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`not within 30 s: ${typeof what === 'string' ? what : what()}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}
