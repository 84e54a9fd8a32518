/**
 * Call > Download Recording in a real n8n: the file is binary data of the execution, and n8n hands back the same
 * bytes the sandbox's file host served (read through n8n's binary-data REST endpoint when n8n keeps binary data
 * outside the execution, in its filesystem or database mode; from the execution itself in memory mode).
 */
import * as http from 'node:http';

import type { Sandbox } from '../../sandbox';
import { recordingAudio } from '../../sandbox/resources/call';
import { COMM_SEED } from '../../sandbox/resources/communication';
import type { N8nServer } from './n8nServer';
import type { Json } from './plan';

interface Setup {
	n8n: N8nServer;
	sandbox: Sandbox;
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
}
