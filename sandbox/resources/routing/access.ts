/** Who may use the routing endpoints, which business type and role a request names, and whom routing may assign. */
import { toInt64 } from '../../core/json';
import type { Ctx } from '../../core/router';
import type { Store } from '../../core/store';
import type { User } from '../../core/types';
import { permissionLevel } from '../organization/access';
import { BUSINESS, ROUTING_CODES, type RoutingState, err, isAgent } from './state';

export function requirePermission(ctx: Ctx): void {
	if (!permissionLevel(ctx.store, ctx.user, 'MANAGE_LEAD_DISTRIBUTION')) {
		throw err(ROUTING_CODES.PERMISSION_DENIED, 'lead routing needs MANAGE_LEAD_DISTRIBUTION or MANAGE_LEAD_DISTRIBUTION_DEPARTMENT');
	}
}

export function businessType(ctx: Ctx): number {
	const raw = ctx.params.type;
	const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
	if (!(Object.values(BUSINESS) as number[]).includes(n)) throw err(ROUTING_CODES.BUSINESS_TYPE_ERROR, `business type must be 1, 2 or 4, got '${raw}'`);
	return n;
}

/** The role of an ASSISTANT_LEAD request (required, must exist); -1 for the other types. */
export function roleFor(state: RoutingState, type: number, raw: unknown): number {
	if (type !== BUSINESS.ASSISTANT_LEAD) return -1;
	const missing = raw === undefined || raw === null || raw === '';
	const id = missing ? undefined : toInt64(raw);
	if (id === undefined) throw err(ROUTING_CODES.INVAID_ROLE_ID, 'roleId is required when the business type is 4 (ASSISTANT_LEAD)');
	if (id === null || !state.roles.some((r) => BigInt(r.id) === id)) throw err(ROUTING_CODES.INVAID_ROLE_ID, `no assign role ${String(raw)}`);
	return Number(id);
}

/** Members routing may assign for a business type (and role). */
export function assignable(store: Store, state: RoutingState, teamId: bigint, type: number, roleId: number): User[] {
	const members = store.teamMembers(teamId).filter((u) => u.status === 1 && u.accountStatus === 'ACTIVE');
	if (type === BUSINESS.AGENT_LEAD) return members.filter(isAgent);
	if (type === BUSINESS.LENDER_LEAD) return members.filter((u) => u.roleName === 'Lender');
	const role = state.roles.find((r) => r.id === roleId);
	return members.filter((u) => role?.memberIds.includes(u.userId));
}
