/** PUT /v2.0/sales-agent/settings: the body readers and how a partial update applies. */
import { invalidParam } from '../../core/errors';
import { toInt64 } from '../../core/json';
import { type Obj, optBool } from '../../core/params';
import type { SalesAgent, SalesAgentSettings } from './state';

type SettingKey = keyof SalesAgentSettings;
const STRING_SETTINGS: SettingKey[] = ['assistantName', 'virtualNumber', 'virtualNumberCountry', 'fixedNumber', 'agentExperience'];
const BOOL_SETTINGS: SettingKey[] = ['rentalBusiness', 'websiteChannel', 'textChannel', 'emailChannel', 'newLeadEnable', 'visitorsEnable'];
const ID_ARRAYS: SettingKey[] = ['leadSources', 'leadPipelines'];
/** "contains -1 means all" */
const ID_ARRAYS_WITH_ALL: SettingKey[] = ['agentIds', 'officeIds', 'leadPondIds'];

function intIn(o: Obj, name: string, min: number, max: number): number | undefined {
	const v = o[name];
	if (v === undefined || v === null) return undefined;
	const n = toInt64(v);
	if (n === null || n === undefined || n < BigInt(min) || n > BigInt(max)) throw invalidParam(`'${name}' must be an integer from ${min} to ${max}, got ${String(v)}`);
	return Number(n);
}

function intArray(o: Obj, name: string, min: number, max: number): number[] | undefined {
	const v = o[name];
	if (v === undefined || v === null) return undefined;
	if (!Array.isArray(v)) throw invalidParam(`'${name}' must be an array of integers`);
	return v.map((x) => {
		const n = toInt64(x);
		if (n === null || n === undefined || n < BigInt(min) || n > BigInt(max)) throw invalidParam(`'${name}' entries must be integers from ${min} to ${max}, got ${String(x)}`);
		return Number(n);
	});
}

function idArray(o: Obj, name: string, allowAll: boolean): bigint[] | undefined {
	const v = o[name];
	if (v === undefined || v === null) return undefined;
	if (!Array.isArray(v)) throw invalidParam(`'${name}' must be an array of int64 integers`);
	return v.map((x) => {
		const n = toInt64(x);
		if (n === null || n === undefined || !(n >= 1n || (allowAll && n === -1n))) {
			throw invalidParam(`'${name}' entries must be int64 IDs${allowAll ? ' (or -1 for all)' : ''}, got ${String(x)}`);
		}
		return n;
	});
}

export function applySettings(sa: SalesAgent, body: Obj, now: number): void {
	const next: Partial<Record<SettingKey, unknown>> = {};
	for (const k of STRING_SETTINGS) {
		const v = body[k];
		if (v === undefined || v === null) continue;
		if (typeof v !== 'string') throw invalidParam(`'${k}' must be a string`);
		next[k] = v;
	}
	for (const k of BOOL_SETTINGS) {
		const v = optBool(body, k);
		if (v !== undefined) next[k] = v;
	}
	const transfer = body.callTransferType;
	if (transfer !== undefined && transfer !== null) {
		if (transfer !== 'Disabled' && transfer !== 'ToAssignedAgent') throw invalidParam(`'callTransferType' must be Disabled or ToAssignedAgent, got '${String(transfer)}'`);
		next.callTransferType = transfer;
	}
	const role = body.followUpRole;
	if (role !== undefined && role !== null) {
		if (role !== 'AI' && role !== 'Agent') throw invalidParam(`'followUpRole' must be AI or Agent, got '${String(role)}'`);
		next.followUpRole = role;
	}
	const start = intIn(body, 'startActiveHour', 0, 23);
	const end = intIn(body, 'endActiveHour', 0, 23);
	if (start !== undefined) next.startActiveHour = start;
	if (end !== undefined) next.endActiveHour = end;
	const days = intArray(body, 'activeDays', 0, 6);
	if (days !== undefined) next.activeDays = [...new Set(days)].sort();
	const types = intArray(body, 'leadTypes', 0, 2_147_483_647);
	if (types !== undefined) next.leadTypes = types;
	for (const k of ID_ARRAYS) {
		const v = idArray(body, k, false);
		if (v !== undefined) next[k] = v;
	}
	for (const k of ID_ARRAYS_WITH_ALL) {
		const v = idArray(body, k, true);
		if (v !== undefined) next[k] = v;
	}
	Object.assign(sa.settings, next);
	sa.updatedAt = now;
}
