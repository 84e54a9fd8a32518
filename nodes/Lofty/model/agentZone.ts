import { IANAZone } from 'luxon';
import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { loftyRequest } from '../transport/request';
import { givenValue } from './collections';
import { isTimeWithoutOffset, timeFactsOf, workflowZone, zoneField } from './dates';
import type { OperationDef, ParamDef } from './types';
import { itemRead } from './itemRead';

/** The node version from which an agent time without offset is read in the Lofty user's zone by default. */
export const AGENT_ZONE_VERSION = 1.3;

/**
 * Times for an agent (a task's due time, an appointment, a calendar entry; ParamDef `agentTime`) given without a UTC
 * offset, as n8n's date picker gives them: a person picking 09:00 means 09:00 where the agent works. They are read
 * in the zone of the Lofty user behind the credential (`timeZoneId` of GET /v1.0/me, asked once per execution),
 * unless the operation's Time Zone is set or "Times Without Offset Are In" says the workflow's zone. An offset inside
 * the value always wins. Node versions before 1.3 read them in the workflow's zone by default, as they always did.
 * The dropdown names both zones before the run; the output names the zone used (model/dates.ts, `timesReadIn`).
 */

/** The choice from node version 1.3 (default: the Lofty user's zone), and before it (default: the workflow's). */
export const TIMES_IN = 'timesIn';
const TIMES_IN_BEFORE = 'timesInV1';

/** The hint of every agent time (at most 120 characters, n8n's hint-max-length): where a time without offset is read. */
export const AGENT_TIME_HINT = 'Without a UTC offset (as the picker gives) read in the zone of Times Without Offset Are In, unless Time Zone is set';
/** Added to an agent time's description: how to give a relative time. */
const AGENT_TIME_EXAMPLE = "Tomorrow 9:00 in that zone: {{ $now.plus({days: 1}).toFormat(\"yyyy-MM-dd'T'09:00\") }}";

/** The same for an entry assigned by role (at most 120 characters): the assignee's zone is theirs, not the credential user's. */
export const ASSIGNEE_TIME_HINT = "Without a UTC offset (as the picker gives) read in the zone of Times Without Offset Are In (by default the assignee's)";

const timesIn = (name: string, defaultValue: 'agent' | 'workflow', version: Pick<ParamDef, 'before' | 'from'>, assigned: boolean): ParamDef => ({
	name,
	label: 'Times Without Offset Are In',
	type: 'options',
	in: 'local',
	top: true,
	loadOptions: assigned ? 'getAssigneeTimeReadings' : 'getTimeReadings',
	default: defaultValue,
	description: assigned
		? "The time zone a time without a UTC offset (as the date picker gives) means: where the assignee works (the lead's agent or assistant, Assigned Role, or the entry's assignee on Update; their zone in Lofty, read when the node runs; where Lofty does not give it, the zone of the Lofty user behind the credential, and the output says so), or the workflow's (Workflow Settings > Timezone). Time Zone, when set, wins; an offset in the value always wins."
		: "The time zone a time without a UTC offset (as the date picker gives) means: where the Lofty user behind the credential works, or the workflow's (Workflow Settings > Timezone). The list shows both zones. Time Zone, when the operation has it and it is set, wins; an offset in the value always wins.",
	...version,
});

/** The operation's agent times. */
const agentTimes = (op: OperationDef): ParamDef[] => op.params.filter((p) => p.agentTime);

/** Whether the operation offers the choice: it has agent times and no required Time Zone of its own. */
export const offersTimesIn = (op: OperationDef): boolean => agentTimes(op).length > 0 && !zoneField(op)?.required;

/**
 * Adds the choice to an operation with agent times (after its last top-level one), and the agent-time hint to those
 * times. Two fields, one per range of node versions: the default changed in 1.3 (a saved workflow stores no default).
 */
export function withTimesIn(op: OperationDef): void {
	if (!offersTimesIn(op) || op.params.some((p) => p.name === TIMES_IN)) return;
	const assigned = op.params.some((p) => p.assignsTo !== undefined);
	for (const p of agentTimes(op)) {
		p.hint = assigned ? ASSIGNEE_TIME_HINT : AGENT_TIME_HINT;
		p.description = p.description ? `${p.description}. ${AGENT_TIME_EXAMPLE}` : AGENT_TIME_EXAMPLE;
	}
	const last = op.params.reduce((at, p, i) => (p.agentTime && (p.required || p.top) ? i : at), -1);
	const lastTop = op.params.reduce((at, p, i) => (p.required || p.top ? i : at), -1);
	op.params.splice(
		(last >= 0 ? last : lastTop) + 1,
		0,
		timesIn(TIMES_IN_BEFORE, 'workflow', { before: AGENT_ZONE_VERSION }, assigned),
		timesIn(TIMES_IN, 'agent', { from: AGENT_ZONE_VERSION }, assigned),
	);
}

/** Whether a parameter is the choice itself (read by timesInChoice, never sent). */
export function isTimesIn(p: ParamDef): boolean {
	return p.name === TIMES_IN || p.name === TIMES_IN_BEFORE;
}

/** The item's choice, or the default of the node's version. */
export function timesInChoice(ctx: IExecuteFunctions, itemIndex: number): 'agent' | 'workflow' {
	const current = ctx.getNode().typeVersion >= AGENT_ZONE_VERSION;
	const raw = ctx.getNodeParameter(current ? TIMES_IN : TIMES_IN_BEFORE, itemIndex, '') as string;
	if (raw === 'agent' || raw === 'workflow') return raw;
	return current ? 'agent' : 'workflow';
}

/** The operation's own Time Zone as the item gives it, when it is a zone. */
export function givenZone(ctx: IExecuteFunctions, op: OperationDef, itemIndex: number): string | undefined {
	const field = zoneField(op);
	if (!field) return undefined;
	const given = givenValue(ctx, op, field, itemIndex);
	return typeof given === 'string' && IANAZone.isValidZone(given.trim()) ? given.trim() : undefined;
}

/** Whether one of the item's agent times is text without a UTC offset (the picker's value, or such text). */
function hasTimeWithoutOffset(ctx: IExecuteFunctions, op: OperationDef, itemIndex: number): boolean {
	return agentTimes(op).some((p) => isTimeWithoutOffset(givenValue(ctx, op, p, itemIndex)));
}

/**
 * Whether the item's times are read in the Lofty user's zone, which must then be asked for first: only when a time
 * without offset is given (times with offsets, as an AI agent is asked to give, need no zone and no request).
 */
export function needsUserZone(ctx: IExecuteFunctions, op: OperationDef, itemIndex: number): boolean {
	return offersTimesIn(op) && givenZone(ctx, op, itemIndex) === undefined && timesInChoice(ctx, itemIndex) === 'agent' && hasTimeWithoutOffset(ctx, op, itemIndex);
}

/** The zone in Lofty's user profile (GET /v1.0/me, UserResponse `timeZoneId`), when it is a zone. */
function zoneOf(answer: unknown): string | undefined {
	const record = (v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as IDataObject) : {});
	const user = record(answer);
	const zone = user.timeZoneId ?? record(user.data).timeZoneId ?? record(user.user).timeZoneId;
	return typeof zone === 'string' && IANAZone.isValidZone(zone) ? zone : undefined;
}

const asked = new WeakMap<object, Promise<string | undefined>>();

/** The Lofty user's zone, asked once per execution (every item waits for the same answer). */
export async function userZone(ctx: IExecuteFunctions, itemIndex: number): Promise<string | undefined> {
	let found = asked.get(ctx);
	if (!found) {
		found = itemRead(ctx, itemIndex, { method: 'GET', path: '/v1.0/me', idempotent: true }).then(zoneOf);
		// A failed answer is not remembered: the next item asks again.
		found.catch(() => asked.delete(ctx));
		asked.set(ctx, found);
	}
	try {
		return await found;
	} catch (error) {
		throw new NodeOperationError(ctx.getNode(), `Could not read the Lofty user's time zone (GET /v1.0/me): ${(error as Error).message}`, {
			itemIndex,
			description:
				'Times without a UTC offset are read in the time zone of the Lofty user behind the credential. Nothing was sent for this item. Set Time Zone, give the times with an offset, or set Times Without Offset Are In to the workflow\'s zone.',
		});
	}
}

/**
 * The zone to store an entry in (`timeZoneCode` of Tasks V2 and Calendar V2): the zone the item's times without
 * offset were read in, so that Lofty holds 09:00 Chicago as 09:00 Chicago rather than as the same moment in the
 * Lofty user's zone (its fallback when no zone is sent). None when every time carries its own offset: the offset
 * names no zone, and Lofty keeps its fallback.
 */
export function zoneReadIn(values: IDataObject): string | undefined {
	const read = timeFactsOf(values).timesReadIn as IDataObject | undefined;
	return typeof read?.zone === 'string' ? read.zone : undefined;
}

/** The Lofty user's zone for a dropdown: asked now, else said to be asked at run time. */
async function userZoneNow(ctx: ILoadOptionsFunctions): Promise<string> {
	try {
		return zoneOf(await loftyRequest(ctx, { method: 'GET', path: '/v1.0/me' })) ?? "Lofty gives none: the workflow's is used";
	} catch {
		// No credential yet, or Lofty unreachable: the zone is asked for again at run time.
		return 'asked from Lofty when the node runs';
	}
}

const workflowOption = (ctx: ILoadOptionsFunctions): INodePropertyOptions => ({
	name: `The Workflow's Zone (${workflowZone(ctx) ?? 'not set'})`,
	value: 'workflow',
	description: "Workflow Settings > Timezone, else n8n's default zone",
});

/** The dropdown of Times Without Offset Are In: both zones by name, so that the difference shows before the run. */
export async function getTimeReadings(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const user = await userZoneNow(this);
	return [
		{ name: `The Lofty User's Zone (${user})`, value: 'agent', description: 'Where the Lofty user behind the credential works (their Lofty profile)' },
		workflowOption(this),
	];
}

/** The same for an entry assigned by role: the assignee's zone is known only when the node runs (it depends on the lead). */
export async function getAssigneeTimeReadings(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const user = await userZoneNow(this);
	return [
		{
			name: `The Assignee's Zone (Read From Lofty When the Node Runs; Yours: ${user})`,
			value: 'agent',
			description:
				"Where the assignee (the lead's agent or assistant, Assigned Role; on Update the entry's assignee) works, from their Lofty profile; it may differ from yours. If Lofty does not give it, yours is used and the output says so.",
		},
		workflowOption(this),
	];
}
