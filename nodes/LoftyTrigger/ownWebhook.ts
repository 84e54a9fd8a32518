import type { IDataObject, IExecuteFunctions, IHookFunctions, IHttpRequestOptions, IWebhookFunctions } from 'n8n-workflow';

import { parseJson } from '../Lofty/transport/json';

/**
 * Requests the trigger sends to its own production webhook URL, with the token Lofty's deliveries carry: the catch-up
 * (catchUpRequest.ts) and an execution's question which of its events already ran (runOnce.ts). n8n handles them as
 * any request to the webhook (receive.ts), in whichever process serves webhooks, and saves the node's static data
 * before it answers. The production URL is kept in the static data (`liveUrl`) for executions, which have none.
 */

export type OwnCtx = IHookFunctions | IWebhookFunctions | IExecuteFunctions;

export interface OwnAnswer {
	/** 0: no answer */
	status: number;
	body?: unknown;
}

export async function postToOwnWebhook(ctx: OwnCtx, webhookUrl: string, secret: string, body: IDataObject, timeoutMs: number): Promise<OwnAnswer> {
	const url = `${webhookUrl}?token=${encodeURIComponent(secret)}`;
	const options: IHttpRequestOptions = { method: 'POST', url, body, json: true, returnFullResponse: true, ignoreHttpStatusErrors: true, timeout: timeoutMs };
	try {
		const response = (await ctx.helpers.httpRequest(options)) as { statusCode?: number; body?: unknown };
		return { status: Number(response?.statusCode ?? 0), body: parsed(response?.body) };
	} catch {
		return { status: 0 };
	}
}

/** The answer's body as JSON: n8n parses it; an answer kept as bytes or text (another helper's choice) is parsed here. */
function parsed(body: unknown): unknown {
	if (!Buffer.isBuffer(body) && typeof body !== 'string') return body;
	try {
		return parseJson(body.toString());
	} catch {
		return undefined;
	}
}

/** Keeps the production webhook URL (written only when it changed). */
export function noteLiveUrl(staticData: IDataObject, webhookUrl: string): void {
	if (staticData.liveUrl !== webhookUrl) staticData.liveUrl = webhookUrl;
}

export function liveUrlOf(staticData: IDataObject): string | undefined {
	return typeof staticData.liveUrl === 'string' && staticData.liveUrl !== '' ? staticData.liveUrl : undefined;
}
