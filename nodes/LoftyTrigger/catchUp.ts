import type { IDataObject, IPollFunctions, IWebhookFunctions } from 'n8n-workflow';

import { findOperation } from '../Lofty/resources';
import { type FetchPage, pageItems, paginate } from '../Lofty/transport/pagination';
import { isDeadlineReached, loftyRequest } from '../Lofty/transport/request';
import { LoftyClock } from '../LoftyPollingTrigger/clock';
import type { Found } from '../LoftyPollingTrigger/cursor';
import { type Read, readSource, timeOf, toItem } from '../LoftyPollingTrigger/sources';
import { CATCH_UP_LISTS, type OwedRange, catchUpStateOf, owedOf } from './catchUpState';
import type { DedupeEvent } from './dedupe';
import type { ParsedEvent } from './parse';

/**
 * Reading back what deliveries did not bring (the debt in catchUpState.ts), as items shaped like delivered events
 * (the polling trigger's toItem: `event`, `listId`, `action`, IDs, `updateTime`, `eventKey`; `raw` is the record
 * as Lofty listed it; `deliveryId` null) marked `caughtUp: true`.
 *
 * Lofty lists by time only the creations of leads (GET /v1.0/leads sorted by CreateTime) and of calls, emails and
 * texts (GET /v2.0/communication/agent between two times; automatic ones are left out, as the webhooks leave them
 * out). Every other event list (lead updates and deletions, stage changes, notes, tasks, appointments,
 * transactions, agents, lead activity, listing alerts) has no read by time: docs/triggers.md says so.
 *
 * One event, delivered or caught up, runs once (dedupe.ts): a created record is created once, so its record key is
 * `<listId>|created|<leadId or timelineId>`. A delivery remembers `heard|<record>` and is skipped when
 * `caught|<record>` is remembered; a catch-up remembers `caught|<record>` and skips what has either. Both skip an
 * event an execution already passed (`ran|<record>`, runOnce.ts).
 */

export type CatchUpSource = (typeof CATCH_UP_LISTS)[number];

export function recordOf(listId: number, json: IDataObject): string | undefined {
	if (!(listId in CATCH_UP_LISTS) || json.action !== 'created') return undefined;
	const id = listId === 2 ? json.leadId : json.timelineId;
	return typeof id === 'string' && id !== '' ? `${listId}|created|${id}` : undefined;
}

/** The run key of an event (runOnce.ts): of its record where a catch-up can bring it, else of its content. */
export const runKey = (recordOrContent: string) => `ran|${recordOrContent}`;
/** The key a catch-up remembers a record under (and the mark a caught-up item's own catch-up left). */
export const caughtKey = (record: string) => `caught|${record}`;

/** The dedupe entry of a delivered event: also its record key, when it is one a catch-up can bring, and its run key. */
export function deliveredDedupe(event: ParsedEvent): DedupeEvent {
	const record = typeof event.json.listId === 'number' ? recordOf(event.json.listId, event.json) : undefined;
	if (!record) return { key: event.dedupeKey, timed: event.timed, seenAs: [runKey(event.dedupeKey)] };
	return { key: event.dedupeKey, timed: event.timed, seenAs: [caughtKey(record), runKey(record)], marks: [`heard|${record}`] };
}

export interface CaughtUp {
	json: IDataObject;
	dedupe: DedupeEvent;
}

export interface ReadBack {
	events: CaughtUp[];
	/** what is still owed after this read (the budget ended it) */
	more: boolean;
	/** writes what this read paid off into the static data: call once its items are handed to n8n */
	apply: () => void;
}

/** What the first page of a catch-up may take beyond its budget. */
const FIRST_PAGE_MS = 10_000;

/** The budget ended before the next page. */
class OutOfBudget extends Error {}
const outOfTime = (error: unknown) => error instanceof OutOfBudget || isDeadlineReached(error);

/**
 * Leads created in [from, to] (Lofty's clock), read newest first down to `from`; cut: the oldest time read. Lofty
 * lists leads only from the newest, so a read that goes on below `to` pages through the leads above it again:
 * those pages, and the first page below them, are read whatever the budget (each read makes progress).
 */
async function leadsCreated(ctx: IWebhookFunctions, from: () => number, to: (() => number) | undefined, clock: LoftyClock, deadline: number): Promise<Read> {
	const op = findOperation('lead', 'getAll')?.op;
	if (!op?.pagination) throw new Error('the Lofty node has no list lead > getAll');
	const pagination = op.pagination;
	const leads: IDataObject[] = [];
	let below = to === undefined ? 0 : -1;
	const fetchPage: FetchPage = async (paging) => {
		if (below > 0 && Date.now() >= deadline) throw new OutOfBudget();
		const response = await loftyRequest(ctx, { method: 'GET', path: op.path, qs: { sort: 'CreateTime', desc: true, ...paging } as never, onAnswer: clock.observe });
		const page = pageItems(pagination, response);
		leads.push(...page);
		if (below >= 0) below++;
		else if (page.some((lead) => (timeOf(lead.createTime) ?? Infinity) < (to?.() ?? Infinity))) below = 1;
		return response;
	};
	const done = (lead: IDataObject) => (timeOf(lead.createTime) ?? Infinity) < from();
	const complete = await paginate(pagination, fetchPage, Infinity, (page) => page.some(done)).then(
		() => true,
		async (error: unknown) => (outOfTime(error) ? false : await Promise.reject(error)),
	);
	const found: Array<Found<IDataObject>> = [];
	const ids = new Set<string>();
	let oldest = Infinity;
	for (const lead of leads) {
		const id = lead.leadId === undefined || lead.leadId === null ? '' : String(lead.leadId);
		const time = timeOf(lead.createTime);
		if (id === '' || time === undefined || ids.has(id)) continue;
		ids.add(id);
		oldest = Math.min(oldest, time);
		if (time >= from() && (to === undefined || time <= to())) found.push({ id, time, record: lead });
	}
	return complete || oldest === Infinity ? { found, complete } : { found, complete: false, readUpTo: oldest };
}

/**
 * Reads back what the chosen `lists` owe, within `deadline` and the credential's rate limit (the transport's pace
 * and waits). What was read is returned; what the budget left stays owed.
 */
export async function readBack(ctx: IWebhookFunctions, staticData: IDataObject, lists: number[], deadline: number): Promise<ReadBack> {
	const state = catchUpStateOf(staticData);
	const owed = owedOf(state);
	const clock = new LoftyClock(state.skewMs);
	const events: CaughtUp[] = [];
	const paid: Record<string, OwedRange | undefined> = {};
	let more = false;
	let first = true;
	for (const [list, range] of Object.entries(owed)) {
		const listId = Number(list);
		if (!lists.includes(listId)) continue;
		if (!first && Date.now() >= deadline) {
			more = true;
			break;
		}
		// Ranges are kept on n8n's clock; Lofty lists by its own (measured from each answer's Date), so both ends are
		// asked when needed. An end is where the last read stopped, kept with the clock's skew then: it is read back with
		// that skew (a skew measured since, a second off by the Date's rounding, would move it), or without one stored,
		// with the one the answers tell.
		const from = () => range.from + clock.skewMs;
		const end = range.to;
		const storedSkew = clock.known ? clock.skewMs : undefined;
		const to = end === undefined ? undefined : () => end + (storedSkew ?? clock.skewMs);
		const source = CATCH_UP_LISTS[listId];
		let read: Read;
		if (source === 'lead') read = await leadsCreated(ctx, from, to, clock, deadline);
		else {
			if (!clock.known) await loftyRequest(ctx, { method: 'GET', path: '/v1.0/me', onAnswer: clock.observe });
			// the first list of a read gets its first page whatever the budget (each read makes progress)
			const options = { settings: { teamView: true, includeAutomatic: false }, clock, deadline: first ? Math.max(deadline, Date.now() + FIRST_PAGE_MS) : deadline };
			read = await readSource(ctx as unknown as IPollFunctions, source, from, to?.() ?? clock.now(), options);
		}
		first = false;
		for (const found of read.found) {
			const json: IDataObject = { ...toItem(source, found, state.teamId), caughtUp: true };
			const record = recordOf(listId, json);
			if (record) events.push({ json, dedupe: { key: caughtKey(record), timed: true, seenAs: [`heard|${record}`, runKey(record)] } });
		}
		if (read.complete) paid[list] = undefined;
		else {
			more = true;
			const upTo = (read.readUpTo ?? range.from) - clock.skewMs;
			// leads are read newest first (what is left is older), communications oldest first (what is left is newer)
			paid[list] = source === 'lead' ? { from: range.from, to: upTo } : { from: upTo, ...(range.to === undefined ? {} : { to: range.to }) };
		}
	}
	const apply = () => {
		const now = catchUpStateOf(staticData);
		const left = owedOf(now);
		for (const [list, rest] of Object.entries(paid)) {
			if (rest) left[list] = rest;
			else delete left[list];
		}
		now.owed = left;
		if (clock.known) now.skewMs = clock.skewMs;
	};
	return { events, more, apply };
}
