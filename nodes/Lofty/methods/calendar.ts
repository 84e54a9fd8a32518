import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

import { sendByReading } from '../model/readings';
import { CALENDAR_TIME_READING, windowQuery } from '../resources/calendar';
import { loftyRequest } from '../transport/request';
import type { MethodSet } from './types';

const PAGE = 100;
const DAY_MS = 86_400_000;

function entryName(entry: IDataObject): string {
	const what = String(entry.title || entry.content || entry.id);
	const when = typeof entry.startAt === 'string' ? entry.startAt.replace('T', ' ').slice(0, 16) : '';
	const done = entry.finished === true ? ' (finished)' : '';
	return when ? `${when} ${what}${done}` : `${what}${done}`;
}

/**
 * Tasks and appointments for the calendar-entry picker: from 90 days back to a year ahead,
 * finished ones included, earliest first, 100 per page; the filter matches title and content.
 */
export async function searchCalendarEntries(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 0) || 0;
	const now = Date.now();
	const request = {
		method: 'GET' as const,
		path: '/v2.0/calendar',
		qs: { ...windowQuery(now - 90 * DAY_MS, now + 365 * DAY_MS), includeFinished: true, desc: false, page, pageSize: PAGE },
		body: undefined,
	};
	// Both readings of the calendar window (resources/calendar/time.ts).
	const response = (await sendByReading(this, CALENDAR_TIME_READING, request, {}, async (r) => await loftyRequest(this, r))) as IDataObject;
	const data = (response?.data as IDataObject | undefined) ?? {};
	const items = (data.items as IDataObject[] | undefined) ?? [];
	const total = Number(data.total);
	const needle = filter?.trim().toLowerCase();
	const matches = needle
		? items.filter((entry) => `${String(entry.title ?? '')} ${String(entry.content ?? '')}`.toLowerCase().includes(needle))
		: items;
	const more = items.length === PAGE && !(Number.isFinite(total) && (page + 1) * PAGE >= total);
	return {
		results: matches.map((entry) => ({ name: entryName(entry), value: String(entry.id) })),
		paginationToken: more ? String(page + 1) : undefined,
	};
}

/** IANA time zones for the Time Zone dropdowns (Lofty has no endpoint listing them). */
export async function getCalendarTimeZones(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
	const zones = intl.supportedValuesOf?.('timeZone') ?? [];
	return [...new Set(['UTC', ...zones])].sort().map((zone) => ({ name: zone.replace(/_/g, ' '), value: zone }));
}

/** List searches (resource locators) and dropdowns of the Calendar resource. */
export const calendarMethods: MethodSet = { listSearch: { searchCalendarEntries }, loadOptions: { getCalendarTimeZones } };
