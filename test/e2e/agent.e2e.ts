/**
 * The Lofty node as an AI agent's tool, in a real n8n: Manual Trigger -> AI Agent, with n8n's OpenAI Chat Model
 * (chat completions, not the Responses API) whose credential's Base URL points at a scripted OpenAI-compatible server
 * on loopback (fakeOpenAi.ts), and two Lofty tool nodes: Lead Get Many filtered by the email the model gives
 * (`$fromAI`), and Task Create for the lead the model picked from that result.
 *
 * The script plays the model: it calls the lead search with an email, reads the lead ID from the tool's answer,
 * calls Task Create with it, and answers with the task ID it got back. The test asserts what the sandbox received
 * (the model's arguments), that the answer carries the tools' results, that the tools' names and descriptions n8n
 * generated are valid for OpenAI (letters, digits, _ and -, at most 64 characters), and that the lead search result
 * the model saw is the Simplified output (no full lead records in its context).
 *
 * Runs on n8n 2.41.1 (Node 24) and on 2.8.4 when it is installed (skipped with a log line otherwise).
 */
import { randomBytes } from 'node:crypto';

import { type Sandbox, parseJson } from '../../sandbox';
import type { FakeOpenAi, Json, Reply } from './fakeOpenAi';
import { N8nServer, NODE_TYPE, n8nInstalled } from './n8nServer';
import { fakeOpenAiCredential, startAgentWorld } from './agentWorkflow';

const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const LEAD_EMAIL = 'agent.e2e@example.com';
const TASK_TEXT = 'Call back about the open house';

/** What the model does, turn by turn, read from the conversation: search, then create the task, then answer. */
function modelScript(messages: Json[], tools: Json[]): Reply {
	const toolName = (part: RegExp) => tools.map((t) => t.function?.name as string).find((n) => part.test(n)) ?? 'missing-tool';
	const results = messages.filter((m) => m.role === 'tool').map((m) => String(typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
	if (results.length === 0) return { tool: toolName(/Find/), args: { email: LEAD_EMAIL } };
	if (results.length === 1) {
		const leadId = /"leadId"\s*:\s*"?(\d+)/.exec(results[0])?.[1];
		if (!leadId) return { text: `No lead found: ${results[0].slice(0, 200)}` };
		return { tool: toolName(/Task/), args: { leadId, content: TASK_TEXT, dueAt: '2026-06-01T10:00:00-07:00' } };
	}
	const taskId = /"taskId"\s*:\s*"?(\d+)/.exec(results[1])?.[1];
	const leadId = /"leadId"\s*:\s*"?(\d+)/.exec(results[0])?.[1];
	return { text: `Created task ${taskId ?? '(none)'} for lead ${leadId ?? '(none)'}.` };
}

function defineAgentSuite(version: string, skipWhenNotInstalled = false): void {
	if (skipWhenNotInstalled && !n8nInstalled(version)) {
		process.stdout.write(`[agent e2e ${version}] SKIPPED: n8n ${version} is not installed in the cache (node scripts/n8n-runtime.js --version ${version})\n`);
		describe.skip(`the Lofty node as an AI agent's tool (n8n ${version})`, () => test('skipped', () => undefined));
		return;
	}
	describe(`the Lofty node as an AI agent's tool (n8n ${version})`, () => {
		const n8n = new N8nServer(version, `agent-${version}`);
		let sandbox: Sandbox;
		let model: FakeOpenAi;
		let leadId = '';
		let execution: Json = {};

		beforeAll(async () => {
			({ sandbox, model, leadId } = await startAgentWorld(n8n, modelScript, { firstName: 'Agnes', lastName: 'Agent', emails: [LEAD_EMAIL] }));
			const lofty = await n8n.createCredential('Lofty API (agent e2e)', 'loftyApi', { apiKey: sandbox.apiKey, baseUrl: sandbox.url });
			const openAi = await fakeOpenAiCredential(n8n, model);
			const tool = (name: string, x: number, parameters: Json) => ({
				id: randomBytes(8).toString('hex'),
				name,
				type: `${NODE_TYPE}Tool`,
				typeVersion: 1.1,
				position: [x, 240],
				parameters: { authentication: 'apiKey', descriptionType: 'auto', ...parameters },
				credentials: { loftyApi: { id: lofty, name: 'Lofty API (agent e2e)' } },
			});
			const workflow = {
				name: `Lofty e2e: AI agent (${version})`,
				nodes: [
					{ id: randomBytes(8).toString('hex'), name: 'Manual Trigger', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
					{
						id: randomBytes(8).toString('hex'),
						name: 'AI Agent',
						type: '@n8n/n8n-nodes-langchain.agent',
						typeVersion: 3,
						position: [240, 0],
						parameters: { promptType: 'define', text: `Find the lead with the email ${LEAD_EMAIL} and create a task for them: ${TASK_TEXT}.`, options: {} },
					},
					{
						id: randomBytes(8).toString('hex'),
						name: 'OpenAI Chat Model',
						type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
						typeVersion: 1.3,
						position: [120, 240],
						parameters: { model: { __rl: true, mode: 'id', value: 'fake-model' }, responsesApiEnabled: false, options: {} },
						credentials: { openAiApi: { id: openAi, name: 'Fake OpenAI (loopback)' } },
					},
					tool('Find Leads By Email', 320, {
						resource: 'lead',
						operation: 'getAll',
						limit: 5,
						filters: { email: "={{ $fromAI('email', 'Email address of the lead', 'string') }}" },
					}),
					tool('Create Task For Lead', 520, {
						resource: 'task',
						operation: 'create',
						leadId: { __rl: true, mode: 'id', value: "={{ $fromAI('leadId', 'ID of the lead, from the lead search', 'string') }}" },
						type: 'Call',
						content: "={{ $fromAI('content', 'What the agent should do', 'string') }}",
						endAt: "={{ $fromAI('dueAt', 'When the task is due, ISO 8601 with an offset', 'string') }}",
						assignedRole: 'Agent',
					}),
				],
				connections: {
					'Manual Trigger': { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
					'OpenAI Chat Model': { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
					'Find Leads By Email': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
					'Create Task For Lead': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
				},
			};
			const id = await n8n.createWorkflow(workflow);
			const ex = await n8n.runWorkflow(id, 'Manual Trigger', 180_000);
			execution = ex as unknown as Json;
			n8n.log(`agent workflow: execution ${ex.id} ${ex.status}; model requests: ${model.requests.map((r) => `${r.method} ${r.path}`).join(', ')}`);
		});

		afterAll(async () => {
			await n8n.stop();
			await model?.stop();
			await sandbox?.stop();
		});

		const completions = () => model.requests.filter((r) => r.path.endsWith('/chat/completions'));

		test('the workflow succeeds; the chat model used chat completions only (three turns)', () => {
			if (execution.status !== 'success') throw new Error(`execution ${execution.id}: ${execution.status} ${JSON.stringify(execution.error ?? {}).slice(0, 800)}\n${n8n.logTail(30)}`);
			expect(model.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/chat/completions', 'POST /v1/chat/completions', 'POST /v1/chat/completions']);
		});

		test('the tools n8n generated from the Lofty nodes have names and descriptions valid for OpenAI, with the $fromAI parameters', () => {
			const tools = completions()[0].body.tools as Json[];
			const byName = Object.fromEntries(tools.map((t) => [t.function.name, t.function]));
			expect(Object.keys(byName).sort()).toEqual(['Create_Task_For_Lead', 'Find_Leads_By_Email']);
			for (const fn of Object.values(byName) as Json[]) {
				expect(fn.name).toMatch(OPENAI_NAME);
				expect(fn.description.length).toBeGreaterThan(0);
				expect(fn.description.length).toBeLessThanOrEqual(1024);
			}
			expect(byName.Find_Leads_By_Email.description).toBe('Search leads by email, phone, name or other filters in Lofty');
			expect(byName.Create_Task_For_Lead.description).toBe('Create a task in Lofty');
			expect(Object.keys(byName.Find_Leads_By_Email.parameters.properties)).toEqual(['email']);
			expect(Object.keys(byName.Create_Task_For_Lead.parameters.properties).sort()).toEqual(['content', 'dueAt', 'leadId']);
		});

		test("the sandbox received the tools' requests with the model's arguments", () => {
			const search = sandbox.requests.filter((r) => r.method === 'GET' && r.path === '/v1.0/leads');
			expect(search.map((r) => r.query.email)).toEqual([LEAD_EMAIL]);
			const tasks = sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/v2.0/tasks');
			expect(tasks).toHaveLength(1);
			const body = parseJson(tasks[0].body) as Json;
			expect({ leadId: String(body.leadId), content: body.content, type: body.type }).toEqual({ leadId, content: TASK_TEXT, type: 'Call' });
		});

		test("the agent's answer carries the tools' results; the lead search came back Simplified", async () => {
			const toolAnswers = (completions()[2].body.messages as Json[]).filter((m) => m.role === 'tool').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
			expect(toolAnswers).toHaveLength(2);
			const taskId = /"taskId"\s*:\s*"?(\d+)/.exec(toolAnswers[1])?.[1];
			expect(taskId).toMatch(/^\d+$/);
			// The task the model was told about is the one in the sandbox, on the lead it found.
			const task = (await (await fetch(`${sandbox.url}/v2.0/tasks/${taskId}`, { headers: { authorization: `token ${sandbox.apiKey}`, 'content-type': 'application/json' } })).json()) as Json;
			expect(JSON.stringify(task)).toContain(TASK_TEXT);
			const out = execution.runData['AI Agent']?.[0]?.data?.main?.[0]?.[0]?.json;
			expect(out?.output).toBe(`Created task ${taskId} for lead ${leadId}.`);
			expect(toolAnswers[0]).toContain(leadId);
			expect(toolAnswers[0]).not.toMatch(/leadInquiry|leadPropertyList|customAttributes/);
		});
	});
}

defineAgentSuite(process.env.LOFTY_E2E_N8N_VERSION || '2.41.1');
defineAgentSuite('2.8.4', true);
