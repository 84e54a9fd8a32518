/**
 * What the try-out page (./page.ts) shows and does, as the demo owner: the team's leads, the stages, n8n's
 * subscriptions and the latest webhook deliveries; and the events a person makes by clicking.
 *
 * Each event is made the way Lofty would make it: a new lead, a stage change, a text and an email run the sandbox's
 * own route handlers (POST /v1.0/leads, PUT /v1.0/leads/{leadId}, POST /v1.0/message/sms/send and .../email/send),
 * so their webhook events follow exactly as for an API call. A dialer call has no API route (the phone system makes
 * it): it is stored as a MANUAL call with a recording and emitted (Call event) as the dialer would.
 */
import type { AuthRegistry, Caller } from '../core/auth';
import { ApiError } from '../core/errors';
import { type JsonValue, parseJson } from '../core/json';
import { redactUrl } from '../core/origin';
import type { Router } from '../core/router';
import { SEED_IDS } from '../core/seed';
import type { Store } from '../core/store';
import type { Lead } from '../core/types';
import { commState } from '../resources/communication/state';
import { emitCommunication } from '../resources/webhook/delivery/emit';
import { deliveryEngine } from '../resources/webhook/delivery/engine';
import { WEBHOOK_IDS } from '../resources/webhook/seed';
import { WEBHOOK_EVENTS, webhookState } from '../resources/webhook/state';

export interface WebDeps {
	store: Store;
	auth: AuthRegistry;
	router: Router;
}

export type EventKind = 'lead' | 'stage' | 'call' | 'text' | 'email';

export interface EventRequest {
	kind: EventKind;
	leadId?: string;
	stage?: string;
	firstName?: string;
	lastName?: string;
	email?: string;
	phone?: string;
	source?: string;
	message?: string;
}

export interface EventResult {
	ok: boolean;
	/** what happened, in words for the page */
	detail: string;
	leadId?: string;
	callId?: string;
}

const MAX_LEADS = 25;
const MAX_DELIVERIES = 10;
const SEEDED = new Set<string>(Object.values(WEBHOOK_IDS));

const demoUser = (store: Store) => store.getUser(BigInt(SEED_IDS.demoUserId))!;
const fullName = (l: Lead): string => `${l.firstName} ${l.lastName}`.trim();

/** The demo owner's leads, newest first, optionally those whose name, email or phone contains `q`. */
export function listLeads(store: Store, q = ''): Array<Record<string, string>> {
	const user = demoUser(store);
	const needle = q.trim().toLowerCase();
	return [...store.leads.values()]
		.filter((l) => l.teamId === user.teamId && l.deletedAt === null && store.canAccess(user.userId, l))
		.filter((l) => !needle || [fullName(l), ...l.emails, ...l.phones].some((s) => s.toLowerCase().includes(needle)))
		.sort((a, b) => b.createTime - a.createTime || (a.leadId < b.leadId ? 1 : -1))
		.slice(0, MAX_LEADS)
		.map((l) => ({ leadId: l.leadId.toString(), name: fullName(l), stage: l.stage, email: l.emails[0] ?? '', phone: l.phones[0] ?? '', source: l.source }));
}

/** Subscriptions made through the API (by n8n), not the seeded examples, with their event names. */
export function listSubscriptions(store: Store): Array<Record<string, string | boolean>> {
	return [...webhookState(store).subscriptions.values()]
		.filter((s) => !SEEDED.has(s.subscribeId.toString()))
		.map((s) => ({ subscribeId: s.subscribeId.toString(), event: WEBHOOK_EVENTS[s.listId] ?? String(s.listId), callbackUrl: redactUrl(s.callbackUrl), active: s.active }));
}

/**
 * What a Lofty Trigger's answer says: `started` (the events that passed its filters, as text; '' when it does not say)
 * and, when it says something else, those words: a duplicate (the trigger had the events already, from an earlier
 * delivery or its catch-up after a restart, and ran nothing twice), an event list it does not listen to, or the
 * answer itself. n8n 2.41.1 answers a webhook that started a workflow with the text `firstEntryJson` (the default of
 * its own responseData setting) in place of the trigger's answer: that answer means the workflow started.
 */
export function answerWords(answer: string | undefined): { started: string; answered: string } {
	let parsed: Record<string, unknown> | undefined;
	try {
		parsed = JSON.parse(answer ?? '') as Record<string, unknown>;
	} catch {
		parsed = undefined;
	}
	if (typeof parsed?.started === 'number') return { started: String(parsed.started), answered: '' };
	if (parsed?.duplicate === true) return { started: '', answered: 'already run: the trigger had these events (duplicate), nothing ran twice' };
	if (typeof parsed?.ignored === 'string') return { started: '', answered: `ignored: ${parsed.ignored}` };
	const text = (answer ?? '').trim();
	if (text === 'firstEntryJson') return { started: '', answered: 'started the workflow' };
	return { started: '', answered: text ? `n8n answered ${text.length > 80 ? `${text.slice(0, 77)}...` : text}` : '' };
}

/**
 * The latest delivery attempts to those subscriptions, newest first: when, which event keys, where to, the answer,
 * how many events the trigger started its workflow with (`started`, '' when the answer does not say), and what else
 * the answer said (`answered`).
 */
export function listDeliveries(store: Store): Array<Record<string, string | number>> {
	return deliveryEngine(store)
		.log.filter((e) => !SEEDED.has(e.subscribeId))
		.slice(-MAX_DELIVERIES)
		.reverse()
		.map((e) => {
			let keys: string = e.kind;
			try {
				const body = e.body ? (JSON.parse(e.body) as Record<string, unknown>) : {};
				keys = Object.keys(body).filter((k) => k !== 'listId' && k !== 'teamId').join(', ') || e.kind;
			} catch {
				/* a garbled body: keep the kind */
			}
			return {
				time: new Date(e.time).toISOString(),
				event: WEBHOOK_EVENTS[e.listId] ?? String(e.listId),
				keys,
				callbackUrl: redactUrl(e.callbackUrl),
				status: e.status === undefined ? '' : String(e.status),
				outcome: e.outcome,
				...answerWords(e.answer),
				error: e.error ?? '',
			};
		});
}

/** One call of a sandbox route as the demo owner with the API key; the handler's errors become the message. */
function callRoute(deps: WebDeps, method: string, path: string, body: Record<string, unknown>): Record<string, unknown> {
	const matched = deps.router.match(method, path);
	if (!matched) throw new Error(`no route ${method} ${path}`);
	const user = demoUser(deps.store);
	const caller: Caller = { userId: user.userId, appId: 'apikey:demo-owner', scheme: 'token', scopes: 'all' };
	const rawBody = JSON.stringify(body);
	const reply = matched.route.handler({
		method,
		path,
		params: matched.params,
		query: new URLSearchParams(),
		headers: { 'content-type': 'application/json' },
		body: parseJson(rawBody) as JsonValue,
		rawBody,
		caller,
		user,
		store: deps.store,
		auth: deps.auth,
		now: deps.store.now(),
	});
	return (reply.body ?? {}) as Record<string, unknown>;
}

function leadOf(store: Store, leadId: string | undefined): Lead {
	const lead = leadId && /^\d+$/.test(leadId) ? store.getLead(BigInt(leadId)) : undefined;
	if (!lead || lead.deletedAt !== null) throw new Error(`no lead ${leadId ?? '(none given)'}`);
	return lead;
}

/** A dialer call the demo owner made to the lead, answered and recorded: a Call event with the dialer's call ID. */
function dialerCall(store: Store, lead: Lead): string {
	const state = commState(store);
	const user = demoUser(store);
	const now = store.now();
	const duration = 95;
	const call = state.add({
		leadId: lead.leadId,
		agentId: user.userId,
		kind: 'CALL',
		communicationType: 'MANUAL',
		direction: 'Outbound',
		time: now,
		dialerCallRecordId: state.nextDialerId++,
		leadPhoneNumber: lead.phones[0] ?? '+14155550000',
		userPhoneNumber: user.virtualNumber || '+15125550100',
		status: 'Completed',
		duration,
		callingOutcome: 'Talked',
		rateScore: 4,
		recordingSwitch: true,
		isMachineAnswered: false,
		price: Math.round(duration * 0.0004 * 100) / 100,
		content: 'Call from the try-out page',
	});
	emitCommunication(store, call);
	return call.dialerCallRecordId!.toString();
}

/** Makes one event; never throws (a refused one answers ok: false with the reason). */
export function makeEvent(deps: WebDeps, req: EventRequest): EventResult {
	try {
		switch (req.kind) {
			case 'lead': {
				const body: Record<string, unknown> = { firstName: req.firstName?.trim() || 'New', lastName: req.lastName?.trim() ?? '', source: req.source?.trim() || 'Try-out page' };
				if (req.email?.trim()) body.emails = [req.email.trim()];
				if (req.phone?.trim()) body.phones = [req.phone.trim()];
				const answer = callRoute(deps, 'POST', '/v1.0/leads', body);
				const leadId = String(answer.leadId);
				return { ok: true, leadId, detail: `New lead ${leadId} (${String(body.firstName)} ${String(body.lastName)}): a Lead Info event (createdLead)` };
			}
			case 'stage': {
				const lead = leadOf(deps.store, req.leadId);
				const from = lead.stage;
				if (!req.stage?.trim()) throw new Error('choose a stage');
				callRoute(deps, 'PUT', `/v1.0/leads/${lead.leadId}`, { stage: req.stage.trim() });
				const to = leadOf(deps.store, req.leadId).stage;
				return {
					ok: true,
					leadId: req.leadId,
					detail:
						from === to
							? `${fullName(lead)} is already in ${to}: a Lead Info event (updatedLead), no Pipeline Change`
							: `${fullName(lead)}: ${from} -> ${to}, a Pipeline Change event (updatedLeadstage) and a Lead Info event (updatedLead)`,
				};
			}
			case 'call': {
				const lead = leadOf(deps.store, req.leadId);
				const callId = dialerCall(deps.store, lead);
				return { ok: true, leadId: req.leadId, callId, detail: `Dialer call ${callId} with ${fullName(lead)}, recorded: a Call event (createdCall)` };
			}
			case 'text': {
				const lead = leadOf(deps.store, req.leadId);
				callRoute(deps, 'POST', '/v1.0/message/sms/send', { leadId: lead.leadId.toString(), content: req.message?.trim() || 'Hi, this is Dana from the try-out page.' });
				return { ok: true, leadId: req.leadId, detail: `Text to ${fullName(lead)}: a Text event (createdText)` };
			}
			case 'email': {
				const lead = leadOf(deps.store, req.leadId);
				callRoute(deps, 'POST', '/v1.0/message/email/send', {
					leadId: lead.leadId.toString(),
					subject: 'From the try-out page',
					content: req.message?.trim() || 'Hi, this is Dana from the try-out page.',
				});
				return { ok: true, leadId: req.leadId, detail: `Email to ${fullName(lead)}: an Email event (createdEmail)` };
			}
			default:
				throw new Error(`unknown event kind '${String((req as { kind?: unknown }).kind)}'`);
		}
	} catch (e) {
		const why = e instanceof ApiError ? e.message : e instanceof Error ? e.message : String(e);
		return { ok: false, detail: `Not made: ${why}` };
	}
}
