/**
 * Listings:
 * - GET  /v1.0/listing               search active and sold listings of an agent, an office or by IDs
 *                                     (ListingSearchResponse: `listIng`, `soldListing`, `_listingMetadata`);
 * - GET  /v1.0/getPublishedListings   the team's published listings as an XML feed (type LuxVT, AptCom, AllOnMarket);
 * - POST /v2.0/listings/search        search by scope and filter conditions (ListingV2SearchResponse).
 *
 * Rules from the OpenAPI / api-spec.md / api-notes.md:
 * - v1: limit in (0, 1000], default 25, else 400 LISTING_LIMIT_NOT_VALID; listingId together with
 *   soldListingId is an error envelope on HTTP 200; one of agentListings, officeListings, listingId,
 *   soldListingId, mlsListingIds, buildingName, buildingAddress must name the target; a userId other
 *   than the caller needs MANAGE_TEAM_AGENT (owner/admin here), else 403 NO_ACCESS_WEBSITE; an unknown
 *   userId is 404 USER_NOT_EXIST; a failed alert-condition lookup is 404 ALERT_CONDITION_FEGIN_FAIL.
 *   Personal API keys cannot read listing data (live report): 403 NO_ACCESS_WEBSITE; OAuth tokens can.
 * - XML feed: needs `Accept: application/xml`, else 406; the answer is `application/xml`.
 * - v2: pageNum from 1 (default 1), pageSize 1..100 (default 25, else 400 LISTING_LIMIT_NOT_VALID);
 *   a body key that is not one of ListingQueryRequest's (or a filter condition that is not known)
 *   is answered 200 with zero results, as the live API does.
 *
 * Where the spec is silent: v1 `listIng` / `soldListing` are objects `{listings: [...]}` (`{data: [...]}` under
 * the listingShape reading `openapi`, for the OpenAPI's untyped object); the page
 * keys are opaque strings (null on the last page); the target criteria combine with AND (agent and
 * office with OR); a missing target, a bad page key or a malformed range is 400 INVALID_PARAMETER;
 * `showCondition=true` adds the agent's listing-alert condition as `_listingMetadata.condition`
 * (set `listingState(store).conditionServiceDown` to make that lookup fail). Feed types: AllOnMarket
 * is every published active listing of the team, LuxVT those priced 1,000,000 or more, AptCom rentals.
 */
import type { Route } from '../../core/router';
import { publishedFeed } from './feed';
import { searchV1 } from './searchV1';
import { searchV2 } from './searchV2';

export const listingRoutes: Route[] = [
	{ method: 'GET', pattern: '/v1.0/listing', handler: searchV1 },
	{ method: 'GET', pattern: '/v1.0/getPublishedListings', handler: publishedFeed },
	{ method: 'POST', pattern: '/v2.0/listings/search', body: 'json', handler: searchV2 },
];
