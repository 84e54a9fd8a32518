/** POST /v2.0/listings/search: by scope and filter conditions; unknown keys match nothing, as live. */
import { ApiError, invalidParam } from '../../core/errors';
import { toInt64 } from '../../core/json';
import { asObject } from '../../core/params';
import type { Ctx } from '../../core/router';
import { CONDITION_KEYS, type ListingRecord, QUERY_KEYS, SORT_FIELDS, V2_PAGE_SIZE_MAX, listingState } from './state';
import { v2View } from './views';

const DAY = 86_400_000;

/** "min,max" with either side optional; undefined when malformed. */
function parseRange(v: unknown): [number | undefined, number | undefined] | undefined {
	if (typeof v !== 'string' && typeof v !== 'number') return undefined;
	const text = String(v).trim();
	const m = /^(-?\d+(?:\.\d+)?)?\s*(?:,\s*(-?\d+(?:\.\d+)?)?)?$/.exec(text);
	if (!m || text === '') return undefined;
	return [m[1] === undefined ? undefined : Number(m[1]), m[2] === undefined ? undefined : Number(m[2])];
}

const inRange = (value: number, [min, max]: [number | undefined, number | undefined]): boolean =>
	(min === undefined || value >= min) && (max === undefined || value <= max);

function labels(v: unknown, name: string): string[] {
	const list = Array.isArray(v) ? v : [v];
	if (list.some((x) => typeof x !== 'string')) throw invalidParam(`filter condition '${name}' takes labels (strings)`);
	return (list as string[]).map((s) => s.trim().toLowerCase());
}

function matchConditions(conditions: Record<string, unknown>, now: number): ((l: ListingRecord) => boolean) | 'none' {
	const tests: Array<(l: ListingRecord) => boolean> = [];
	for (const [key, value] of Object.entries(conditions)) {
		if (!CONDITION_KEYS.includes(key)) return 'none';
		if (value === null || value === undefined || value === '') continue;
		switch (key) {
			case 'location': {
				const loc = asObject(value, "filter condition 'location'");
				for (const [lk, lv] of Object.entries(loc)) {
					if (lk !== 'city') return 'none';
					const cities = labels(lv, 'location.city');
					tests.push((l) => cities.includes(l.city.toLowerCase()));
				}
				break;
			}
			case 'propertyType': {
				const wanted = labels(value, key);
				tests.push((l) => l.propertyTypes.some((t) => wanted.includes(t.toLowerCase())) || wanted.includes(l.propertyTypePrimary.toLowerCase()));
				break;
			}
			case 'purchaseType': {
				const wanted = labels(value, key);
				tests.push((l) => wanted.includes(l.purchaseType.toLowerCase()));
				break;
			}
			default: {
				const range = parseRange(value);
				if (!range) throw invalidParam(`filter condition '${key}' must be a range "min,max" (either side may be empty), got ${JSON.stringify(value)}`);
				if (key === 'price') tests.push((l) => inRange(l.price, range));
				if (key === 'beds') tests.push((l) => inRange(l.beds, range));
				if (key === 'baths') tests.push((l) => inRange(l.baths, range));
				if (key === 'sqFt') tests.push((l) => inRange(l.sqft, range));
				if (key === 'daysOnSite') tests.push((l) => inRange(Math.floor((now - l.listDate) / DAY), range));
			}
		}
	}
	return (l) => tests.every((t) => t(l));
}

const SORTERS: Record<string, (a: ListingRecord, b: ListingRecord) => number> = {
	MLS_LIST_DATE_L_DESC: (a, b) => b.listDate - a.listDate,
	PRICE_DESC: (a, b) => b.price - a.price,
	PRICE_ASC: (a, b) => a.price - b.price,
	BEDROOMS_DESC: (a, b) => b.beds - a.beds,
	BATHS_DESC: (a, b) => b.baths - a.baths,
	BUILT_YEAR_DESC: (a, b) => b.builtYear - a.builtYear,
	SQFT_DESC: (a, b) => b.sqft - a.sqft,
};

function intOf(o: Record<string, unknown>, name: string, def: number): number {
	const v = toInt64(o[name]);
	if (v === undefined) return def;
	if (v === null || v > 2_147_483_647n || v < -2_147_483_648n) throw invalidParam(`'${name}' must be an integer`);
	return Number(v);
}

export function searchV2(ctx: Ctx) {
	const { store, user } = ctx;
	const o = asObject(ctx.body);
	const pageNum = intOf(o, 'pageNum', 1);
	if (pageNum < 1) throw invalidParam(`'pageNum' starts from 1, got ${pageNum}`);
	const pageSize = intOf(o, 'pageSize', 25);
	if (pageSize < 1 || pageSize > V2_PAGE_SIZE_MAX) {
		throw new ApiError(400, 'LISTING_LIMIT_NOT_VALID', `pageSize must be between 1 and ${V2_PAGE_SIZE_MAX}, got ${pageSize}`);
	}
	const scope = o.searchScope ?? 'all';
	if (scope !== 'my' && scope !== 'office' && scope !== 'all') throw invalidParam(`'searchScope' must be my, office or all, got ${JSON.stringify(scope)}`);
	const sortFields = o.sortFields ?? [];
	if (!Array.isArray(sortFields) || sortFields.some((s) => typeof s !== 'string' || !SORT_FIELDS.includes(s))) {
		throw invalidParam(`'sortFields' must be values of ${SORT_FIELDS.join(', ')}`);
	}
	const returnFields = o.returnFields ?? [];
	if (!Array.isArray(returnFields) || returnFields.some((s) => typeof s !== 'string')) throw invalidParam("'returnFields' must be an array of strings");
	const sold = o.soldFlag === true || o.soldFlag === 'true';
	const conditions = o.filterConditions === undefined || o.filterConditions === null ? {} : asObject(o.filterConditions, "'filterConditions'");

	const empty = () => ({
		body: { listing: [], metadata: { collection: 'listing', pageSize, pageNum, totalCount: 0, totalPage: 0, hasMore: false } },
	});
	// The live API ignores what it does not know by matching nothing (api-notes.md).
	if (Object.keys(o).some((k) => !QUERY_KEYS.includes(k))) return empty();
	const test = matchConditions(conditions, ctx.now);
	if (test === 'none') return empty();

	let pool = listingState(store).listings.filter((l) => (l.teamId === null || l.teamId === user.teamId) && l.status === (sold ? 'Sold' : 'Active'));
	if (scope === 'my') pool = pool.filter((l) => l.agentUserId === user.userId);
	if (scope === 'office') pool = pool.filter((l) => l.teamId === user.teamId && l.officeId === user.groupId);
	pool = pool.filter(test);
	const sorter = (sortFields as string[]).map((s) => SORTERS[s]).find(Boolean);
	if (sorter) pool = [...pool].sort(sorter);
	const from = (pageNum - 1) * pageSize;
	const page = pool.slice(from, from + pageSize).map((l) => {
		const full = v2View(l);
		if (returnFields.length === 0) return full;
		const out: Record<string, unknown> = { listingId: full.listingId };
		for (const f of returnFields as string[]) if (f in full) out[f] = full[f];
		return out;
	});
	const totalPage = Math.ceil(pool.length / pageSize);
	return {
		body: {
			listing: page,
			metadata: { collection: 'listing', pageSize, pageNum, totalCount: pool.length, totalPage, hasMore: pageNum < totalPage },
		},
	};
}
