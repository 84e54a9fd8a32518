/**
 * Organization state shared by the agent, organization, routing and vendor endpoints of the sandbox:
 * permission profiles and who holds them, office owners, office contact details and the company record.
 *
 * Permissions are those the spec and the OpenAPI name: MANAGE_TEAM_AGENT(_DEPARTMENT) for agent
 * lifecycle, MANAGE_LEAD_DISTRIBUTION(_DEPARTMENT) for routing, MANAGE_ORGANIZATION(_DEPARTMENT) for
 * company and office records, MANAGE_PERMISSION_PROFILE for the profile list. A `_DEPARTMENT` variant
 * covers the holder's own office and the offices below it.
 */
import type { Store } from '../../core/store';
import type { User } from '../../core/types';

export const PERM = {
	MANAGE_TEAM_AGENT: 'MANAGE_TEAM_AGENT',
	MANAGE_TEAM_AGENT_DEPARTMENT: 'MANAGE_TEAM_AGENT_DEPARTMENT',
	MANAGE_LEAD_DISTRIBUTION: 'MANAGE_LEAD_DISTRIBUTION',
	MANAGE_LEAD_DISTRIBUTION_DEPARTMENT: 'MANAGE_LEAD_DISTRIBUTION_DEPARTMENT',
	MANAGE_ORGANIZATION: 'MANAGE_ORGANIZATION',
	MANAGE_ORGANIZATION_DEPARTMENT: 'MANAGE_ORGANIZATION_DEPARTMENT',
	MANAGE_PERMISSION_PROFILE: 'MANAGE_PERMISSION_PROFILE',
} as const;

export type Permission = (typeof PERM)[keyof typeof PERM];

export interface PermissionProfile {
	id: bigint;
	name: string;
	permissions: Permission[];
}

export interface OfficeDetails {
	phone: string;
	phoneCode: string;
	phoneCountry: string;
	email: string;
	zipcode: string;
	streetAddress: string;
	allowManageSub: boolean;
}

export interface Company {
	name: string;
	phone: string;
	phoneCode: string;
	phoneCountry: string;
	email: string;
	city: string;
	state: string;
	zipcode: string;
	streetAddress: string;
	header: string;
}

const ALL: Permission[] = Object.values(PERM);
const DEPARTMENT: Permission[] = [PERM.MANAGE_TEAM_AGENT_DEPARTMENT, PERM.MANAGE_LEAD_DISTRIBUTION_DEPARTMENT, PERM.MANAGE_ORGANIZATION_DEPARTMENT];

/** Seeded profile IDs (one above 2^53). */
export const PROFILE_IDS = {
	teamOwner: 9007199254760001n,
	administrator: 701n,
	officeManager: 702n,
	agent: 703n,
	assistant: 704n,
	lender: 705n,
	routingCoordinator: 706n,
} as const;

/**
 * Seeded members with a special standing (user IDs follow the seed's formula 302656410082801 + 17 i):
 * i=2 (Downtown Office) and i=13 (North Austin Office) are office owners with the Office Manager
 * profile; i=4 (Main Office) is a routing coordinator (lead distribution only).
 */
export const ORG_SEED = {
	downtownOwnerUserId: '302656410082835',
	northOwnerUserId: '302656410083022',
	routingCoordinatorUserId: '302656410082869',
} as const;

export class OrgState {
	profiles: PermissionProfile[] = [
		{ id: PROFILE_IDS.teamOwner, name: 'Team Owner', permissions: ALL },
		{ id: PROFILE_IDS.administrator, name: 'Administrator', permissions: ALL },
		{ id: PROFILE_IDS.officeManager, name: 'Office Manager', permissions: DEPARTMENT },
		{ id: PROFILE_IDS.agent, name: 'Agent', permissions: [] },
		{ id: PROFILE_IDS.assistant, name: 'Assistant', permissions: [] },
		{ id: PROFILE_IDS.lender, name: 'Lender', permissions: [] },
		{ id: PROFILE_IDS.routingCoordinator, name: 'Routing Coordinator', permissions: [PERM.MANAGE_LEAD_DISTRIBUTION] },
	];
	/** Explicit profile of a user (user ID -> profile ID); others get the profile of their role. */
	userProfile = new Map<string, bigint>();
	/** office ID -> user ID of its owner */
	officeOwners = new Map<string, bigint>();
	officeDetails = new Map<string, OfficeDetails>();
	company: Company = {
		name: 'Sandbox Realty',
		phone: '5125550100',
		phoneCode: '1',
		phoneCountry: 'US',
		email: 'office@sandbox-realty.example.com',
		city: 'Austin',
		state: 'TX',
		zipcode: '78701',
		streetAddress: '100 Congress Ave',
		header: '',
	};
	nextOfficeId = 9007199254790001n;

	constructor(store: Store) {
		this.userProfile.set(ORG_SEED.downtownOwnerUserId, PROFILE_IDS.officeManager);
		this.userProfile.set(ORG_SEED.northOwnerUserId, PROFILE_IDS.officeManager);
		this.userProfile.set(ORG_SEED.routingCoordinatorUserId, PROFILE_IDS.routingCoordinator);
		for (const office of store.offices.values()) {
			const key = office.id.toString();
			this.officeDetails.set(key, {
				phone: `512555${key.slice(-4)}`,
				phoneCode: '1',
				phoneCountry: 'US',
				email: `${office.name.toLowerCase().replace(/[^a-z]+/g, '.')}@sandbox-realty.example.com`,
				zipcode: '78701',
				streetAddress: `${100 + Number(office.id % 100n)} Congress Ave`,
				allowManageSub: office.parentId === 0n,
			});
		}
		const owner = [...store.users.values()].find((u) => u.roleName === 'Owner');
		const main = [...store.offices.values()].find((o) => o.parentId === 0n);
		if (owner && main) this.officeOwners.set(main.id.toString(), owner.userId);
		const byUser = (id: string) => store.getUser(id);
		const downtown = byUser(ORG_SEED.downtownOwnerUserId);
		if (downtown) this.officeOwners.set(downtown.groupId.toString(), downtown.userId);
		const north = byUser(ORG_SEED.northOwnerUserId);
		if (north) this.officeOwners.set(north.groupId.toString(), north.userId);
	}

	profileOf(user: User): PermissionProfile {
		const explicit = this.userProfile.get(user.userId.toString());
		const byRole: Record<User['roleName'], bigint> = {
			Owner: PROFILE_IDS.teamOwner,
			Admin: PROFILE_IDS.administrator,
			Agent: PROFILE_IDS.agent,
			Assistant: PROFILE_IDS.assistant,
			Lender: PROFILE_IDS.lender,
		};
		const id = explicit ?? byRole[user.roleName];
		return this.profiles.find((p) => p.id === id) ?? this.profiles[3];
	}

	isOfficeOwner(userId: bigint): boolean {
		for (const owner of this.officeOwners.values()) if (owner === userId) return true;
		return false;
	}
}

export function orgState(store: Store): OrgState {
	return store.ext('organization', () => new OrgState(store));
}

/**
 * How far the caller holds a permission: 'company' with the permission itself, 'department' with
 * only its `_DEPARTMENT` variant, undefined without either.
 */
export function permissionLevel(store: Store, user: User, base: 'MANAGE_TEAM_AGENT' | 'MANAGE_LEAD_DISTRIBUTION' | 'MANAGE_ORGANIZATION'): 'company' | 'department' | undefined {
	const perms = orgState(store).profileOf(user).permissions;
	if (perms.includes(base)) return 'company';
	if (perms.includes(`${base}_DEPARTMENT` as Permission)) return 'department';
	return undefined;
}

export function hasPermission(store: Store, user: User, permission: Permission): boolean {
	return orgState(store).profileOf(user).permissions.includes(permission);
}

/** Whether an office lies in the caller's own office or below it (the reach of a `_DEPARTMENT` permission). */
export function inDepartment(store: Store, user: User, officeId: bigint): boolean {
	return store.officeTree(user.groupId, true).has(officeId);
}
