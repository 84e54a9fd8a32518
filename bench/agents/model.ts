/**
 * Tier 3: a model through any OpenAI-compatible chat-completions endpoint, using the MCP server's tools. The system
 * message is the team playbook (policy.md), the user message the task's instruction; each tool call the model makes
 * is sent through the MCP client, its answer handed back, until the model answers in words. A run ends abnormally
 * (reward 0) when the endpoint fails or answers nonsense, or after MAX_TURNS model turns.
 *
 *   LOFTY_TAU_MODEL_URL   the endpoint's base, e.g. https://api.openai.com/v1 (".../chat/completions" is added)
 *   LOFTY_TAU_MODEL_KEY   its key (sent as "Authorization: Bearer <key>"; never printed)
 *   LOFTY_TAU_MODEL       the model's name (default gpt-4o-mini)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { Json, World } from './env';
import { type Run, type Step, prepare } from './player';
import { snapshot } from './state';
import { AGENTS_DIR, type Task } from './tasks';

export const MAX_TURNS = 30;

export interface ModelConfig {
	url: string;
	key: string;
	model: string;
	/** a label for the table: the model, or "scripted fake" */
	label: string;
}

export const POLICY = fs.readFileSync(path.join(AGENTS_DIR, 'policy.md'), 'utf8');

/** The MCP tools as OpenAI function tools. */
function functions(env: World): Json[] {
	return env.tools.map((t) => {
		const { $schema: _schema, ...parameters } = t.inputSchema; // eslint-disable-line @typescript-eslint/no-unused-vars
		return { type: 'function', function: { name: t.name, description: t.description ?? '', parameters } };
	});
}

async function complete(config: ModelConfig, messages: Json[], tools: Json[]): Promise<Json> {
	const response = await fetch(`${config.url.replace(/\/$/, '')}/chat/completions`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', authorization: `Bearer ${config.key}` },
		body: JSON.stringify({ model: config.model, messages, tools, temperature: 0 }),
		signal: AbortSignal.timeout(180_000),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`the model endpoint answered HTTP ${response.status}: ${text.slice(0, 300)}`);
	return JSON.parse(text) as Json;
}

/** One trial of a task by the model. */
export async function modelRun(env: World, task: Task, config: ModelConfig): Promise<Run> {
	const t0 = Date.now();
	const { start } = prepare(env, task);
	const tools = functions(env);
	const messages: Json[] = [
		{ role: 'system', content: POLICY },
		{ role: 'user', content: task.instruction },
	];
	const steps: Step[] = [];
	const tokens = { prompt: 0, completion: 0 };
	let abnormal: string | undefined;
	let final: string | undefined;
	try {
		for (let turn = 0; ; turn++) {
			if (turn >= MAX_TURNS) throw new Error(`no answer after ${MAX_TURNS} model turns`);
			const answer = await complete(config, messages, tools);
			tokens.prompt += Number(answer.usage?.prompt_tokens ?? 0);
			tokens.completion += Number(answer.usage?.completion_tokens ?? 0);
			const message = answer.choices?.[0]?.message as Json | undefined;
			if (!message) throw new Error(`no message in the answer: ${JSON.stringify(answer).slice(0, 200)}`);
			messages.push({ role: 'assistant', content: message.content ?? null, ...(message.tool_calls ? { tool_calls: message.tool_calls } : {}) });
			const calls = (message.tool_calls ?? []) as Json[];
			if (calls.length === 0) {
				final = String(message.content ?? '');
				break;
			}
			for (const call of calls) {
				let args: Json;
				try {
					args = JSON.parse(call.function?.arguments || '{}') as Json;
				} catch {
					args = {};
				}
				const result = await env.call(String(call.function?.name), args);
				steps.push({ tool: String(call.function?.name), args, ...result });
				messages.push({ role: 'tool', tool_call_id: call.id, content: result.text });
			}
		}
	} catch (error) {
		abnormal = (error as Error).message;
	}
	return { steps, abnormal, ms: Date.now() - t0, start, end: snapshot(env.sandbox), tokens, final };
}

/** The endpoint from the environment, when a URL and a key are given. */
export function modelFromEnv(): ModelConfig | undefined {
	const url = process.env.LOFTY_TAU_MODEL_URL;
	const key = process.env.LOFTY_TAU_MODEL_KEY;
	if (!url || !key) return undefined;
	const model = process.env.LOFTY_TAU_MODEL || 'gpt-4o-mini';
	return { url, key, model, label: model };
}
