/**
 * GET /v1.0/vendor/list: the vendor directory of the caller's team, a bare array of VendorInfo
 * (empty when the team has none). A caller whose permissions do not cover the team directory gets
 * 400 with code 20017 PERMISSION_DENIED (OpenAPI); the sandbox grants it to holders of
 * MANAGE_TEAM_AGENT or MANAGE_TEAM_AGENT_DEPARTMENT.
 */
import { ApiError } from '../../core/errors';
import type { Route } from '../../core/router';
import { permissionLevel } from '../organization/access';
import { SEED_IDS } from '../../core/seed';
import type { Store } from '../../core/store';

export interface Vendor {
	id: bigint;
	teamId: bigint;
	agentUserId: bigint | null;
	firstName: string;
	lastName: string;
	phoneNumber: string;
	phoneCode: string;
	phoneCountry: string;
	email: string;
	roleName: string;
	companyName: string;
	companyAddress: string;
}

export class VendorState {
	vendors: Vendor[] = [];
}

export const vendorState = (store: Store): VendorState => store.ext('vendor', () => new VendorState());

/** Seeded vendor IDs (one above 2^53). */
export const VENDOR_IDS = { bigId: '9007199254780011', unlinkedId: '15' } as const;

export function seedVendors(store: Store): void {
	const teamId = BigInt(SEED_IDS.teamId);
	const base = { teamId, phoneCode: '1', phoneCountry: 'US', companyAddress: '500 Congress Ave, Austin, TX 78701' };
	vendorState(store).vendors = [
		{ ...base, id: 11n, agentUserId: BigInt(SEED_IDS.demoUserId), firstName: 'Dana', lastName: 'Demo', phoneNumber: '5125550100', email: 'demo.owner@example.com', roleName: 'Agent', companyName: 'Sandbox Realty' },
		{ ...base, id: 12n, agentUserId: BigInt(SEED_IDS.otherAgentUserId), firstName: 'Oscar', lastName: 'Other', phoneNumber: '5125551012', email: 'other.agent@example.com', roleName: 'Agent', companyName: 'Sandbox Realty' },
		{ ...base, id: 13n, agentUserId: 302656410082886n, firstName: 'Priya', lastName: 'Rao', phoneNumber: '5125551018', email: 'priya.rao@lender.example.com', roleName: 'Lender', companyName: 'Hill Country Mortgage' },
		{ ...base, id: 14n, agentUserId: 0n, firstName: 'Tomas', lastName: 'Reyes', phoneNumber: '5125557788', email: 'tomas@titleco.example.com', roleName: 'Transaction Coordinator', companyName: 'Capitol Title', companyAddress: '' },
		{ ...base, id: BigInt(VENDOR_IDS.unlinkedId), agentUserId: null, firstName: 'Hana', lastName: 'Berg', phoneNumber: '4155550199', phoneCountry: 'US', email: '', roleName: 'Home Inspector', companyName: '', companyAddress: '' },
		{ ...base, id: BigInt(VENDOR_IDS.bigId), agentUserId: 302656410082818n, firstName: 'Noah', lastName: 'Smith', phoneNumber: '5125551014', email: 'admin.noah@example.com', roleName: 'Admin', companyName: 'Sandbox Realty' },
	];
}

export const vendorRoutes: Route[] = [
	{
		method: 'GET',
		pattern: '/v1.0/vendor/list',
		handler: ({ store, user }) => {
			if (!permissionLevel(store, user, 'MANAGE_TEAM_AGENT')) {
				throw new ApiError(400, 20017, 'PERMISSION_DENIED: listing team vendors is not allowed for this user');
			}
			const list = vendorState(store).vendors.filter((v) => v.teamId === user.teamId);
			// VendorInfo fields only: the team is implied by the token.
			return {
				body: list.map((v) => ({
					id: v.id,
					agentUserId: v.agentUserId,
					firstName: v.firstName,
					lastName: v.lastName,
					phoneNumber: v.phoneNumber,
					phoneCode: v.phoneCode,
					phoneCountry: v.phoneCountry,
					email: v.email,
					roleName: v.roleName,
					companyName: v.companyName,
					companyAddress: v.companyAddress,
				})),
			};
		},
	},
];
