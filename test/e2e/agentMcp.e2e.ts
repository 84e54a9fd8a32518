/**
 * The other route to Lofty for an agent, as the example examples/ai-agent-tool-server.json builds it: n8n's own MCP
 * Client Tool on the sandbox's tool server ({mcp_url}, sandbox/mcp/server.ts) with n8n's Bearer Auth credential holding
 * the API key, next to one Lofty tool, Create or Update Lead. The example runs in n8n 2.41.1 with its Chat Trigger
 * swapped for a Manual Trigger and the scripted model (fakeOpenAi.ts) in place of OpenAI. The model searches the API,
 * looks the person up by email through invoke_api and, finding no one, adds her with Create or Update (the way the
 * example's system message makes the only one to add a person). The test asserts the tools n8n offered the model,
 * what the sandbox received (the key sent on as `token <key>`, in the key's own rate-limit bucket) and that the lead
 * ID the model reported is the exact 64-bit ID Lofty gave.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { type Sandbox, parseJson, startSandbox } from '../../sandbox';
import { type Json, type Reply, type FakeOpenAi, startFakeOpenAi } from './fakeOpenAi';
import { N8nServer, ROOT } from './n8nServer';
import { fakeOpenAiCredential, toolCallsOf, toolResultsOf } from './agentWorkflow';

const EMAIL = 'mona.mcp@example.com';
const EXAMPLE = path.join(ROOT, 'examples', 'ai-agent-tool-server.json');

function modelScript(messages: Json[], tools: Json[]): Reply {
	const tool = (suffix: string) => tools.map((t) => t.function?.name as string).find((n) => n.endsWith(suffix)) ?? `missing-${suffix}`;
	const results = messages.filter((m) => m.role === 'tool').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
	switch (results.length) {
		case 0:
			return { tool: tool('search_apis'), args: { query: 'leads by email' } };
		case 1:
			return { tool: tool('invoke_api'), args: { method: 'GET', path: '/v1.0/leads', query: { email: EMAIL } } };
		case 2:
			if (/\\?"leadId\\?"/.test(results[1])) return { text: `Found an existing lead: ${results[1].slice(0, 200)}` };
			return { tool: tool('Create_or_Update_Lead'), args: { firstName: 'Mona', lastName: 'Mcp', email: EMAIL, phone: '4155550199' } };
		default: {
			const leadId = /\\?"leadId\\?"\s*:\s*\\?"?(\d+)/.exec(results[2])?.[1];
			return { text: `Added lead ${leadId ?? '(none)'}.` };
		}
	}
}

/** The example with a Manual Trigger and a fixed prompt, pointed at this sandbox, with this n8n's credentials. */
function exampleWorkflow(credentials: { lofty: string; bearer: string; openAi: string }, mcpUrl: string): Json {
	const wf = JSON.parse(fs.readFileSync(EXAMPLE, 'utf8')) as Json;
	const chat = (wf.nodes as Json[]).find((n) => n.type === '@n8n/n8n-nodes-langchain.chatTrigger')!;
	const manual = { id: chat.id, name: 'Manual Trigger', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: chat.position, parameters: {} };
	wf.nodes = (wf.nodes as Json[]).map((n) => (n === chat ? manual : n));
	wf.connections['Manual Trigger'] = wf.connections[chat.name];
	delete wf.connections[chat.name];
	for (const n of wf.nodes as Json[]) {
		if (n.type === '@n8n/n8n-nodes-langchain.agent') Object.assign(n.parameters, { promptType: 'define', text: `Add Mona Mcp, ${EMAIL}, phone 4155550199, if she is not in Lofty yet.` });
		if (n.credentials?.openAiApi) n.credentials.openAiApi = { id: credentials.openAi, name: 'Fake OpenAI (loopback)' };
		if (n.credentials?.httpBearerAuth) n.credentials.httpBearerAuth = { id: credentials.bearer, name: 'Lofty tool server (Bearer)' };
		if (n.credentials?.loftyApi) n.credentials.loftyApi = { id: credentials.lofty, name: 'Lofty API (MCP e2e)' };
		if (n.type === '@n8n/n8n-nodes-langchain.mcpClientTool') n.parameters.endpointUrl = mcpUrl;
	}
	return { name: `Lofty e2e: ${wf.name as string}`, nodes: wf.nodes, connections: wf.connections, settings: wf.settings };
}

const VERSION = process.env.LOFTY_E2E_N8N_VERSION || '2.41.1';

describe(`the tool-server example: an agent uses Lofty's tool server through n8n's MCP Client Tool (n8n ${VERSION})`, () => {
	const n8n = new N8nServer(VERSION, `agent-mcp-${VERSION}`);
	let sandbox: Sandbox;
	let model: FakeOpenAi;
	let execution: Json = {};

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0 });
		model = await startFakeOpenAi(modelScript);
		await n8n.start();
		const bearer = await n8n.createCredential('Lofty tool server (Bearer)', 'httpBearerAuth', { token: sandbox.apiKey });
		const lofty = await n8n.createCredential('Lofty API (MCP e2e)', 'loftyApi', { apiKey: sandbox.apiKey, baseUrl: sandbox.url });
		const openAi = await fakeOpenAiCredential(n8n, model);
		const workflow = exampleWorkflow({ lofty, bearer, openAi }, sandbox.mcpUrl);
		const ex = await n8n.runWorkflow(await n8n.createWorkflow(workflow as { name: string; nodes: unknown[]; connections: unknown }), 'Manual Trigger', 180_000);
		execution = ex as unknown as Json;
		n8n.log(`MCP agent: execution ${ex.id} ${ex.status}; model requests: ${model.requests.length}`);
	});

	afterAll(async () => {
		await n8n.stop();
		await model?.stop();
		await sandbox?.stop();
	});

	const completions = () => model.requests.filter((r) => r.path.endsWith('/chat/completions'));

	test('the workflow succeeds in four model turns', () => {
		if (execution.status !== 'success') throw new Error(`execution ${execution.id}: ${execution.status} ${JSON.stringify(execution.error ?? {}).slice(0, 800)}\n${n8n.logTail(30)}`);
		expect(completions()).toHaveLength(4);
	});

	test("n8n offered the model the tool server's four tools and Create or Update", () => {
		const tools = completions()[0].body.tools as Json[];
		const names = tools.map((t) => t.function.name as string);
		for (const tool of ['search_apis', 'describe_api', 'invoke_api', 'list_custom_fields']) expect(names.some((n) => n.endsWith(tool))).toBe(true);
		expect(tools.find((t) => t.function.name === 'Create_or_Update_Lead')?.function.description).toBe('Create or update a lead in Lofty');
	});

	test("the sandbox received the look-up as the API key's own REST call, then one create", () => {
		const leads = sandbox.requests.filter((r) => r.path === '/v1.0/leads');
		expect(leads[0]).toMatchObject({ method: 'GET', status: 200, authScheme: 'token', appId: 'apikey:demo-owner' });
		expect(leads[0].query.email).toBe(EMAIL);
		const posts = leads.filter((r) => r.method === 'POST');
		expect(posts).toHaveLength(1);
		expect((parseJson(posts[0].body) as Json).emails).toEqual([EMAIL]);
	});

	test('what the model received: the operations found, the empty look-up, and the exact ID of the new lead in its answer', () => {
		const last = completions()[3];
		const results = toolResultsOf(last);
		expect(results[0]).toContain('/v1.0/leads');
		expect(results[1]).toMatch(/HTTP 200/);
		expect(toolCallsOf(last).map((c) => c.name.replace(/^.*_(search_apis|invoke_api)$/, '$1'))).toEqual(['search_apis', 'invoke_api', 'Create_or_Update_Lead']);
		const created = [...sandbox.store.leads.values()].filter((l) => JSON.stringify(l, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)).includes(EMAIL));
		expect(created).toHaveLength(1);
		const leadId = String((created[0] as unknown as Json).leadId ?? (created[0] as unknown as Json).id);
		const out = execution.runData['AI Agent']?.[0]?.data?.main?.[0]?.[0]?.json;
		expect(out?.output).toBe(`Added lead ${leadId}.`);
	});
});
