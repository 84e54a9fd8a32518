/**
 * Runs a case of the fault-injecting differential test (test/harness/leadCase.ts) against a sandbox: the leads from
 * before, the faults, the executions (one after the other or at once, with what happens between them), and collects
 * what the model (test/harness/leadModel.ts) judges: each item's outcome as its output (or the run's error) says it,
 * the writes Lofty applied in the order it applied them, and the leads at the end.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { LoftyOAuth2Api } from '../../credentials/LoftyOAuth2Api.credentials';
import { DEMO_API_KEY, DEMO_CLIENT_ID, DEMO_CLIENT_SECRET, SEED_IDS, type FaultSpec, type Sandbox } from '../../sandbox';
import { leadPersistence } from '../../sandbox/resources/lead';
import { forgetAccountReadings } from '../../nodes/Lofty/model/readings';
import { HUNG_MS } from './budgets';
import { type Credential, createContext } from './context';
import { type Auth, type Execution, type Fault, type LeadCase, type LeadItem, markOf, personAltEmail, personEmail, personPhone, personPhoneNormal } from './leadCase';
import { asN8nHandsItOver, useN8nCoreOAuth2 } from './n8nOAuth2';
import { forgetProcessMemory } from './processMemory';
import { apiKeyCredential, byId, node } from './sandbox';
import { observe } from '../secrets/observe';

export type Outcome = 'applied' | 'notApplied' | 'uncertain';

/** What one item's output says (CoF off: the run's error for the failing item; nothing for the others). */
export interface ItemResult {
	outcome: Outcome;
	json?: IDataObject;
}

export interface ExecutionResult {
	items: ItemResult[];
	/** Continue On Fail off: whether the run failed, the item its error names, and its message */
	threw: boolean;
	failedAt?: number;
	error?: string;
	cancelled: boolean;
}

/** Something done to Lofty's leads between executions, at a point among the applied writes. */
export interface LeadEvent {
	kind: 'delete' | 'merge';
	leadId: string;
	/** merge: the lead that now holds the removed one's fields */
	into?: string;
	/** how many writes Lofty had applied when it happened */
	at: number;
	/** the execution it came before */
	before: number;
}

export interface LeadState {
	leadId: string;
	lastName: string;
	emails: string[];
	phones: string[];
	tags: string[];
}

export interface Ran {
	executions: ExecutionResult[];
	/** the leads from before: person -> lead ID */
	before: Array<string | undefined>;
	initial: LeadState[];
	events: LeadEvent[];
	final: LeadState[];
}

const MISSING_LEAD = '999999999999999';
const LEAD = '/v1.0/leads';
const ONE_LEAD = '/v1.0/leads/{leadId}';

function faultSpec(f: Fault): FaultSpec {
	const post = { method: 'POST', path: LEAD };
	const put = { method: 'PUT', path: ONE_LEAD };
	const specs: Record<Fault['name'], FaultSpec> = {
		'429': { kind: '429', retryAfterSec: 0 },
		dropBeforePost: { kind: 'drop', when: 'before', match: post },
		dropAfterPost: { kind: 'drop', match: post },
		dropBeforePut: { kind: 'drop', when: 'before', match: put },
		dropAfterPut: { kind: 'drop', match: put },
		'500BeforePut': { kind: '500', match: put },
		'500AfterPost': { kind: '500', applied: true, match: post },
		'500AfterPut': { kind: '500', applied: true, match: put },
		slowPost: { kind: 'slow', delayMs: HUNG_MS, match: post },
		slowPut: { kind: 'slow', delayMs: HUNG_MS, match: put },
		latePost: { kind: 'slow', when: 'before', delayMs: HUNG_MS, match: post },
		latePut: { kind: 'slow', when: 'before', delayMs: HUNG_MS, match: put },
		'500Get': { kind: '500', times: 4, match: { method: 'GET', path: ONE_LEAD } },
		'500Search': { kind: '500', match: { method: 'GET', path: LEAD } },
		// A 2xx answer with Lofty's internal-error code after applying (uncertain), or with a validation code (refused).
		'20005AfterPost': { kind: '500', status: 200, code: 20005, applied: true, match: post },
		'20005AfterPut': { kind: '500', status: 200, code: 20005, applied: true, match: put },
		refusedPost: { kind: '500', status: 200, code: 'INVALID_PARAMETER', message: 'source is not valid', match: post },
		refusedPut: { kind: '500', status: 200, code: 'INVALID_PARAMETER', message: 'source is not valid', match: put },
	};
	const spec = specs[f.name];
	// The mark ends where the tag does: Mark E0I1 is not Mark E0I10.
	return { ...spec, skip: f.skip, ...(f.mark ? { match: { ...spec.match, body: `${f.mark}"` } } : {}) };
}

/** The node's parameters for one item. */
export function paramsOf(item: LeadItem, e: number, i: number, before: Array<string | undefined>): IDataObject {
	const tags = [markOf(e, i), ...(item.tag ? [item.tag] : [])];
	const requestOptions = { parallelRequests: 1, ...(item.timeoutMs ? { timeout: item.timeoutMs } : {}) };
	if (item.kind === 'update') {
		const updateFields = { ...(item.lastName ? { lastName: item.lastName } : {}), tagsAdd: tags };
		return { resource: 'lead', operation: 'update', leadId: byId(before[item.person] ?? MISSING_LEAD), updateFields, requestOptions };
	}
	const contacts = {
		...(item.altEmail ? { emails: [personAltEmail(item.person)] } : {}),
		...(item.lastName ? { lastName: item.lastName } : {}),
		tags,
	};
	if (item.kind === 'create') {
		const emails = [...(item.email ? [personEmail(item.person)] : []), ...(item.altEmail ? [personAltEmail(item.person)] : [])];
		const phones = item.phone ? [personPhone(item.person)] : [];
		return { resource: 'lead', operation: 'create', firstName: `Person ${item.person}`, additionalFields: { ...contacts, emails, phones }, requestOptions };
	}
	return {
		resource: 'lead',
		operation: 'upsert',
		matchBy: item.matchBy,
		email: item.email ? personEmail(item.person) : '',
		phone: item.phone ? personPhone(item.person) : '',
		firstName: `Person ${item.person}`,
		additionalFields: contacts,
		options: { whenExists: item.fillEmpty ? 'fillEmpty' : 'updateAll', phoneOnly: 'update' },
		requestOptions,
	};
}

function outcomeOf(out: INodeExecutionData | undefined): ItemResult {
	if (!out) return { outcome: 'uncertain' };
	if (out.json.error === undefined) return { outcome: 'applied', json: out.json };
	return { outcome: out.json.writeUncertain ? 'uncertain' : 'notApplied', json: out.json };
}

const stateOf = (lead: { leadId: bigint; lastName: string; emails: string[]; phones: string[]; tags: Array<{ tagName: string }> }): LeadState => ({
	leadId: lead.leadId.toString(),
	lastName: lead.lastName ?? '',
	emails: lead.emails.map((e) => e.toLowerCase()).sort(),
	phones: [...lead.phones].sort(),
	tags: lead.tags.map((t) => t.tagName.toLowerCase()).sort(),
});

/** The case's leads as Lofty holds them: live ones with a contact of a person, or a mark. */
export function leadsOf(sb: Sandbox): LeadState[] {
	const contacts = new Set(Array.from({ length: 9 }, (_, p) => [personEmail(p), personAltEmail(p), personPhoneNormal(p)]).flat());
	return [...sb.store.leads.values()]
		.filter((l) => !l.deletedAt && (l.emails.some((e) => contacts.has(e.toLowerCase())) || l.phones.some((p) => contacts.has(p)) || l.tags.some((t) => /^Mark /i.test(t.tagName))))
		.map(stateOf)
		.sort((a, b) => (BigInt(a.leadId) < BigInt(b.leadId) ? -1 : 1));
}

/** The OAuth2 credential as n8n stores it, shared by the executions that use it. */
interface Stored {
	data: IDataObject;
	saves: number;
}

/** Each n8n credential's ID: three credentials of one Lofty user. */
const CREDENTIAL_IDS: Record<Auth, string> = { apiKey: '1', apiKey2: '2', oauth2: '3' };

async function runExecution(sb: Sandbox, e: number, ex: Execution, before: Array<string | undefined>, oauth: Stored, cancel?: AbortController): Promise<ExecutionResult> {
	const params = ex.items.map((item, i) => paramsOf(item, e, i, before));
	// Parallel Requests is the first item's, for the whole run.
	params[0] = { ...params[0], requestOptions: { ...(params[0].requestOptions as IDataObject), parallelRequests: ex.parallel } };
	const oauth2 = ex.auth === 'oauth2';
	const credential: Credential = oauth2 ? { type: 'loftyOAuth2Api', data: oauth.data } : apiKeyCredential(sb);
	const authentication = oauth2 ? 'oAuth2' : 'apiKey';
	const context = createContext(node, {
		items: params.map(() => ({})),
		continueOnFail: ex.continueOnFail,
		cancelSignal: cancel?.signal,
		params: (i) => ({ authentication, ...params[i] }),
		credential,
	});
	context.getNode().credentials![credential.type].id = CREDENTIAL_IDS[ex.auth];
	if (oauth2) useN8nCoreOAuth2(context, oauth, (line) => observe('n8n-core log', line));
	try {
		const out = ((await node.execute!.call(context)) as INodeExecutionData[][])[0];
		observe('Lofty output', out);
		return { items: params.map((_, i) => outcomeOf(out.find((o) => (o.pairedItem as { item: number }).item === i))), threw: false, cancelled: cancel?.signal.aborted ?? false };
	} catch (error) {
		observe('Lofty error', error);
		const err = error as Error & { context?: { itemIndex?: number; writeUncertain?: boolean } };
		const items = params.map((): ItemResult => ({ outcome: 'uncertain' }));
		const failedAt = err.context?.itemIndex;
		if (failedAt !== undefined) items[failedAt] = { outcome: err.context?.writeUncertain ? 'uncertain' : 'notApplied', json: { error: err.message } };
		return { items, threw: true, failedAt, error: err.message, cancelled: cancel?.signal.aborted ?? false };
	}
}

/** Calls `hook` with the number of requests Lofty has seen, on each request as it arrives. */
function onRequest(sb: Sandbox, hook: (count: number) => void): () => void {
	const log = sb.requests;
	const push = log.push;
	log.push = (...entries) => {
		const n = push.apply(log, entries);
		hook(n);
		return n;
	};
	return () => {
		log.push = push;
	};
}

function between(sb: Sandbox, e: number, ex: Execution, events: LeadEvent[]): void {
	if (ex.between === 'restart') {
		// A new n8n process: nothing remembered. A restart takes longer than Lofty's read delay.
		forgetProcessMemory();
		leadPersistence(sb.store).readableAt.clear();
		leadPersistence(sb.store).searchableAt.clear();
		return;
	}
	if (ex.between === 'none') return;
	const mine = (l: { emails: string[]; phones: string[]; deletedAt: number | null }) =>
		!l.deletedAt && (l.emails.some((m) => [personEmail(ex.betweenPerson), personAltEmail(ex.betweenPerson)].includes(m.toLowerCase())) || l.phones.includes(personPhoneNormal(ex.betweenPerson)));
	const lead = [...sb.store.leads.values()].filter(mine).pop();
	if (!lead) return;
	lead.deletedAt = sb.store.now();
	const event: LeadEvent = { kind: ex.between, leadId: lead.leadId.toString(), at: sb.faults.applied.length, before: e };
	if (ex.between === 'merge') {
		// Merged in Lofty: another lead now holds its fields.
		const into = sb.store.addLead({ firstName: lead.firstName, lastName: lead.lastName, emails: [...lead.emails], phones: [...lead.phones], ownerUserId: SEED_IDS.demoUserId });
		into.tags = lead.tags.map((t) => ({ ...t }));
		event.into = into.leadId.toString();
	}
	events.push(event);
}

/** Sets the sandbox up for the case and runs it. */
export async function runCase(sb: Sandbox, c: LeadCase): Promise<Ran> {
	sb.reset();
	forgetProcessMemory();
	forgetAccountReadings();
	if (c.rateLimit === 'tight') sb.setRateLimit({ perWindow: 12, windowMs: 1000 });
	const before = c.before.map((has, p) => {
		if (has === 'none') return undefined;
		const lead = sb.store.addLead({
			firstName: `Person ${p}`,
			lastName: p % 2 ? 'Old' : '',
			emails: has === 'phone' ? [] : [personEmail(p)],
			phones: has === 'email' ? [] : [personPhoneNormal(p)],
			ownerUserId: SEED_IDS.demoUserId,
		});
		return lead.leadId.toString();
	});
	const initial = leadsOf(sb);
	if (c.objectTags) sb.readings.set({ tagWrites: 'objects' });
	leadPersistence(sb.store).readDelayMs = c.readDelayMs;
	leadPersistence(sb.store).searchLagMs = c.searchLagMs;
	for (const f of c.faults) sb.faults.inject(faultSpec(f));
	const oauth: Stored = {
		data: asN8nHandsItOver(new LoftyOAuth2Api().properties, {
			grantType: 'clientCredentials',
			clientId: DEMO_CLIENT_ID,
			clientSecret: DEMO_CLIENT_SECRET,
			customerApiKey: DEMO_API_KEY,
			baseUrl: sb.url,
			accessTokenUrl: `${sb.url}/api/user-web/oauth/token`,
		}),
		saves: 0,
	};
	const cancels = c.executions.map((ex) => (ex.cancelAfter === null ? undefined : new AbortController()));
	const events: LeadEvent[] = [];
	const stop = onRequest(sb, (count) => {
		c.executions.forEach((ex, e) => {
			if (ex.cancelAfter === count) cancels[e]?.abort();
		});
		const token = (oauth.data.oauthTokenData as IDataObject | undefined)?.access_token;
		if (c.expireTokenAfter === count && typeof token === 'string') sb.expireToken(token);
	});
	const results: ExecutionResult[] = [];
	try {
		// Executions at once run in groups; a group starts when the one before it has ended.
		let group: Array<Promise<ExecutionResult>> = [];
		for (const [e, ex] of c.executions.entries()) {
			if (!ex.together) {
				results.push(...(await Promise.all(group)));
				group = [];
				between(sb, e, ex, events);
			}
			group.push(runExecution(sb, e, ex, before, oauth, cancels[e]));
		}
		results.push(...(await Promise.all(group)));
		// Writes held back until the client gave up land once it has hung up.
		while (sb.concurrency().now > 0) await new Promise((resolve) => setTimeout(resolve, 5));
	} finally {
		stop();
	}
	return { executions: results, before, initial, events, final: leadsOf(sb) };
}
