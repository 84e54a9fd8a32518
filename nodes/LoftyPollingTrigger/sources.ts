import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { findOperation } from '../Lofty/resources';
import { type Pagination, paginate } from '../Lofty/transport/pagination';
import { loftyRequest } from '../Lofty/transport/request';
import { toEpochMs } from '../LoftyTrigger/parse';
import type { Found } from './cursor';

/**
 * What the polling trigger can read by time, and how each becomes an item shaped like the webhook events of the
 * Lofty Trigger (same `event`, `listId`, `action`, IDs, `updateTime`, `eventKey`; `deliveryId` null; `raw` is the
 * record as Lofty listed it):
 *
 * - New Lead: GET /v1.0/leads sorted by CreateTime, newest first, paged as Lead > Get Many down to the window's start.
 * - New Call, Text, Email: GET /v2.0/communication/agent in windows of at most 90 days, paged as Search Agent
 *   Communications, oldest first. Automatic (AUTO) ones are left out unless asked, as the webhooks leave them out.
 *
 * Lofty has no way to list updates, deletions or transactions by time, so those stay with the webhook trigger.
 */

export type SourceName = 'lead' | 'call' | 'text' | 'email';

export interface PollSettings {
	teamView: boolean;
	includeAutomatic: boolean;
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

/**
 * Leads from the newest down to `from`, paged as Lead > Get Many pages them (offset and scrollId from page 2, read
 * either way: docs/api-readings.md, 2), with its guards; the reading stops after the first page reaching past `from`.
 */
async function leadsSince(ctx: IPollFunctions, from: number, now: number, newestOnly: boolean): Promise<Array<Found<IDataObject>>> {
	const { path, pagination } = listOf('lead', 'getAll');
	// A lead without a readable time is treated as new now (it is emitted once, then remembered).
	const timeOfLead = (lead: IDataObject) => timeOf(lead.createTime) ?? now;
	const leads = await paginate(
		pagination,
		async (paging) => await loftyRequest(ctx, { method: 'GET', path, qs: { sort: 'CreateTime', desc: true, ...paging } }),
		newestOnly ? 1 : Infinity,
		(page) => page.some((lead) => timeOfLead(lead) < from),
	);
	const found: Array<Found<IDataObject>> = [];
	for (const lead of leads) {
		const id = idText(lead.leadId);
		const time = timeOfLead(lead);
		if (id !== undefined && time >= from) found.push({ id, time, record: lead });
	}
	return found;
}

const COMM_TYPES: Record<Exclude<SourceName, 'lead'>, string> = { call: 'CALL', text: 'TEXT', email: 'EMAIL' };

/** Calls, texts or emails in [from, now], oldest first: the agent communication search in windows of at most 90 days. */
async function communicationsSince(ctx: IPollFunctions, source: Exclude<SourceName, 'lead'>, from: number, now: number, settings: PollSettings): Promise<Array<Found<IDataObject>>> {
	const { path, pagination } = listOf('communication', 'searchByAgent');
	const found: Array<Found<IDataObject>> = [];
	for (let start = from; start <= now; start += WINDOW + 1) {
		const qs = { type: COMM_TYPES[source], startTime: start, endTime: Math.min(start + WINDOW, now), teamView: settings.teamView || undefined };
		const entries = await paginate(pagination, async (paging) => await loftyRequest(ctx, { method: 'GET', path, qs: { ...qs, ...paging } }), Infinity);
		for (const entry of entries) {
			const id = idText(entry.id);
			if (id === undefined) continue;
			if (!settings.includeAutomatic && String(entry.communicationType ?? '').toUpperCase() === 'AUTO') continue;
			found.push({ id, time: timeOf(entry.communicationTime ?? entry.time) ?? now, record: entry });
		}
	}
	return found;
}

/** The records of one source in [from, now]; with `newestOnly` (the editor's test fetch) just the latest one. */
export async function readSource(
	ctx: IPollFunctions,
	source: SourceName,
	from: number,
	now: number,
	settings: PollSettings,
	newestOnly = false,
): Promise<Array<Found<IDataObject>>> {
	if (source === 'lead') return await leadsSince(ctx, from, now, newestOnly);
	const all = await communicationsSince(ctx, source, from, now, settings);
	return newestOnly ? all.slice(-1) : all;
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
