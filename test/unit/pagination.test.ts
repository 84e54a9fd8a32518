/**
 * The sequential Return All (transport/pagination.ts) against scripted servers that misbehave: whatever the
 * server does, no record twice, no spin, no silent early stop. test/node/returnAll.test.ts does the same with
 * the real node against the sandbox's repeating server.
 */
import type { IDataObject } from 'n8n-workflow';

import { MAX_EMPTY_PAGES, PageGuard, PagingError } from '../../nodes/Lofty/transport/pageGuard';
import { type FetchPage, type Pagination, paginate, pageItems } from '../../nodes/Lofty/transport/pagination';

const records = (n: number, from = 1): IDataObject[] => Array.from({ length: n }, (_, i) => ({ id: String(from + i) }));
const ids = (list: IDataObject[]) => list.map((r) => r.id);

/** A server of `all` records that answers by offset/limit, or with what `answer` says for the nth request. */
function server(answer: (paging: Record<string, unknown>, n: number) => unknown) {
	const sent: Array<Record<string, unknown>> = [];
	const fetch: FetchPage = async (paging) => {
		sent.push(paging);
		if (sent.length > 200) throw new Error('the loop did not stop');
		return answer(paging, sent.length - 1);
	};
	return { fetch, sent };
}

async function failure(promise: Promise<unknown>): Promise<PagingError> {
	const error = await promise.then(() => undefined, (e: unknown) => e);
	expect(error).toBeInstanceOf(PagingError);
	return error as PagingError;
}

describe('offset style', () => {
	const p: Pagination = { style: 'offset', itemsKey: 'items', totalKey: 'total', maxPageSize: 10, idField: 'id' };
	const all = records(25);
	const byOffset = (paging: Record<string, unknown>) => {
		const offset = Number(paging.offset);
		return { items: all.slice(offset, offset + Number(paging.limit)), total: all.length };
	};

	it('reads every record once', async () => {
		const { fetch, sent } = server(byOffset);
		expect(ids(await paginate(p, fetch, Infinity))).toEqual(ids(all));
		expect(sent.map((s) => s.offset)).toEqual([0, 10, 20]);
	});

	it('a page satisfying `enough` is the last one read (a time-sorted list read down to a point)', async () => {
		const { fetch, sent } = server(byOffset);
		const read = await paginate(p, fetch, Infinity, (page) => page.some((r) => Number(r.id) >= 15));
		expect(ids(read)).toEqual(ids(all.slice(0, 20)));
		expect(sent.map((s) => s.offset)).toEqual([0, 10]);
	});

	it('a page that repeats the previous one stops the read', async () => {
		const { fetch, sent } = server((paging, n) => byOffset(n === 1 ? { ...paging, offset: 0 } : paging));
		const error = await failure(paginate(p, fetch, Infinity));
		expect(error.message).toMatch(/records it had already sent \(after 10 records\): the list does not advance/);
		expect(error.description).toMatch(/no record is returned twice/);
		expect(sent).toHaveLength(2);
	});

	it('a page that overlaps the previous one (a record added at the top meanwhile) is read on without the repeat', async () => {
		const grown = [{ id: 'new' }, ...all];
		const { fetch } = server((paging, n) => {
			const list = n === 0 ? all : grown;
			const offset = Number(paging.offset);
			return { items: list.slice(offset, offset + Number(paging.limit)), total: list.length };
		});
		const read = ids(await paginate(p, fetch, Infinity));
		expect(read).toEqual(ids(all));
		expect(new Set(read).size).toBe(read.length);
	});

	it('a page shorter than asked while the total says more: reads on from where it got to', async () => {
		const { fetch, sent } = server((paging) => byOffset({ ...paging, limit: Math.min(Number(paging.limit), 4) }));
		expect(ids(await paginate(p, fetch, Infinity))).toEqual(ids(all));
		expect(sent.map((s) => s.offset)).toEqual([0, 4, 8, 12, 16, 20, 24]);
	});

	it('an empty page while the total says more is an error, not a silent end', async () => {
		const { fetch } = server((paging) => ({ ...byOffset(paging), total: 28 }));
		const error = await failure(paginate(p, fetch, Infinity));
		expect(error.message).toBe('The list ended after 25 records although Lofty announced 28');
	});

	it('a has-more flag on an empty page is an error too', async () => {
		const flag: Pagination = { style: 'offset', itemsKey: 'items', hasMoreKey: 'more', maxPageSize: 10 };
		const { fetch } = server((paging) => ({ items: all.slice(Number(paging.offset), Number(paging.offset) + 10), more: 1 }));
		expect((await failure(paginate(flag, fetch, Infinity))).message).toMatch(/empty page after 25 records while saying more follow/);
	});

	it('records without an id are told apart by their content', async () => {
		const bare: Pagination = { style: 'offset', itemsKey: 'items', totalKey: 'total', maxPageSize: 10 };
		const { fetch } = server((paging, n) => byOffset(n === 1 ? { ...paging, offset: 0 } : paging));
		await failure(paginate(bare, fetch, Infinity));
	});
});

describe('page style', () => {
	const p: Pagination = { style: 'page', itemsKey: 'items', totalKey: 'total', maxPageSize: 10, pageParam: 'page', sizeParam: 'size', idField: 'id' };
	const all = records(25);
	/** The server pages in its own size, at most `cap`. */
	const capped = (cap: number) => (paging: Record<string, unknown>) => {
		const size = Math.min(Number(paging.size), cap);
		const page = Number(paging.page);
		return { items: all.slice(page * size, page * size + size), total: all.length };
	};

	it('a server with a smaller largest page: known from the first page, the read goes on in its size', async () => {
		const { fetch, sent } = server(capped(4));
		expect(ids(await paginate(p, fetch, Infinity))).toEqual(ids(all));
		expect(sent.map((s) => [s.page, s.size])).toEqual([[0, 10], [1, 4], [2, 4], [3, 4], [4, 4], [5, 4], [6, 4]]);
	});

	it('a later page shorter than asked while the total says more is an error (page numbers would skip records)', async () => {
		const { fetch } = server((paging, n) => (n === 1 ? { items: all.slice(10, 14), total: all.length } : capped(10)(paging)));
		expect((await failure(paginate(p, fetch, Infinity))).message).toBe(
			'Lofty sent 4 of 10 records on page 2 while saying more follow (after 14 records): reading on by page number would skip records',
		);
	});

	it('a repeated page stops the read', async () => {
		const { fetch } = server((paging) => capped(10)({ ...paging, page: 0 }));
		await failure(paginate(p, fetch, Infinity));
	});
});

describe('keyset style', () => {
	const p: Pagination = { style: 'keyset', itemsKey: 'items', idField: 'id', maxPageSize: 10 };
	const all = records(25);
	const after = (inclusive: boolean) => (paging: Record<string, unknown>) => {
		const at = paging.currentId === undefined ? 0 : all.findIndex((r) => r.id === paging.currentId) + (inclusive ? 0 : 1);
		return { items: all.slice(at, at + Number(paging.limit)) };
	};

	it.each([false, true])('inclusive %s: every record once, the end found', async (inclusive) => {
		const { fetch } = server(after(inclusive));
		expect(ids(await paginate(p, fetch, Infinity))).toEqual(ids(all));
	});

	it.each([false, true])('inclusive %s: a Limit gets exactly that many, each once', async (inclusive) => {
		const { fetch, sent } = server(after(inclusive));
		expect(ids(await paginate(p, fetch, 21))).toEqual(ids(all.slice(0, 21)));
		// after the first page at least 2 (a page of only the currentId record then means the end), one more once inclusive
		expect(sent.map((s) => s.limit)).toEqual(inclusive ? [10, 10, 3] : [10, 10, 2]);
	});

	it('a currentId that does not advance (the same page again) stops the read', async () => {
		const { fetch } = server((paging) => after(false)({ ...paging, currentId: undefined }));
		expect((await failure(paginate(p, fetch, Infinity))).message).toMatch(/already sent/);
	});

	it('a page whose last record is the one it started from stops the read instead of asking again', async () => {
		const { fetch, sent } = server((paging, n) => (n === 0 ? after(false)(paging) : { items: [...records(9, 11), { id: '10' }] }));
		await failure(paginate(p, fetch, Infinity));
		expect(sent).toHaveLength(2);
	});

	it('records without the id field cannot be paged: an error, not a silent end', async () => {
		const { fetch } = server(() => ({ items: Array.from({ length: 10 }, (_, i) => ({ name: `n${i}` })) }));
		expect((await failure(paginate(p, fetch, Infinity))).message).toMatch(/carry no "id" to ask for the next page by/);
	});
});

describe('cursor style', () => {
	const p: Pagination = { style: 'cursor', itemsKey: 'items', maxPageSize: 10 };
	const all = records(25);
	const byCursor = (paging: Record<string, unknown>) => {
		const at = Number(paging.cursor ?? 0);
		const next = at + 10 < all.length ? String(at + 10) : null;
		return { items: all.slice(at, at + 10), nextCursor: next };
	};

	it('reads every record once and stops at a null cursor', async () => {
		const { fetch } = server(byCursor);
		expect(ids(await paginate(p, fetch, Infinity))).toEqual(ids(all));
	});

	it('a cursor that repeats stops the read (it used to loop until memory ran out)', async () => {
		const { fetch, sent } = server((paging, n) => ({ ...byCursor(paging), nextCursor: n === 0 ? 'A' : 'A' }));
		expect((await failure(paginate(p, fetch, Infinity))).message).toMatch(/page cursor it had sent before \(after \d+ records\)/);
		expect(sent.length).toBeLessThanOrEqual(2);
	});

	it('a cursor cycle (A, B, A) stops the read', async () => {
		const cycle = ['A', 'B', 'A'];
		const { fetch, sent } = server((_paging, n) => ({ items: records(10, n * 10 + 1), nextCursor: cycle[n] }));
		await failure(paginate(p, fetch, Infinity));
		expect(sent).toHaveLength(3);
	});

	it(`empty pages with ever new cursors stop after ${MAX_EMPTY_PAGES} in a row; one empty last page is normal`, async () => {
		const { fetch, sent } = server((_paging, n) => ({ items: [], nextCursor: `c${n}` }));
		expect((await failure(paginate(p, fetch, Infinity))).message).toMatch(`${MAX_EMPTY_PAGES} empty pages in a row`);
		expect(sent).toHaveLength(MAX_EMPTY_PAGES);
		const last = server((paging, n) => (n < 3 ? { items: records(10, n * 10 + 1), nextCursor: String(n + 1) } : { items: [], nextCursor: null }));
		expect(await paginate(p, last.fetch, Infinity)).toHaveLength(30);
	});
});

describe('records under an untyped key (itemsIn)', () => {
	const p = { itemsKey: 'listIng.listings', itemsIn: 'listIng' };

	it('reads `listings`, else the array there, else the one array inside', () => {
		expect(pageItems(p, { listIng: { listings: records(2) } })).toHaveLength(2);
		expect(pageItems(p, { listIng: records(3) })).toHaveLength(3);
		expect(pageItems(p, { listIng: { data: records(4), total: 4 } })).toHaveLength(4);
		expect(pageItems(p, { listIng: {} })).toEqual([]);
		expect(pageItems(p, { listIng: { listings: [] , data: records(1) } })).toEqual([]);
	});

	it('several lists and none at the documented key: an error naming them', () => {
		expect(() => pageItems(p, { listIng: { a: records(1), b: records(1) } })).toThrow(/several lists under listIng \(a, b\)/);
	});
});

describe('PageGuard', () => {
	it('is usable on its own (the parallel reader checks its pages with it)', () => {
		const guard = new PageGuard('id');
		expect(guard.fresh(records(3))).toHaveLength(3);
		expect(guard.fresh(records(3, 3))).toEqual([{ id: '4' }, { id: '5' }]);
		expect(guard.count).toBe(5);
		expect(() => guard.fresh(records(2, 1))).toThrow(PagingError);
		guard.advance('x');
		expect(() => guard.advance('x')).toThrow(/sent before/);
		expect(() => guard.ended(5, 5)).not.toThrow();
	});
});
