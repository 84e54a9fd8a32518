/**
 * Who receives an event (api-spec.md, Events > Delivery rules 6):
 * - only users of the lead's team who subscribed to the event type;
 * - permissionMode 0 (assignment-based): a hidden lead goes only to its assigned agent; other leads
 *   go to the assigned agent, the Company Owner and Company Admins;
 * - permissionMode 1 (ownership-based): the same, and also any lead in the subscriber's ownership
 *   scope (owned by their team or office, or personally owned) even when assigned to someone else;
 *   hidden leads still go only to users who manage them (here: the assigned agent and a personal owner).
 * Events without a lead (agent info, listing alerts) go to every subscriber of the team.
 */
import type { WebhookSubscription } from '../state';
import type { Store } from '../../../core/store';
import type { Lead, User } from '../../../core/types';

export function isCompanyManager(user: User): boolean {
	return user.roleName === 'Owner' || user.roleName === 'Admin' || user.isAdmin;
}

/** The lead is in the user's ownership scope: team-owned, owned by their office, or personally owned. */
export function inOwnershipScope(user: User, lead: Lead): boolean {
	if (lead.teamId !== user.teamId) return false;
	if (lead.ownershipScope === 'TEAM') return true;
	if (lead.ownershipScope === 'OFFICE') return lead.ownershipId !== null && lead.ownershipId === user.groupId;
	return (lead.ownershipId ?? lead.ownerUserId) === user.userId;
}

export function receives(store: Store, sub: WebhookSubscription, teamId: bigint, leadId: bigint | undefined): boolean {
	if (sub.teamId !== teamId) return false;
	const user = store.getUser(sub.ownerUserId);
	if (!user || user.teamId !== teamId) return false;
	if (leadId === undefined) return true;
	const lead = store.getLead(leadId);
	if (!lead || lead.teamId !== teamId) return false;
	const assigned = lead.assignedUserId === user.userId;
	if (lead.hiddenFlag) {
		if (assigned) return true;
		return sub.permissionMode === 1 && lead.ownershipScope === 'PERSONAL' && (lead.ownershipId ?? lead.ownerUserId) === user.userId;
	}
	if (assigned || isCompanyManager(user)) return true;
	return sub.permissionMode === 1 && inOwnershipScope(user, lead);
}
