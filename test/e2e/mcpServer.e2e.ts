/**
 * The Lofty MCP server in one workflow (examples/lofty-mcp-server.json) in n8n 2.41.1: n8n's MCP Server Trigger with
 * Bearer auth serving the example's Lofty tools, published, reached by the official MCP SDK client as Claude Desktop
 * or Cursor would reach it. The client lists the tools, calls a read (Search Leads) and a write (Add Note, checked in
 * the sandbox's request log), and a call with a name where an ID belongs gets the node's actionable message with
 * nothing sent to Lofty.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

// The SDK's subpath exports ("./*") are resolved by TypeScript and Node, not by the lint's import resolver.
/* eslint-disable import-x/no-unresolved */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
/* eslint-enable import-x/no-unresolved */

import { type Sandbox, SEED_IDS, parseJson, startSandbox } from '../../sandbox';
import { observe } from '../secrets/observe';
import { N8nServer, ROOT } from './n8nServer';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type ToolText = { content: Array<{ type: string; text: string }>; isError?: boolean };

const EXAMPLE = path.join(ROOT, 'examples', 'lofty-mcp-server.json');
const VERSION = process.env.LOFTY_E2E_N8N_VERSION || '2.41.1';

/** The example with this n8n's credentials: the Bearer one the clients present, the Lofty API one of the tools. */
export function mcpServerWorkflow(credentials: { lofty: string; bearer: string }, file = EXAMPLE): Json {
	const wf = JSON.parse(fs.readFileSync(file, 'utf8')) as Json;
	for (const n of wf.nodes as Json[]) {
		if (n.credentials?.httpBearerAuth) n.credentials.httpBearerAuth = { id: credentials.bearer, name: 'Lofty MCP server (e2e, Bearer)' };
		if (n.credentials?.loftyApi) n.credentials.loftyApi = { id: credentials.lofty, name: 'Lofty API (MCP server e2e)' };
	}
	return { name: `Lofty e2e: ${wf.name as string}`, nodes: wf.nodes, connections: wf.connections, settings: wf.settings };
}

/** The address an MCP client is given: n8n's /mcp/ and the trigger's path. */
export function mcpAddress(n8n: N8nServer, wf: Json): string {
	const trigger = (wf.nodes as Json[]).find((n) => n.type === '@n8n/n8n-nodes-langchain.mcpTrigger')!;
	return `${n8n.base}/mcp/${trigger.parameters.path as string}`;
}

export async function connectMcp(url: string, bearer: string): Promise<Client> {
	const client = new Client({ name: 'lofty-e2e', version: '1.0.0' });
	await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } }));
	return client;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
	const result = (await client.callTool({ name, arguments: args })) as ToolText;
	const text = result.content.map((c) => c.text ?? '').join('\n');
	observe(`MCP tool ${name}`, text);
	return { text, isError: result.isError === true };
}

describe(`the Lofty MCP server example, reached with the MCP SDK client (n8n ${VERSION})`, () => {
	const n8n = new N8nServer(VERSION, `mcp-server-${VERSION}`);
	let sandbox: Sandbox;
	let client: Client;
	let toolNames: string[] = [];
	const tool = (nodeName: string) => toolNames.find((t) => t.replace(/[^a-z]/gi, '').toLowerCase() === nodeName.replace(/[^a-z]/gi, '').toLowerCase()) ?? `missing: ${nodeName}`;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0 });
		await n8n.start();
		const bearer = await n8n.createCredential('Lofty MCP server (e2e, Bearer)', 'httpBearerAuth', { token: sandbox.apiKey });
		const lofty = await n8n.createCredential('Lofty API (MCP server e2e)', 'loftyApi', { apiKey: sandbox.apiKey, baseUrl: sandbox.url });
		const wf = mcpServerWorkflow({ lofty, bearer });
		const id = await n8n.createWorkflow(wf as { name: string; nodes: unknown[]; connections: unknown });
		const activated = await n8n.api('POST', `/workflows/${id}/activate`);
		if (activated.status !== 200) throw new Error(`activate answered ${activated.status}: ${activated.text.slice(0, 500)}`);
		// n8n registers a published workflow's webhooks a moment after it answers.
		const deadline = Date.now() + 60_000;
		for (;;) {
			try {
				client = await connectMcp(mcpAddress(n8n, wf), sandbox.apiKey);
				break;
			} catch (error) {
				if (Date.now() > deadline || !/not registered/.test(String(error))) throw new Error(`${String(error).slice(0, 300)}\n${n8n.logTail(30)}`);
				await new Promise((resolve) => setTimeout(resolve, 500));
			}
		}
		toolNames = (await client.listTools()).tools.map((t) => t.name);
		n8n.log(`MCP server tools: ${toolNames.join(', ')}`);
	});

	afterAll(async () => {
		await client?.close().catch(() => undefined);
		await n8n.stop();
		await sandbox?.stop();
	});

	test('a client without the Bearer token is refused', async () => {
		const wf = mcpServerWorkflow({ lofty: '', bearer: '' });
		await expect(connectMcp(mcpAddress(n8n, wf), 'not-the-token')).rejects.toThrow();
	});

	test("lists the example's tools, at most 20, with the texts a model reads", async () => {
		const example = JSON.parse(fs.readFileSync(EXAMPLE, 'utf8')) as Json;
		const names = (example.nodes as Json[]).filter((n) => n.type.endsWith('.loftyTool')).map((n) => n.name as string);
		expect(names.length).toBeLessThanOrEqual(20);
		expect(toolNames).toHaveLength(names.length);
		for (const name of names) expect(toolNames).toContain(tool(name));
		const { tools } = await client.listTools();
		expect(tools.find((t) => t.name === tool('Send Text to Lead'))?.description).toMatch(/reaches a person/);
		expect(JSON.stringify(tools.find((t) => t.name === tool('Add Note'))?.inputSchema)).toContain('leadId');
	});

	test('a read: Search Leads finds a seeded person, with the exact 64-bit ID', async () => {
		const lead = sandbox.store.leads.get(SEED_IDS.bigLeadId) as unknown as Json;
		const email = (lead.emails as string[])[0];
		const { text, isError } = await callTool(client, tool('Search Leads'), { query: email });
		expect(isError).toBe(false);
		expect(text).toContain(`"${SEED_IDS.bigLeadId}"`);
	});

	test('a write: Add Note reaches the sandbox once, on the exact lead', async () => {
		const before = sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/v1.0/notes').length;
		const { text, isError } = await callTool(client, tool('Add Note'), { leadId: SEED_IDS.bigLeadId, content: 'Called from an MCP client' });
		expect([isError, text]).toEqual([false, expect.stringContaining('noteId')]);
		const posts = sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/v1.0/notes');
		expect(posts).toHaveLength(before + 1);
		expect(String((parseJson(posts[posts.length - 1].body) as Json).leadId)).toBe(SEED_IDS.bigLeadId);
	});

	test('a failing call returns the message a model can act on, and nothing is sent', async () => {
		const before = sandbox.requests.length;
		const { text } = await callTool(client, tool('Get Notes'), { leadId: 'Ada Lovelace' });
		expect(text).toMatch(/Invalid input.*Nothing was sent to Lofty.*Call the tool again/s);
		expect(sandbox.requests.length).toBe(before);
	});
});
