/**
 * Lead ponds (shared lead pools):
 * - GET /v1.0/team-features/lead-ponds: bare array of the ponds the caller may see;
 * - GET /v1.0/team-features/lead-pond/{id}: one pond (LeadPond: id, pondName, pondOwnerId, agentIds).
 *
 * A pond the caller may not see answers 400 with numeric code 20017 (permission denied) whether
 * it is missing, disabled, of another team or outside the caller's manageable offices: the cases
 * are deliberately indistinguishable (api-spec.md allows 400 or 403; the OpenAPI says 400).
 *
 * Where the spec is silent, "may see" is: the pond is enabled, of the caller's team, and the caller
 * is a company owner/admin, the pond's owner, one of its agents, or the pond belongs to the
 * caller's office or an office below it.
 */
import { ApiError } from '../../core/errors';
import { pathId } from '../../core/params';
import type { Route } from '../../core/router';
import { SEED_IDS } from '../../core/seed';
import type { Store } from '../../core/store';
import type { User } from '../../core/types';

export const POND_PERMISSION_DENIED = 20017;

export interface LeadPondRecord {
	id: bigint;
	teamId: bigint;
	pondName: string;
	pondOwnerId: bigint;
	agentIds: bigint[];
	/** office the pond belongs to; null for a company-level pond */
	officeId: bigint | null;
	enabled: boolean;
}

export class LeadPondState {
	ponds: LeadPondRecord[] = [];
}

export const leadPondState = (store: Store): LeadPondState => store.ext('leadPond', () => new LeadPondState());

/** Identifiers of the seeded ponds. */
export const POND_IDS = {
	/** company-level, demo owner; the other agent is one of its agents (ID above 2^53) */
	company: '9007199254741201',
	/** North Austin office pond: invisible to the other agent (Downtown office) */
	north: '4400123',
	/** Downtown office pond, owned by the other agent */
	downtown: '4400124',
	/** disabled: nobody sees it */
	disabled: '4400125',
	/** another team's pond */
	otherTeam: '4400126',
} as const;

export function seedLeadPond(store: Store): void {
	const state = leadPondState(store);
	const teamId = BigInt(SEED_IDS.teamId);
	const demo = BigInt(SEED_IDS.demoUserId);
	const other = BigInt(SEED_IDS.otherAgentUserId);
	const northAgents = [...store.users.values()].filter((u) => u.groupId === BigInt(SEED_IDS.northOfficeId)).map((u) => u.userId);
	state.ponds.push(
		{ id: BigInt(POND_IDS.company), teamId, pondName: 'Company Pond', pondOwnerId: demo, agentIds: [demo, other], officeId: null, enabled: true },
		{ id: BigInt(POND_IDS.north), teamId, pondName: 'North Austin Pond', pondOwnerId: demo, agentIds: northAgents, officeId: BigInt(SEED_IDS.northOfficeId), enabled: true },
		{ id: BigInt(POND_IDS.downtown), teamId, pondName: 'Downtown Pond', pondOwnerId: other, agentIds: [other], officeId: BigInt(SEED_IDS.downtownOfficeId), enabled: true },
		{ id: BigInt(POND_IDS.disabled), teamId, pondName: 'Old Open House Pond', pondOwnerId: demo, agentIds: [demo], officeId: null, enabled: false },
		{ id: BigInt(POND_IDS.otherTeam), teamId: 99001n, pondName: 'Other Team Pond', pondOwnerId: 1n, agentIds: [], officeId: null, enabled: true },
	);
}

export function canSeePond(store: Store, user: User, pond: LeadPondRecord): boolean {
	if (!pond.enabled || pond.teamId !== user.teamId) return false;
	if (user.isAdmin || pond.pondOwnerId === user.userId || pond.agentIds.includes(user.userId)) return true;
	return pond.officeId !== null && store.officeTree(user.groupId, true).has(pond.officeId);
}

const view = (p: LeadPondRecord) => ({ id: p.id, pondName: p.pondName, pondOwnerId: p.pondOwnerId, agentIds: p.agentIds });

export const leadPondRoutes: Route[] = [
	{
		method: 'GET',
		pattern: '/v1.0/team-features/lead-ponds',
		handler: ({ store, user }) => ({ body: leadPondState(store).ponds.filter((p) => canSeePond(store, user, p)).map(view) }),
	},
	{
		method: 'GET',
		pattern: '/v1.0/team-features/lead-pond/{id}',
		handler: ({ params, store, user }) => {
			const id = pathId(params.id, 'id');
			const pond = leadPondState(store).ponds.find((p) => p.id === id);
			if (!pond || !canSeePond(store, user, pond)) throw new ApiError(400, POND_PERMISSION_DENIED, 'Permission denied');
			return { body: view(pond) };
		},
	},
];
