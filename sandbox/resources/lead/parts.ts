/**
 * Writes to parts of a lead: inquiry, property, assignment, activity;
 * and the routing preview POST /v1.0/leads/assignee.
 */
import { emitLead, emitLeadActivity } from '../webhook/delivery/emit';
import { ApiError, Codes, invalidParam } from '../../core/errors';
import { checkInquiry, checkProperty, resolveProperty, writeInquiry, writeProperty } from './write';
import { asObject, optInt64, optString } from '../../core/params';
import type { Route } from '../../core/router';
import { PARTY, TL } from '../../core/timeline';
import type { User } from '../../core/types';
import { accessibleLead } from './access';

const ROLES = ['Agent', 'Assistant', 'Lender'] as const;
const ROLE_IDS: Record<string, number> = { Agent: 1, Assistant: 2, Lender: 3 };
const ACTIVITY_TYPES = ['Search', 'Browse', 'Favorite', 'Request', 'Submission'];
const SITE_ACTIVITY_TYPES = ['Search', 'Browse', 'Favorite'];

export const leadPartRoutes: Route[] = [
	{
		method: 'POST',
		pattern: '/v1.0/leads/{leadId}/inquiry',
		body: 'json',
		handler: (ctx) => {
			const lead = accessibleLead(ctx);
			const inquiry = checkInquiry(ctx.body, ctx.store);
			writeInquiry(lead, inquiry, ctx.now);
			lead.lastUpdateTime = ctx.now;
			emitLead(ctx.store, 'updated', lead, ctx.now);
			return { body: { leadId: lead.leadId } };
		},
	},
	{
		method: 'POST',
		pattern: '/v1.0/leads/{leadId}/property',
		body: 'json',
		handler: (ctx) => {
			const lead = accessibleLead(ctx);
			const p = checkProperty(ctx.body, ctx.store);
			writeProperty(ctx.store, lead, p, resolveProperty(lead, p));
			lead.lastUpdateTime = ctx.now;
			emitLead(ctx.store, 'updated', lead, ctx.now);
			return { body: { leadId: lead.leadId } };
		},
	},
	{
		method: 'POST',
		pattern: '/v1.0/leads/{leadId}/assignment',
		body: 'json',
		handler: (ctx) => {
			const { store, user, now } = ctx;
			const lead = accessibleLead(ctx);
			if (!Array.isArray(ctx.body) || ctx.body.length === 0) {
				throw invalidParam('body must be a non-empty array of {role, assignee}');
			}
			const plan = ctx.body.map((raw) => {
				const o = asObject(raw, 'assignment entry');
				const role = optString(o, 'role');
				if (!role || !(ROLES as readonly string[]).includes(role)) throw invalidParam(`'role' must be one of Agent, Assistant, Lender; got '${role ?? ''}'`);
				const account = optString(o, 'assignee');
				if (!account || account.trim() === '') throw invalidParam(`'assignee' (account e-mail) is required for role ${role}`);
				const member = store.findUserByEmail(account);
				if (!member || member.teamId !== lead.teamId || member.status !== 1) {
					throw invalidParam(`assignee '${account}' is not an active member of the team`);
				}
				return { role, member };
			});
			for (const { role, member } of plan) {
				if (role === 'Agent') {
					store.assignAgent(lead, member, user, false, now);
					continue;
				}
				if (role === 'Lender') {
					lead.lenderUserId = member.userId;
					store.addSystemLog(lead.leadId, {
						timelineType: TL.LENDER_ASSIGN, timelineTime: now, agentId: user.userId,
						toId: member.userId, toType: PARTY.LENDER, toFirstName: member.firstName, toLastName: member.lastName,
						content: { role: 'Lender' },
					});
				}
				lead.customRoleList = lead.customRoleList.filter((r) => r.role !== role);
				lead.customRoleList.push({ roleId: ROLE_IDS[role], role, assigneeId: member.userId, assignee: member.email });
			}
			lead.lastUpdateTime = now;
			emitLead(store, 'updated', lead, now);
			return { body: { leadId: lead.leadId } };
		},
	},
	{
		method: 'POST',
		pattern: '/v1.0/leads/{leadId}/activity',
		body: 'json',
		handler: (ctx) => {
			const lead = accessibleLead(ctx);
			const o = asObject(ctx.body);
			for (const f of ['type', 'text', 'link', 'picture']) {
				const v = optString(o, f);
				if (v === undefined || v.trim() === '') throw invalidParam(`'${f}' is required`);
			}
			const created = optInt64(o, 'created');
			if (created === undefined) throw invalidParam("'created' (epoch milliseconds) is required");
			const type = o.type as string;
			if (!ACTIVITY_TYPES.includes(type)) throw invalidParam(`'type' must be one of ${ACTIVITY_TYPES.join(', ')}; got '${type}'`);
			const listing = o.listing !== undefined && o.listing !== null ? asObject(o.listing, "'listing'") : null;
			ctx.store.addActivity(lead.leadId, {
				type,
				text: o.text as string,
				link: o.link as string,
				picture: o.picture as string,
				listing,
				created: Number(created),
				scheduledDate: optString(o, 'scheduledDate') ?? null,
				pageName: optString(o, 'pageName') ?? null,
			});
			lead.lastVisit = Math.max(lead.lastVisit ?? 0, Number(created));
			// Lead Activity webhooks (listId 3) cover SiteBrowse, SiteFavorite and SiteSearch.
			if (SITE_ACTIVITY_TYPES.includes(type)) emitLeadActivity(ctx.store, lead, ctx.now);
			return { body: { leadId: lead.leadId } };
		},
	},
	{
		method: 'POST',
		pattern: '/v1.0/leads/assignee',
		body: 'json',
		handler: ({ body, user, store }) => {
			const o = asObject(body);
			const firstName = optString(o, 'firstName');
			if (!firstName || firstName.trim() === '') throw new ApiError(400, Codes.PARAM_FIRST_NAME_FILL, 'PARAM_FIRST_NAME_FILL: firstName is required');
			const email = optString(o, 'email');
			if (!email || email.trim() === '') throw new ApiError(400, Codes.PARAM_EMAIL_MUST_FILL, 'PARAM_EMAIL_MUST_FILL: email is required');
			optString(o, 'phone');
			const existing = [...store.leads.values()].find(
				(l) => l.deletedAt === null && l.teamId === user.teamId && l.emails.some((e) => e.toLowerCase() === email.trim().toLowerCase()),
			);
			const assignees: Array<{ role: string; roleId: number; member: User }> = [];
			if (existing) {
				for (const r of existing.customRoleList) {
					const m = store.getUser(r.assigneeId);
					if (m) assignees.push({ role: r.role, roleId: r.roleId, member: m });
				}
			} else {
				const next = store.routeAgent(user.teamId, false);
				if (next) assignees.push({ role: 'Agent', roleId: 1, member: next });
			}
			return {
				body: [
					{
						leadId: existing?.leadId ?? 0,
						leadUserId: existing?.leadUserId ?? 0,
						firstName,
						lastName: optString(o, 'lastName') ?? '',
						customRoleAssignees: assignees.map(({ role, roleId, member }) => ({
							agentFullName: `${member.firstName} ${member.lastName}`,
							roleId,
							role,
							assigneeId: member.userId,
							assignee: member.email,
							permissionProfileName: member.roleName,
						})),
					},
				],
			};
		},
	},
];
