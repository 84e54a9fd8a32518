/**
 * A thin n8n for the Lofty Trigger, faithful where exactly-once depends on it (read from n8n 2.8.4 and
 * 2.41.1: webhooks/webhook-helpers.ts, live-webhooks.ts, active-workflow-manager.ts, body-parser.ts):
 *
 * - static data is the "database": each hook call and each request works on its own copy, saved (whole,
 *   the last save wins) only when n8n would save it: after a successful activation, after delete(), and
 *   for a request after the node answered; when the node returns items, after the execution was created
 *   and before the answer is sent (responseMode "onReceived"); not at all when webhook() throws;
 * - a request's copy is saved only when n8n sees it changed (n8n-workflow's ObservableObject flag), and
 *   when the node returns items, n8n 2.41 clears that flag while it creates the execution, before it saves
 *   (WorkflowRunner.establishContextForPersistence wraps the same static data in a new Workflow): what the
 *   node wrote in webhook() is then not saved unless it marks it changed again (receive.ts does);
 * - a failed activation is followed by delete() (n8n unregisters the webhook again);
 * - a body sent as application/json that is not JSON is answered 422 by n8n before any node runs;
 * - `crashNext` stops the "process" at a chosen point of the next request: nothing after it happens (no
 *   answer, no save), and this process's memory is gone (`forgetProcessMemory`), as after a SIGKILL.
 *
 * Lofty requests are really made over loopback with axios, after the credential's own `authenticate`.
 */
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject, IExecuteFunctions, IHookFunctions, INodeType, IHttpRequestOptions, INode, INodeExecutionData, ITriggerFunctions, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { ObservableObject, sleep } from 'n8n-workflow';

import { LoftyTrigger } from '../../nodes/LoftyTrigger/LoftyTrigger.node';
import { forgetCatchUpRequests } from '../../nodes/LoftyTrigger/catchUpRequest';
import { forgetProcessMemory } from '../../nodes/LoftyTrigger/dedupe';
import { forgetFailedActivations } from '../../nodes/LoftyTrigger/subscriptionState';
import type { Credential, Params } from './context';
import { send, sendSigned } from './context';
import { observe } from '../secrets/observe';

import { FakeResponse } from './fakeResponse';
import { closeServer } from './receiver';
import { Crash, type CrashPoint, type FakeRequest, type Received, type TriggerOptions } from './triggerOptions';

export const trigger = new LoftyTrigger();

export { type CrashPoint, type Received, type TriggerOptions, triggerApiKey, triggerOAuth } from './triggerOptions';

const clone = (data: IDataObject): IDataObject => JSON.parse(JSON.stringify(data)) as IDataObject;

export class TriggerHarness {
	/** the stored static data ("the database"); tests may edit it directly */
	staticData: IDataObject;
	readonly webhookId: string;
	params: Params;
	credential: Credential;
	/** the items of every execution started, oldest first */
	readonly executions: IDataObject[][] = [];
	/** every answer of the receiver, oldest first */
	readonly answers: Received[] = [];
	readonly warnings: string[] = [];
	readonly infos: string[] = [];
	/** the next request dies at this point */
	crashNext: CrashPoint | undefined;
	/** n8n fails to create the next execution (a database error): it answers 500 and saves nothing */
	failExecutionNext = false;
	/** Like older n8n: the static data of a request whose webhook() threw is saved too (when changed). */
	savesAfterFailure = false;
	/** The next HTTP request is handled whole, then its connection is cut instead of answered (the answer lost). */
	loseNextAnswer = false;
	/** n8n answers the next request that starts an execution only once this settles, after it saved (a stopping process) */
	holdNextAnswer: Promise<void> | undefined;
	/** n8n creates the next request's execution (and saves its static data) only once this settles; `held` meanwhile */
	holdNextExecution: Promise<void> | undefined;
	held = false;
	private server: Server | undefined;
	port = 0;
	private pending = new Set<Promise<unknown>>();
	/** HTTP requests the receiver has begun to handle */
	private requestsSeen = 0;
	private readonly node: INode;
	readonly nodeType: LoftyTrigger;

	constructor(options: TriggerOptions) {
		this.nodeType = options.node ?? trigger;
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
			this.requestsSeen++;
			const work = this.handleHttp(req, res);
			this.pending.add(work);
			void work.finally(() => this.pending.delete(work));
		});
		await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', () => resolve()));
		this.port = (this.server.address() as AddressInfo).port;
		return this;
	}

	async stop(): Promise<void> {
		forgetCatchUpRequests(); // the "process" ends, and its catch-up requests with it
		await this.idle();
		const server = this.server;
		this.server = undefined;
		await closeServer(server);
	}

	/** Waits until every request the receiver got has finished (enrichment included). */
	async idle(): Promise<void> {
		while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
	}

	/**
	 * Waits until the receiver has begun `count` HTTP requests in all, then until they have finished. A sender that
	 * gives up at once (a timeout of 1 ms) returns before its request reaches the receiver's handler; this waits for it.
	 */
	async received(count: number, withinMs = 30_000): Promise<void> {
		const until = Date.now() + withinMs;
		while (this.requestsSeen < count) {
			if (Date.now() > until) throw new Error(`the receiver got ${this.requestsSeen} of ${count} requests within ${withinMs} ms`);
			await new Promise((resolve) => setTimeout(resolve, 5));
		}
		await this.idle();
	}

	get webhookUrl(): string {
		return `http://127.0.0.1:${this.port}/webhook/${this.webhookId}/webhook`;
	}

	/** The static data as n8n stored it (a JSON round trip). */
	persisted(): IDataObject {
		return clone(this.staticData);
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

	private baseContext(staticData: IDataObject) {
		return {
			getNode: () => this.node,
			getWorkflowStaticData: (type: string) => {
				if (type !== 'node') throw new Error(`unexpected static data type ${type}`);
				return staticData;
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
				// the trigger's request to its own webhook (catchUpRequest.ts), plain as n8n sends it
				httpRequest: async (requestOptions: IHttpRequestOptions) => await sendSigned(requestOptions),
				returnJsonArray: (data: IDataObject | IDataObject[]) => (Array.isArray(data) ? data : [data]).map((json) => ({ json })),
			},
			logger: {
				debug: (...args: unknown[]) => observe('Lofty Trigger log', args),
				info: (message: string, ...rest: unknown[]) => {
					observe('Lofty Trigger log', [message, ...rest]);
					this.infos.push(message);
				},
				warn: (message: string, ...rest: unknown[]) => {
					observe('Lofty Trigger log', [message, ...rest]);
					this.warnings.push(message);
				},
				error: (...args: unknown[]) => observe('Lofty Trigger log', args),
			},
		};
	}

	/** n8n's first step of an execution the trigger started: its execute() with the webhook's items as input (none: they pass). */
	async execute(items: INodeExecutionData[], mode = 'webhook', staticData: IDataObject = this.staticData): Promise<INodeExecutionData[]> {
		const ctx = { ...this.baseContext(staticData), getInputData: () => items, getMode: () => mode };
		const execute = (this.nodeType as INodeType).execute;
		return execute ? ((await execute.call(ctx as unknown as IExecuteFunctions)) as INodeExecutionData[][])[0] : items;
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

	/** A hook as n8n calls it, on a copy of the static data saved only on success; an error is observed (what the user reads). */
	private async hook(name: 'checkExists' | 'create' | 'delete'): Promise<boolean> {
		const copy = clone(this.staticData);
		try {
			const result = await this.nodeType.webhookMethods.default[name].call(this.baseContext(copy) as unknown as IHookFunctions);
			this.staticData = copy;
			return result;
		} catch (error) {
			observe(`Lofty Trigger ${name} error`, error);
			throw error;
		}
	}

	/**
	 * What n8n does when a workflow is activated (or n8n starts and re-runs activation): checkExists, then
	 * create when false; when that fails, it unregisters the webhook again, which calls delete().
	 */
	async activate(): Promise<void> {
		try {
			if (!(await this.checkExists())) await this.create();
		} catch (error) {
			await this.delete().catch(() => undefined);
			throw error;
		}
	}

	/**
	 * What n8n does with this active workflow as it starts (read in their dist): 2.8.4 (and 1.x) activates every
	 * active workflow (ActiveWorkflowManager.add: webhooks, then trigger() of a node that has one); 2.41.1 with its
	 * publication service re-activates only a workflow with an "in-memory" trigger, a node that has trigger() or
	 * poll() (WorkflowPublicationReconcilerService.findMissingActiveWorkflows), and that registers its webhooks too.
	 */
	async n8nStarts(version: '2.8.4' | '2.41.1'): Promise<void> {
		const type = this.nodeType as INodeType;
		if (version === '2.41.1' && !type.trigger && !type.poll) return;
		await this.activate();
		if (type.trigger) await type.trigger.call(this.baseContext(clone(this.staticData)) as unknown as ITriggerFunctions);
	}

	async deactivate(): Promise<void> {
		await this.delete();
	}

	/** Calls webhook() for one request, n8n style, without HTTP. */
	async receive(request: { body: unknown; headers?: Record<string, string>; query?: Record<string, string> }): Promise<Received> {
		const raw = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
		const headers: Record<string, string> = { 'content-type': 'application/json' };
		for (const [k, v] of Object.entries(request.headers ?? {})) headers[k.toLowerCase()] = v;
		const query = request.query ?? { token: String(this.staticData.secret) };
		const answer = await this.dispatch({ headers, query, rawBody: Buffer.from(raw), body: undefined });
		if (!answer) throw new Error('the "process" crashed before it answered');
		return answer;
	}

	/** n8n's body parsing, before any node runs: JSON that does not parse is answered 422 (UnprocessableRequestError). */
	private parseLikeN8n(req: FakeRequest): Received | undefined {
		const type = String(req.headers['content-type'] ?? '').split(';')[0].trim();
		if (type !== 'application/json' || !req.rawBody?.length) return undefined;
		try {
			req.body = JSON.parse(req.rawBody.toString('utf8'));
		} catch {
			return { status: 422, body: { message: 'Failed to parse request body' } };
		}
		return undefined;
	}

	/** Forgets everything this "process" held in memory, as a SIGKILL would. */
	private die(res: FakeResponse): never {
		this.crashNext = undefined;
		newProcess();
		res.abort();
		throw new Crash('crashed');
	}

	/** Runs webhook() for one request and handles its result like n8n; undefined when the process "crashed". */
	private async dispatch(req: FakeRequest): Promise<Received | undefined> {
		const early = this.parseLikeN8n(req);
		if (early) {
			this.answers.push(early);
			return early;
		}
		const res = new FakeResponse();
		// As n8n builds the request's Workflow: the stored static data, observed for changes.
		const root = ObservableObject.create({ node: clone(this.staticData) }, undefined, { ignoreEmptyOnFirstChild: true }) as IDataObject & { __dataChanged?: boolean };
		const copy = root.node as IDataObject;
		const save = () => {
			if (root.__dataChanged) this.staticData = clone(copy);
		};
		const crash = this.crashNext;
		const hold = this.holdNextExecution;
		this.holdNextExecution = undefined;
		const holdAnswer = this.holdNextAnswer;
		this.holdNextAnswer = undefined;
		const ctx = {
			...this.baseContext(copy),
			getRequestObject: () => req,
			getResponseObject: () => res,
			getHeaderData: () => req.headers,
			getQueryData: () => req.query,
			getBodyData: () => req.body ?? {},
			getParamsData: () => ({}),
			getWebhookName: () => 'default',
		} as unknown as IWebhookFunctions;
		let answer: Received;
		try {
			const result: IWebhookResponseData = await this.nodeType.webhook.call(ctx);
			if (crash === 'inWebhook') this.die(res);
			if (result.noWebhookResponse) {
				if (!res.sent) throw new Error('the node claimed to answer itself but sent nothing');
				save();
				answer = { status: res.statusCode, body: res.body };
			} else {
				if (result.workflowData && this.failExecutionNext) {
					this.failExecutionNext = false;
					throw new Error('There was a problem executing the workflow');
				}
				if (result.workflowData) {
					// n8n 2.41 wraps the static data again (the flag is cleared), then creates the execution (database
					// and queue round trips: I/O, answered after the timers already due, on which receive.ts re-marks) and saves.
					ObservableObject.create(root);
					this.held = hold !== undefined;
					await (hold ?? sleep(5));
					await new Promise((resolve) => setImmediate(resolve));
					this.held = false;
					const items = (result.workflowData[0] ?? []).map((i: INodeExecutionData) => i.json);
					this.executions.push(items);
					if (crash === 'afterExecution') this.die(res);
					save();
					if (crash === 'afterSave') this.die(res);
					await holdAnswer;
					answer = { status: 200, body: result.webhookResponse ?? { message: 'Workflow was started' }, items };
				} else {
					save();
					answer = { status: 200, body: result.webhookResponse ?? { message: 'Webhook call received' } };
				}
				res.status(answer.status).json(answer.body);
			}
		} catch (error) {
			if (error instanceof Crash) return undefined;
			if (this.savesAfterFailure) save();
			observe('Lofty Trigger webhook error', error);
			answer = { status: 500, body: { message: (error as Error).message } };
			res.status(500).json(answer.body);
		}
		// the sender gets the answer only once it went out ('finish': the node's answer listeners have run)
		await res.closed;
		observe('Lofty Trigger answer', answer);
		this.answers.push(answer);
		return answer;
	}

	private async handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const lost = this.loseNextAnswer;
		this.loseNextAnswer = false;
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
		const query: Record<string, string> = {};
		for (const [k, v] of url.searchParams) query[k] = v;
		const answer = await this.dispatch({ headers: req.headers, query, rawBody, body: undefined });
		if (!answer || lost) {
			res.destroy();
			return;
		}
		write(answer.status, answer.body);
	}

	/** All items of all executions, in order. */
	get items(): IDataObject[] {
		return this.executions.flat();
	}
}

/** What a new n8n process starts with: nothing of the last one's memory. */
export function newProcess(): void {
	forgetProcessMemory();
	forgetCatchUpRequests();
	forgetFailedActivations();
}

/**
 * "n8n restarted": a new process (memory forgotten) with the same database (static data), webhook id and
 * address. It does not activate: call `n8nStarts(version)` for what n8n does at its start.
 */
export async function restartTrigger(previous: TriggerHarness): Promise<TriggerHarness> {
	await previous.stop();
	newProcess();
	return await startTrigger({ params: previous.params, credential: previous.credential, staticData: previous.persisted(), webhookId: previous.webhookId, port: previous.port, node: previous.nodeType });
}

/** Starts a trigger harness with its receiver; stop it in afterEach. */
export async function startTrigger(options: TriggerOptions): Promise<TriggerHarness> {
	return await new TriggerHarness(options).start();
}
