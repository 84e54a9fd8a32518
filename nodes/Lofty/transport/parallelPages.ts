import type { IDataObject } from 'n8n-workflow';

import { forEachInParallel } from './inFlight';
import { PageGuard } from './pageGuard';
import { type FetchPage, type Pagination, pageItems, paginate, saysDone, totalOf } from './pagination';
import type { QueryValue } from './request';

/**
 * Return All (and a Limit above one page) with the pages fetched in parallel, where the API allows it:
 * offset and page styles whose first page announces the total. Knowing the total and the page size,
 * every other page's parameters are known in advance, so they are fetched `parallel` at a time (each
 * request still waits for the credential's pace) and put back in order: still exactly
 * ceil(N / page size) requests.
 *
 * Everything else goes through the sequential loop of pagination.ts, with the first page handed over
 * so that it is not fetched twice: keyset and cursor styles (each page names the next one, so no page
 * is known before the previous answer), lists without a total, and short lists.
 *
 * The parallel read checks every page against the first: the same total, exactly the expected number
 * of records, and no record on two pages. When the list changed while it was read (a record added or
 * removed shifts every later page), the server repeats itself, or a later page is refused, the pages
 * read so far are dropped and the list is read again one page after another (for the leads, by their
 * scroll cursor), where the guards of pagination.ts stop a list that does not advance: never a record twice.
 */

interface Plan {
	size: number;
	first: Record<string, QueryValue>;
	/** The paging of page `k` (0 = the first) and the largest number of records it may hold. */
	page(k: number): { paging: Record<string, QueryValue>; limit: number };
}

function planOf(p: Pagination, want: number): Plan | undefined {
	if (!p.totalKey) return undefined;
	if (p.style === 'offset') {
		const limitParam = p.limitParam ?? 'limit';
		const offsetParam = p.offsetParam ?? 'offset';
		const size = Math.min(p.maxPageSize, want);
		const page = (k: number) => {
			const limit = Math.min(size, want - k * size);
			return {
				paging: { [limitParam]: limit, [offsetParam]: k * size },
				limit,
			};
		};
		return { size, first: page(0).paging, page };
	}
	if (p.style === 'page') {
		const size = p.fixedPageSize ?? Math.min(p.maxPageSize, want);
		const page = (k: number) => {
			const paging: Record<string, QueryValue> = {
				[p.pageParam]: (p.firstPage ?? 0) + k,
			};
			if (p.sizeParam) paging[p.sizeParam] = size;
			return { paging, limit: size };
		};
		return { size, first: page(0).paging, page };
	}
	return undefined;
}

/** The announced total, when the answer has a whole number there. */
function countOf(p: Pagination, response: unknown): number | undefined {
	const total = totalOf(p, response);
	return total !== undefined && Number.isInteger(total) && total >= 0 ? total : undefined;
}

/** True when a record comes twice across the pages (by `idField`, else the whole record), as pageGuard.ts tells. */
function repeats(p: Pagination, pages: IDataObject[][]): boolean {
	const guard = new PageGuard(p.idField);
	try {
		return pages.some((page) => guard.fresh(page).length !== page.length);
	} catch {
		return true;
	}
}

function samePaging(a: Record<string, QueryValue>, b: Record<string, QueryValue>): boolean {
	const keys = Object.keys(a);
	return keys.length === Object.keys(b).length && keys.every((key) => String(a[key]) === String(b[key]));
}

/** A later page the API refused (HTTP 4xx other than 429): perhaps an offset beyond what it serves. */
function refusedPage(error: unknown): boolean {
	const code = Number((error as { httpCode?: unknown } | null)?.httpCode);
	return code >= 400 && code < 500 && code !== 429;
}

export async function paginateInParallel(
	p: Pagination,
	fetchPage: FetchPage,
	want: number,
	parallel: number,
	log: (message: string) => void = () => undefined,
): Promise<IDataObject[]> {
	const plan = parallel > 1 ? planOf(p, want) : undefined;
	if (!plan) return await paginate(p, fetchPage, want);

	const firstResponse = await fetchPage(plan.first);
	const firstItems = pageItems(p, firstResponse);
	const total = countOf(p, firstResponse);
	const target = total === undefined ? 0 : Math.min(total, want);
	if (total === undefined || firstItems.length !== plan.size || target <= plan.size || saysDone(p, firstResponse, firstItems.length) === true) {
		// The sequential loop decides from here; its first request is this one, answered already.
		let replay: unknown = firstResponse;
		const handOver: FetchPage = async (paging) => {
			if (replay !== undefined && samePaging(paging, plan.first)) {
				const response = replay;
				replay = undefined;
				return response;
			}
			replay = undefined;
			return await fetchPage(paging);
		};
		return await paginate(p, handOver, want);
	}

	const pageCount = Math.ceil(target / plan.size);
	const pages: IDataObject[][] = new Array(pageCount);
	pages[0] = firstItems;
	/** Why the parallel read was given up (for the log). */
	let fallback: string | undefined;
	let failure: unknown;
	await forEachInParallel(pageCount - 1, parallel, async (index) => {
		const k = index + 1;
		const { paging, limit } = plan.page(k);
		const response = await fetchPage(paging);
		const items = pageItems(p, response);
		const now = countOf(p, response);
		const expected = Math.min(limit, total - k * plan.size);
		if (now !== total) {
			fallback = `the total changed from ${total} to ${now ?? 'none'} while the pages were read`;
			return false;
		}
		if (items.length !== expected) {
			fallback = `page ${k + 1} held ${items.length} records where ${expected} were expected`;
			return false;
		}
		pages[k] = items;
		return true;
	}).catch((error: unknown) => (failure = error ?? new Error('a page failed')));
	if (failure !== undefined) {
		// Errors of fetchPage are already the node's errors (NodeApiError, NodeOperationError).
		if (!refusedPage(failure)) throw failure;
		fallback = `a later page was refused (${(failure as Error).message})`;
	}
	if (!fallback && repeats(p, pages)) fallback = 'a record came on two pages';
	if (fallback) {
		log(`Lofty: reading the list again one page after another: ${fallback}`);
		return await paginate(p, fetchPage, want);
	}
	const all = pages.flat();
	return all.length > want ? all.slice(0, want) : all;
}
