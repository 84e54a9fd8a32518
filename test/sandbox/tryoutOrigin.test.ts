/**
 * The try-out's own endpoints answer only this server's page and clients (sandbox/core/origin.ts): POST /tryout/events
 * refuses another Origin, a cross-site text/plain or form body and a foreign Host (DNS rebinding); /tryout/state shows
 * callback URLs with their secret (the Lofty Trigger's `token`) redacted; the tool server at /mcp refuses a foreign
 * Host or Origin before anything else.
 */
import * as http from 'node:http';

import { type Sandbox, startSandbox } from '../../sandbox';

type Answer = { status: number; text: string };

function request(sandbox: Sandbox, method: string, path: string, body: string, headers: Record<string, string>): Promise<Answer> {
	const url = new URL(path, sandbox.url);
	return new Promise((resolve, reject) => {
		const req = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers: { 'content-length': String(Buffer.byteLength(body)), ...headers } }, (res) => {
			let text = '';
			res.setEncoding('utf8');
			res.on('data', (d: string) => (text += d));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
		});
		req.on('error', reject);
		req.end(body);
	});
}

describe("the try-out's endpoints answer only this server", () => {
	let sandbox: Sandbox;
	let own: string;
	const event = JSON.stringify({ kind: 'lead', firstName: 'Origin', lastName: 'Test' });
	const leads = () => sandbox.store.leads.size;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, web: true });
		own = new URL(sandbox.url).host;
	});
	afterAll(async () => sandbox.stop());

	test("JSON from the server's own page (or a client without Origin) makes the event", async () => {
		const before = leads();
		const fromPage = await request(sandbox, 'POST', '/tryout/events', event, { 'content-type': 'application/json', origin: `http://${own}`, 'sec-fetch-site': 'same-origin' });
		expect(fromPage.status).toBe(200);
		const fromCurl = await request(sandbox, 'POST', '/tryout/events', event, { 'content-type': 'application/json; charset=utf-8' });
		expect(fromCurl.status).toBe(200);
		expect(leads()).toBe(before + 2);
	});

	test.each([
		['another Origin', { 'content-type': 'application/json', origin: 'https://attacker.example' }],
		['a cross-site text/plain request (no preflight)', { 'content-type': 'text/plain', origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' }],
		['a text/plain body without Origin', { 'content-type': 'text/plain' }],
		['a form body', { 'content-type': 'application/x-www-form-urlencoded' }],
		['a foreign Host (DNS rebinding)', { 'content-type': 'application/json', host: 'rebind.attacker.example' }],
	])('POST /tryout/events refuses %s and makes nothing', async (_what, headers) => {
		const before = leads();
		const answer = await request(sandbox, 'POST', '/tryout/events', event, headers as Record<string, string>);
		expect(answer.status).toBe(403);
		expect(JSON.parse(answer.text)).toMatchObject({ ok: false, detail: expect.stringMatching(/^Not made: /) });
		expect(leads()).toBe(before);
	});

	test("/tryout/state shows a subscription's callback URL without its token", async () => {
		const secret = 'tr1gger-s3cret-value';
		const created = await request(sandbox, 'POST', '/v1.0/webhook', JSON.stringify({ listId: 2, callbackUrl: `https://n8n.example/webhook/abc/webhook?token=${secret}` }), {
			'content-type': 'application/json',
			authorization: `token ${sandbox.apiKey}`,
		});
		expect(created.status).toBe(200);
		const state = await request(sandbox, 'GET', '/tryout/state', '', {});
		expect(state.text).not.toContain(secret);
		expect(JSON.parse(state.text).subscriptions.map((s: { callbackUrl: string }) => s.callbackUrl)).toContain('https://n8n.example/webhook/abc/webhook?token=***');
	});

	test.each([
		['a foreign Host', { host: 'rebind.attacker.example' }],
		['another Origin', { origin: 'https://attacker.example' }],
	])('/mcp refuses %s, even with a valid key', async (_what, headers) => {
		const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
		const answer = await request(sandbox, 'POST', '/mcp', body, {
			'content-type': 'application/json',
			accept: 'application/json, text/event-stream',
			authorization: `Bearer ${sandbox.apiKey}`,
			...(headers as Record<string, string>),
		});
		expect(answer.status).toBe(403);
		expect(answer.text).toMatch(/Refused: (Host|Origin)/);
	});

	test('/mcp answers its own Host and Origin', async () => {
		const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
		const answer = await request(sandbox, 'POST', '/mcp', body, {
			'content-type': 'application/json',
			accept: 'application/json, text/event-stream',
			authorization: `Bearer ${sandbox.apiKey}`,
			origin: `http://${own}`,
		});
		expect(answer.status).toBe(200);
		expect(answer.text).toContain('invoke_api');
	});
});
