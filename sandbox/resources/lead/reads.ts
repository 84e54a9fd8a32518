/**
 * Read-only lead sub-resources: v1 and v2 activities, saved searches.
 */
import { ApiError, Codes, invalidParam, leadNotExist, limitNotValid } from '../../core/errors';
import { has, int64Param, intParam, boolParam, listParam, pathId } from '../../core/params';
import { readingsOf } from '../../core/readings';
import type { Route } from '../../core/router';
import { isValidTimeZone } from '../../core/time';
import type { SavedSearchSource } from '../../core/types';
import { activityV1View, activityV2View, isActiveSearch, savedSearchView } from './views';
import { accessibleLead } from './access';

const V1_PAGE_SIZE = 100;
const SOURCES: SavedSearchSource[] = ['AGENT_CREATED', 'LEAD_CREATED', 'SYSTEM_CREATED'];

export const leadReadRoutes: Route[] = [
	{
		method: 'GET',
		pattern: '/v1.0/leads/{leadId}/activities',
		handler: (ctx) => {
			const lead = accessibleLead(ctx);
			const curPage = intParam(ctx.query, 'curPage', { def: 0, min: 0 });
			const list = ctx.store.activitiesOf(lead.leadId);
			return { body: list.slice(curPage * V1_PAGE_SIZE, (curPage + 1) * V1_PAGE_SIZE).map(activityV1View) };
		},
	},
	{
		method: 'GET',
		pattern: '/v2.0/leads/{leadId}/activities',
		handler: (ctx) => {
			const lead = accessibleLead(ctx);
			const q = ctx.query;
			const limit = intParam(q, 'limit', { def: 10, min: 1, max: 1000, outOfRange: (raw) => limitNotValid(1, 1000, raw) });
			const offset = intParam(q, 'offset', { def: 0, min: 0 });
			const currentId = int64Param(q, 'currentId', false) ?? 0n;
			const tz = has(q, 'timeZoneCode') ? q.get('timeZoneCode')!.trim() : ctx.user.timeZoneId;
			if (!isValidTimeZone(tz)) throw invalidParam(`'timeZoneCode' must be an IANA time zone such as America/Los_Angeles, got '${tz}'`);
			const all = ctx.store.activitiesV2Of(lead.leadId);
			let start = offset;
			if (currentId > 0n) {
				const at = all.findIndex((a) => a.id === currentId);
				// after that activity (spec), or from it (the currentId reading `inclusive`)
				start = at >= 0 ? at + (readingsOf(ctx.store).get('currentId') === 'inclusive' ? 0 : 1) : all.findIndex((a) => a.id > currentId);
				if (start < 0) start = all.length;
			}
			return { body: { activities: all.slice(start, start + limit).map((a) => activityV2View(a, tz)) } };
		},
	},
	{
		method: 'GET',
		pattern: '/v1.0/leads/{leadId}/savedSearches',
		handler: (ctx) => {
			const id = pathId(ctx.params.leadId, 'leadId');
			const lead = ctx.store.getLead(id);
			if (!lead || lead.deletedAt !== null) throw leadNotExist(id.toString());
			if (!ctx.store.canAccess(ctx.user.userId, lead)) {
				throw new ApiError(403, Codes.PERMISSION_DENIED, `User ${ctx.user.userId} cannot access lead ${id}`);
			}
			const sources = listParam(ctx.query, 'source')?.map((s) => s.toUpperCase());
			for (const s of sources ?? []) {
				if (!SOURCES.includes(s as SavedSearchSource)) throw invalidParam(`'source' values must be among ${SOURCES.join(', ')}; got '${s}'`);
			}
			const includeInactive = boolParam(ctx.query, 'includeInactive') ?? false;
			const list = ctx.store
				.savedSearchesOf(id)
				.filter((s) => (!sources || sources.includes(s.source)) && (includeInactive || isActiveSearch(s)))
				.sort((a, b) => b.updateTime - a.updateTime || (b.id > a.id ? 1 : -1));
			return { body: list.map(savedSearchView) };
		},
	},
];
