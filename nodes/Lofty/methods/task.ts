import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

import { getAssigneeTimeReadings, getTimeReadings } from '../model/agentZone';
import { loftyRequest } from '../transport/request';
import type { MethodSet } from './types';

/** Lofty's page size limit for my-tasks. */
const PAGE = 100;

function entryName(entry: IDataObject): string {
	const what = String(entry.content ?? '').trim() || `${String(entry.type ?? 'Task')} #${String(entry.id)}`;
	const lead = String(entry.leadName ?? '').trim();
	const when = String(entry.startAt ?? entry.endAt ?? '').slice(0, 10);
	const parts = [what, lead && `with ${lead}`, when && `(${when})`, entry.finishFlag === true ? '[finished]' : ''];
	return parts.filter(Boolean).join(' ');
}

/** With a search text, further pages are read until this many matches are found (or MAX_PAGES were read). */
const WANT_MATCHES = 20;
const MAX_PAGES = 5;

/**
 * The caller's tasks or appointments (GET /v2.0/tasks/my-tasks, keyset paged by the last ID), kept to one kind and
 * to entries whose text or lead name contains the search text. Lofty cannot search this list itself, so with a
 * search text up to MAX_PAGES pages are read per call; the token continues after the last entry read.
 */
export async function searchMyEntries(
	ctx: ILoadOptionsFunctions,
	appointments: boolean,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const needle = filter?.trim().toLowerCase() ?? '';
	const results: Array<{ name: string; value: string }> = [];
	let currentId: string | undefined = paginationToken || undefined;
	for (let page = 0; page < MAX_PAGES; page++) {
		const response = (await loftyRequest(ctx, {
			method: 'GET',
			path: '/v2.0/tasks/my-tasks',
			qs: { limit: PAGE, currentId },
		})) as IDataObject;
		const entries = ((response.tasks as IDataObject[] | undefined) ?? []).filter((e) => e !== null && typeof e === 'object');
		results.push(
			...entries
				.filter((e) => (String(e.type ?? '').toLowerCase() === 'appointment') === appointments)
				.filter((e) => !needle || `${String(e.content ?? '')} ${String(e.leadName ?? '')}`.toLowerCase().includes(needle))
				.map((e) => ({ name: entryName(e), value: String(e.id) })),
		);
		const last = entries[entries.length - 1]?.id;
		currentId = entries.length === PAGE && last !== undefined && last !== null ? String(last) : undefined;
		if (currentId === undefined || results.length >= (needle ? WANT_MATCHES : 1)) break;
	}
	return { results, paginationToken: currentId };
}

/** Tasks for the task picker: the caller's tasks, searched by text or lead name. */
export async function searchTasks(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return await searchMyEntries(this, false, filter, paginationToken);
}

/** IANA time zones for the Time Zone dropdowns (the same list Lofty accepts as `timeZoneCode`). */
export async function getTimeZones(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
	const zones = new Set(intl.supportedValuesOf?.('timeZone') ?? []);
	zones.add('UTC');
	return [...zones].sort((a, b) => a.localeCompare(b)).map((zone) => ({ name: zone.replace(/_/g, ' '), value: zone }));
}

/** List searches (resource locators) and dropdowns of the Task resource. */
export const taskMethods: MethodSet = { listSearch: { searchTasks }, loadOptions: { getTimeZones, getTimeReadings, getAssigneeTimeReadings } };
