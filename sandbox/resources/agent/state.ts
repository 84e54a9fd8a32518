/**
 * Agent state of the sandbox: license seats, onboarding, agent tags and license entries.
 * Whether an agent is active is the member's `accountStatus` (ACTIVE / INACTIVE) in the store.
 */
import type { Store } from '../../core/store';
import type { User } from '../../core/types';

export interface License {
	label: string;
	value: string;
}

/** At most 5 license entries per agent (spec, Limits). */
export const MAX_LICENSES = 5;
/** Tag names per call of POST /v1.0/agent/{agentId}/tag/add (OpenAPI). */
export const MAX_AGENT_TAGS_PER_CALL = 20;

export class AgentState {
	/** Seats the team pays for; seeded so that no seat is free (reactivation needs a deactivation first). */
	seatLimit: number;
	/** User IDs of members who have not completed onboarding (no password set). */
	notOnboarded = new Set<string>();
	/** Agent tag names defined on the team. */
	teamTags = new Set<string>(['Top Producer', 'Mentor', 'New Hire', 'Luxury Specialist', 'Commercial']);
	/** user ID -> agent tag names */
	agentTags = new Map<string, string[]>();
	/** user ID -> license entries (members without an entry show their legacy licenseId) */
	licenses = new Map<string, License[]>();
	nextUserId = 9007199254770001n;
	nextMemberId = 1001n;

	constructor(store: Store) {
		const members = [...store.users.values()];
		this.seatLimit = members.filter((u) => u.accountStatus === 'ACTIVE').length;
		for (const u of members) if (u.status !== 1) this.notOnboarded.add(u.userId.toString());
		const owner = members.find((u) => u.roleName === 'Owner');
		if (owner) {
			this.licenses.set(owner.userId.toString(), [
				{ label: 'TX', value: owner.licenseId },
				{ label: 'CA', value: 'CA-02154873' },
			]);
			this.agentTags.set(owner.userId.toString(), ['Top Producer', 'Mentor']);
		}
	}

	seatsUsed(store: Store, teamId: bigint): number {
		return store.teamMembers(teamId).filter((u) => u.accountStatus === 'ACTIVE').length;
	}

	licensesOf(user: User): License[] {
		return this.licenses.get(user.userId.toString()) ?? (user.licenseId ? [{ label: 'License', value: user.licenseId }] : []);
	}
}

export function agentState(store: Store): AgentState {
	return store.ext('agent', () => new AgentState(store));
}
