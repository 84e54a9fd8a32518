import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { findOperation } from '../Lofty/resources';
import { type FetchPage, type Pagination, pageItems, paginate } from '../Lofty/transport/pagination';
import { isDeadlineReached, loftyRequest } from '../Lofty/transport/request';
import { toEpochMs } from '../LoftyTrigger/parse';
import type { LoftyClock } from './clock';
import type { Found } from './cursor';

/**
 * What the polling trigger can read by time, and how each becomes an item shaped like the webhook events of the
 * Lofty Trigger (same `event`, `listId`, `action`, IDs, `updateTime`, `eventKey`; `deliveryId` null; `raw` is the
 * record as Lofty listed it):
 *
 * - New Lead: GET /v1.0/leads sorted by CreateTime, newest first, read in passes (leads.ts).
 * - New Call, Text, Email: GET /v2.0/communication/agent in windows of at most 90 days, paged as Search Agent
 *   Communications, oldest first. Automatic (AUTO) ones are left out unless asked, as the webhooks leave them out.
 *
 * Every read stops when the poll's time budget is used up (no page is started after it, no wait runs past it):
 * what was read is returned with where to go on (see cursor.ts).
 *
 * Lofty has no way to list updates, deletions or transactions by time, so those stay with the webhook trigger.
 */

export type SourceName = 'lead' | 'call' | 'text' | 'email';

export interface PollSettings {
	teamView: boolean;
	includeAutomatic: boolean;
}

export interface ReadOptions {
	settings: PollSettings;
	clock: LoftyClock;
	/** The poll's time budget ends here (n8n's clock, epoch ms). */
	deadline?: number;
	/** The editor's test fetch: just the newest record. */
	newestOnly?: boolean;
}

export interface Read {
	found: Array<Found<IDataObject>>;
	/** Whether the whole window was read (false: the budget ended it). */
	complete: boolean;
	/** Cut short: the time of the last one read (all before it were read). */
	readUpTo?: number;
}

const DAY = 86_400_000;
const WINDOW = 90 * DAY;

/** Lofty's lead and communication times: epoch ms, ISO 8601, or `yyyy-MM-dd HH:mm:ss` (read as UTC). */
export function timeOf(value: unknown): number | undefined {
	if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(value.trim())) {
		return toEpochMs(`${value.trim().replace(' ', 'T')}Z`);
	}
	return toEpochMs(value);
}

const idText = (value: unknown): string | undefined => (value === undefined || value === null || value === '' ? undefined : String(value));

/** A list operation of the Lofty node: its path and paging come from the resource tables, paged by the transport. */
function listOf(resource: string, operation: string): { path: string; pagination: Pagination } {
	const op = findOperation(resource, operation)?.op;
	if (!op?.pagination) throw new Error(`the Lofty node has no list ${resource} > ${operation}`);
	return { path: op.path, pagination: op.pagination };
}

/** The budget ended before the next page. */
class OutOfBudget extends Error {}
const outOfTime = (error: unknown) => error instanceof OutOfBudget || isDeadlineReached(error);

interface Pages {
	/** every record of every page answered, in the order read */
	records: IDataObject[];
	complete: boolean;
}

/**
 * Pages through a list with the transport's paginate (its guards: no record twice, no loop, no silent early stop),
 * keeping each answered page also when the budget ends the read.
 */
async function readPages(
	ctx: IPollFunctions,
	path: string,
	pagination: Pagination,
	qs: IDataObject,
	options: ReadOptions,
): Promise<Pages> {
	const pages: Pages = { records: [], complete: true };
	const { deadline, clock } = options;
	const fetchPage: FetchPage = async (paging) => {
		if (deadline !== undefined && Date.now() >= deadline) throw new OutOfBudget();
		const response = await loftyRequest(ctx, { method: 'GET', path, qs: { ...qs, ...paging } as never, deadline, onAnswer: clock.observe });
		const items = pageItems(pagination, response);
		pages.records.push(...items);
		return response;
	};
	// Running out of time ends the read with what it has; any other failure fails the poll as it was raised.
	pages.complete = await paginate(pagination, fetchPage, options.newestOnly ? 1 : Infinity).then(
		() => true,
		async (error: unknown) => (outOfTime(error) && !options.newestOnly ? false : await Promise.reject(error)),
	);
	return pages;
}

const COMM_TYPES: Record<Exclude<SourceName, 'lead'>, string> = { call: 'CALL', text: 'TEXT', email: 'EMAIL' };

/** Calls, texts or emails in [from, now], oldest first: the agent communication search in windows of at most 90 days. */
async function communicationsSince(ctx: IPollFunctions, source: Exclude<SourceName, 'lead'>, from: number, now: number, options: ReadOptions): Promise<Read> {
	const { path, pagination } = listOf('communication', 'searchByAgent');
	const { settings } = options;
	const found: Array<Found<IDataObject>> = [];
	let readUpTo = -Infinity;
	for (let start = from; start <= now; start += WINDOW + 1) {
		const qs = { type: COMM_TYPES[source], startTime: start, endTime: Math.min(start + WINDOW, now), teamView: settings.teamView || undefined };
		const pages = await readPages(ctx, path, pagination, qs, options);
		for (const entry of pages.records) {
			const id = idText(entry.id);
			if (id === undefined) continue;
			const time = timeOf(entry.communicationTime ?? entry.time) ?? now;
			readUpTo = time;
			if (!settings.includeAutomatic && String(entry.communicationType ?? '').toUpperCase() === 'AUTO') continue;
			found.push({ id, time, record: entry });
		}
		if (!pages.complete) return { found, complete: false, readUpTo };
	}
	return { found, complete: true };
}

/**
 * The records of one source in [from, now] (Lofty's clock; `from` is asked when needed, after an answer told the
 * clock where possible); with `newestOnly` (the editor's test fetch) just the latest one. */
export async function readSource(ctx: IPollFunctions, source: Exclude<SourceName, 'lead'>, from: () => number, now: number, options: ReadOptions): Promise<Read> {
	const read = await communicationsSince(ctx, source, from(), now, options);
	return options.newestOnly ? { ...read, found: read.found.slice(-1) } : read;
}

const LISTS: Record<SourceName, { listId: number; key: string }> = {
	lead: { listId: 2, key: 'createdLead' },
	call: { listId: 6, key: 'createdCall' },
	email: { listId: 7, key: 'createdEmail' },
	text: { listId: 8, key: 'createdText' },
};

/** One polled record as a trigger item, in the webhook events' shape. */
export function toItem(source: SourceName, found: Found<IDataObject>, teamId: string | undefined): IDataObject {
	const { listId, key } = LISTS[source];
	const r = found.record;
	const item: IDataObject = {
		event: `${source}.created`,
		listId,
		teamId: idText(r.teamId) ?? teamId ?? null,
		action: 'created',
	};
	if (source === 'lead') item.leadId = found.id;
	else {
		item.timelineId = found.id;
		for (const field of ['leadId', 'agentId']) if (idText(r[field]) !== undefined) item[field] = idText(r[field]);
	}
	item.updateTime = found.time;
	item.updateTimeIso = new Date(found.time).toISOString();
	if (source !== 'lead' && typeof r.communicationType === 'string') item.communicationType = r.communicationType;
	item.eventKey = key;
	item.deliveryId = null;
	item.raw = r;
	return item;
}
