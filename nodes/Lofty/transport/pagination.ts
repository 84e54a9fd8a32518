import type { IDataObject } from 'n8n-workflow';

import type { QueryValue } from './request';

interface PageStop {
	/** Where the page's records sit (`leads`, `data.items`); a bare array answer is the page itself. */
	itemsKey?: string;
	/** A count of all records (`_metadata.total`, `totalCount`): stop once it is reached. */
	totalKey?: string;
	/** A flag saying more pages follow (`hasMore`, 0/1 or boolean): stop when it is off. */
	hasMoreKey?: string;
	/** Where the paging parameters go (POST searches take them in the body). */
	in?: 'query' | 'body';
}

/**
 * The pagination styles Lofty uses. Each list operation names its style in its definition;
 * `paginate` drives it and stops exactly when the API says it is done or the limit is reached.
 * Without a total or a has-more flag, a short page ends the list.
 */
export type Pagination =
	/** offset/limit (leads, members, v1 calls, communication search); optionally a `scrollId` cursor. */
	| (PageStop & { style: 'offset'; maxPageSize: number; offsetParam?: string; limitParam?: string; scrollId?: boolean })
	/** page number and size (system logs, v2 transactions, calendar, pipelines); `fixedPageSize` when the size is not a parameter. */
	| (PageStop & { style: 'page'; maxPageSize: number; pageParam: string; sizeParam?: string; firstPage?: 0 | 1; fixedPageSize?: number })
	/** keyset: `currentId` = id of the last record, plus a limit (activity, communication and task lists). */
	| (PageStop & { style: 'keyset'; maxPageSize: number; idField: string; cursorParam?: string; limitParam?: string })
	/** opaque cursor: `cursor` in, `nextCursor` out; only an empty nextCursor ends the list (the last page may be empty). */
	| (PageStop & { style: 'cursor'; maxPageSize: number; cursorParam?: string; nextKey?: string; limitParam?: string });

export type FetchPage = (paging: Record<string, QueryValue>) => Promise<unknown>;

function asRecord(value: unknown): IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : {};
}

export function valueAt(response: unknown, path: string): unknown {
	let value: unknown = response;
	for (const part of path.split('.')) value = asRecord(value)[part];
	return value;
}

/** Records of one page: the named key, or the answer itself when it is a bare array. */
export function itemsOf(response: unknown, key: string | undefined): IDataObject[] {
	if (Array.isArray(response)) return response as IDataObject[];
	if (key === undefined) return [];
	const value = valueAt(response, key);
	return Array.isArray(value) ? (value as IDataObject[]) : [];
}

/** True when the page says the list is finished (by flag or total); undefined when it cannot tell. */
export function saysDone(p: PageStop, response: unknown, seen: number): boolean | undefined {
	if (p.hasMoreKey) {
		const flag = valueAt(response, p.hasMoreKey);
		if (flag !== undefined && flag !== null) return !(flag === true || flag === 1 || flag === '1' || flag === 'true');
	}
	if (p.totalKey) {
		const total = Number(valueAt(response, p.totalKey));
		if (Number.isFinite(total) && valueAt(response, p.totalKey) !== null) return seen >= total;
	}
	return undefined;
}

/** Fetches pages until the API says there are no more, or `want` records were collected. */
export async function paginate(p: Pagination, fetchPage: FetchPage, want: number): Promise<IDataObject[]> {
	const all: IDataObject[] = [];
	const remaining = () => want - all.length;
	const take = (items: IDataObject[]) => all.push(...items.slice(0, Math.max(remaining(), 0)));
	switch (p.style) {
		case 'offset': {
			let offset = 0;
			let scrollId: string | undefined;
			for (;;) {
				const limit = Math.min(p.maxPageSize, remaining());
				const paging: Record<string, QueryValue> = { [p.limitParam ?? 'limit']: limit, [p.offsetParam ?? 'offset']: offset };
				if (scrollId) paging.scrollId = scrollId;
				const response = await fetchPage(paging);
				const items = itemsOf(response, p.itemsKey);
				take(items);
				offset += items.length;
				const done = saysDone(p, response, offset);
				if (remaining() <= 0 || items.length === 0 || done === true || (done === undefined && items.length < limit)) break;
				const next = p.scrollId ? valueAt(response, '_metadata.scrollId') : undefined;
				if (typeof next === 'string' && next) scrollId = next;
			}
			return all;
		}
		case 'page': {
			// The page size stays constant so that page N covers the same window on every request.
			const size = p.fixedPageSize ?? Math.min(p.maxPageSize, want);
			let seen = 0;
			for (let page = p.firstPage ?? 0; ; page++) {
				const paging: Record<string, QueryValue> = { [p.pageParam]: page };
				if (p.sizeParam) paging[p.sizeParam] = size;
				const response = await fetchPage(paging);
				const items = itemsOf(response, p.itemsKey);
				take(items);
				seen += items.length;
				const done = saysDone(p, response, seen);
				if (remaining() <= 0 || done === true || (done === undefined && items.length < size) || items.length === 0) break;
			}
			return all;
		}
		case 'keyset': {
			let currentId: string | undefined;
			for (;;) {
				const limit = Math.min(p.maxPageSize, remaining());
				const paging: Record<string, QueryValue> = { [p.limitParam ?? 'limit']: limit };
				if (currentId !== undefined) paging[p.cursorParam ?? 'currentId'] = currentId;
				const response = await fetchPage(paging);
				const items = itemsOf(response, p.itemsKey);
				take(items);
				const lastId = items[items.length - 1]?.[p.idField];
				const done = saysDone(p, response, all.length);
				if (remaining() <= 0 || done === true || (done === undefined && items.length < limit) || lastId === undefined || lastId === null) break;
				currentId = String(lastId);
			}
			return all;
		}
		case 'cursor': {
			let cursor: string | undefined;
			for (;;) {
				const limit = Math.min(p.maxPageSize, remaining());
				const paging: Record<string, QueryValue> = { [p.limitParam ?? 'limit']: limit };
				if (cursor) paging[p.cursorParam ?? 'cursor'] = cursor;
				const response = await fetchPage(paging);
				take(itemsOf(response, p.itemsKey));
				const next = valueAt(response, p.nextKey ?? 'nextCursor');
				if (typeof next !== 'string' || next === '' || remaining() <= 0) break;
				cursor = next;
			}
			return all;
		}
	}
}
