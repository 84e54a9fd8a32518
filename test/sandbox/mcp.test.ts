/**
 * The emulated tool server (sandbox/mcp/server.ts) through the official MCP client over streamable HTTP: Bearer for
 * API keys and OAuth tokens, the four tools, and calls that run as the caller's own REST requests (its permissions,
 * scopes and rate limit, the request log), with 64-bit IDs kept exact.
 */
// The SDK's subpath exports ("./*") are resolved by TypeScript and Node, not by the lint's import resolver.
/* eslint-disable import-x/no-unresolved */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
/* eslint-enable import-x/no-unresolved */

import { type Sandbox, SEED_IDS, startSandbox } from '../../sandbox';

type ToolText = { content: Array<{ type: string; text: string }>; isError?: boolean };

async function connect(sandbox: Sandbox, bearer: string): Promise<Client> {
	const client = new Client({ name: 'mcp-test', version: '1.0.0' });
	const transport = new StreamableHTTPClientTransport(new URL(sandbox.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } });
	await client.connect(transport);
	return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolText> {
	return (await client.callTool({ name, arguments: args })) as ToolText;
}

describe('the tool server ({mcp_url})', () => {
	let sandbox: Sandbox;
	const clients: Client[] = [];
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0 });
	});
	beforeEach(() => sandbox.reset());
	afterAll(async () => {
		for (const c of clients) await c.close().catch(() => undefined);
		await sandbox.stop();
	});
	const open = async (bearer: string) => {
		const client = await connect(sandbox, bearer);
		clients.push(client);
		return client;
	};

	test('lists the four tools of the spec', async () => {
		const client = await open(sandbox.apiKey);
		const { tools } = await client.listTools();
		expect(tools.map((t) => t.name).sort()).toEqual(['describe_api', 'invoke_api', 'list_custom_fields', 'search_apis']);
	});

	test('refuses a request without Bearer, with the token scheme, or with an unknown key', async () => {
		for (const authorization of [undefined, `token ${sandbox.apiKey}`, 'Bearer not-a-key']) {
			const response = await fetch(sandbox.mcpUrl, {
				method: 'POST',
				headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(authorization ? { authorization } : {}) },
				body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
			});
			expect(response.status).toBe(401);
			expect(response.headers.get('www-authenticate')).toBe('Bearer');
		}
	});

	test('search_apis finds operations by words; describe_api gives their parameters', async () => {
		const client = await open(sandbox.apiKey);
		const found = JSON.parse((await call(client, 'search_apis', { query: 'call recording' })).content[0].text) as Array<{ method: string; path: string }>;
		expect(found.map((f) => `${f.method} ${f.path}`)).toContain('GET /v1.0/call/url/{callId}');
		const described = await call(client, 'describe_api', { method: 'GET', path: '/v1.0/leads' });
		expect(described.isError).toBeUndefined();
		const op = JSON.parse(described.content[0].text) as { parameters: Array<{ name: string }> };
		expect(op.parameters.map((p) => p.name)).toEqual(expect.arrayContaining(['email', 'limit']));
		expect((await call(client, 'describe_api', { method: 'GET', path: '/v9.9/nothing' })).isError).toBe(true);
	});

	test('invoke_api with an API key as Bearer: a REST call as "token <key>", 64-bit IDs exact', async () => {
		const client = await open(sandbox.apiKey);
		const created = await call(client, 'invoke_api', { method: 'POST', path: '/v1.0/leads', body: { firstName: 'Mia', lastName: 'Mcp', emails: ['mia.mcp@example.com'] } });
		expect(created.isError).toBeUndefined();
		const leadId = /"leadId"\s*:\s*(\d+)/.exec(created.content[0].text)?.[1] as string;
		expect(leadId.length).toBeGreaterThan(15);
		const read = await call(client, 'invoke_api', { method: 'GET', path: `/v1.0/leads/${leadId}` });
		expect(read.content[0].text).toMatch(/^HTTP 200\n/);
		expect(read.content[0].text).toContain(leadId);
		const posts = sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/v1.0/leads');
		expect(posts.map((r) => [r.authScheme, r.appId])).toEqual([['token', 'apikey:demo-owner']]);
	});

	test("invoke_api runs with the caller's permissions: a lead not shared with the caller is refused, its owner reads it", async () => {
		const path = `/v1.0/leads/${SEED_IDS.notSharedLeadId}`;
		const refused = await call(await open(sandbox.apiKey), 'invoke_api', { method: 'GET', path });
		expect(refused.isError).toBe(true);
		expect(refused.content[0].text).toMatch(/^HTTP 4\d\d\n/);
		const owner = await call(await open(sandbox.otherAgentApiKey), 'invoke_api', { method: 'GET', path });
		expect(owner.content[0].text).toMatch(/^HTTP 200\n/);
	});

	test("invoke_api with an OAuth token: its scopes apply (403 200100 outside them)", async () => {
		const token = sandbox.issueToken({ scopes: ['GET /v1.0/me'] });
		const client = await open(token);
		expect((await call(client, 'invoke_api', { method: 'GET', path: '/v1.0/me' })).content[0].text).toMatch(/^HTTP 200\n/);
		const refused = await call(client, 'invoke_api', { method: 'GET', path: '/v1.0/leads' });
		expect(refused.isError).toBe(true);
		expect(refused.content[0].text).toMatch(/^HTTP 403\n[\s\S]*200100/);
		expect(sandbox.requests.filter((r) => r.path === '/v1.0/leads').map((r) => r.authScheme)).toEqual(['bearer']);
	});

	test("invoke_api counts against the caller's rate limit", async () => {
		sandbox.setRateLimit({ perWindow: 2, windowMs: 60_000 });
		const client = await open(sandbox.apiKey);
		const statuses: string[] = [];
		for (let i = 0; i < 3; i++) statuses.push((await call(client, 'invoke_api', { method: 'GET', path: '/v1.0/me' })).content[0].text.split('\n')[0]);
		expect(statuses).toEqual(['HTTP 200', 'HTTP 200', 'HTTP 429']);
	});

	test("list_custom_fields lists the team's lead custom fields", async () => {
		const client = await open(sandbox.apiKey);
		const answer = await call(client, 'list_custom_fields', {});
		expect(answer.isError).toBeUndefined();
		expect(Array.isArray(JSON.parse(answer.content[0].text))).toBe(true);
	});
});
