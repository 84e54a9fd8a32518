/**
 * What a person without a model can try with Lofty's tool server (docs/ai-agents.md), in the editor check's n8n
 * (registered by editor.e2e.ts): n8n's **MCP Client** node (an ordinary node, not the agent's MCP Client Tool) calls
 * one tool of the server from a manual run, with the try-out's kind of credential (n8n's Bearer Auth holding the API
 * key). Run: search_apis with {"query": "lead tasks"} answers operations; invoke_api with GET /v1.0/leads/{leadId} answers
 * Lofty's JSON, the 64-bit IDs exact in the text.
 */
import { type Sandbox, SEED_IDS, startSandbox } from '../../sandbox';
import type { EditorTools } from './editorNoCode';

export function toolServerNoModelChecks(t: Pick<EditorTools, 'server' | 'log'>): void {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, rateLimit: { perWindow: 1_000_000, windowMs: 60_000 } });
	});
	afterAll(async () => await sandbox?.stop());

	test("the tool server without a model: n8n's MCP Client node calls search_apis and invoke_api", async () => {
		const { server } = t;
		const credId = await server.createCredential('Lofty tool server (no model)', 'httpBearerAuth', { token: sandbox.apiKey });
		const call = (name: string, tool: string, args: object, x: number) => ({
			id: `mcp-${tool}`,
			name,
			type: '@n8n/n8n-nodes-langchain.mcpClient',
			typeVersion: 1.1,
			position: [x, 0],
			parameters: { endpointUrl: sandbox.mcpUrl, authentication: 'bearerAuth', tool: { __rl: true, mode: 'id', value: tool }, inputMode: 'json', jsonInput: JSON.stringify(args) },
			credentials: { httpBearerAuth: { id: credId, name: 'Lofty tool server (no model)' } },
		});
		const workflowId = await server.createWorkflow({
			name: 'Lofty e2e: the tool server without a model',
			nodes: [
				{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				call('Search APIs', 'search_apis', { query: 'lead tasks' }, 220),
				call('Get Lead', 'invoke_api', { method: 'GET', path: `/v1.0/leads/${SEED_IDS.bigLeadId}` }, 440),
			],
			connections: { Start: { main: [[{ node: 'Search APIs', type: 'main', index: 0 }]] }, 'Search APIs': { main: [[{ node: 'Get Lead', type: 'main', index: 0 }]] } },
		});
		const run = await server.runWorkflow(workflowId, 'Start');
		if (run.status !== 'success') throw new Error(`the run ended ${run.status}: ${JSON.stringify(run.error ?? {}).slice(0, 800)}`);
		const searched = JSON.stringify(run.runData['Search APIs'][0].data.main[0][0].json);
		expect(searched).toMatch(/\/v\d\.\d\/[^"]*tasks/);
		const leads = JSON.stringify(run.runData['Get Lead'][0].data.main[0][0].json);
		expect(leads).toMatch(/HTTP 200/);
		expect(leads).toContain(SEED_IDS.bigLeadId);
		t.log(`tool server without a model: search_apis ${searched.slice(0, 160)}…; invoke_api ${leads.slice(0, 120)}…`);
		expect(sandbox.count('GET', '/v1.0/leads/{leadId}')).toBeGreaterThan(0);
	});
}
