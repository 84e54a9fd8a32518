/**
 * A small OpenAI-compatible server on loopback for the AI agent end-to-end test: it answers POST /v1/chat/completions
 * with replies a script chooses from the conversation so far (a tool call, then a final answer), plain or streamed
 * (server-sent events), and GET /v1/models. Every request is recorded; any other path is answered 404 and recorded too,
 * so a test can assert which API the chat model node used.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What the script answers: a call of one tool with its arguments, or the final text. */
export type Reply = { tool: string; args: Json } | { text: string };

export interface Recorded {
	method: string;
	path: string;
	body: Json;
}

export interface FakeOpenAi {
	/** Base URL to put in the OpenAI credential, e.g. http://127.0.0.1:1234/v1 */
	url: string;
	requests: Recorded[];
	stop: () => Promise<void>;
}

let callCount = 0;

function completion(model: string, reply: Reply): Json {
	const message =
		'tool' in reply
			? { role: 'assistant', content: null, tool_calls: [{ id: `call_${++callCount}`, type: 'function', function: { name: reply.tool, arguments: JSON.stringify(reply.args) } }] }
			: { role: 'assistant', content: reply.text };
	return {
		id: `chatcmpl-${callCount}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model,
		choices: [{ index: 0, message, logprobs: null, finish_reason: 'tool' in reply ? 'tool_calls' : 'stop' }],
		usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
	};
}

/** The same reply as server-sent events: one chunk with the whole delta, one with the finish reason. */
function chunks(model: string, reply: Reply): string {
	const full = completion(model, reply);
	const { message, finish_reason } = full.choices[0];
	const delta = message.tool_calls ? { role: 'assistant', tool_calls: message.tool_calls.map((c: Json, index: number) => ({ index, ...c })) } : { role: 'assistant', content: message.content };
	const base = { id: full.id, object: 'chat.completion.chunk', created: full.created, model };
	return [
		{ ...base, choices: [{ index: 0, delta, finish_reason: null }] },
		{ ...base, choices: [{ index: 0, delta: {}, finish_reason }], usage: full.usage },
	]
		.map((c) => `data: ${JSON.stringify(c)}\n\n`)
		.concat('data: [DONE]\n\n')
		.join('');
}

export async function startFakeOpenAi(script: (messages: Json[], tools: Json[]) => Reply): Promise<FakeOpenAi> {
	const requests: Recorded[] = [];
	const server = http.createServer((req, res) => {
		let text = '';
		req.setEncoding('utf8');
		req.on('data', (d) => (text += d));
		req.on('end', () => {
			let body: Json = {};
			try {
				body = text ? JSON.parse(text) : {};
			} catch {
				body = { unparsed: text };
			}
			const path = new URL(req.url ?? '/', 'http://localhost').pathname;
			requests.push({ method: req.method ?? '', path, body });
			const send = (status: number, json: Json) => {
				res.writeHead(status, { 'content-type': 'application/json' });
				res.end(JSON.stringify(json));
			};
			if (req.method === 'GET' && path.endsWith('/models')) return send(200, { object: 'list', data: [{ id: 'fake-model', object: 'model', owned_by: 'test' }] });
			if (req.method !== 'POST' || !path.endsWith('/chat/completions')) return send(404, { error: { message: `not served here: ${req.method} ${path}`, type: 'invalid_request_error' } });
			let reply: Reply;
			try {
				reply = script(body.messages ?? [], body.tools ?? []);
			} catch (error) {
				return send(500, { error: { message: `script failed: ${(error as Error).message}`, type: 'server_error' } });
			}
			if (body.stream) {
				res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
				res.end(chunks(body.model, reply));
				return;
			}
			send(200, completion(body.model, reply));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		stop: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
