/** The Lofty Trigger harness's options and answers (test/harness/trigger.ts). */
import type { IDataObject } from 'n8n-workflow';

import type { LoftyTrigger } from '../../nodes/LoftyTrigger/LoftyTrigger.node';
import type { Sandbox } from '../../sandbox';
import type { Credential, Params } from './context';

/** What the receiver answered and whether a workflow run started. */
export interface Received {
	status: number;
	body: unknown;
	items?: IDataObject[];
}

/** Where the next request's "process" dies: in webhook(), after the execution exists, or after the save. */
export type CrashPoint = 'inWebhook' | 'afterExecution' | 'afterSave';

export interface FakeRequest {
	headers: Record<string, string | string[] | undefined>;
	query: Record<string, string>;
	rawBody?: Buffer;
	body: unknown;
}

export class Crash extends Error {}

export interface TriggerOptions {
	params: Params;
	credential: Credential;
	/** node static data to start from (a "restart" passes the previous harness's `persisted()`) */
	staticData?: IDataObject;
	/** keep the webhook id of an earlier harness (same workflow and node) */
	webhookId?: string;
	/** listen on this port (a restarted "n8n" keeps its address) */
	port?: number;
	/** the node as n8n built it (default: with its own time limits) */
	node?: LoftyTrigger;
}

export function triggerApiKey(sandbox: Sandbox, apiKey = sandbox.apiKey): Credential {
	return { type: 'loftyApi', data: { apiKey, baseUrl: sandbox.url } };
}

export function triggerOAuth(sandbox: Sandbox, accessToken: string): Credential {
	return { type: 'loftyOAuth2Api', data: { baseUrl: sandbox.url, oauthTokenData: { access_token: accessToken } } };
}
