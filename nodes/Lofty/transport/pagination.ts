import type { IDataObject } from 'n8n-workflow';

import type { QueryValue } from './request';

/**
 * The pagination styles Lofty uses. Each list operation names its style in its definition;
 * `paginate` drives it and stops exactly when the API says it is done or the limit is reached.
 */
export type Pagination =
	/** offset/limit with `_metadata {total, scrollId}` (leads, members, v1 calls). */
	| { style: 'offset'; itemsKey: string; maxPageSize: number; scrollId?: boolean }
	/** pageNumber/pageSize (0-based) with an integer `hasMore` (system logs). */
	| { style: 'pageHasMore'; itemsKey: string; maxPageSize: number; pageParam: string; sizeParam: string }
	/** 0-based page index with a fixed page size and a bare array answer (v1 lead activities). */
	| { style: 'fixedPage'; itemsKey?: string; pageSize: number; pageParam: string }
	/** keyset: `currentId` = id of the last item, plus a limit (activity and communication lists). */
	| { style: 'keyset'; itemsKey: string; maxPageSize: number; idField: string }
	/** opaque cursor: `cursor` in, `nextCursor` out; stops when nextCursor is empty. */
	| { style: 'cursor'; itemsKey: string; maxPageSize: number };

export type FetchPage = (qs: Record<string, QueryValue>) => Promise<unknown>;

function asRecord(value: unknown): IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : {};
}

/** Items of one page: the named key, or the answer itself when it is a bare array. */
export function itemsOf(response: unknown, key: string | undefined): IDataObject[] {
	if (Array.isArray(response)) return response as IDataObject[];
	if (key === undefined) return [];
	let value: unknown = response;
	for (const part of key.split('.')) value = asRecord(value)[part];
	return Array.isArray(value) ? (value as IDataObject[]) : [];
}

/** Fetches pages until the API says there are no more, or `want` items were collected. */
export async function paginate(pagination: Pagination, fetchPage: FetchPage, want: number): Promise<IDataObject[]> {
	const all: IDataObject[] = [];
	const remaining = () => want - all.length;
	switch (pagination.style) {
		case 'offset': {
			let offset = 0;
			let scrollId: string | undefined;
			for (;;) {
				const limit = Math.min(pagination.maxPageSize, remaining());
				const qs: Record<string, QueryValue> = { limit, offset };
				if (scrollId) qs.scrollId = scrollId;
				const response = await fetchPage(qs);
				const items = itemsOf(response, pagination.itemsKey);
				all.push(...items.slice(0, remaining()));
				const metadata = asRecord(asRecord(response)._metadata);
				offset += items.length;
				const total = Number(metadata.total);
				if (items.length < limit || (Number.isFinite(total) && offset >= total) || remaining() <= 0) break;
				if (pagination.scrollId && typeof metadata.scrollId === 'string' && metadata.scrollId) scrollId = metadata.scrollId;
			}
			return all;
		}
		case 'pageHasMore': {
			// The page size stays constant so that page N covers the same window on every request.
			const size = Math.min(pagination.maxPageSize, want);
			for (let page = 0; ; page++) {
				const response = await fetchPage({ [pagination.pageParam]: page, [pagination.sizeParam]: size });
				all.push(...itemsOf(response, pagination.itemsKey).slice(0, remaining()));
				const hasMore = asRecord(response).hasMore;
				if (!(hasMore === 1 || hasMore === true || hasMore === '1') || remaining() <= 0) break;
			}
			return all;
		}
		case 'fixedPage': {
			for (let page = 0; ; page++) {
				const items = itemsOf(await fetchPage({ [pagination.pageParam]: page }), pagination.itemsKey);
				all.push(...items.slice(0, remaining()));
				if (items.length < pagination.pageSize || remaining() <= 0) break;
			}
			return all;
		}
		case 'keyset': {
			let currentId: string | undefined;
			for (;;) {
				const limit = Math.min(pagination.maxPageSize, remaining());
				const qs: Record<string, QueryValue> = { limit };
				if (currentId !== undefined) qs.currentId = currentId;
				const items = itemsOf(await fetchPage(qs), pagination.itemsKey);
				all.push(...items.slice(0, remaining()));
				const last = items[items.length - 1];
				const lastId = last?.[pagination.idField];
				if (items.length < limit || remaining() <= 0 || lastId === undefined || lastId === null) break;
				currentId = String(lastId);
			}
			return all;
		}
		case 'cursor': {
			let cursor: string | undefined;
			for (;;) {
				const limit = Math.min(pagination.maxPageSize, remaining());
				const qs: Record<string, QueryValue> = { limit };
				if (cursor) qs.cursor = cursor;
				const response = await fetchPage(qs);
				all.push(...itemsOf(response, pagination.itemsKey).slice(0, remaining()));
				const next = asRecord(response).nextCursor;
				// The last page may be empty; only a missing nextCursor ends the list.
				if (typeof next !== 'string' || next === '' || remaining() <= 0) break;
				cursor = next;
			}
			return all;
		}
	}
}
