/**
 * An AI agent workflow for the end-to-end tests: Manual Trigger -> AI Agent, n8n's OpenAI Chat Model pointed at the
 * scripted OpenAI-compatible server on loopback (fakeOpenAi.ts), and the tool nodes a test gives. Also what the tests
 * read back: the chat completions the model received and the text of each tool result in them.
 */
import { randomBytes } from 'node:crypto';

import { type Sandbox, parseJson, startSandbox } from '../../sandbox';
import { type FakeOpenAi, type Json, type Recorded, type Reply, startFakeOpenAi } from './fakeOpenAi';
import type { N8nServer } from './n8nServer';

const id = () => randomBytes(8).toString('hex');

/** The AI Agent's type version: 3 on every tested line (1.123.81 has it too); `n8nVersion` kept for a line without it. */
export function agentTypeVersion(n8nVersion: string): number {
	return /^1\.(\d{1,2}|1[01]\d)\./.test(n8nVersion) ? 2.2 : 3;
}

export interface AgentWorkflowOptions {
	name: string;
	version: string;
	prompt: string;
	openAiCredential: string;
	tools: Json[];
}

/** The workflow JSON: the trigger, the agent, the chat model and each tool connected as `ai_tool`. */
export function agentWorkflow(o: AgentWorkflowOptions): { name: string; nodes: Json[]; connections: Json } {
	const connections: Json = {
		'Manual Trigger': { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
		'OpenAI Chat Model': { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
	};
	for (const tool of o.tools) connections[tool.name] = { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] };
	return {
		name: o.name,
		nodes: [
			{ id: id(), name: 'Manual Trigger', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: id(),
				name: 'AI Agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				typeVersion: agentTypeVersion(o.version),
				position: [240, 0],
				parameters: { promptType: 'define', text: o.prompt, options: {} },
			},
			{
				id: id(),
				name: 'OpenAI Chat Model',
				type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
				typeVersion: 1.3,
				position: [120, 240],
				parameters: { model: { __rl: true, mode: 'id', value: 'fake-model' }, responsesApiEnabled: false, options: {} },
				credentials: { openAiApi: { id: o.openAiCredential, name: 'Fake OpenAI (loopback)' } },
			},
			...o.tools.map((tool, i) => ({ id: id(), position: [320 + 200 * i, 240], ...tool })),
		],
		connections,
	};
}

/**
 * What an agent test starts before its workflows: a sandbox (no rate limit to speak of), the scripted model, the n8n
 * server, and one lead with `lead`'s fields in the sandbox (its ID).
 */
export async function startAgentWorld(n8n: N8nServer, script: (messages: Json[], tools: Json[]) => Reply, lead: Json): Promise<{ sandbox: Sandbox; model: FakeOpenAi; leadId: string }> {
	const sandbox = await startSandbox({ port: 0, rateLimit: { perWindow: 1_000_000, windowMs: 60_000 } });
	const model = await startFakeOpenAi(script);
	await n8n.start();
	const created = await fetch(`${sandbox.url}/v1.0/leads`, {
		method: 'POST',
		headers: { authorization: `token ${sandbox.apiKey}`, 'content-type': 'application/json' },
		body: JSON.stringify(lead),
	});
	return { sandbox, model, leadId: String((parseJson(await created.text()) as Json).leadId) };
}

/** The OpenAI credential of the scripted model. */
export async function fakeOpenAiCredential(n8n: N8nServer, model: FakeOpenAi): Promise<string> {
	return await n8n.createCredential('Fake OpenAI (loopback)', 'openAiApi', { apiKey: `fake-${randomBytes(6).toString('hex')}`, url: model.url, header: false });
}

/** The text of a tool result as the model received it. */
export function toolText(message: Json): string {
	return typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
}

/** The tool results the model had received by each chat completion request. */
export function toolResultsOf(request: Recorded): string[] {
	return ((request.body.messages ?? []) as Json[]).filter((m) => m.role === 'tool').map(toolText);
}

/** The tool calls the model made, in order, with their arguments. */
export function toolCallsOf(request: Recorded): Array<{ name: string; args: Json }> {
	return ((request.body.messages ?? []) as Json[])
		.filter((m) => m.role === 'assistant' && Array.isArray(m.tool_calls))
		.flatMap((m) => (m.tool_calls as Json[]).map((c) => ({ name: c.function.name as string, args: JSON.parse(c.function.arguments as string) as Json })));
}
