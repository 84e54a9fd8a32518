/**
 * A thin n8n for the Lofty Trigger: hook functions (checkExists, create, delete) and webhook functions
 * with persistent node static data, and a loopback HTTP receiver at the node's webhook URL that handles
 * a request the way n8n does for `responseMode: 'onReceived'`:
 * - the node answered itself (`noWebhookResponse`): its answer stands;
 * - no `workflowData`: 200 with `webhookResponse` (or n8n's default message), and no execution;
 * - `workflowData`: an execution with those items.
 * Lofty requests are really made over loopback with axios, after the credential's own `authenticate`.
 */
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
	IDataObject,
	IHookFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { LoftyTrigger } from '../../nodes/LoftyTrigger/LoftyTrigger.node';
import type { Sandbox } from '../../sandbox';
import type { Credential, Params } from './context';
import { send } from './context';
import { observe } from '../secrets/observe';

export const trigger = new LoftyTrigger();


/** What the receiver answered and whether a workflow run started. */
export interface Received {
	status: number;
	body: unknown;
	items?: IDataObject[];
}

interface FakeRequest {
	headers: Record<string, string | string[] | undefined>;
	query: Record<string, string>;
	rawBody?: Buffer;
	body: unknown;
}

/** An express-like response that records what the node sent. */
class FakeResponse {
	statusCode = 200;
	sent = false;
	body: unknown;

	status(code: number): this {
		this.statusCode = code;
		return this;
	}

	json(body: unknown): this {
		this.body = body;
		this.sent = true;
		return this;
	}

	send(body: unknown): this {
		return this.json(body);
	}

	end(body?: unknown): this {
		return this.json(body);
	}

	get headersSent(): boolean {
		return this.sent;
	}
}

export interface TriggerOptions {
	params: Params;
	credential: Credential;
	/** node static data to start from (a "restart" passes the previous harness's `persisted()`) */
	staticData?: IDataObject;
	/** keep the webhook id of an earlier harness (same workflow and node) */
	webhookId?: string;
	/** listen on this port (a restarted "n8n" keeps its address) */
	port?: number;
}

export function triggerApiKey(sandbox: Sandbox, apiKey = sandbox.apiKey): Credential {
	return { type: 'loftyApi', data: { apiKey, baseUrl: sandbox.url } };
}

export function triggerOAuth(sandbox: Sandbox, accessToken: string): Credential {
	return { type: 'loftyOAuth2Api', data: { baseUrl: sandbox.url, oauthTokenData: { access_token: accessToken } } };
}

export class TriggerHarness {
	staticData: IDataObject;
	readonly webhookId: string;
	params: Params;
	credential: Credential;
	/** the items of every execution started, oldest first */
	readonly executions: IDataObject[][] = [];
	/** every answer of the receiver, oldest first */
	readonly answers: Received[] = [];
	readonly warnings: string[] = [];
	private server: Server | undefined;
	port = 0;
	private pending = new Set<Promise<unknown>>();
	private readonly node: INode;

	constructor(options: TriggerOptions) {
		this.params = options.params;
		this.credential = options.credential;
		this.staticData = options.staticData ?? {};
		this.webhookId = options.webhookId ?? randomUUID();
		this.port = options.port ?? 0;
		this.node = {
			id: 'trigger-node',
			name: 'Lofty Trigger',
			type: 'n8n-nodes-lofty.loftyTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
			webhookId: this.webhookId,
			credentials: { [options.credential.type]: { id: '1', name: 'test' } },
		};
	}

	/** Starts the loopback receiver (the "n8n" webhook server). */
	async start(): Promise<this> {
		this.server = createServer((req, res) => {
			const work = this.handleHttp(req, res);
			this.pending.add(work);
			void work.finally(() => this.pending.delete(work));
		});
		await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', () => resolve()));
		this.port = (this.server.address() as AddressInfo).port;
		return this;
	}

	async stop(): Promise<void> {
		await this.idle();
		if (!this.server) return;
		const server = this.server;
		this.server = undefined;
		await new Promise<void>((resolve) => {
			server.close(() => resolve());
			server.closeAllConnections();
		});
	}

	/** Waits until every request the receiver got has finished (enrichment included). */
	async idle(): Promise<void> {
		while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
	}

	get webhookUrl(): string {
		return `http://127.0.0.1:${this.port}/webhook/${this.webhookId}/webhook`;
	}

	/** The static data as n8n would store it (a JSON round trip). */
	persisted(): IDataObject {
		return JSON.parse(JSON.stringify(this.staticData)) as IDataObject;
	}

	/** The callback URL the node registers (webhook URL with its secret). */
	get callbackUrl(): string {
		return `${this.webhookUrl}?token=${String(this.staticData.secret)}`;
	}

	private parameter(name: string, fallback?: unknown): unknown {
		const authentication = this.credential.type === 'loftyOAuth2Api' ? 'oAuth2' : 'apiKey';
		const params: Params = { authentication, ...this.params };
		if (name in params) return params[name];
		const property = trigger.description.properties.find((p) => p.name === name);
		if (property && property.default !== undefined) return property.default;
		if (fallback !== undefined) return fallback;
		throw new Error(`Could not get parameter "${name}"`);
	}

	private baseContext() {
		return {
			getNode: () => this.node,
			getWorkflowStaticData: (type: string) => {
				if (type !== 'node') throw new Error(`unexpected static data type ${type}`);
				return this.staticData;
			},
			getNodeWebhookUrl: (name: string) => (name === 'default' ? this.webhookUrl : undefined),
			// hook and webhook functions take (name, fallback, options); the transport passes (name, 0, 'apiKey')
			getNodeParameter: (name: string, fallback?: unknown) => this.parameter(name, fallback),
			getCredentials: async (type: string) => {
				if (type !== this.credential.type) throw new Error(`Node has no credentials of type ${type}`);
				return this.credential.data;
			},
			getMode: () => 'trigger',
			getActivationMode: () => 'activate',
			helpers: {
				httpRequestWithAuthentication: async (type: string, requestOptions: IHttpRequestOptions) => {
					if (type !== this.credential.type) throw new Error(`Node has no credentials of type ${type}`);
					return await send(this.credential, requestOptions);
				},
				returnJsonArray: (data: IDataObject | IDataObject[]) => (Array.isArray(data) ? data : [data]).map((json) => ({ json })),
			},
			logger: {
				debug: (...args: unknown[]) => observe('Lofty Trigger log', args),
				info: (...args: unknown[]) => observe('Lofty Trigger log', args),
				warn: (message: string, ...rest: unknown[]) => {
					observe('Lofty Trigger log', [message, ...rest]);
					this.warnings.push(message);
				},
				error: (...args: unknown[]) => observe('Lofty Trigger log', args),
			},
		};
	}

	private hookContext(): IHookFunctions {
		return this.baseContext() as unknown as IHookFunctions;
	}

	async checkExists(): Promise<boolean> {
		return await this.hook('checkExists');
	}

	async create(): Promise<boolean> {
		return await this.hook('create');
	}

	async delete(): Promise<boolean> {
		return await this.hook('delete');
	}

	/** A hook as n8n calls it on (de)activation; an error is what the user would read, so the secret watch sees it. */
	private async hook(name: 'checkExists' | 'create' | 'delete'): Promise<boolean> {
		try {
			return await trigger.webhookMethods.default[name].call(this.hookContext());
		} catch (error) {
			observe(`Lofty Trigger ${name} error`, error);
			throw error;
		}
	}

	/** What n8n does when a workflow is activated (or n8n starts): checkExists, then create when false. */
	async activate(): Promise<void> {
		if (!(await this.checkExists())) await this.create();
	}

	async deactivate(): Promise<void> {
		await this.delete();
	}

	/** Calls webhook() for one request, n8n style, without HTTP. */
	async receive(request: { body: unknown; headers?: Record<string, string>; query?: Record<string, string> }): Promise<Received> {
		const raw = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
		let parsed: unknown = {};
		try {
			parsed = JSON.parse(raw);
		} catch {
			parsed = {};
		}
		const headers: Record<string, string> = { 'content-type': 'application/json' };
		for (const [k, v] of Object.entries(request.headers ?? {})) headers[k.toLowerCase()] = v;
		const query = request.query ?? { token: String(this.staticData.secret) };
		return await this.dispatch({ headers, query, rawBody: Buffer.from(raw), body: parsed });
	}

	/**
	 * Runs webhook() for one request and handles its result like n8n; `onSend` sees the node's own
	 * answer the moment it is sent (before enrichment ends), as an HTTP client would.
	 */
	private async dispatch(req: FakeRequest, onSend?: (status: number, body: unknown) => void): Promise<Received> {
		const res = new FakeResponse();
		const json = res.json.bind(res);
		res.json = (body: unknown) => {
			json(body);
			onSend?.(res.statusCode, body);
			return res;
		};
		const ctx = {
			...this.baseContext(),
			getRequestObject: () => req,
			getResponseObject: () => res,
			getHeaderData: () => req.headers,
			getQueryData: () => req.query,
			getBodyData: () => req.body,
			getParamsData: () => ({}),
			getWebhookName: () => 'default',
		} as unknown as IWebhookFunctions;
		let answer: Received;
		try {
			const result: IWebhookResponseData = await trigger.webhook.call(ctx);
			if (result.noWebhookResponse) {
				if (!res.sent) throw new Error('the node claimed to answer itself but sent nothing');
				answer = { status: res.statusCode, body: res.body };
			} else if (result.workflowData === undefined) {
				answer = { status: 200, body: result.webhookResponse ?? { message: 'Webhook call received' } };
			} else {
				answer = { status: 200, body: { message: 'Workflow was started' } };
			}
			if (result.workflowData) {
				const items = (result.workflowData[0] ?? []).map((i: INodeExecutionData) => i.json);
				this.executions.push(items);
				answer.items = items;
			}
		} catch (error) {
			observe('Lofty Trigger webhook error', error);
			answer = { status: 500, body: { message: (error as Error).message } };
		}
		observe('Lofty Trigger answer', answer);
		this.answers.push(answer);
		return answer;
	}

	private async handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const rawBody = Buffer.concat(chunks);
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const write = (status: number, body: unknown) => {
			if (res.headersSent) return;
			res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body ?? null));
		};
		if (req.method !== 'POST' || url.pathname !== `/webhook/${this.webhookId}/webhook`) {
			write(404, { message: 'not registered' });
			return;
		}
		let body: unknown = {};
		try {
			body = rawBody.length ? JSON.parse(rawBody.toString('utf8')) : {};
		} catch {
			body = {};
		}
		const query: Record<string, string> = {};
		for (const [k, v] of url.searchParams) query[k] = v;
		const answer = await this.dispatch({ headers: req.headers, query, rawBody, body }, write);
		write(answer.status, answer.body);
	}

	/** All items of all executions, in order. */
	get items(): IDataObject[] {
		return this.executions.flat();
	}
}

/** Starts a trigger harness with its receiver; stop it in afterEach. */
export async function startTrigger(options: TriggerOptions): Promise<TriggerHarness> {
	return await new TriggerHarness(options).start();
}

/** One answer of a scripted receiver: a status, optional headers, and an optional delay before answering. */
export type ScriptedAnswer = number | { status: number; headers?: Record<string, string>; delayMs?: number };

export interface ReceivedRequest {
	headers: Record<string, string | string[] | undefined>;
	path: string;
	text: string;
	json: any;
}

/**
 * A loopback webhook receiver for the delivery engine's own tests: answers each request with the
 * next scripted answer (the last one repeats; 200 when the script is empty) and records it.
 */
export class ScriptedReceiver {
	readonly requests: ReceivedRequest[] = [];
	private server: Server | undefined;
	private port = 0;

	/** `script`: answers in order (the last repeats); `respond`, when set, decides instead from the request. */
	constructor(
		public script: ScriptedAnswer[] = [],
		public respond?: (request: ReceivedRequest) => ScriptedAnswer,
	) {}

	async start(): Promise<this> {
		this.server = createServer((req, res) => void this.handle(req, res));
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
		this.port = (this.server.address() as AddressInfo).port;
		return this;
	}

	get url(): string {
		return `http://127.0.0.1:${this.port}/hook`;
	}

	/** Requests that were events (not pings). */
	get deliveries(): ReceivedRequest[] {
		return this.requests.filter((r) => r.json?.eventType !== 'ping');
	}

	get pings(): ReceivedRequest[] {
		return this.requests.filter((r) => r.json?.eventType === 'ping');
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const text = Buffer.concat(chunks).toString('utf8');
		let json: unknown;
		try {
			json = JSON.parse(text);
		} catch {
			json = undefined;
		}
		const index = this.requests.length;
		this.requests.push({ headers: req.headers, path: req.url ?? '', text, json });
		const step = this.respond
			? this.respond(this.requests[index])
			: this.script.length === 0
				? 200
				: this.script[Math.min(index, this.script.length - 1)];
		const answer = typeof step === 'number' ? { status: step } : step;
		if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
		if (res.destroyed) return;
		res.writeHead(answer.status, { 'Content-Type': 'application/json', ...(answer.headers ?? {}) }).end('{}');
	}

	async stop(): Promise<void> {
		if (!this.server) return;
		const server = this.server;
		this.server = undefined;
		await new Promise<void>((resolve) => {
			server.close(() => resolve());
			server.closeAllConnections();
		});
	}
}
