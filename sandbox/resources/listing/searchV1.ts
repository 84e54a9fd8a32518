/** GET /v1.0/listing: active and sold listings of an agent, an office or by IDs, paged by opaque keys. */
import { ApiError, Codes, invalidParam, userNotExist } from '../../core/errors';
import { boolParam, has, int64Param, listParam } from '../../core/params';
import { readingsOf } from '../../core/readings';
import type { Ctx } from '../../core/router';
import type { User } from '../../core/types';
import { V1_LIMIT_MAX, listingState } from './state';
import { v1View } from './views';

const canManageAgents = (user: User): boolean => user.isAdmin || user.roleName === 'Owner' || user.roleName === 'Admin';

function pageKey(kind: 'a' | 's', offset: number): string {
	return Buffer.from(`${kind}:${offset}`).toString('base64url');
}

function readPageKey(q: URLSearchParams, name: string, kind: 'a' | 's'): number {
	if (!has(q, name)) return 0;
	const text = Buffer.from(q.get(name)!.trim(), 'base64url').toString('utf8');
	const m = new RegExp(`^${kind}:(\\d{1,9})$`).exec(text);
	if (!m) throw invalidParam(`'${name}' is not a page key returned by this search`);
	return Number(m[1]);
}

export function searchV1(ctx: Ctx) {
	const { query: q, store, user, caller } = ctx;
	const state = listingState(store);
	let limit = 25;
	if (has(q, 'limit')) {
		const raw = q.get('limit')!.trim();
		const n = /^-?\d+$/.test(raw) ? Number(raw) : NaN;
		if (!Number.isSafeInteger(n) || n <= 0 || n > V1_LIMIT_MAX) {
			throw new ApiError(400, 'LISTING_LIMIT_NOT_VALID', `limit must be greater than 0 and at most ${V1_LIMIT_MAX}, got '${raw}'`);
		}
		limit = n;
	}
	const listingId = (q.get('listingId') ?? '').trim();
	const soldListingId = (q.get('soldListingId') ?? '').trim();
	if (listingId && soldListingId) {
		return { body: { code: Codes.INVALID_PARAMETER, message: 'listingId and soldListingId cannot be supplied together' } };
	}
	const agentListings = boolParam(q, 'agentListings') ?? false;
	const officeListings = boolParam(q, 'officeListings') ?? false;
	const showCondition = boolParam(q, 'showCondition') ?? false;
	const mlsIds = listParam(q, 'mlsListingIds');
	const buildingName = (q.get('buildingName') ?? '').trim().toLowerCase();
	const buildingAddress = (q.get('buildingAddress') ?? '').trim().toLowerCase();
	const street = (q.get('street') ?? '').trim().toLowerCase();
	if (!agentListings && !officeListings && !listingId && !soldListingId && !mlsIds && !buildingName && !buildingAddress) {
		throw invalidParam('name what to search: agentListings, officeListings, listingId, soldListingId, mlsListingIds, buildingName or buildingAddress');
	}
	const activeFrom = readPageKey(q, 'nextPageKey', 'a');
	const soldFrom = readPageKey(q, 'soldNextPageKey', 's');

	const userId = int64Param(q, 'userId', false) ?? 0n;
	let target = user;
	if (userId !== 0n && userId !== user.userId) {
		const found = store.getUser(userId);
		if (!found || found.teamId !== user.teamId) throw userNotExist(userId.toString());
		target = found;
	}
	if (caller?.scheme === 'token') {
		throw new ApiError(403, 'NO_ACCESS_WEBSITE', 'No access to the listing data of this user: listing search is not available to personal API keys');
	}
	if (target !== user && !canManageAgents(user)) {
		throw new ApiError(403, 'NO_ACCESS_WEBSITE', `No access to the listing data of user ${target.userId}`);
	}
	let condition: Record<string, unknown> | undefined;
	if (showCondition) {
		if (state.conditionServiceDown) throw new ApiError(404, 'ALERT_CONDITION_FEGIN_FAIL', 'Listing alert condition lookup failed');
		condition = { userId: target.userId, agentListings, officeListings, listingId, soldListingId, mlsListingIds: mlsIds ?? [], street, buildingName, buildingAddress };
	}

	let pool = state.listings.filter((l) => l.teamId === null || l.teamId === user.teamId);
	if (agentListings || officeListings) {
		pool = pool.filter((l) => (agentListings && l.agentUserId === target.userId) || (officeListings && l.officeId !== null && l.officeId === target.groupId));
	}
	if (mlsIds) pool = pool.filter((l) => mlsIds.includes(l.mlsListingId));
	if (buildingName) pool = pool.filter((l) => (l.buildingName ?? '').toLowerCase().includes(buildingName));
	if (buildingAddress) pool = pool.filter((l) => l.street.toLowerCase().includes(buildingAddress));
	if (street) pool = pool.filter((l) => l.street.toLowerCase().includes(street));
	let active = pool.filter((l) => l.status === 'Active');
	let sold = pool.filter((l) => l.status === 'Sold');
	if (listingId) {
		const ids = listingId.split(',').map((s) => s.trim());
		active = active.filter((l) => ids.includes(l.listingId));
		sold = [];
	}
	if (soldListingId) {
		const ids = soldListingId.split(',').map((s) => s.trim());
		sold = sold.filter((l) => ids.includes(l.listingId));
		active = [];
	}
	const activePage = active.slice(activeFrom, activeFrom + limit);
	const soldPage = sold.slice(soldFrom, soldFrom + limit);
	// listingShape reading: `{listings: [...]}`, or (the OpenAPI's untyped object) another key of a listing hub payload
	const key = readingsOf(store).get('listingShape') === 'openapi' ? 'data' : 'listings';
	return {
		body: {
			listIng: { [key]: activePage.map(v1View) },
			soldListing: { [key]: soldPage.map(v1View) },
			_listingMetadata: {
				collection: 'listing',
				limit,
				total: active.length + sold.length,
				activeTotal: active.length,
				soldTotal: sold.length,
				nextPageKey: activeFrom + limit < active.length ? pageKey('a', activeFrom + limit) : null,
				soldNextPageKey: soldFrom + limit < sold.length ? pageKey('s', soldFrom + limit) : null,
				...(condition ? { condition } : {}),
			},
		},
	};
}
