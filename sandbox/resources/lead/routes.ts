/** Lead CRUD and search: GET/POST /v1.0/leads, GET/PUT/DELETE /v1.0/leads/{leadId}. */
import { emitLead, emitStageChange } from '../webhook/delivery/emit';
import { invalidParam, limitNotValid, missingParam } from '../../core/errors';
import { compileLeadQuery, decodeCursor, encodeCursor, filterQueryString } from './search';
import {
	applyEditTags,
	applyPlainFields,
	checkAssignee,
	checkInquiry,
	checkProperty,
	readId,
	readOwnership,
	resolveProperty,
	tagNames,
	writeInquiry,
	writeProperty,
} from './write';
import { asObject, boolParam, has, intParam, optString } from '../../core/params';
import { readingsOf } from '../../core/readings';
import type { Route } from '../../core/router';
import { LEAD_FIELDS, leadView } from './views';
import { accessibleLead } from './access';
import { persisting, requireReadable, searchable } from './persistence';
import { checkScroll } from './scrolls';

export const leadRoutes: Route[] = [
	{
		method: 'GET',
		pattern: '/v1.0/leads',
		handler: ({ query, user, store, now }) => {
			// The leadPaging reading `scrollOnly` (a public client's report): offset is ignored, at most 25 a page.
			const scrollOnly = readingsOf(store).get('leadPaging') === 'scrollOnly';
			let limit = intParam(query, 'limit', { def: 25, min: 1, max: 100, outOfRange: (raw) => limitNotValid(1, 100, raw) });
			let offset = intParam(query, 'offset', { def: 0 });
			if (offset < 0 || scrollOnly) offset = 0;
			if (scrollOnly) limit = Math.min(limit, 25);
			const scrollRaw = has(query, 'scrollId') ? query.get('scrollId')!.trim() : undefined;
			const cursor = scrollRaw !== undefined ? decodeCursor(scrollRaw) : undefined;
			if (cursor) checkScroll(store, scrollRaw!, cursor.t, now);
			const filterQuery = cursor ? new URLSearchParams(cursor.q) : query;
			const { matches, keyOf, compareKeys } = compileLeadQuery(filterQuery, store, user);

			const all = [...store.leads.values()].filter((l) => matches(l) && searchable(store, l, now)).sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
			let start = offset;
			if (cursor) {
				const last: [number, bigint] = [cursor.k[0], BigInt(cursor.k[1])];
				start = all.findIndex((l) => compareKeys(keyOf(l), last) > 0);
				if (start < 0) start = all.length;
			}
			const page = all.slice(start, start + limit);
			const tail = page[page.length - 1];
			const nextCursor = tail
				? encodeCursor({ q: filterQueryString(filterQuery), k: [keyOf(tail)[0], tail.leadId.toString()], n: start + page.length, t: now })
				: encodeCursor({ ...(cursor ?? { q: filterQueryString(filterQuery), k: [0, '0'], n: all.length }), t: now });

			const fields = has(query, 'returnFields')
				? query.get('returnFields')!.split(',').map((s) => s.trim()).filter((f) => LEAD_FIELDS.includes(f))
				: undefined;
			const leads = page.map((l) => {
				const view = leadView(l, store);
				if (!fields) return view;
				const picked: Record<string, unknown> = { leadId: view.leadId };
				for (const f of fields) picked[f] = view[f];
				return picked;
			});
			return {
				body: { _metadata: { collection: 'leads', limit, offset: start, total: all.length, scrollId: nextCursor }, leads },
			};
		},
	},
	{
		method: 'POST',
		pattern: '/v1.0/leads',
		body: 'json',
		handler: ({ body, user, store, now }) => {
			const o = asObject(body);
			const firstName = optString(o, 'firstName');
			if (firstName === undefined || firstName.trim() === '') throw invalidParam("'firstName' is required");
			const property = o.property !== undefined && o.property !== null ? checkProperty(o.property, store) : undefined;
			const inquiry = o.inquiry !== undefined && o.inquiry !== null ? checkInquiry(o.inquiry, store) : undefined;
			const assignee = checkAssignee(store, readId(o, 'assignedUserId'), user.teamId);
			const ownership = readOwnership(o, user);
			const tags = [...(tagNames(store, o, 'tags', 'LeadRequest') ?? []), ...(tagNames(store, o, 'tagsAdd', 'LeadRequest') ?? [])];
			const stageName = optString(o, 'stage');
			if (stageName !== undefined && stageName.length >= 20) throw invalidParam("'stage' must be less than 20 characters");

			const lead = store.addLead({ firstName: firstName.slice(0, 30), ownerUserId: user.userId, teamId: user.teamId, createTime: now });
			try {
				applyPlainFields(lead, o, now);
			} catch (e) {
				store.leads.delete(lead.leadId.toString());
				throw e;
			}
			if (ownership) {
				lead.ownershipScope = ownership.scope;
				lead.ownershipId = ownership.id;
			}
			lead.tags = [...new Set(tags)].map((n) => store.makeTag(n, user.userId, now));
			if (property) writeProperty(store, lead, property, resolveProperty(lead, property));
			if (inquiry) writeInquiry(lead, inquiry, now);
			if (stageName !== undefined && stageName.trim() !== '') {
				store.changeStage(lead, stageName, user, now);
			}
			const agent = assignee ?? store.routeAgent(user.teamId);
			if (agent) store.assignAgent(lead, agent, user, assignee === undefined, now);
			emitLead(store, 'created', lead, now);
			persisting(store, lead, now);
			return { body: { leadId: lead.leadId } };
		},
	},
	{
		method: 'GET',
		pattern: '/v1.0/leads/{leadId}',
		handler: (ctx) => {
			const lead = requireReadable(ctx.store, accessibleLead(ctx, { withTrash: boolParam(ctx.query, 'withTrash') ?? false }), ctx.now);
			return { body: { lead: leadView(lead, ctx.store) } };
		},
	},
	{
		method: 'PUT',
		pattern: '/v1.0/leads/{leadId}',
		body: 'json',
		handler: (ctx) => {
			const { body, user, store, now } = ctx;
			const lead = accessibleLead(ctx);
			const o = asObject(body);
			// validate everything that can fail before changing anything
			const property = o.property !== undefined && o.property !== null ? checkProperty(o.property, store) : undefined;
			const propertyTarget = property ? resolveProperty(lead, property) : undefined;
			const inquiry = o.inquiry !== undefined && o.inquiry !== null ? checkInquiry(o.inquiry, store) : undefined;
			const assignee = checkAssignee(store, readId(o, 'assignedUserId'), lead.teamId);
			const ownership = readOwnership(o, user);
			const stageName = optString(o, 'stage');
			if (stageName !== undefined && stageName.length >= 20) throw invalidParam("'stage' must be less than 20 characters");
			const draft = structuredClone(lead);
			applyPlainFields(draft, o, now);
			applyEditTags(store, draft, o, user, now);

			Object.assign(lead, draft);
			if (ownership) {
				lead.ownershipScope = ownership.scope;
				lead.ownershipId = ownership.id;
			}
			// the draft replaced lead.properties with copies: find the target again by id
			if (property) writeProperty(store, lead, property, propertyTarget && lead.properties.find((x) => x.id === propertyTarget.id));
			if (inquiry) writeInquiry(lead, inquiry, now);
			const oldStage = lead.stage;
			if (stageName !== undefined && stageName.trim() !== '') store.changeStage(lead, stageName, user, now);
			if (assignee) store.assignAgent(lead, assignee, user, false, now);
			lead.lastUpdateTime = now;
			emitLead(store, 'updated', lead, now);
			emitStageChange(store, lead, oldStage, lead.stage, now);
			return { body: { leadId: lead.leadId } };
		},
	},
	{
		method: 'DELETE',
		pattern: '/v1.0/leads/{leadId}',
		handler: (ctx) => {
			if (!has(ctx.query, 'reason')) throw missingParam('reason');
			const lead = accessibleLead(ctx);
			lead.deletedAt = ctx.now;
			lead.deleteReason = ctx.query.get('reason');
			emitLead(ctx.store, 'deleted', lead, ctx.now);
			return { body: { deleted: true, leadId: lead.leadId.toString() } };
		},
	},
];
