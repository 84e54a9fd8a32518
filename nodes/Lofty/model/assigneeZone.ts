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
 * differ. An operation that changes an existing entry (ParamDef `assignsTo: 'entry'`: Task > Update, Task > Update
 * (V1), Appointment > Update, Calendar > Update) reads its times in the zone of the entry's assignee: the entry (GET
 * /v2.0/tasks/{taskId} or GET /v1.0/tasks/{taskId}: `assignedUserId`; a calendar entry `12345-task` through task
 * 12345, ParamDef `entryReadAt`) names them; when the item also gives Assigned Role (Task > Update (V1)), the entry
 * goes to that role on its lead (the entry's `leadId`), whose zone is used. Lookups are made once per execution for
 * each lead, entry and user (an entry again after an item reassigned it).
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

/** Who the item's times are for, or why Lofty does not tell. */
type Assignee = { userId: string; as: string } | { unknown: string };

/**
 * The entry's assignee (its `assignedUserId`), or, when the item gives Assigned Role, the user of that role on the
 * entry's lead (its `leadId`). GET /v2.0/tasks/{taskId} and GET /v1.0/tasks/{taskId} answer `{task: {...}}` (as Get
 * unwraps them). The entry is read at the path the operation writes it to (PUT /v1.0/tasks/{taskId}: GET there), or
 * at its `entryReadAt` (PUT /v2.0/calendar/{calendarId} has no GET: the entry is read as a V2 task). An item that
 * gives the role reassigns the entry: the entry's read is then dropped, so that a later item on it reads who has it now.
 */
async function entryAssignee(ctx: IExecuteFunctions, op: OperationDef, entryParam: ParamDef, itemIndex: number, role?: string): Promise<Assignee> {
	const given = String(ctx.getNodeParameter(entryParam.name, itemIndex, '', { extractValue: true }) ?? '').trim();
	const id = idText(entryParam.entryReadAt ? /^(\d+)-[a-z]+$/i.exec(given)?.[1] : given);
	if (!id) return { unknown: 'no entry ID to look them up' };
	const at = entryParam.entryReadAt?.replace('{id}', id) ?? op.path.replace(`{${entryParam.key ?? entryParam.name}}`, id);
	let entry: IDataObject;
	try {
		const answer = record(await readOnce(ctx, at, itemIndex));
		entry = record(answer.task ?? answer);
	} catch {
		return { unknown: 'Lofty did not give the entry' };
	}
	if (role === undefined) {
		const userId = idText(entry.assignedUserId);
		return userId ? { userId, as: "the entry's assignee" } : { unknown: 'the entry has no assigned user' };
	}
	cache.get(ctx)?.delete(at);
	const leadId = idText(entry.leadId);
	return leadId ? await leadAssignee(ctx, leadId, role, itemIndex) : { unknown: 'the entry names no lead' };
}

/** The lead's user for a role (GET /v1.0/leads/{leadId}, answered `{lead: {...}}` or bare). */
async function leadAssignee(ctx: IExecuteFunctions, leadId: string, role: string, itemIndex: number): Promise<Assignee> {
	let lead: IDataObject;
	try {
		const answer = record(await readOnce(ctx, `/v1.0/leads/${leadId}`, itemIndex));
		lead = record(answer.lead ?? answer);
	} catch {
		return { unknown: 'Lofty did not give the lead' };
	}
	const { userId, as } = assigneeIn(lead, role);
	return userId ? { userId, as } : { unknown: 'the lead has no assigned agent' };
}

/**
 * The zone an item's agent times are read in when its choice is the Lofty user's (or the assignee's) zone. On an
 * operation that changes an entry, Assigned Role counts only when the item gives it (it then changes the assignee);
 * otherwise the entry keeps its assignee.
 */
export async function agentReading(ctx: IExecuteFunctions, op: OperationDef, itemIndex: number): Promise<AgentReading> {
	const mine = await userZone(ctx, itemIndex);
	const own: AgentReading = mine ? { zone: mine, from: 'loftyUser' } : { from: 'workflowNoUserZone' };
	const roleParam = assigneeRoleParam(op);
	const entryParam = assignedEntryParam(op);
	if (!roleParam && !entryParam) return own;
	const givenRole = roleParam ? givenValue(ctx, op, roleParam, itemIndex) : undefined;
	const role = !roleParam || (entryParam && (givenRole === undefined || givenRole === '')) ? undefined : String(givenRole ?? roleParam.default ?? 'Agent');
	const whom = role === undefined ? "the entry's assignee" : role === 'Assistant' ? "the lead's assistant" : "the lead's agent";
	const unknown = (why: string): AgentReading => ({
		...own,
		from: mine ? 'loftyUserAssigneeUnknown' : own.from,
		about: { assignee: `${whom}: ${why}; their zone may differ`, loftyUserZone: mine ?? null },
	});
	let person: Assignee;
	if (entryParam) person = await entryAssignee(ctx, op, entryParam, itemIndex, role);
	else {
		const leadId = idText(String(ctx.getNodeParameter('leadId', itemIndex, '', { extractValue: true }) ?? '').trim());
		person = leadId ? await leadAssignee(ctx, leadId, role ?? 'Agent', itemIndex) : { unknown: 'no lead ID to look them up' };
	}
	if ('unknown' in person) return unknown(person.unknown);
	let zone: unknown;
	try {
		zone = record(await readOnce(ctx, `/v1.0/users/${person.userId}`, itemIndex)).timeZoneId;
	} catch {
		return unknown(`Lofty did not give the profile of user ${person.userId}`);
	}
	if (typeof zone !== 'string' || !IANAZone.isValidZone(zone)) return unknown(`user ${person.userId} has no time zone in Lofty`);
	return { zone, from: 'assignee', about: { assignee: { userId: person.userId, role: person.as, zone }, loftyUserZone: mine ?? null } };
}
