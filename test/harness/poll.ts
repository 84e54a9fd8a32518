/**
 * The Lofty Polling Trigger's poll() as n8n runs it: parameters from the test over the node's defaults, the
 * workflow's static data kept between polls (as a JSON round trip, the way n8n stores it, so a "restart" is a
 * new context on the same stored data), requests really made to the sandbox over loopback with the credential's
 * own authenticate rule. Every result and error is handed to the secret watch.
 *
 * As n8n 2.41 (and 1.123) runs a poll, its expression engine's isolate is the poll's only while the poll runs:
 * n8n evaluates the API-key credential's authenticate template there, so the context's authenticated requests
 * sent after the poll returned fail before they are sent (`PollHost.expressionsAfterPoll` keeps them working, as
 * n8n 2.8.4, which has no such engine). n8n's plain `httpRequest` needs no expression and keeps working.
 */
import type { IDataObject, INode, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { LoftyPollingTrigger } from '../../nodes/LoftyPollingTrigger/LoftyPollingTrigger.node';
import type { Sandbox } from '../../sandbox';
import { observe } from '../secrets/observe';
import { send, sendSigned } from './context';

export const pollingNode = new LoftyPollingTrigger();

export interface PollRun {
	items: IDataObject[] | null;
	/** the static data after the poll, as n8n would have stored it */
	stored: string;
}

function defaults(): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const p of pollingNode.description.properties) out[p.name] = p.default;
	return out;
}

/** What n8n offers the poll, and what the test's clock does. */
export interface PollHost {
	/** n8n 2.38+ with the database-backed scheduler: the poll's share of its timeout (getPollBudgetMs). Unset: older n8n. */
	budgetMs?: number;
	/** Called after each answer from Lofty (a test moves its clock by a round trip's duration here). */
	afterAnswer?: () => void;
	/**
	 * n8n 2.41.1 with the durable poll scheduler (measured, ../shared/reference/n8n-runtime-notes.md): a poll that
	 * returns no items has its static-data changes thrown away. `stored` then stays what the poll was given (the
	 * activation's poll, without `stored`, is kept: n8n saves the static data at activation).
	 */
	keepsOnlyEmitting?: boolean;
	/** Sees every warning the poll logs. */
	onWarn?: (message: string) => void;
	/**
	 * n8n's in-process poll scheduler (every line; the only one before 2.36): every poll of an activation gets this
	 * one static-data object (n8n saves it when a poll emits), and a tick does not wait for the last poll. `stored`
	 * is then ignored.
	 */
	shared?: IDataObject;
	/** The workflow's ID (default 'poll-workflow'): polls of one workflow and node take turns. */
	workflowId?: string;
	/** Called before each request goes to Lofty, with its URL (a test holds a poll mid-read here). */
	beforeRequest?: (url: string) => Promise<void>;
	/** n8n without an isolate per poll (2.8.4): the context's authenticated requests work after the poll too. */
	expressionsAfterPoll?: boolean;
	/** Sees each error the poll hands to n8n as a failed execution (`__emitError`). */
	onFailedExecution?: (error: Error) => void;
}

/** What n8n 2.41's expression engine throws for an expression evaluated outside the isolate's holder (IsolateError). */
export const NO_ISOLATE = 'No bridge acquired for this context. Call acquire() first.';

/** One poll. `stored` is the static data a previous poll left (undefined on the first activation). */
export async function poll(sandbox: Sandbox, params: Record<string, unknown>, stored?: string, mode: 'trigger' | 'manual' = 'trigger', host: PollHost = {}): Promise<PollRun> {
	const values: Record<string, unknown> = { ...defaults(), authentication: 'apiKey', ...params };
	const staticData: IDataObject = host.shared ?? (stored ? (JSON.parse(stored) as IDataObject) : {});
	const credential = { type: 'loftyApi' as const, data: { apiKey: sandbox.apiKey, baseUrl: sandbox.url } };
	const node: INode = { id: 'poll-node', name: 'Lofty Polling Trigger', type: 'n8n-nodes-lofty.loftyPollingTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
	let polling = true;
	const context = {
		getNode: () => node,
		getWorkflow: () => ({ id: host.workflowId ?? 'poll-workflow', name: 'Polling', active: true }),
		getMode: () => mode,
		getActivationMode: () => 'activate',
		getWorkflowStaticData: () => staticData,
		// Poll functions take (name, fallback); the transport asks (name, 0, fallback) as in the other contexts.
		getNodeParameter(name: string, ...rest: unknown[]) {
			const fallback = rest.length >= 2 ? rest[1] : rest[0];
			const value = values[name];
			if (value !== undefined) return value;
			if (fallback !== undefined) return fallback;
			throw new Error(`Could not get parameter "${name}"`);
		},
		getCredentials: async () => credential.data,
		...(host.budgetMs === undefined ? {} : { getPollBudgetMs: () => host.budgetMs }),
		__emitError: (error: Error) => {
			observe('poll failed execution', error);
			host.onFailedExecution?.(error);
		},
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: Parameters<typeof send>[1]) => {
				// The credential's template is an expression: evaluated in the poll's isolate, gone once the poll returned.
				if (!polling && !host.expressionsAfterPoll) throw new Error(NO_ISOLATE);
				return await sent(options, () => send(credential, options));
			},
			httpRequest: async (options: Parameters<typeof send>[1]) => await sent(options, () => sendSigned(options)),
			returnJsonArray: (items: IDataObject[]) => items.map((json) => ({ json })),
		},
		logger: {
			debug: () => undefined,
			info: () => undefined,
			warn: (...a: unknown[]) => {
				observe('poll log', a);
				host.onWarn?.(String(a[0]));
			},
			error: (...a: unknown[]) => observe('poll log', a),
		},
	} as unknown as IPollFunctions;
	async function sent<T>(options: { url?: string }, request: () => Promise<T>): Promise<T> {
		await host.beforeRequest?.(String(options.url ?? ''));
		try {
			return await request();
		} finally {
			host.afterAnswer?.();
		}
	}
	try {
		const result = (await pollingNode.poll.call(context).finally(() => (polling = false))) as INodeExecutionData[][] | null;
		observe('poll output', result);
		// The first poll runs at activation, whose static data n8n saves.
		const kept = result || !host.keepsOnlyEmitting || stored === undefined ? JSON.stringify(staticData) : stored;
		return { items: result ? result[0].map((i) => i.json) : null, stored: kept };
	} catch (error) {
		observe('poll error', error);
		throw error;
	}
}
