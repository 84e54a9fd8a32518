import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { OwedRange } from './catchUpState';
import { postToOwnWebhook } from './ownWebhook';

/**
 * How a catch-up reaches n8n: the trigger POSTs to its own webhook URL.
 *
 * A webhook trigger's items can only come from webhook(), as the answer to a request: its activation methods
 * (checkExists, create) get a hook context without emit, and n8n runs them before it serves the webhook (2.41.1,
 * ActiveWorkflowManager.addWebhooks: storeWebhook, then checkExists/create, then the static data is saved). So
 * the activation starts, detached, a request to the trigger's own webhook URL carrying the trigger's secret (the
 * token Lofty's deliveries carry) and the body `{loftyTriggerCatchUp: {owed}}`. It is answered 404 until n8n has
 * registered the webhook, and retried (RETRY_WITHIN_MS); the webhook then reads back and starts one execution
 * with what it caught up, as a delivery does (receive.ts). A catch-up its budget cut short reports so in this
 * process (`more`): the request is sent again after MORE_AFTER_MS.
 *
 * Where n8n runs no activation at its start (2.41 with its publication service, a workflow published with a version
 * before trigger()), the first delivery a new process handles owes what an activation would, and starts the request
 * (catchUpState.ts: not in an `n8n webhook` process of a workflow activated by this version). Any delivery that finds
 * something owed (a catch-up answered in another process, queue mode; one that failed) starts it too, at most once per
 * KICK_EVERY_MS.
 *
 * The request carries what is owed, as this process knows it (what the activation or delivery owed, what the last
 * catch-up left), not only the static data: n8n saves each request's copy of it whole and the last save wins, so a
 * delivery that loaded it before the owing one was saved, and saved after, drops the debt from the stored copy
 * (seen in n8n 2.41.1: the first deliveries after a restart arrive together, one per event list).
 * n8n must reach its own WEBHOOK_URL for this (otherwise: a warning in n8n's log, and the debt is kept).
 */

export const CATCH_UP_BODY_KEY = 'loftyTriggerCatchUp';
export const FIRST_AFTER_MS = 1000;
export const RETRY_WITHIN_MS = 10 * 60 * 1000;
export const MORE_AFTER_MS = 5000;
export const KICK_EVERY_MS = 60 * 1000;
const MAX_ROUNDS = 100;

export function isCatchUpRequest(body: unknown): body is Record<typeof CATCH_UP_BODY_KEY, IDataObject> {
	return body !== null && typeof body === 'object' && !Array.isArray(body) && CATCH_UP_BODY_KEY in body && Object.keys(body).length === 1;
}

/** Per webhook URL in this process: a request loop running, when the last started, what the last catch-up left, what the next request carries. */
const loops = new Set<string>();
const kicked = new Map<string, number>();
const outcomes = new Map<string, Record<string, OwedRange>>();
const carried = new Map<string, Record<string, OwedRange>>();

/** Webhooks this process has activated or handled a request of. */
const known = new Set<string>();

/** Whether this is the first time this process meets this webhook (an activation or a request). */
export function firstInProcess(webhookUrl: string): boolean {
	if (known.has(webhookUrl)) return false;
	known.add(webhookUrl);
	return true;
}

/** A catch-up answered here: what it left owed (nothing: all paid). */
export function reportOutcome(webhookUrl: string, left: Record<string, OwedRange>): void {
	outcomes.set(webhookUrl, left);
}

/** Adds `owed` to what the next request of this webhook carries (per list, from the earliest `from`; up to now wins). */
function carry(webhookUrl: string, owed: Record<string, OwedRange>): void {
	const into = { ...carried.get(webhookUrl) };
	for (const [list, range] of Object.entries(owed)) {
		const before = into[list];
		if (!before) into[list] = { ...range };
		else {
			const from = Math.min(before.from, range.from);
			into[list] = before.to === undefined || range.to === undefined ? { from } : { from, to: Math.max(before.to, range.to) };
		}
	}
	carried.set(webhookUrl, into);
}

/** Forgets this process's loops (a test's stand-in for a new process; running loops end at their next step). */
export function forgetCatchUpRequests(): void {
	loops.clear();
	known.clear();
	kicked.clear();
	outcomes.clear();
	carried.clear();
}

type Ctx = IHookFunctions | IWebhookFunctions;

async function loop(ctx: Ctx, webhookUrl: string, secret: string): Promise<void> {
	let wait = FIRST_AFTER_MS;
	let retryUntil = Date.now() + RETRY_WITHIN_MS;
	for (let round = 0; round < MAX_ROUNDS && loops.has(webhookUrl); round++) {
		await sleep(wait);
		outcomes.delete(webhookUrl);
		const owed = carried.get(webhookUrl) ?? {};
		const { status } = await postToOwnWebhook(ctx, webhookUrl, secret, { [CATCH_UP_BODY_KEY]: { owed: owed as unknown as IDataObject } }, 120_000);
		if (status >= 200 && status < 300) {
			const left = outcomes.get(webhookUrl);
			// answered in another process (queue mode): what it left is in the static data
			if (left === undefined || Object.keys(left).length === 0) {
				if (carried.get(webhookUrl) === owed) carried.delete(webhookUrl);
				return;
			}
			carried.set(webhookUrl, left);
			wait = MORE_AFTER_MS;
			retryUntil = Date.now() + RETRY_WITHIN_MS;
			continue;
		}
		// 404 (webhook not registered yet), 503 (a catch-up still running), 5xx, no answer: again, a little later
		const retryable = status === 0 || status === 404 || status === 408 || status === 429 || status >= 500;
		if (!retryable || Date.now() + wait > retryUntil) {
			ctx.logger.warn(
				`Lofty Trigger: could not start its catch-up at ${webhookUrl} (last answer: ${status || 'none'}); what it owes is kept for the next activation or delivery`,
			);
			return;
		}
		wait = Math.min(Math.max(wait * 2, 1000), 30_000);
	}
}

/** Starts the catch-up request loop for this webhook, unless one runs in this process. */
export function requestCatchUp(ctx: Ctx, webhookUrl: string, secret: string, owed: Record<string, OwedRange> = {}): void {
	carry(webhookUrl, owed);
	if (loops.has(webhookUrl)) return;
	loops.add(webhookUrl);
	kicked.set(webhookUrl, Date.now());
	void loop(ctx, webhookUrl, secret).finally(() => loops.delete(webhookUrl));
}

/**
 * A delivery found something owed: starts the loop with it, at most once per KICK_EVERY_MS per webhook in this
 * process (a running loop carries it along).
 */
export function kickCatchUp(ctx: Ctx, webhookUrl: string, secret: string, owed: Record<string, OwedRange>): void {
	const last = kicked.get(webhookUrl);
	if (loops.has(webhookUrl)) carry(webhookUrl, owed);
	if (loops.has(webhookUrl) || (last !== undefined && Date.now() - last < KICK_EVERY_MS)) return;
	requestCatchUp(ctx, webhookUrl, secret, owed);
}
