/**
 * Opportunity, from the OpenAPI (POST /v1.0/agent/send-notification; the spec only names the group).
 *
 * 200 `{status: {code: 0, msg: "success"}, data: <bool>}`. `data` is false, without an error, when the lead
 * does not exist or is not in the caller's team, has no agent-role assignee, or is a lead-pond lead (where the
 * broadcast still happens: a known quirk). An unsupported notificationType is treated like a missing one
 * (false). 400 only comes from the gateway (token, rate limit), 500 is 20005. Not idempotent. Under the
 * statusEnvelope reading `openapi` the endpoint's own failures are 200 with a non-zero `status.code`.
 */
import { invalidParam, missingParam } from '../../core/errors';
import { toInt64 } from '../../core/json';
import { asObject, optString } from '../../core/params';
import { statusEnvelopeFailures } from '../../core/readings';
import type { Route } from '../../core/router';
import { SEED_IDS } from '../../core/seed';
import type { Store } from '../../core/store';

/** notificationType codes (OpenAPI enum). */
export const OPPORTUNITY_TYPES = [9, 10, 11, 27, 46, 47, 48, 50, 52, 65, 66, 89, 136, 137, 138, 139, 140, 141, 162, 164, 165, 166, 167, 168];
/** Types that also send SMS and email: browse, saved listing, saved search, mortgage calculator, return to site. */
export const SMS_EMAIL_TYPES = [11, 48, 138, 9, 52, 136, 27, 140, 89, 166];

export interface SentOpportunity {
	leadId: bigint;
	notificationType: number;
	toUserIds: bigint[];
	channels: Array<'push' | 'sms' | 'email'>;
	description?: string;
	link?: string;
	message?: string;
	time: number;
}

export class OpportunityState {
	sent: SentOpportunity[] = [];
	/** leads placed in a lead pond, with the pond's members */
	pondMembers = new Map<string, bigint[]>();
}

export const opportunityState = (store: Store): OpportunityState => store.ext('opportunity', () => new OpportunityState());

export const OPPORTUNITY_IDS = {
	/** a demo-team lead treated as sitting in a lead pond shared by the demo user and the other agent */
	pondLeadId: SEED_IDS.bigLeadId2,
} as const;

export const opportunityRoutes: Route[] = [
	{
		method: 'POST',
		pattern: '/v1.0/agent/send-notification',
		body: 'json',
		handler: statusEnvelopeFailures((ctx) => {
			const body = asObject(ctx.body);
			if (body.leadId === undefined) throw missingParam('leadId');
			const leadId = toInt64(body.leadId);
			if (leadId === null) throw invalidParam(`'leadId' must be an int64 integer`);
			const rawType = body.notificationType;
			const type = rawType === undefined || rawType === null ? undefined : Number(toInt64(rawType) ?? NaN);
			const description = optString(body, 'description');
			const link = optString(body, 'link');
			const message = optString(body, 'message');
			const reply = (data: boolean) => ({ body: { status: { code: 0, msg: 'success' }, data } });

			if (!leadId || type === undefined || !OPPORTUNITY_TYPES.includes(type)) return reply(false);
			const lead = ctx.store.getLead(leadId);
			if (!lead || lead.deletedAt !== null || lead.teamId !== ctx.user.teamId) return reply(false);
			const state = opportunityState(ctx.store);
			const pond = state.pondMembers.get(leadId.toString());
			const channels: SentOpportunity['channels'] = SMS_EMAIL_TYPES.includes(type) ? ['push', 'sms', 'email'] : ['push'];
			const record = (toUserIds: bigint[]) =>
				state.sent.push({
					leadId,
					notificationType: type,
					toUserIds,
					channels,
					description,
					link,
					message: type === 65 ? message : undefined,
					time: ctx.now,
				});
			if (pond) {
				record(pond);
				return reply(false);
			}
			if (lead.assignedUserId === null) return reply(false);
			record([lead.assignedUserId]);
			return reply(true);
		}),
	},
];

export function seedOpportunity(store: Store): void {
	// No leads are added (the lead set is shared by every module): a lead without an assignee is made by the tests.
	opportunityState(store).pondMembers.set(OPPORTUNITY_IDS.pondLeadId, [BigInt(SEED_IDS.demoUserId), BigInt(SEED_IDS.otherAgentUserId)]);
}
