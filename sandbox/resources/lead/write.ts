/** Applying LeadRequest / EditLeadRequest / LeadProperty / LeadInquiry bodies to a stored lead. */
import { ApiError, Codes, invalidParam } from '../../core/errors';
import { toInt64 } from '../../core/json';
import {
	type Obj,
	asObject,
	optBool,
	optInt64,
	optIntArray,
	optNumber,
	optString,
	optStringArray,
} from '../../core/params';
import { readingsOf, truncateIntegers } from '../../core/readings';
import type { Store } from '../../core/store';
import type { Lead, LeadPropertyRecord, OwnershipScope, User } from '../../core/types';
import { tagShapeRefusal } from './tagRefusal';

const QUALIFICATION = ['buyingTimeFrame', 'preQual', 'houseToSell', 'fthb', 'withBuyerAgent', 'sellingTimeFrame', 'mortgage', 'buyHouse', 'withListingAgent'];
const PROPERTY_STRINGS = ['state', 'city', 'streetAddress', 'zipCode', 'county', 'propertyType', 'listingId', 'label', 'note', 'listingStatus', 'labelList', 'pictureUrl', 'siteListingUrl', 'labelType'];
const PROPERTY_NUMBERS = ['price', 'bedrooms', 'bathrooms', 'squareFeet', 'lotSize', 'parkingSpace', 'floors', 'autoListingId', 'priceMax', 'priceMin'];
const ADDRESS = ['city', 'state', 'zipCode', 'streetAddress'];

const blank = (v: unknown): boolean => typeof v !== 'string' || v.trim() === '';

/** Integer fields of LeadProperty and LeadInquiry in the OpenAPI (int32 / int64). */
const PROPERTY_INTEGERS = ['price', 'priceMin', 'priceMax', 'bedrooms', 'squareFeet', 'parkingSpace', 'floors'];
const INQUIRY_INTEGERS = ['priceMin', 'priceMax', 'bedroomsMin', 'bedroomsMax'];

/** Validate a LeadProperty block; returns it as an object. 200057 when every address part is blank. */
export function checkProperty(raw: unknown, store: Store): Obj {
	const p = asObject(raw, "'property'");
	truncateIntegers(store, p, PROPERTY_INTEGERS);
	for (const f of PROPERTY_STRINGS) optString(p, f);
	for (const f of PROPERTY_NUMBERS) optNumber(p, f);
	optBool(p, 'mailAddress');
	optInt64(p, 'id');
	if (ADDRESS.every((f) => blank(p[f]))) {
		throw new ApiError(400, Codes.PROPERTY_ADDRESS_EMPTY, 'PROPERTY_ADDRESS_EMPTY: at least one of city, state, zipCode, streetAddress must be non-blank');
	}
	return p;
}

/** Resolve the target of a property write before any change is made (200108 when id > 0 is not this lead's). */
export function resolveProperty(lead: Lead, p: Obj): LeadPropertyRecord | undefined {
	const id = optInt64(p, 'id');
	if (id !== undefined && id > 0n) {
		const found = lead.properties.find((x) => x.id === id);
		if (!found) throw new ApiError(404, Codes.LEAD_PROPERTY_NOT_EXIST, `LEAD_PROPERTY_NOT_EXIST: property ${id} does not belong to lead ${lead.leadId}`);
		return found;
	}
	const norm = (v: unknown): string => (typeof v === 'string' ? v.trim().toLowerCase() : '');
	return lead.properties.find((x) => ADDRESS.every((f) => norm(x[f]) === norm(p[f])));
}

/** Create or merge a property on the lead (call checkProperty and resolveProperty first). */
export function writeProperty(store: Store, lead: Lead, p: Obj, target: LeadPropertyRecord | undefined): LeadPropertyRecord {
	const rec: LeadPropertyRecord = target ?? { id: store.nextPropertyId++, leadUserId: lead.leadUserId, mailAddress: false };
	for (const f of PROPERTY_STRINGS) if (p[f] !== undefined) rec[f] = p[f];
	for (const f of PROPERTY_NUMBERS) if (p[f] !== undefined) rec[f] = optNumber(p, f);
	if (p.mailAddress !== undefined) rec.mailAddress = optBool(p, 'mailAddress');
	if (!target) lead.properties.push(rec);
	return rec;
}

export function checkInquiry(raw: unknown, store: Store): Obj {
	const q = asObject(raw, "'inquiry'");
	truncateIntegers(store, q, INQUIRY_INTEGERS);
	for (const f of INQUIRY_INTEGERS) optInt64(q, f);
	for (const f of ['bathroomsMin', 'bathroomsMax']) {
		const v = q[f];
		if (v !== undefined && v !== null && typeof v !== 'string' && typeof v !== 'number') throw invalidParam(`'${f}' must be a string`);
	}
	optStringArray(q, 'propertyType');
	if (q.locations !== undefined && q.locations !== null) {
		if (!Array.isArray(q.locations)) throw invalidParam("'locations' must be an array of Location objects");
		for (const l of q.locations) asObject(l, "'locations' entry");
	}
	return q;
}

export function writeInquiry(lead: Lead, q: Obj, now: number): void {
	const cur: Obj = lead.leadInquiry ?? { id: lead.leadId * 10n + 7n, leadUserId: lead.leadUserId, createTime: new Date(now).toISOString() };
	for (const [k, v] of Object.entries(q)) if (k !== 'id' && k !== 'leadUserId' && v !== undefined) cur[k] = v;
	cur.updateTime = new Date(now).toISOString();
	lead.leadInquiry = cur;
}

export function checkAssignee(store: Store, raw: bigint | undefined, teamId: bigint): User | undefined {
	if (raw === undefined) return undefined;
	const u = store.getUser(raw);
	if (!u || u.teamId !== teamId || u.status !== 1) throw invalidParam(`'assignedUserId' ${raw} is not an active member of the team`);
	return u;
}

export function readOwnership(o: Obj, caller: User): { scope: OwnershipScope; id: bigint | null } | undefined {
	const scope = optString(o, 'ownershipScope');
	const id = optInt64(o, 'ownershipId');
	if (scope === undefined) return undefined;
	if (scope !== 'TEAM' && scope !== 'OFFICE' && scope !== 'PERSONAL') throw invalidParam(`'ownershipScope' must be TEAM, OFFICE or PERSONAL, got '${scope}'`);
	if (scope === 'OFFICE' && id === undefined) throw invalidParam("'ownershipId' (office id) is required when ownershipScope is OFFICE");
	return { scope, id: scope === 'TEAM' ? null : (id ?? caller.userId) };
}

/** Plain fields shared by create and update (validated, then applied). */
export function applyPlainFields(lead: Lead, o: Obj, now: number): void {
	const str = (f: string, max?: number): string | undefined => optString(o, f, max);
	const setStr = (f: 'firstName' | 'lastName' | 'streetAddress' | 'city' | 'state' | 'zipCode' | 'referredBy' | 'source' | 'language', max?: number): void => {
		const v = str(f, max);
		if (v !== undefined) lead[f] = v;
	};
	const firstName = str('firstName', 30);
	if (firstName !== undefined) {
		if (firstName.trim() === '') throw invalidParam("'firstName' must not be blank");
		lead.firstName = firstName;
	}
	setStr('lastName', 30);
	setStr('streetAddress');
	setStr('city');
	setStr('state');
	setStr('zipCode');
	setStr('referredBy');
	setStr('source');
	setStr('language');
	const birthday = str('birthday');
	if (birthday !== undefined) {
		if (!/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/.test(birthday)) throw invalidParam(`'birthday' must match pattern MMM d, yyyy (e.g. Jun 5, 2001), got '${birthday}'`);
		lead.birthday = birthday;
	}
	const emails = optStringArray(o, 'emails');
	if (emails) lead.emails = emails.map((e) => e.trim()).filter(Boolean);
	const phones = optStringArray(o, 'phones');
	if (phones) {
		const bad = phones.find((p) => p.length > 20);
		if (bad) throw invalidParam(`phone '${bad}' is longer than 20 characters`);
		lead.phones = phones.filter((p) => p.trim() !== '');
		lead.phoneStatuses = lead.phones.map(() => 2);
	}
	const leadTypes = optIntArray(o, 'leadTypes');
	if (leadTypes) lead.leadTypes = leadTypes;
	const segments = optStringArray(o, 'segments', 30);
	if (segments) lead.segments = segments;
	const groups = optStringArray(o, 'groups', 30);
	if (groups) lead.groups = groups;
	for (const f of ['cannotText', 'cannotCall', 'cannotEmail', 'unsubscription'] as const) {
		const v = optBool(o, f);
		if (v !== undefined) lead[f] = v;
	}
	const hidden = optBool(o, 'isHidden');
	if (hidden !== undefined) lead.hiddenFlag = hidden;
	for (const f of QUALIFICATION) {
		const v = optString(o, f);
		if (v !== undefined) lead.qualification[f] = v;
	}
	if (o.customAttributeList !== undefined && o.customAttributeList !== null) {
		if (!Array.isArray(o.customAttributeList)) throw invalidParam("'customAttributeList' must be an array");
		for (const a of o.customAttributeList) {
			const attr = asObject(a, "'customAttributeList' entry");
			if (blank(attr.attributeName) || blank(attr.attributeType)) throw invalidParam('custom attributes need attributeName and attributeType');
			const i = lead.customAttributes.findIndex((x) => x.attributeName === attr.attributeName);
			if (i >= 0) lead.customAttributes[i] = attr;
			else lead.customAttributes.push(attr);
		}
	}
	if (o.leadFamilyMemberList !== undefined && o.leadFamilyMemberList !== null) {
		if (!Array.isArray(o.leadFamilyMemberList)) throw invalidParam("'leadFamilyMemberList' must be an array");
		if (o.leadFamilyMemberList.length > 4) throw invalidParam('at most 4 family members');
		for (const m of o.leadFamilyMemberList) if (blank(asObject(m, 'family member').firstName)) throw invalidParam('family members need firstName');
		lead.leadFamilyMemberList = o.leadFamilyMemberList as Obj[];
	}
	lead.lastUpdateTime = now;
}

/**
 * Tag names from a body field, each cut to 64 characters, in the shape the tagWrites reading takes: `strings` names
 * (the spec, the OpenAPI); `objects` `{tagName}` objects (Lofty's lead management guide). The other shape is refused
 * as Jackson refuses it, a 400 JSON parse error naming the field, or in plain words (./tagRefusal.ts), and nothing is
 * written (docs/api-readings.md, row 21).
 */
export function tagNames(store: Store, o: Obj, field: string, request = 'EditLeadRequest'): string[] | undefined {
	const raw = o[field];
	if (raw === undefined || raw === null) return undefined;
	if (!Array.isArray(raw)) throw invalidParam(`'${field}' must be an array`);
	if (readingsOf(store).get('tagWrites') === 'strings') {
		if (raw.some((x) => x !== null && typeof x === 'object')) throw tagShapeRefusal(store, field, 'strings', request);
		return optStringArray(o, field, 64);
	}
	const text = raw.find((x) => typeof x === 'string') as string | undefined;
	if (text !== undefined) throw tagShapeRefusal(store, field, 'objects', request, text);
	return raw.map((x) => {
		const name = (x as Obj | null)?.tagName;
		if (typeof name !== 'string') throw invalidParam(`'${field}' entries need tagName`);
		return name.slice(0, 64);
	});
}

/**
 * Update-tag precedence (api-spec.md, EditLeadRequest):
 * clearAllTags wins over everything; otherwise `tags` replaces, `tagsAdd` adds, then `tagsRemove`
 * removes literal names that were on the lead before this request (others ignored).
 */
export function applyEditTags(store: Store, lead: Lead, o: Obj, actor: User, now: number): void {
	const clear = optBool(o, 'clearAllTags') ?? false;
	const tags = tagNames(store, o, 'tags');
	const add = tagNames(store, o, 'tagsAdd');
	const remove = tagNames(store, o, 'tagsRemove');
	if (clear) {
		lead.tags = [];
		return;
	}
	const before = new Set(lead.tags.map((t) => t.tagName));
	let next = tags !== undefined ? tags.map((n) => lead.tags.find((t) => t.tagName === n) ?? store.makeTag(n, actor.userId, now)) : [...lead.tags];
	for (const n of add ?? []) if (!next.some((t) => t.tagName === n)) next.push(store.makeTag(n, actor.userId, now));
	if (remove) {
		const drop = new Set(remove.filter((n) => before.has(n)));
		next = next.filter((t) => !drop.has(t.tagName));
	}
	const seen = new Set<string>();
	lead.tags = next.filter((t) => (seen.has(t.tagName) ? false : (seen.add(t.tagName), true)));
}

export function readId(o: Obj, field: string): bigint | undefined {
	const v = toInt64(o[field]);
	if (v === null) throw invalidParam(`'${field}' must be an int64 integer`);
	return v;
}
