import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { loftyRequest } from '../Lofty/transport/request';
import { toEpochMs } from '../LoftyTrigger/parse';
import type { Found } from './cursor';

/**
 * What the polling trigger can read by time, and how each becomes an item shaped like the webhook events of the
 * Lofty Trigger (same `event`, `listId`, `action`, IDs, `updateTime`, `eventKey`; `deliveryId` null; `raw` is the
 * record as Lofty listed it):
 *
 * - New Lead: GET /v1.0/leads sorted by CreateTime, newest first, paged (100, offset and scrollId) down to the window's start.
 * - New Call, Text, Email: GET /v2.0/communication/agent in windows of at most 90 days, cursor-paged (1000), oldest
 *   first. Automatic (AUTO) ones are left out unless asked, as the webhooks leave them out.
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
const LEAD_PAGE = 100;
const COMM_PAGE = 1000;
/** A safety stop for one poll: beyond this many pages the rest is left to the next poll. */
const MAX_PAGES = 200;

/** Lofty's lead and communication times: epoch ms, ISO 8601, or `yyyy-MM-dd HH:mm:ss` (read as UTC). */
export function timeOf(value: unknown): number | undefined {
	if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(value.trim())) {
		return toEpochMs(`${value.trim().replace(' ', 'T')}Z`);
	}
	return toEpochMs(value);
}

const asRecord = (value: unknown): IDataObject => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : {});
const idText = (value: unknown): string | undefined => (value === undefined || value === null || value === '' ? undefined : String(value));

/**
 * Leads from the newest down to `from`. From page 2 both `offset` (leads read so far) and the last `scrollId` are
 * sent: Lofty's paging is read either way (docs/api-readings.md, 2: some servers follow only `scrollId`, 25 a page).
 */
async function leadsSince(ctx: IPollFunctions, from: number, now: number, newestOnly: boolean): Promise<Array<Found<IDataObject>>> {
	const found: Array<Found<IDataObject>> = [];
	let read = 0;
	let scrollId: string | undefined;
	for (let page = 0; page < MAX_PAGES; page++) {
		const qs = { sort: 'CreateTime', desc: true, limit: newestOnly ? 1 : LEAD_PAGE, offset: read, scrollId };
		const answer = asRecord(await loftyRequest(ctx, { method: 'GET', path: '/v1.0/leads', qs }));
		const leads = (Array.isArray(answer.leads) ? answer.leads : []).map(asRecord);
		const meta = asRecord(answer._metadata);
		read += leads.length;
		scrollId = typeof meta.scrollId === 'string' && meta.scrollId !== '' ? meta.scrollId : undefined;
		let older = false;
		for (const lead of leads) {
			const id = idText(lead.leadId);
			if (id === undefined) continue;
			// A lead without a readable time is treated as new now (it is emitted once, then remembered).
			const time = timeOf(lead.createTime) ?? now;
			if (time < from) older = true;
			else found.push({ id, time, record: lead });
		}
		const total = Number(meta.total);
		if (newestOnly || older || leads.length === 0 || (meta.total !== undefined && Number.isFinite(total) && read >= total)) break;
	}
	return found;
}

const COMM_TYPES: Record<Exclude<SourceName, 'lead'>, string> = { call: 'CALL', text: 'TEXT', email: 'EMAIL' };

async function communicationsSince(ctx: IPollFunctions, source: Exclude<SourceName, 'lead'>, from: number, now: number, settings: PollSettings): Promise<Array<Found<IDataObject>>> {
	const found: Array<Found<IDataObject>> = [];
	let pages = 0;
	for (let start = from; start <= now && pages < MAX_PAGES; start += WINDOW + 1) {
		const end = Math.min(start + WINDOW, now);
		let cursor: string | undefined;
		do {
			const qs = { type: COMM_TYPES[source], startTime: start, endTime: end, limit: COMM_PAGE, teamView: settings.teamView || undefined, cursor };
			const answer = asRecord(await loftyRequest(ctx, { method: 'GET', path: '/v2.0/communication/agent', qs }));
			pages++;
			for (const entry of (Array.isArray(answer.data) ? answer.data : []).map(asRecord)) {
				const id = idText(entry.id);
				if (id === undefined) continue;
				if (!settings.includeAutomatic && String(entry.communicationType ?? '').toUpperCase() === 'AUTO') continue;
				found.push({ id, time: timeOf(entry.communicationTime ?? entry.time) ?? now, record: entry });
			}
			cursor = typeof answer.nextCursor === 'string' && answer.nextCursor !== '' ? answer.nextCursor : undefined;
		} while (cursor && pages < MAX_PAGES);
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
