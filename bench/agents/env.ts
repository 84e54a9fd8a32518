/**
 * The benchmark's environment: sandboxes (Lofty) in this process, one real n8n 2.41.1 with this package installed as a
 * community node, the MCP Server Trigger example (examples/lofty-mcp-server.json) published in it once per
 * sandbox, and the official MCP SDK client connected as Claude Desktop or Cursor would be. Every task runs in this one n8n, in one of its worlds
 * (a sandbox and the workflow published for it): before each run the world's sandbox is put back to its seed and the
 * task's starting state (setup.ts), which is what "a fresh sandbox" means here.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

// The SDK's subpath exports ("./*") are resolved by TypeScript and Node, not by the lint's import resolver.
/* eslint-disable import-x/no-unresolved */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
/* eslint-enable import-x/no-unresolved */

import { type Sandbox, startSandbox } from '../../sandbox';
import { N8nServer, ROOT } from '../../test/e2e/n8nServer';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const N8N_VERSION = process.env.LOFTY_BENCH_AGENTS_N8N || '2.41.1';
/** The MCP server workflow under test: the example, or your own (LOFTY_TAU_WORKFLOW, a workflow file with an MCP Server Trigger). */
export const EXAMPLE = process.env.LOFTY_TAU_WORKFLOW ? path.resolve(process.env.LOFTY_TAU_WORKFLOW) : path.join(ROOT, 'examples', 'lofty-mcp-server.json');

/** n8n keeps no execution of a successful tool call (each call is one), and logs only warnings. */
const QUIET = { EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'none', EXECUTIONS_DATA_SAVE_ON_ERROR: 'none', EXECUTIONS_DATA_SAVE_ON_PROGRESS: 'false', N8N_LOG_LEVEL: 'warn' };

/** A tool as the MCP client lists it. */
export interface McpTool {
	name: string;
	description?: string;
	inputSchema: Json;
	annotations?: Json;
}

/** One tool call's answer as a client receives it. */
export interface ToolAnswer {
	text: string;
	isError: boolean;
	ms: number;
}

/** The workflow under test with this world's credentials, on its own MCP path (two published triggers must not share one). */
function exampleWorkflow(credentials: { lofty: string; bearer: string }, index: number): Json {
	const wf = JSON.parse(fs.readFileSync(EXAMPLE, 'utf8')) as Json;
	for (const n of wf.nodes as Json[]) {
		if (n.credentials?.httpBearerAuth) n.credentials.httpBearerAuth = { id: credentials.bearer, name: `Lofty-τ MCP ${index} (Bearer)` };
		if (n.credentials?.loftyApi) n.credentials.loftyApi = { id: credentials.lofty, name: `Lofty-τ ${index} (sandbox)` };
		if (n.type === '@n8n/n8n-nodes-langchain.mcpTrigger') Object.assign(n, { webhookId: randomUUID(), parameters: { ...n.parameters, path: `${n.parameters.path as string}-tau-${index}` } });
	}
	return { name: `Lofty-τ ${index}: ${wf.name as string}`, nodes: wf.nodes, connections: wf.connections, settings: wf.settings };
}

/**
 * One world a task runs in: its own sandbox, and the workflow under test published in the shared n8n with a Lofty
 * credential pointing at that sandbox. Worlds run tasks side by side; nothing of one reaches another.
 */
export class World {
	sandbox!: Sandbox;
	tools: McpTool[] = [];
	private client!: Client;
	/** Lofty's own tool server (the sandbox's, sandbox/mcp): only mutants use it, for what the example's tools cannot do */
	private toolServer: Client | undefined;
	private url = '';

	constructor(
		private readonly n8n: N8nServer,
		readonly index: number,
	) {}

	async start(): Promise<void> {
		this.sandbox = await startSandbox({ port: 0 });
		const bearer = await this.n8n.createCredential(`Lofty-τ MCP ${this.index} (Bearer)`, 'httpBearerAuth', { token: this.sandbox.apiKey });
		const lofty = await this.n8n.createCredential(`Lofty-τ ${this.index} (sandbox)`, 'loftyApi', { apiKey: this.sandbox.apiKey, baseUrl: this.sandbox.url });
		const wf = exampleWorkflow({ lofty, bearer }, this.index);
		const id = await this.n8n.createWorkflow(wf as { name: string; nodes: unknown[]; connections: unknown });
		const activated = await this.n8n.api('POST', `/workflows/${id}/activate`);
		if (activated.status !== 200) throw new Error(`activate answered ${activated.status}: ${activated.text.slice(0, 500)}`);
		const trigger = (wf.nodes as Json[]).find((n) => n.type === '@n8n/n8n-nodes-langchain.mcpTrigger')!;
		this.url = `${this.n8n.base}/mcp/${trigger.parameters.path as string}`;
		await this.connect(60_000);
		this.tools = (await this.client.listTools()).tools as McpTool[];
	}

	/** n8n registers a published workflow's webhooks a moment after it answers: connect once it does. */
	private async connect(waitMs: number): Promise<void> {
		const deadline = Date.now() + waitMs;
		for (;;) {
			try {
				const client = new Client({ name: 'lofty-tau', version: '1.0.0' });
				const headers = { Authorization: `Bearer ${this.sandbox.apiKey}` };
				await client.connect(new StreamableHTTPClientTransport(new URL(this.url), { requestInit: { headers } }));
				this.client = client;
				return;
			} catch (error) {
				if (Date.now() > deadline || !/not registered/.test(String(error))) throw new Error(`${String(error).slice(0, 300)}\n${this.n8n.logTail(30)}`);
				await new Promise((resolve) => setTimeout(resolve, 500));
			}
		}
	}

	/** One tool call through n8n; an unknown tool or a protocol failure is an answer with isError, as a client sees it. */
	async call(name: string, args: Json): Promise<ToolAnswer> {
		const t = Date.now();
		try {
			const result = (await this.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as { content: Array<{ text?: string }>; isError?: boolean };
			const text = result.content.map((c) => c.text ?? '').join('\n');
			return { text, isError: result.isError === true, ms: Date.now() - t };
		} catch (error) {
			return { text: `MCP error: ${(error as Error).message}`, isError: true, ms: Date.now() - t };
		}
	}

	/** A raw call through Lofty's tool server (invoke_api): the route an agent with both examples' tools has to a delete. */
	async invokeApi(args: Json): Promise<ToolAnswer> {
		const t = Date.now();
		if (!this.toolServer) {
			const client = new Client({ name: 'lofty-tau-api', version: '1.0.0' });
			const headers = { Authorization: `Bearer ${this.sandbox.apiKey}` };
			await client.connect(new StreamableHTTPClientTransport(new URL(this.sandbox.mcpUrl), { requestInit: { headers } }));
			this.toolServer = client;
		}
		const query = typeof args.query === 'string' ? (JSON.parse(args.query) as Json) : args.query;
		const result = (await this.toolServer.callTool({ name: 'invoke_api', arguments: { ...args, query } })) as { content: Array<{ text?: string }>; isError?: boolean };
		return { text: result.content.map((c) => c.text ?? '').join('\n'), isError: result.isError === true, ms: Date.now() - t };
	}

	async stop(): Promise<void> {
		await this.toolServer?.close().catch(() => undefined);
		await this.client?.close().catch(() => undefined);
		await this.sandbox?.stop();
	}
}

/** One n8n for all tasks, and its worlds (LOFTY_TAU_WORLDS, default 2: tasks two at a time on 2 cores). */
export class BenchEnv {
	readonly n8n = new N8nServer(N8N_VERSION, `bench-agents-${N8N_VERSION}`, QUIET);
	worlds: World[] = [];
	/** seconds of the start: build, pack, install, n8n, publish, connect */
	startSeconds = 0;

	get tools(): McpTool[] {
		return this.worlds[0]?.tools ?? [];
	}

	async start(count = Math.max(1, Number(process.env.LOFTY_TAU_WORLDS ?? 2) || 2)): Promise<void> {
		const t0 = Date.now();
		await this.n8n.start();
		for (let i = 0; i < count; i++) {
			const world = new World(this.n8n, i + 1);
			this.worlds.push(world);
			await world.start();
		}
		this.startSeconds = (Date.now() - t0) / 1000;
		this.n8n.log(`Lofty-τ: ${this.tools.length} tools in ${count} worlds after ${this.startSeconds.toFixed(1)} s`);
	}

	/** Runs `work` on every item, each in the first free world; the results in the items' order. */
	async each<T, R>(items: T[], work: (world: World, item: T) => Promise<R>): Promise<R[]> {
		const results: R[] = new Array(items.length);
		let next = 0;
		await Promise.all(
			this.worlds.map(async (world) => {
				while (next < items.length) {
					const at = next++;
					results[at] = await work(world, items[at]);
				}
			}),
		);
		return results;
	}

	async stop(): Promise<void> {
		for (const world of this.worlds) await world.stop();
		await this.n8n.stop();
	}
}
