/**
 * Lofty's tool server ({mcp_url} in api-spec.md), emulated: MCP over streamable HTTP (the official SDK, stateless:
 * one server and transport per request) at `/mcp` of the sandbox. It takes `Authorization: Bearer <token>` for both
 * API keys and OAuth access tokens, and offers the spec's four tools:
 *   - search_apis: the API's operations that match a few words (method, path, summary)
 *   - describe_api: one operation's parameters and body fields
 *   - invoke_api: calls one operation with the caller's credential
 *   - list_custom_fields: the team's lead custom fields (or transaction ones)
 * Calls run under the caller's permissions, scopes and rate limit because they are the sandbox's own REST requests,
 * sent over loopback with the caller's credential (an API key as `token <key>`, a token as `Bearer <token>`): the
 * same routing, authentication, scope checks, rate-limit buckets, faults and request log as a direct call.
 * Answers keep 64-bit IDs exact: invoke_api returns Lofty's JSON text as it came, and takes a body as JSON text.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

// The SDK's subpath exports ("./*") are resolved by TypeScript and Node, not by the lint's import resolver.
/* eslint-disable import-x/no-unresolved */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
/* eslint-enable import-x/no-unresolved */

import type { AuthRegistry } from '../core/auth';
import { foreignRequest } from '../core/origin';
import type { Router } from '../core/router';
import { type ApiOperation, catalog, findApi, searchOperations } from './catalog';

export const MCP_PATH = '/mcp';

export interface McpDeps {
	auth: AuthRegistry;
	router: Router;
	now: () => number;
}

const TOOLS = [
	{
		name: 'search_apis',
		description:
			"Find Lofty API operations by a few words (e.g. 'create lead', 'lead tasks', 'call recording'). Returns method, path and summary of each match; call describe_api for its parameters, then invoke_api.",
		inputSchema: {
			type: 'object',
			properties: {
				query: { type: 'string', description: 'A few words about what to do' },
				limit: { type: 'number', description: 'How many operations to return (default 10, at most 50)' },
			},
			required: ['query'],
		},
	},
	{
		name: 'describe_api',
		description: 'Describe one Lofty API operation: its path and query parameters and the fields of its JSON body.',
		inputSchema: {
			type: 'object',
			properties: {
				method: { type: 'string', description: 'GET, POST, PUT or DELETE' },
				path: { type: 'string', description: "The operation's path, e.g. /v1.0/leads/{leadId}" },
			},
			required: ['method', 'path'],
		},
	},
	{
		name: 'invoke_api',
		description:
			"Call one Lofty API operation with the caller's credential, permissions and rate limit. Returns the HTTP status and Lofty's JSON answer as text (IDs are 64-bit: copy them as strings). Give path parameters inside the path. A write that fails without an answer may have been applied: check before calling again.",
		inputSchema: {
			type: 'object',
			properties: {
				method: { type: 'string', description: 'GET, POST, PUT or DELETE' },
				path: { type: 'string', description: 'The concrete path, e.g. /v1.0/leads/651095960136641' },
				query: { type: 'object', description: 'Query parameters by name (values as text)', additionalProperties: true },
				body: { description: 'The JSON body: an object, or JSON text (keeps 64-bit IDs exact)' },
			},
			required: ['method', 'path'],
		},
	},
	{
		name: 'list_custom_fields',
		description: "List the team's custom fields (name, type, choices): lead fields by default, or transaction fields.",
		inputSchema: {
			type: 'object',
			properties: { of: { type: 'string', enum: ['lead', 'transaction'], description: 'Whose custom fields (default lead)' } },
		},
	},
];

type ToolResult = { content: Array<{ type: 'text'; text: string }>; isError?: boolean };

const text = (value: string, isError = false): ToolResult => ({ content: [{ type: 'text', text: value }], ...(isError ? { isError: true } : {}) });

function describe(op: ApiOperation): string {
	return JSON.stringify(op, null, 1);
}

/** The REST call the tool makes, as the sandbox's own client: over loopback, with the caller's credential. */
async function rest(base: string, authorization: string, method: string, path: string, query?: Record<string, unknown>, body?: unknown): Promise<{ status: number; text: string }> {
	const url = new URL(path, base);
	for (const [k, v] of Object.entries(query ?? {})) {
		if (v === undefined || v === null) continue;
		for (const one of Array.isArray(v) ? v : [v]) url.searchParams.append(k, typeof one === 'object' ? JSON.stringify(one) : String(one));
	}
	const init: RequestInit = { method, headers: { authorization, 'content-type': 'application/json' } };
	if (body !== undefined && method !== 'GET' && method !== 'HEAD') init.body = typeof body === 'string' ? body : JSON.stringify(body);
	const response = await fetch(url, init);
	return { status: response.status, text: await response.text() };
}

function toolServer(deps: McpDeps, base: string, authorization: string): Server {
	const server = new Server({ name: 'lofty-sandbox', version: '1.0.0' }, { capabilities: { tools: {} } });
	server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
	server.setRequestHandler(CallToolRequestSchema, async (request): Promise<ToolResult> => {
		const args = (request.params.arguments ?? {}) as Record<string, unknown>;
		const all = catalog(deps.router.routes);
		switch (request.params.name) {
			case 'search_apis': {
				const limit = Math.min(50, Math.max(1, Number(args.limit) || 10));
				const found = searchOperations(all, String(args.query ?? ''), limit);
				if (found.length === 0) return text(`No operation matches "${String(args.query ?? '')}". Try other words, e.g. lead, task, call, transaction.`);
				return text(JSON.stringify(found.map((o) => ({ method: o.method, path: o.path, summary: o.summary })), null, 1));
			}
			case 'describe_api': {
				const op = findApi(all, String(args.method ?? ''), String(args.path ?? ''));
				return op ? text(describe(op)) : text(`No operation ${String(args.method)} ${String(args.path)}: find one with search_apis.`, true);
			}
			case 'invoke_api': {
				const method = String(args.method ?? '').toUpperCase();
				const path = String(args.path ?? '');
				if (!['GET', 'POST', 'PUT', 'DELETE'].includes(method) || !path.startsWith('/v')) {
					return text('invoke_api needs method (GET, POST, PUT or DELETE) and a path such as /v1.0/leads.', true);
				}
				const answer = await rest(base, authorization, method, path, args.query as Record<string, unknown> | undefined, args.body);
				return text(`HTTP ${answer.status}\n${answer.text}`, answer.status >= 300);
			}
			case 'list_custom_fields': {
				const path = args.of === 'transaction' ? '/v1.0/transaction/customfields' : '/v1.0/teamFeatures/listCustomField';
				const answer = await rest(base, authorization, 'GET', path);
				return text(answer.status < 300 ? answer.text : `HTTP ${answer.status}\n${answer.text}`, answer.status >= 300);
			}
			default:
				return text(`Unknown tool ${request.params.name}`, true);
		}
	});
	return server;
}

/** The credential of a tool-server request: Bearer only; the REST header it maps to, or why it is refused. */
function credentialOf(deps: McpDeps, header: string | undefined): { authorization: string } | { refused: string } {
	const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
	if (!match) return { refused: 'The tool server takes Authorization: Bearer <API key or access token>' };
	const value = match[1];
	const authorization = deps.auth.apiKeys.has(value) ? `token ${value}` : `Bearer ${value}`;
	try {
		deps.auth.authenticate(authorization, deps.now());
	} catch (error) {
		return { refused: (error as Error).message };
	}
	return { authorization };
}

/** Serves one request to the tool server. */
export async function handleMcp(deps: McpDeps, req: IncomingMessage, res: ServerResponse, rawBody: string): Promise<void> {
	// The MCP transport's rule against DNS rebinding: Host and Origin must name this server.
	const foreign = foreignRequest(req);
	if (foreign) {
		res.writeHead(403, { 'Content-Type': 'application/json' });
		res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `Refused: ${foreign}` }, id: null }));
		return;
	}
	const credential = credentialOf(deps, req.headers.authorization);
	if ('refused' in credential) {
		res.writeHead(401, { 'Content-Type': 'application/json', 'WWW-Authenticate': 'Bearer' });
		res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: credential.refused }, id: null }));
		return;
	}
	const local = req.socket.localAddress ?? '127.0.0.1';
	const host = local.includes(':') ? `[${local.replace(/^::ffff:/, '')}]` : local;
	const base = `http://${local.startsWith('::ffff:') ? local.slice(7) : host}:${req.socket.localPort}`;
	const server = toolServer(deps, base, credential.authorization);
	const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
	res.on('close', () => {
		void transport.close();
		void server.close();
	});
	await server.connect(transport);
	let body: unknown;
	try {
		body = rawBody ? JSON.parse(rawBody) : undefined;
	} catch {
		body = undefined;
	}
	await transport.handleRequest(req, res, body);
}

/** The handler the sandbox's HTTP pipeline hands `/mcp` requests to (sandbox/core/server.ts). */
export function mcpHandler(deps: McpDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
	return async (req, res) => {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		await handleMcp(deps, req, res, Buffer.concat(chunks).toString('utf8'));
	};
}
