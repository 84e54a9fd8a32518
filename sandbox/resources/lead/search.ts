/** Filtering, sorting and scroll cursors of GET /v1.0/leads. */
import { readingsOf } from '../../core/readings';
import { invalidParam } from '../../core/errors';
import { toInt64 } from '../../core/json';
import { boolParam, has, int64Param, listParam } from '../../core/params';
import type { Store } from '../../core/store';
import type { Lead, User } from '../../core/types';
import { LEAD_FIELDS, leadView } from './views';

export const LEAD_SORTS = [
	'Default', 'LastContact', 'LastCall', 'LastEmail', 'LastActivity', 'CreateTime', 'Inquries', 'DeleteTime', 'AssignTime', 'Score',
	'Activity', 'Communication', 'HasDrip', 'HasAlert', 'Task', 'Lender', 'ActivitySearch', 'ActivityViews', 'ActivityFavorites',
	'DripStatus', 'DripOpenRate', 'AlertFrequency', 'AlertOpenRate', 'SCOREV2', 'SmartPlanStatus',
];

/** Query parameters that select leads (everything but paging and returnFields). */
const FILTER_PARAMS = [
	'stage', 'source', 'phone', 'email', 'assignedUserId', 'contacted', 'groups', 'segments', 'allTags', 'anyTags', 'groupIds',
	'querySubGroup', 'sort', 'desc', 'languages', 'preciseSearchFlag', 'roleAssigneeFilters', 'key', 'otherFilters',
];

const lower = (s: string): string => s.toLowerCase();
const digits = (s: string): string => s.replace(/\D/g, '');
const inList = (value: string, list: string[]): boolean => list.some((x) => lower(x) === lower(value));

function sortValue(lead: Lead, sort: string): number | null {
	switch (sort) {
		case 'AssignTime':
			return lead.assignTime;
		case 'LastContact':
		case 'LastCall':
		case 'LastEmail':
		case 'LastActivity':
		case 'Activity':
		case 'Communication':
			return lead.lastTouch;
		case 'Score':
		case 'SCOREV2':
			return lead.score;
		case 'DeleteTime':
			return lead.deletedAt ?? lead.createTime;
		default:
			return lead.createTime;
	}
}

interface RoleFilter {
	roleName: string;
	assigneeToIds: bigint[];
}

function parseRoleFilters(raw: string): RoleFilter[] {
	let parsed: unknown;
	try {
		parsed = JSON.parse(raw);
	} catch {
		throw invalidParam(`'roleAssigneeFilters' must be a JSON array like [{"roleName":"Agent","assigneeToIds":[111]}], got '${raw}'`);
	}
	if (!Array.isArray(parsed)) throw invalidParam("'roleAssigneeFilters' must be a JSON array");
	return parsed.map((f: unknown) => {
		const o = f as Record<string, unknown>;
		if (!o || typeof o.roleName !== 'string' || !Array.isArray(o.assigneeToIds)) {
			throw invalidParam("each roleAssigneeFilters entry needs 'roleName' (string) and 'assigneeToIds' (array)");
		}
		return {
			roleName: o.roleName,
			assigneeToIds: o.assigneeToIds.map((x) => {
				const id = toInt64(x);
				if (id === null || id === undefined) throw invalidParam("'assigneeToIds' must hold integers");
				return id;
			}),
		};
	});
}

function parseOtherFilters(raw: string, store: Store): (lead: Lead) => boolean {
	let parsed: unknown;
	try {
		parsed = JSON.parse(raw);
	} catch {
		throw invalidParam(`'otherFilters' must be a JSON object, got '${raw}'`);
	}
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalidParam("'otherFilters' must be a JSON object");
	const entries = Object.entries(parsed as Record<string, unknown>);
	for (const [k] of entries) if (!LEAD_FIELDS.includes(k)) throw invalidParam(`'otherFilters' names an unknown lead field '${k}'`);
	const eq = (a: unknown, b: unknown): boolean =>
		typeof a === 'string' && typeof b === 'string' ? lower(a) === lower(b) : String(a) === String(b);
	return (lead) => {
		const view = leadView(lead, store);
		return entries.every(([k, want]) => {
			const have = view[k];
			if (want && typeof want === 'object' && !Array.isArray(want)) {
				const r = want as { min?: number; max?: number };
				const n = Number(have);
				return (r.min === undefined || n >= r.min) && (r.max === undefined || n <= r.max);
			}
			const wants = Array.isArray(want) ? want : [want];
			const haves = Array.isArray(have) ? have : [have];
			return wants.some((w) => haves.some((h) => eq(h, w)));
		});
	};
}

/** Build the lead predicate and comparator from the query. Throws INVALID_PARAMETER on bad values. */
export function compileLeadQuery(q: URLSearchParams, store: Store, user: User) {
	const stage = listParam(q, 'stage');
	const source = listParam(q, 'source');
	const phone = has(q, 'phone') ? q.get('phone')!.trim() : undefined;
	const email = has(q, 'email') ? q.get('email')!.trim() : undefined;
	const assignedUserId = int64Param(q, 'assignedUserId', false);
	const contacted = boolParam(q, 'contacted');
	const groups = listParam(q, 'groups');
	const segments = listParam(q, 'segments');
	const allTags = listParam(q, 'allTags');
	const anyTags = listParam(q, 'anyTags');
	const groupIdsRaw = listParam(q, 'groupIds');
	const querySubGroup = boolParam(q, 'querySubGroup') ?? false;
	const languages = listParam(q, 'languages');
	const precise = boolParam(q, 'preciseSearchFlag') ?? true;
	// docs/api-readings.md row 15: how a precise phone compares is not documented.
	const suffix = readingsOf(store).get('phoneSearch') === 'suffix';
	const key = has(q, 'key') ? q.get('key')!.trim() : undefined;
	const roleFilters = has(q, 'roleAssigneeFilters') ? parseRoleFilters(q.get('roleAssigneeFilters')!) : [];
	const other = has(q, 'otherFilters') ? parseOtherFilters(q.get('otherFilters')!, store) : undefined;
	const sort = has(q, 'sort') ? q.get('sort')!.trim() : 'Default';
	if (!LEAD_SORTS.includes(sort)) throw invalidParam(`'sort' must be one of ${LEAD_SORTS.join(', ')}; got '${sort}'`);
	const desc = boolParam(q, 'desc') ?? true;

	let offices: Set<bigint> | undefined;
	if (groupIdsRaw) {
		offices = new Set();
		for (const g of groupIdsRaw) {
			const id = toInt64(g);
			if (id === null || id === undefined) throw invalidParam(`'groupIds' must be integers, got '${g}'`);
			for (const o of store.officeTree(id, querySubGroup)) offices.add(o);
		}
	}

	const matches = (lead: Lead): boolean => {
		if (lead.deletedAt !== null || !store.canAccess(user.userId, lead)) return false;
		if (stage && !inList(lead.stage, stage)) return false;
		if (source && !inList(lead.source, source)) return false;
		if (phone !== undefined) {
			const d = digits(phone);
			const ok = lead.phones.some((p) => {
				const pd = digits(p);
				if (!precise) return d !== '' && pd.includes(d);
				return pd === d || (suffix && d.length >= 10 && pd.endsWith(d.slice(-10)) && d.endsWith(pd.slice(-10)));
			});
			if (!ok) return false;
		}
		if (email !== undefined && !lead.emails.some((e) => (precise ? lower(e) === lower(email) : lower(e).includes(lower(email))))) return false;
		if (assignedUserId !== undefined && lead.assignedUserId !== assignedUserId) return false;
		if (contacted !== undefined && lead.contacted !== contacted) return false;
		const segs = [...lead.segments, ...lead.groups];
		if (groups && !groups.some((g) => inList(g, segs))) return false;
		if (segments && !segments.some((g) => inList(g, segs))) return false;
		const tagNames = lead.tags.map((t) => t.tagName);
		// Tags are matched exactly, as Lofty writes and removes them.
		if (allTags && !allTags.every((t) => tagNames.includes(t))) return false;
		if (anyTags && !anyTags.some((t) => tagNames.includes(t))) return false;
		if (offices) {
			const office = lead.ownershipScope === 'OFFICE' && lead.ownershipId !== null
				? lead.ownershipId
				: lead.assignedUserId !== null ? store.getUser(lead.assignedUserId)?.groupId : undefined;
			if (office === undefined || !offices.has(office)) return false;
		}
		if (languages && !inList(lead.language, languages)) return false;
		for (const f of roleFilters) {
			if (!lead.customRoleList.some((r) => lower(r.role) === lower(f.roleName) && f.assigneeToIds.includes(r.assigneeId))) return false;
		}
		if (key) {
			const k = lower(key);
			const kd = digits(key);
			const hit =
				lower(`${lead.firstName} ${lead.lastName}`).includes(k) ||
				lead.emails.some((e) => lower(e).includes(k)) ||
				(kd.length >= 3 && lead.phones.some((p) => digits(p).includes(kd)));
			if (!hit) return false;
		}
		if (other && !other(lead)) return false;
		return true;
	};

	const nullKey = desc ? -1e300 : 1e300;
	const keyOf = (lead: Lead): [number, bigint] => [sortValue(lead, sort) ?? nullKey, lead.leadId];
	const compareKeys = (a: [number, bigint], b: [number, bigint]): number => {
		const primary = a[0] === b[0] ? 0 : a[0] < b[0] ? -1 : 1;
		const tie = a[1] === b[1] ? 0 : a[1] < b[1] ? -1 : 1;
		return (desc ? -1 : 1) * (primary || tie);
	};
	return { matches, keyOf, compareKeys };
}

/** Canonical filter query (what a scroll cursor carries). */
export function filterQueryString(q: URLSearchParams): string {
	const out = new URLSearchParams();
	for (const name of FILTER_PARAMS) for (const v of q.getAll(name)) out.append(name, v);
	return out.toString();
}

export interface ScrollCursor {
	q: string;
	k: [number, string];
	n: number;
	/** when it was handed out (store clock, epoch ms): ./scrolls.ts */
	t?: number;
}

export function encodeCursor(c: ScrollCursor): string {
	return Buffer.from(JSON.stringify(c)).toString('base64url');
}

export function decodeCursor(raw: string): ScrollCursor {
	try {
		const c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as ScrollCursor;
		if (typeof c.q === 'string' && Array.isArray(c.k) && typeof c.k[0] === 'number' && /^\d+$/.test(c.k[1]) && typeof c.n === 'number') return c;
	} catch {
		// fall through
	}
	throw invalidParam(`'scrollId' is not a valid scroll id: '${raw}'`);
}
