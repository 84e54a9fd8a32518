/** GET /v1.0/systemLogs: the system-event timeline of a lead. */
import { ApiError, Codes, invalidParam } from '../../core/errors';
import { has, int64Param, intParam } from '../../core/params';
import type { Route } from '../../core/router';
import { TIMELINE_TYPES } from '../../core/timeline';
import { isoUtc } from '../../core/time';
import type { SystemLogEntry } from '../../core/types';

/** startTime / endTime: epoch milliseconds, -1 (default) = unbounded. */
/** SystemLogResponse */
function systemLogView(e: SystemLogEntry): Record<string, unknown> {
	return {
		id: e.id.toString(),
		leadId: e.leadId,
		agentId: e.agentId,
		timelineType: e.timelineType,
		timelineTypeDesc: TIMELINE_TYPES[e.timelineType]?.desc ?? 'Unknown',
		timelineTime: isoUtc(e.timelineTime),
		createTime: isoUtc(e.createTime),
		updateTime: isoUtc(e.updateTime),
		fromId: e.fromId,
		fromType: e.fromType,
		toId: e.toId,
		toType: e.toType,
		fromFirstName: e.fromFirstName,
		fromLastName: e.fromLastName,
		toFirstName: e.toFirstName,
		toLastName: e.toLastName,
		refId: e.refId,
		sticky: e.sticky,
		canSticky: e.canSticky,
		content: e.content,
	};
}

function timeBound(q: URLSearchParams, name: string): number {
	if (!has(q, name)) return -1;
	const raw = q.get(name)!.trim();
	if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
		throw invalidParam(`Unparsable timestamp '${raw}' for '${name}': expected epoch milliseconds (UTC) as an integer, e.g. 1718000000000, or -1 for no bound`);
	}
	const n = Number(raw);
	if (n < -1) throw invalidParam(`'${name}' must be epoch milliseconds >= 0 or -1, got '${raw}'`);
	return n;
}

export const systemLogRoutes: Route[] = [
	{
		method: 'GET',
		pattern: '/v1.0/systemLogs',
		plainStringErrors: true,
		handler: ({ query, user, store }) => {
			const leadId = int64Param(query, 'leadId', true)!;
			if (leadId < 1n) throw invalidParam(`'leadId' must be at least 1, got '${query.get('leadId')}'`);
			const startTime = timeBound(query, 'startTime');
			const endTime = timeBound(query, 'endTime');
			const pageNumber = intParam(query, 'pageNumber', { def: 0, min: 0 });
			const pageSize = intParam(query, 'pageSize', { def: 100, min: 1, max: 1000 });

			const lead = store.getLead(leadId);
			if (!lead || !store.canAccess(user.userId, lead)) {
				throw new ApiError(403, Codes.PERMISSION_DENIED, `User ${user.userId} is neither the owner nor a shared agent of lead ${leadId}`);
			}
			const entries = store
				.systemLogsOf(leadId)
				.filter((e) => (startTime === -1 || e.timelineTime >= startTime) && (endTime === -1 || e.timelineTime <= endTime));
			const from = pageNumber * pageSize;
			const page = entries.slice(from, from + pageSize);
			return { body: { hasMore: from + pageSize < entries.length ? 1 : 0, timeLines: page.map(systemLogView) } };
		},
	},
];
