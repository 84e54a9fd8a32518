import type { IDataObject } from 'n8n-workflow';

import { PageGuard, PagingError } from './pageGuard';
import type { QueryValue } from './request';

interface PageStop {
	/** Where the page's records sit (`leads`, `data.items`); a bare array answer is the page itself. */
	itemsKey?: string;
	/**
	 * Where to look when `itemsKey` holds no list (a shape the API leaves untyped, such as listings'
	 * `listIng`): the array there, or the one array inside the object there.
	 */
	itemsIn?: string;
	/** The field that identifies a record (`leadId`), so that no record is returned twice; else the whole record does. */
	idField?: string;
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

/** The records of one page: at `itemsKey`, else (for an untyped shape) the list found at `itemsIn`. */
export function pageItems(p: PageStop, response: unknown): IDataObject[] {
	const items = itemsOf(response, p.itemsKey);
	if (items.length > 0 || p.itemsIn === undefined || Array.isArray(valueAt(response, p.itemsKey ?? ''))) return items;
	const inside = valueAt(response, p.itemsIn);
	if (Array.isArray(inside)) return inside as IDataObject[];
	const lists = Object.entries(asRecord(inside)).filter(([, value]) => Array.isArray(value));
	if (lists.length > 1) {
		throw new PagingError(
			`Lofty's answer holds several lists under ${p.itemsIn} (${lists.map(([key]) => key).join(', ')}) and none at ${p.itemsKey}: the node cannot tell which holds the records`,
			'The answer has a shape the node does not know. Report it to the maintainers of the node with this message.',
		);
	}
	return lists.length === 1 ? (lists[0][1] as IDataObject[]) : [];
}

/** The total a page announces, when it has one. */
export function totalOf(p: PageStop, response: unknown): number | undefined {
	const raw = p.totalKey === undefined ? undefined : valueAt(response, p.totalKey);
	const total = raw === undefined || raw === null || raw === '' ? NaN : Number(raw);
	return Number.isFinite(total) ? total : undefined;
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

/**
 * Fetches pages until the API says there are no more, `want` records were collected, or a page satisfies
 * `enough` (a time-sorted list read down to a point: the polling trigger). Whatever the server does, no record
 * is returned twice, no page is asked for in a loop and a list never ends short of the total it announced
 * without an error (PageGuard).
 */
export async function paginate(
	p: Pagination,
	fetchPage: FetchPage,
	want: number,
	enough?: (page: IDataObject[]) => boolean,
	/** Offset style: go on from where an earlier read stopped (the polling trigger's backlog). */
	start?: { offset: number; scrollId?: string },
): Promise<IDataObject[]> {
	const all: IDataObject[] = [];
	const guard = new PageGuard(p.idField);
	let stopped = false;
	const remaining = () => (stopped ? 0 : want - all.length);
	const take = (items: IDataObject[]) => {
		all.push(...items.slice(0, Math.max(remaining(), 0)));
		if (enough?.(items)) stopped = true;
	};
	switch (p.style) {
		case 'offset': {
			let offset = start?.offset ?? 0;
			let scrollId: string | undefined = start?.scrollId;
			for (;;) {
				const limit = Math.min(p.maxPageSize, remaining());
				// Both offset and scrollId from page 2 on: right whichever of the two the server follows.
				const paging: Record<string, QueryValue> = { [p.limitParam ?? 'limit']: limit, [p.offsetParam ?? 'offset']: offset };
				if (scrollId) paging.scrollId = scrollId;
				const response = await fetchPage(paging);
				const items = pageItems(p, response);
				take(guard.fresh(items));
				offset += items.length;
				const done = saysDone(p, response, offset);
				if (remaining() <= 0 || done === true) break;
				if (items.length === 0) {
					guard.ended(offset, totalOf(p, response), done === false);
					break;
				}
				// A short page ends the list unless the total or flag says more: then it was served short, read on.
				if (done === undefined && items.length < limit) break;
				const next = p.scrollId ? valueAt(response, '_metadata.scrollId') : undefined;
				if (typeof next === 'string' && next) scrollId = next;
			}
			return all;
		}
		case 'page': {
			// The page size stays constant so that page N covers the same window on every request.
			let size = p.fixedPageSize ?? Math.min(p.maxPageSize, want);
			const first = p.firstPage ?? 0;
			let seen = 0;
			for (let page = first; ; page++) {
				const paging: Record<string, QueryValue> = { [p.pageParam]: page };
				if (p.sizeParam) paging[p.sizeParam] = size;
				const response = await fetchPage(paging);
				const items = pageItems(p, response);
				take(guard.fresh(items));
				seen += items.length;
				const done = saysDone(p, response, seen);
				if (remaining() <= 0 || done === true) break;
				if (items.length === 0) {
					guard.ended(seen, totalOf(p, response), done === false);
					break;
				}
				if (items.length < size) {
					if (done === undefined) break;
					// Fewer than asked while more follow: a server with a smaller largest page. Known from the first page,
					// paging on in its size is exact; later, page numbers would no longer cover the records in between.
					if (page !== first || !p.sizeParam || p.fixedPageSize) guard.short(page - first, items.length, size);
					size = items.length;
				}
			}
			return all;
		}
		case 'keyset': {
			let currentId: string | undefined;
			/** The server starts a page at currentId (inclusive) rather than after it: each page brings one known record. */
			let inclusive = false;
			for (;;) {
				// After the first page at least 2, so that a page holding only the currentId record means the end.
				const wanted = currentId === undefined ? remaining() : Math.max(remaining() + (inclusive ? 1 : 0), 2);
				const limit = Math.min(p.maxPageSize, wanted);
				const paging: Record<string, QueryValue> = { [p.limitParam ?? 'limit']: limit };
				if (currentId !== undefined) {
					guard.advance(currentId, 'currentId');
					paging[p.cursorParam ?? 'currentId'] = currentId;
				}
				const response = await fetchPage(paging);
				const items = pageItems(p, response);
				const startsAtCursor = currentId !== undefined && String(items[0]?.[p.idField]) === currentId;
				const boundary = startsAtCursor && items.length === 1;
				inclusive ||= startsAtCursor;
				take(guard.fresh(items, boundary));
				const lastId = items[items.length - 1]?.[p.idField];
				const done = saysDone(p, response, all.length);
				if (remaining() <= 0 || done === true || boundary) break;
				if (items.length === 0) {
					guard.ended(all.length, totalOf(p, response), done === false);
					break;
				}
				if (done === undefined && items.length < limit) break;
				if (lastId === undefined || lastId === null) {
					throw new PagingError(`Lofty's records carry no "${p.idField}" to ask for the next page by (after ${all.length} records)`);
				}
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
				const items = pageItems(p, response);
				take(guard.fresh(items));
				const next = valueAt(response, p.nextKey ?? 'nextCursor');
				if (typeof next !== 'string' || next === '' || remaining() <= 0) break;
				guard.empty(items.length);
				guard.advance(next, 'page cursor');
				cursor = next;
			}
			return all;
		}
	}
}
