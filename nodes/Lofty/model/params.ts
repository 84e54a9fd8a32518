import { IANAZone } from 'luxon';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { parseJson } from '../transport/json';
import { checkEmail, checkPhone, storedPhone } from './contacts';
import { type ZoneSource, noteAgentTime, noteTimeReading, readDate, workflowZone, zoneField, zoneHelp } from './dates';
import { isTimesIn, timesInChoice } from './agentZone';
import type { AgentReading } from './assigneeZone';
import { InvalidValue, invalid, show } from './invalid';
import { collectionOf, collectionsOf } from './collections';
import type { OperationDef, ParamDef } from './types';

const MAX_INT64 = BigInt('9223372036854775807');

export { InvalidValue, invalid, show } from './invalid';

function isEmpty(value: unknown): boolean {
	return (
		value === undefined ||
		value === null ||
		(typeof value === 'string' && value.trim() === '') ||
		(Array.isArray(value) && value.length === 0)
	);
}

const ID_RULE = 'must be a Lofty ID (a whole number from 1 to 9223372036854775807)';

/** Checks a Lofty ID: a whole number from 1 to 2^63-1, kept as exact digits. */
export function toId(field: string, value: unknown): string {
	const text = typeof value === 'number' ? (Number.isSafeInteger(value) ? String(value) : '') : String(value ?? '').trim();
	if (!/^\d+$/.test(text) || BigInt(text) < 1n || BigInt(text) > MAX_INT64) {
		throw new InvalidValue(field, `${ID_RULE}, got ${show(value)}`);
	}
	return text.replace(/^0+(?=\d)/, '');
}

function toList(field: string, value: unknown): string[] {
	let list: unknown[];
	if (Array.isArray(value)) list = value;
	else if (typeof value === 'string') list = value.split(',');
	else throw new InvalidValue(field, `must be a list of values, got ${show(value)}`);
	return list.map((v) => String(v ?? '').trim()).filter((v) => v !== '');
}

/**
 * Tag names from the dropdown (a list), an expression (a list, or text with commas) or a workflow of version 1/1.1
 * (a list of texts): every entry split at commas, trimmed, empties dropped, repeats dropped ignoring case (the first
 * spelling stays). Lofty has no tag name with a comma that a person could mean as one tag.
 */
export function toTagNames(p: ParamDef, value: unknown): string[] {
	const entries = Array.isArray(value) ? value : [value];
	const names: string[] = [];
	for (const entry of entries) {
		if (entry === null || entry === undefined) continue;
		if (typeof entry === 'object') throw new InvalidValue(p.label, `must be tag names (a list or text separated by commas), got ${show(entry)}`);
		for (const part of String(entry).split(',')) {
			const name = checkLength(p, part.trim());
			if (name !== '' && !names.some((n) => n.toLowerCase() === name.toLowerCase())) names.push(name);
		}
	}
	if (p.maxItems !== undefined && names.length > p.maxItems) throw new InvalidValue(p.label, `takes at most ${p.maxItems} tags, got ${names.length}`);
	return names;
}

/** How one item reads dates without a UTC offset: in the workflow's zone; `help` says where that is set. */
export interface DateReading {
	zone?: string;
	help?: string;
}

function toEpochOrIso(p: ParamDef, value: unknown, dates: DateReading): number | string {
	const date = readDate(p.label, value, dates.zone, dates.help);
	if (p.format === 'iso') return date.toISO() as string;
	if (p.format === 'date') return date.toFormat('MMM d, yyyy', { locale: 'en-US' });
	return date.toMillis();
}

/** Text of a field, with its length and, for an email or phone field, its rule checked (a lead phone in its stored form). */
export function checkContact(p: ParamDef, text: string): string {
	if (p.contact === 'email') return checkLength(p, checkEmail(p.label, text));
	if (p.contact === 'phone') return checkLength(p, checkPhone(p.label, text));
	if (p.contact === 'leadPhone') return checkLength(p, storedPhone(checkPhone(p.label, text)));
	return checkLength(p, text);
}

function toNumber(p: ParamDef, value: unknown): number {
	const number = typeof value === 'number' ? value : Number(String(value).trim());
	if (!Number.isFinite(number)) throw new InvalidValue(p.label, `must be a number, got ${show(value)}`);
	if (p.integer && !Number.isInteger(number)) throw new InvalidValue(p.label, `must be a whole number, got ${number}`);
	if (p.min !== undefined && number < p.min) throw new InvalidValue(p.label, `must be at least ${p.min}, got ${number}`);
	if (p.max !== undefined && number > p.max) throw new InvalidValue(p.label, `must be at most ${p.max}, got ${number}`);
	return number;
}

function toBoolean(p: ParamDef, value: unknown): boolean {
	if (typeof value === 'boolean') return value;
	if (value === 'true' || value === 1 || value === '1') return true;
	if (value === 'false' || value === 0 || value === '0') return false;
	throw new InvalidValue(p.label, `must be true or false, got ${show(value)}`);
}

function checkLength(p: ParamDef, text: string): string {
	if (p.maxLength !== undefined && text.length > p.maxLength) {
		throw new InvalidValue(p.label, `must be at most ${p.maxLength} characters, got ${text.length}`);
	}
	return text;
}

function parseUserJson(p: ParamDef, text: string): unknown {
	let problem: string | undefined;
	let value: unknown;
	try {
		value = parseJson(text);
	} catch (error) {
		problem = (error as Error).message;
	}
	if (problem !== undefined) throw new InvalidValue(p.label, `must be valid JSON (${problem})`);
	return value;
}

/**
 * A locator's value: n8n hands over the extracted ID for top-level fields; inside collections a
 * `{mode, value}` object may still arrive, and a URL is read with the locator's pattern.
 */
function locatorValue(p: ParamDef, raw: unknown): unknown {
	if (raw === null || typeof raw !== 'object') return raw;
	const { mode, value } = raw as { mode?: string; value?: unknown };
	if (mode === 'url' && p.locator?.urlRegex) {
		const match = new RegExp(p.locator.urlRegex).exec(String(value ?? ''));
		if (!match) throw new InvalidValue(p.label, `is not a Lofty ${p.label.toLowerCase()} URL: ${show(value)}`);
		return match[1];
	}
	return value;
}

/** Converts one parameter value to what the request needs; undefined means "leave it out". */
export function convert(p: ParamDef, raw: unknown, dates: DateReading = {}): unknown {
	if (p.type !== 'boolean' && p.type !== 'number' && isEmpty(raw)) {
		if (p.required) {
			throw new InvalidValue(p.label, p.requiredCode ? `is required (Lofty would answer ${p.requiredCode})` : 'is required');
		}
		return undefined;
	}
	switch (p.type) {
		case 'string':
			if (typeof raw === 'object') throw new InvalidValue(p.label, `must be text, got ${show(raw)}`);
			return checkContact(p, typeof raw === 'string' ? raw.trim() : String(raw));
		case 'options': {
			const allowed = p.options?.map((o) => o.value);
			if (allowed && !p.loadOptions && !allowed.includes(raw as string)) {
				throw new InvalidValue(p.label, `must be one of ${allowed.join(', ')}, got ${show(raw)}`);
			}
			return raw;
		}
		case 'multiOptions': {
			const list = Array.isArray(raw) ? raw.filter((v) => !isEmpty(v)) : toList(p.label, raw);
			return list.length ? list : undefined;
		}
		case 'number':
			if (raw === undefined || raw === null || raw === '') return undefined;
			return toNumber(p, raw);
		case 'boolean':
			if (raw === undefined || raw === null || raw === '') return undefined;
			return toBoolean(p, raw);
		case 'id':
			if (p.allowMinusOne && String(raw).trim() === '-1') return '-1';
			return toId(p.label, raw);
		case 'locator': {
			const id = locatorValue(p, raw);
			if (p.locator?.idKind === 'text') return checkLength(p, String(id).trim());
			if (typeof id !== 'number' && !/^\s*\d+\s*$/.test(String(id ?? ''))) {
				// Text (a name, a link) where an ID belongs: say what an ID is and where the other ways are.
				const other = p.locator?.urlRegex ? ', or switch the field to By URL and paste the link from Lofty, or to From List to search' : ', or switch the field to From List to search';
				throw new InvalidValue(p.label, `${ID_RULE}, got ${show(id)}; a ${p.label.toLowerCase()} ID is digits only (e.g. ${p.locator?.idPlaceholder})${other}`);
			}
			return toId(p.label, id);
		}
		case 'dateTime':
			return toEpochOrIso(p, raw, dates);
		case 'stringList': {
			const list = toList(p.label, raw).map((v) => checkContact(p, v));
			if (p.maxItems !== undefined && list.length > p.maxItems) {
				throw new InvalidValue(p.label, `takes at most ${p.maxItems} entries, got ${list.length}`);
			}
			return list.length ? list : undefined;
		}
		case 'tagList': {
			const names = toTagNames(p, raw);
			return names.length ? names : undefined;
		}
		case 'idList': {
			const list = toList(p.label, raw).map((v) => toId(p.label, v));
			return list.length ? list : undefined;
		}
		case 'json': {
			const value = typeof raw === 'string' ? parseUserJson(p, raw) : raw;
			if (p.jsonShape === 'array' && !Array.isArray(value)) throw new InvalidValue(p.label, 'must be a JSON array');
			if (p.jsonShape === 'object' && (value === null || typeof value !== 'object' || Array.isArray(value))) {
				throw new InvalidValue(p.label, 'must be a JSON object');
			}
			return value;
		}
		case 'fixedCollection': {
			const rows = (raw !== null && typeof raw === 'object' ? (raw as IDataObject).values : raw) ?? [];
			if (!Array.isArray(rows) || rows.some((row) => row === null || typeof row !== 'object' || Array.isArray(row))) {
				throw new InvalidValue(p.label, `must be a list of entries with fields, got ${show(raw)}`);
			}
			const converted = (rows as IDataObject[]).map((row) => {
				const out: IDataObject = {};
				for (const field of p.fields ?? []) {
					const v = convert(field, row[field.name], dates);
					if (v !== undefined) out[field.key ?? field.name] = v as IDataObject;
				}
				return out;
			});
			if (p.required && converted.length === 0) throw new InvalidValue(p.label, 'needs at least one entry');
			if (p.maxItems !== undefined && converted.length > p.maxItems) {
				throw new InvalidValue(p.label, `takes at most ${p.maxItems} entries, got ${converted.length}`);
			}
			return converted.length ? converted : undefined;
		}
	}
}

/**
 * Reads, checks and converts every parameter of an operation for one item. `agent`: the zone the item's agent times
 * are read in when its choice is the Lofty user's (or the assignee's) zone (model/assigneeZone.ts).
 */
export function readValues(ctx: IExecuteFunctions, op: OperationDef, itemIndex: number, agent?: AgentReading): IDataObject {
	const values: IDataObject = {};
	const collections: Record<string, IDataObject> = {};
	for (const { name } of collectionsOf(op)) {
		collections[name] = ctx.getNodeParameter(name, itemIndex, {}, { extractValue: true }) as IDataObject;
	}
	// The operation's Time Zone, when set to a zone, wins over the workflow's (it is checked as a field below).
	const zoneParam = zoneField(op);
	const given = zoneParam && (zoneParam.required || zoneParam.top ? ctx.getNodeParameter(zoneParam.name, itemIndex, '') : collections[collectionOf(op, zoneParam).name]?.[zoneParam.name]);
	const agentTimes = op.params.some((p) => p.agentTime);
	let zone = workflowZone(ctx);
	let from: ZoneSource = 'workflow';
	if (typeof given === 'string' && IANAZone.isValidZone(given.trim())) [zone, from] = [given.trim(), 'timeZoneField'];
	else if (agentTimes && timesInChoice(ctx, itemIndex) === 'agent') [zone, from] = agent?.zone ? [agent.zone, agent.from] : [zone, 'workflowNoUserZone'];
	const help = agentTimes ? `${zoneHelp(op).replace("the workflow's time zone (Workflow Settings > Timezone)", 'the zone of "Times Without Offset Are In"')}` : zoneHelp(op);
	const dates: DateReading = { zone, help };
	if (agentTimes) noteTimeReading(values, zone, from, from === 'timeZoneField' ? undefined : agent?.about);
	try {
		for (const p of op.params) {
			if (isTimesIn(p)) continue;
			let raw = p.required || p.top
				? ctx.getNodeParameter(p.name, itemIndex, p.top ? null : undefined, { extractValue: p.type === 'locator' })
				: collections[collectionOf(op, p).name]?.[p.name];
			if (!p.required && (raw === undefined || raw === null)) {
				if (!p.sendDefault || p.default === undefined) continue;
				raw = p.default;
			}
			const value = convert(p, raw, dates);
			if (p.agentTime && value !== undefined) noteAgentTime(values, p.label, raw, readDate(p.label, raw, zone));
			if (p.sendOnlyIfTrue && value !== true) continue;
			if (value !== undefined) values[p.name] = value as IDataObject;
		}
	} catch (error) {
		throw error instanceof InvalidValue ? invalid(ctx, itemIndex, error) : new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
	}
	return values;
}
