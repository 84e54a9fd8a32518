import { IANAZone } from 'luxon';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { userZone } from './agentZone';
import { givenValue } from './collections';
import type { ZoneSource } from './dates';
import type { OperationDef, ParamDef } from './types';
import { itemRead } from './itemRead';

/**
 * Whose day a time for an agent is read in when the entry goes to someone else. An operation whose Assigned Role
 * (ParamDef `assignsTo: 'leadRole'`) gives the entry to the lead's agent or assistant reads a time without offset in
 * that person's zone: the lead (GET /v1.0/leads/{leadId}: `assignedUserId`, `customRoleList`) names the assignee,
 * their profile (GET /v1.0/users/{userId}: `timeZoneId`) the zone. Where Lofty does not tell (the lead or the user
 * cannot be read, or the profile has no zone), the Lofty user's zone is used, and the output says the assignee's may
 * differ. An operation that changes an existing entry (ParamDef `assignsTo: 'entry'`: Task > Update, Appointment >
 * Update, Calendar > Update) reads its times in the zone of the entry's assignee: the entry (GET /v2.0/tasks/{taskId}:
 * `assignedUserId`; a calendar entry `12345-task` through task 12345, ParamDef `entryReadAt`) names them. Lookups are
 * made once per execution for each lead, entry and user.
 */

/** How an item's agent times are read: the zone, where it came from, and what the output says besides. */
export interface AgentReading {
	zone?: string;
	from: ZoneSource;
	/** said in `timesReadIn` beside the zone: the assignee and the Lofty user's zone */
	about?: IDataObject;
}

/** The parameter that assigns the entry by role on the lead's team, if the operation has one. */
export const assigneeRoleParam = (op: OperationDef): ParamDef | undefined => op.params.find((p) => p.assignsTo === 'leadRole');
/** The parameter naming the existing entry whose assignee the times are for, if the operation has one. */
const assignedEntryParam = (op: OperationDef): ParamDef | undefined => op.params.find((p) => p.assignsTo === 'entry');

type Cache = Map<string, Promise<unknown>>;
const cache = new WeakMap<object, Cache>();

/** One GET per execution and path; a failed read is not kept. */
async function readOnce(ctx: IExecuteFunctions, path: string, itemIndex: number): Promise<unknown> {
	let byPath = cache.get(ctx);
	if (!byPath) cache.set(ctx, (byPath = new Map()));
	let found = byPath.get(path);
	if (!found) {
		found = itemRead(ctx, itemIndex, { method: 'GET', path, idempotent: true });
		found.catch(() => byPath.delete(path));
		byPath.set(path, found);
	}
	return await found;
}

const record = (v: unknown): IDataObject => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as IDataObject) : {});
/** A user ID, or undefined for none (Lofty answers -1 or 0 for an unset one). */
const idText = (v: unknown): string | undefined => (v !== undefined && v !== null && /^[1-9]\d*$/.test(String(v).trim()) ? String(v).trim() : undefined);

/** The lead's user for a role: the assistant in `customRoleList`, else (and for Agent) the assigned agent. */
function assigneeIn(lead: IDataObject, role: string): { userId?: string; as: string } {
	if (role === 'Assistant') {
		const roles = Array.isArray(lead.customRoleList) ? (lead.customRoleList as IDataObject[]) : [];
		const assistant = idText(roles.find((r) => String(r?.role).toLowerCase() === 'assistant')?.assigneeId);
		if (assistant) return { userId: assistant, as: "the lead's assistant" };
		return { userId: idText(lead.assignedUserId), as: "the lead's agent (the lead has no assistant)" };
	}
	return { userId: idText(lead.assignedUserId), as: "the lead's agent" };
}

/** The zone an item's agent times are read in when its choice is the Lofty user's (or the assignee's) zone. */
export async function agentReading(ctx: IExecuteFunctions, op: OperationDef, itemIndex: number): Promise<AgentReading> {
	const mine = await userZone(ctx, itemIndex);
	const own: AgentReading = mine ? { zone: mine, from: 'loftyUser' } : { from: 'workflowNoUserZone' };
	const roleParam = assigneeRoleParam(op);
	const entryParam = assignedEntryParam(op);
	if (!roleParam && !entryParam) return own;
	const role = roleParam ? String(givenValue(ctx, op, roleParam, itemIndex) ?? roleParam.default ?? 'Agent') : undefined;
	const whom = role === undefined ? "the entry's assignee" : role === 'Assistant' ? "the lead's assistant" : "the lead's agent";
	const unknown = (why: string): AgentReading => ({
		...own,
		from: mine ? 'loftyUserAssigneeUnknown' : own.from,
		about: { assignee: `${whom}: ${why}; their zone may differ`, loftyUserZone: mine ?? null },
	});
	const given = String(ctx.getNodeParameter(entryParam?.name ?? 'leadId', itemIndex, '', { extractValue: true }) ?? '').trim();
	const id = idText(entryParam?.entryReadAt ? /^(\d+)-[a-z]+$/i.exec(given)?.[1] : given);
	if (!id) return unknown(`no ${entryParam ? 'entry' : 'lead'} ID to look them up`);
	let person: { userId?: string; as: string };
	try {
		// GET /v1.0/leads/{leadId} answers `{lead: {...}}`, GET /v2.0/tasks/{taskId} `{task: {...}}` (as Get unwraps them).
		// The entry is read at the path the operation writes it to (PUT /v2.0/tasks/{taskId}: GET there), or at its
		// `entryReadAt` (PUT /v2.0/calendar/{calendarId} has no GET: the entry is read as a V2 task).
		const at = entryParam?.entryReadAt?.replace('{id}', id) ?? (entryParam ? op.path.replace(`{${entryParam.key ?? entryParam.name}}`, id) : `/v1.0/leads/${id}`);
		const answer = record(await readOnce(ctx, at, itemIndex));
		person = role === undefined ? { userId: idText(record(answer.task ?? answer).assignedUserId), as: whom } : assigneeIn(record(answer.lead ?? answer), role);
	} catch {
		return unknown(`Lofty did not give the ${entryParam ? 'entry' : 'lead'}`);
	}
	if (!person.userId) return unknown(`the ${entryParam ? 'entry' : 'lead'} has no assigned ${entryParam ? 'user' : 'agent'}`);
	let zone: unknown;
	try {
		zone = record(await readOnce(ctx, `/v1.0/users/${person.userId}`, itemIndex)).timeZoneId;
	} catch {
		return unknown(`Lofty did not give the profile of user ${person.userId}`);
	}
	if (typeof zone !== 'string' || !IANAZone.isValidZone(zone)) return unknown(`user ${person.userId} has no time zone in Lofty`);
	return { zone, from: 'assignee', about: { assignee: { userId: person.userId, role: person.as, zone }, loftyUserZone: mine ?? null } };
}
