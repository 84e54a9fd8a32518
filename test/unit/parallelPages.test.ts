/**
 * Return All with pages in parallel, against a list served in memory: which requests are made, how many
 * at once, the order of the records, and what happens when the list changes during the read.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Pagination } from '../../nodes/Lofty/transport/pagination';
import { paginateInParallel } from '../../nodes/Lofty/transport/parallelPages';
import type { QueryValue } from '../../nodes/Lofty/transport/request';

const offsetStyle: Pagination = { style: 'offset', itemsKey: 'rows', totalKey: 'meta.total', maxPageSize: 100 };
const pageStyle: Pagination = { style: 'page', itemsKey: 'rows', totalKey: 'meta.total', maxPageSize: 50, pageParam: 'page', sizeParam: 'size', firstPage: 1 };

/** A list API: offset/limit or page/size, with a total on every page; records 0 .. n-1. */
function listApi(n: number, options: { onRequest?: (count: number) => void; refuseOffsetAbove?: number } = {}) {
	const records = Array.from({ length: n }, (_, i) => ({ id: String(i) }));
	const requests: Array<Record<string, QueryValue>> = [];
	let inFlight = 0;
	let most = 0;
	const fetchPage = async (paging: Record<string, QueryValue>) => {
		requests.push(paging);
		options.onRequest?.(requests.length);
		inFlight++;
		most = Math.max(most, inFlight);
		await new Promise((resolve) => setTimeout(resolve, 2 + (requests.length % 3)));
		inFlight--;
		let start: number;
		let size: number;
		if ('page' in paging) {
			size = Number(paging.size);
			start = (Number(paging.page) - 1) * size;
		} else {
			size = Number(paging.limit);
			start = paging.scrollId !== undefined ? Number(paging.scrollId) : Number(paging.offset ?? 0);
			if (paging.scrollId === undefined && options.refuseOffsetAbove !== undefined && start > options.refuseOffsetAbove) {
				throw Object.assign(new Error('Lofty error (HTTP 400 INVALID_PARAMETER): offset too deep'), { httpCode: '400' });
			}
		}
		const rows = records.slice(start, start + size);
		// A scroll cursor as the leads list has: where the next page starts.
		return { meta: { total: records.length }, _metadata: { scrollId: String(start + rows.length) }, rows };
	};
	return { records, requests, fetchPage, most: () => most };
}

const ids = (rows: IDataObject[]) => rows.map((r) => Number(r.id));
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('pages in parallel', () => {
	it('offset style: every record once, in order, with exactly ceil(N / page) requests, several at once', async () => {
		const api = listApi(1050);
		const rows = await paginateInParallel(offsetStyle, api.fetchPage, Infinity, 4);
		expect(ids(rows)).toEqual(range(1050));
		expect(api.requests).toHaveLength(11);
		expect(api.requests.map((r) => r.offset).sort((a, b) => Number(a) - Number(b))).toEqual(range(11).map((k) => k * 100));
		expect(api.requests.every((r) => r.limit === 100)).toBe(true);
		expect(api.most()).toBeGreaterThan(1);
		expect(api.most()).toBeLessThanOrEqual(4);
	});

	it('page style with a total', async () => {
		const api = listApi(501);
		const rows = await paginateInParallel(pageStyle, api.fetchPage, Infinity, 3);
		expect(ids(rows)).toEqual(range(501));
		expect(api.requests).toHaveLength(11);
		expect(api.most()).toBe(3);
	});

	it('a Limit above one page asks for just what is wanted', async () => {
		const api = listApi(1050);
		const rows = await paginateInParallel(offsetStyle, api.fetchPage, 250, 4);
		expect(ids(rows)).toEqual(range(250));
		expect(api.requests.map((r) => `${r.offset}+${r.limit}`).sort()).toEqual(['0+100', '100+100', '200+50']);
	});

	it('a list of one page, or with Parallel Requests at 1, is read as before (no extra request)', async () => {
		for (const [n, parallel, requests] of [
			[80, 4, 1],
			[100, 4, 1],
			[350, 1, 4],
		] as const) {
			const api = listApi(n);
			expect(ids(await paginateInParallel(offsetStyle, api.fetchPage, Infinity, parallel))).toEqual(range(n));
			expect(api.requests).toHaveLength(requests);
			expect(api.most()).toBe(1);
		}
	});

	it('without a total, the sequential loop takes over and the first page is not fetched again', async () => {
		const api = listApi(250);
		const noTotal: Pagination = { style: 'offset', itemsKey: 'rows', maxPageSize: 100 };
		expect(ids(await paginateInParallel(noTotal, api.fetchPage, Infinity, 4))).toEqual(range(250));
		expect(api.requests.map((r) => r.offset)).toEqual([0, 100, 200]);
		expect(api.most()).toBe(1);
	});

	it('cursor and keyset styles stay sequential: each page names the next', async () => {
		let calls = 0;
		const cursor: Pagination = { style: 'cursor', itemsKey: 'rows', maxPageSize: 10 };
		const rows = await paginateInParallel(
			cursor,
			async (paging) => {
				calls++;
				const at = Number(paging.cursor ?? 0);
				return { rows: range(10).map((i) => ({ id: String(at + i) })), nextCursor: at + 10 < 30 ? String(at + 10) : '' };
			},
			Infinity,
			8,
		);
		expect(ids(rows)).toEqual(range(30));
		expect(calls).toBe(3);
	});

	it('when the list changes during the read, it is read again one page after another: never a record twice', async () => {
		const api = listApi(1000, {
			// A record is added after the third request: later pages report 1001 and every record moves on by one.
			onRequest: (count) => count === 3 && api.records.unshift({ id: '-1' }),
		});
		const messages: string[] = [];
		const rows = await paginateInParallel(offsetStyle, api.fetchPage, Infinity, 4, (m) => messages.push(m));
		expect(new Set(ids(rows)).size).toBe(rows.length);
		expect(ids(rows)).toEqual([-1, ...range(1000)]);
		expect(messages).toEqual([expect.stringMatching(/reading the list again one page after another: the total changed from 1000 to 1001/)]);
	});

	it('a server that repeats a page is caught: read again one page after another, whose guard names the fault', async () => {
		const records = range(1000).map((i) => ({ id: String(i) }));
		const messages: string[] = [];
		const repeating = async (paging: Record<string, QueryValue>) => {
			// Offset 300 is answered with the records of offset 200.
			const start = Number(paging.offset) === 300 ? 200 : Number(paging.offset);
			return { meta: { total: 1000 }, rows: records.slice(start, start + Number(paging.limit)) };
		};
		const paging: Pagination = { ...offsetStyle, idField: 'id' };
		await expect(paginateInParallel(paging, repeating, Infinity, 4, (m) => messages.push(m))).rejects.toThrow(/already sent/);
		expect(messages).toEqual([expect.stringMatching(/a record came on two pages/)]);
	});

	it('when a later page is refused (an offset deeper than the API serves), the list is read by its scroll cursor', async () => {
		const api = listApi(700, { refuseOffsetAbove: 400 });
		const messages: string[] = [];
		const rows = await paginateInParallel({ ...offsetStyle, scrollId: true }, api.fetchPage, Infinity, 4, (m) => messages.push(m));
		expect(ids(rows)).toEqual(range(700));
		expect(messages).toEqual([expect.stringMatching(/a later page was refused \(.*offset too deep\)/)]);
		// The sequential read: offset 0, then by cursor.
		expect(api.requests.slice(-7).map((r) => r.scrollId ?? 'first')).toEqual(['first', '100', '200', '300', '400', '500', '600']);
	});

	it('another failure of a page fails the read, after the pages in flight have settled', async () => {
		let settled = 0;
		const failing = async (paging: Record<string, QueryValue>) => {
			await new Promise((resolve) => setTimeout(resolve, 5));
			settled++;
			if (paging.offset === 300) throw Object.assign(new Error('Lofty error (HTTP 500 20005)'), { httpCode: '500' });
			return { meta: { total: 1000 }, rows: range(Number(paging.limit)).map((i) => ({ id: String(Number(paging.offset) + i) })) };
		};
		await expect(paginateInParallel(offsetStyle, failing, Infinity, 4)).rejects.toThrow('HTTP 500');
		const atFailure = settled;
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(settled).toBe(atFailure);
		expect(settled).toBeLessThan(10);
	});
});
