import { timingSafeEqual } from 'crypto';
import type { IDataObject, IWebhookFunctions, IWebhookResponseData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { parseJson } from '../Lofty/transport/json';
import { deliveredDedupe, readBack } from './catchUp';
import { CATCH_UP_BODY_KEY as CATCH_UP_KEY, firstInProcess, isCatchUpRequest, kickCatchUp, reportOutcome } from './catchUpRequest';
import { catchUpStateOf, mergeOwed, noteListened, oweOnFirstRequest, owedOf } from './catchUpState';
import { MAX_EVENT_KEYS, claim, claimRuns, eventScope, markChangedUntilAnswered, track } from './dedupe';
import { fetchFullRecords } from './enrich';
import { applyFilters, filtersOf } from './filters';
import { ACTIONS, listName } from './events';
import { noteLiveUrl } from './ownWebhook';
import { parsePayload } from './parse';
import { RUNS_BODY_KEY, isRunsRequest } from './runOnce';
import { DEFAULT_TIMING, type TriggerTiming, chosenLists, webhookUrlOf } from './settings';
import { acceptedSecrets, recordSign } from './subscriptionState';

/**
 * One request to the trigger's webhook URL. What Lofty gets back decides what happens to its events
 * (api-spec.md, Delivery rules): 2xx delivered, 408/429/5xx retried, "any other 4xx: not retried; event
 * discarded". So:
 *
 * - 2xx only when the events are safe: a delivery that starts a run returns its items to n8n, which answers
 *   (responseMode "onReceived") only after it has created the execution with those items and saved the
 *   node's static data; nothing is answered from inside the node before that.
 * - Never a 4xx to an authenticated sender: unknown shapes become items carrying `raw`; a body that is not
 *   JSON gets 500 (Lofty retries) and a log line. Only requests without the right token get 401; while no secret
 *   is stored (an activation not saved yet: its subscriptions already deliver) every request gets 503.
 * - A delivery for a list this trigger did not choose starts nothing and gets 2xx (not ours to discard).
 * - A ping gets 2xx (otherwise Lofty never re-enables a disabled subscription) and starts nothing.
 * - Events the options filter out (Only Actions, stage and field filters: filters.ts) are answered 2xx with
 *   the rest; a delivery left with none starts nothing. The whole delivery is claimed first in this process
 *   (dedupe.ts: a duplicate arriving meanwhile gets 503) and remembered in the static data only once handled,
 *   so a retry or duplicate of a handled one is never evaluated again (what matched ran once, what did not never
 *   runs), and one whose filters or lookups failed (5xx) is evaluated again when Lofty retries it.
 */

function tokenMatches(given: unknown, secret: string): boolean {
	if (typeof given !== 'string') return false;
	const a = Buffer.from(given);
	const b = Buffer.from(secret);
	return a.length === b.length && timingSafeEqual(a, b);
}

type Request = { rawBody?: unknown; readRawBody?: () => Promise<void> };

/** The body, parsed from its raw bytes so that 64-bit ids are not rounded. Throws when it is not JSON. */
async function readBody(ctx: IWebhookFunctions): Promise<unknown> {
	const req = ctx.getRequestObject() as unknown as Request;
	if (req.rawBody === undefined && typeof req.readRawBody === 'function') await req.readRawBody();
	const raw = req.rawBody;
	if (!Buffer.isBuffer(raw) && typeof raw !== 'string') return ctx.getBodyData();
	const text = raw.toString();
	if (text.trim() === '') throw new Error('the body is empty');
	return parseJson(text, { idsAsStrings: true });
}

function headerValue(ctx: IWebhookFunctions, name: string): string | undefined {
	const value = ctx.getHeaderData()[name.toLowerCase()];
	const first = Array.isArray(value) ? value[0] : value;
	return typeof first === 'string' && first.trim() !== '' ? first.trim() : undefined;
}

interface Answerable {
	statusCode?: number;
	once?: (event: string, listener: () => void) => unknown;
}

/** Calls `settle(ok)` once the answer went out (ok: it was 2xx) or the connection closed without one. */
function onAnswered(res: Answerable, settle: (ok: boolean) => void): void {
	if (typeof res.once !== 'function') return;
	res.once('finish', () => settle(Number(res.statusCode) >= 200 && Number(res.statusCode) < 300));
	res.once('close', () => settle(false));
}

export async function receive(ctx: IWebhookFunctions, timing: TriggerTiming = DEFAULT_TIMING): Promise<IWebhookResponseData> {
	const res = ctx.getResponseObject();
	const staticData = ctx.getWorkflowStaticData('node');
	const token = (ctx.getQueryData() as IDataObject).token;
	const accepted = acceptedSecrets(staticData);
	if (accepted.length === 0) {
		// no secret stored yet: the activation that subscribed has not been saved (n8n serves the webhook before it saves
		// the activation's static data), so Lofty's first deliveries may already come; 503 makes Lofty retry them
		res.status(503).json({ message: 'This trigger is still being activated; send it again later' });
		return { noWebhookResponse: true };
	}
	if (!accepted.some((secret) => tokenMatches(token, secret))) {
		res.status(401).json({ message: 'Unauthorized: this address only accepts deliveries of its own Lofty subscriptions' });
		return { noWebhookResponse: true };
	}

	const deliveryId = headerValue(ctx, 'service-webhook-id');
	let body: unknown;
	try {
		body = await readBody(ctx);
	} catch (error) {
		ctx.logger.warn(
			`Lofty Trigger: answered 500 to a delivery whose body is not JSON (${(error as Error).message}; Service-Webhook-Id ${deliveryId ?? 'none'}); Lofty will send it again`,
		);
		res.status(500).json({ message: 'The body is not JSON; send it again' });
		return { noWebhookResponse: true };
	}

	const webhookUrl = webhookUrlOf(ctx);
	const now = Date.now();
	const scope = eventScope(ctx.getNode(), accepted[0], ctx.getMode() === 'manual');
	if (isCatchUpRequest(body)) return await answerCatchUp(ctx, body, scope, timing);
	if (isRunsRequest(body)) {
		// an execution of this trigger asks which of its events no execution passed (runOnce.ts); n8n saves before it answers
		track(scope, staticData, res as unknown as Answerable);
		return { webhookResponse: { fresh: claimRuns(scope, staticData, body[RUNS_BODY_KEY].keys.slice(0, MAX_EVENT_KEYS), now) } };
	}
	const parsed = parsePayload(body, deliveryId);
	if (parsed.kind === 'ping') {
		if (parsed.webhookId) {
			track(scope, staticData, res as unknown as Answerable);
			recordSign(staticData, webhookUrl, { subscribeId: parsed.webhookId }, now);
		}
		return { webhookResponse: { received: true } };
	}
	if (parsed.listId !== undefined && !chosenLists(ctx).includes(parsed.listId)) {
		ctx.logger.warn(
			`Lofty Trigger: ignored a delivery for ${listName(parsed.listId)} (listId ${parsed.listId}), which this trigger does not subscribe to (Service-Webhook-Id ${deliveryId ?? 'none'}); answered 2xx, started nothing`,
		);
		return { webhookResponse: { received: 0, ignored: 'not an event list of this trigger' } };
	}
	// this request's copy of the static data is changed (so saved) from here on: it gets every mark confirmed meanwhile
	track(scope, staticData, res as unknown as Answerable);
	if (ctx.getMode() !== 'manual') noteLiveUrl(staticData, webhookUrl);
	if (parsed.listId !== undefined) recordSign(staticData, webhookUrl, { listId: parsed.listId }, now);

	const decision = claim(scope, staticData, deliveryId, parsed.events.map(deliveredDedupe), now);
	if (decision.kind === 'seen') return { webhookResponse: { received: 0, duplicate: true } };
	if (decision.kind === 'busy') {
		// the same delivery is still being handled: its outcome decides, Lofty asks again later
		res.status(503).json({ message: 'This delivery is still being processed; send it again later' });
		return { noWebhookResponse: true };
	}
	onAnswered(res as unknown as Answerable, decision.settle);
	try {
		const options = ctx.getNodeParameter('options', {}) as IDataObject;
		const passes = onlyActions(ctx);
		const byAction = decision.fresh.map((index) => parsed.events[index]).filter((event) => passes(event.action));
		const filtered = await applyFilters(ctx, scope, filtersOf(options), byAction, now, Date.now() + timing.fetchBudgetMs);
		const items = filtered.map((event) => event.json);
		if (ctx.getNodeParameter('fetchFullRecord', false) as boolean) await fetchFullRecords(ctx, items, timing.fetchBudgetMs);
		// Handled: remembered as seen only now, with the answer that tells Lofty so.
		decision.commit();
		if (ctx.getMode() !== 'manual') {
			// a new process owes what an activation would where none runs at n8n's start (catchUpState.ts), before it notes this delivery
			if (firstInProcess(webhookUrl)) oweOnFirstRequest(staticData, chosenLists(ctx), now);
			noteListened(staticData, now, parsed.teamId);
			const owed = owedOf(catchUpStateOf(staticData));
			if (Object.keys(owed).length > 0) kickCatchUp(ctx, webhookUrl, accepted[0], owed);
		}
		if (items.length === 0) return { webhookResponse: { received: parsed.events.length, started: 0 } };
		void markChangedUntilAnswered(staticData, res as unknown as Answerable);
		return { workflowData: [items.map((json) => ({ json }))], webhookResponse: { received: parsed.events.length, started: items.length } };
	} catch (error) {
		decision.settle(false);
		// re-wrapping a NodeApiError hands back the same error
		if (error instanceof NodeApiError) throw new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
		throw new NodeOperationError(ctx.getNode(), error as Error);
	}
}

/** Events of Only Actions (empty: all); events without a known action (listing alerts) always pass. */
function onlyActions(ctx: IWebhookFunctions): (action: string) => boolean {
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const only = ((options.actions as string[] | undefined) ?? []).filter((a) => (ACTIONS as readonly string[]).includes(a));
	return (action) => only.length === 0 || !(ACTIONS as readonly string[]).includes(action) || only.includes(action);
}

/**
 * The trigger's own catch-up request (catchUpRequest.ts): reads back what is owed (catchUp.ts) within the budget,
 * and starts one execution with what no delivery brought, claimed like a delivery's events (dedupe.ts) and
 * written off only with the answer that hands them to n8n. A test execution (manual) catches nothing up.
 */
async function answerCatchUp(ctx: IWebhookFunctions, body: IDataObject, scope: string, timing: TriggerTiming): Promise<IWebhookResponseData> {
	const res = ctx.getResponseObject();
	const staticData = ctx.getWorkflowStaticData('node');
	const webhookUrl = webhookUrlOf(ctx);
	if (ctx.getMode() === 'manual') return { webhookResponse: { caughtUp: 0 } };
	const lists = chosenLists(ctx);
	track(scope, staticData, res as unknown as Answerable);
	mergeOwed(staticData, (body[CATCH_UP_KEY] as IDataObject | undefined)?.owed, lists, Date.now());
	if (busyCatchUps.has(scope)) {
		res.status(503).json({ message: 'A catch-up is running; send it again later' });
		return { noWebhookResponse: true };
	}
	busyCatchUps.add(scope);
	try {
		const read = await readBack(ctx, staticData, lists, Date.now() + timing.catchUpBudgetMs);
		const decision = claim(scope, staticData, undefined, read.events.map((e) => e.dedupe), Date.now(), true);
		if (decision.kind !== 'new') {
			res.status(503).json({ message: 'Events of this catch-up are being handled; send it again later' });
			return { noWebhookResponse: true };
		}
		onAnswered(res as unknown as Answerable, decision.settle);
		const passes = onlyActions(ctx);
		const items = decision.fresh.map((index) => read.events[index].json).filter((json) => passes(String(json.action)));
		read.apply();
		decision.commit();
		reportOutcome(webhookUrl, owedOf(catchUpStateOf(staticData)));
		ctx.logger.info(
			`Lofty Trigger: caught up ${items.length} event(s) that no delivery brought (${read.events.length} read back)${read.more ? '; the rest of the catch-up follows' : ''}`,
		);
		if (items.length === 0) return { webhookResponse: { caughtUp: 0, more: read.more } };
		void markChangedUntilAnswered(staticData, res as unknown as Answerable);
		return { workflowData: [items.map((json) => ({ json }))], webhookResponse: { caughtUp: items.length, more: read.more } };
	} catch (error) {
		ctx.logger.warn(`Lofty Trigger: the catch-up failed (${(error as Error).message}); what it owes is kept`);
		res.status(500).json({ message: 'The catch-up failed; it is tried again' });
		return { noWebhookResponse: true };
	} finally {
		busyCatchUps.delete(scope);
	}
}

/** Catch-ups running in this process, by webhook (one at a time). */
const busyCatchUps = new Set<string>();
