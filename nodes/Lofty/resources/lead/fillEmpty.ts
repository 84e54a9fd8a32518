import type { IDataObject } from 'n8n-workflow';

/**
 * Lead > Create or Update, "When the Lead Exists: Only Fill Empty Fields": of an update's body, only what the
 * existing lead does not have yet. A person's first answers (source "Open House", name "Tess") are what the team
 * works with; a repeat form submission must not replace them.
 *
 * Compared against the lead as Lofty answers it (LeadResponse): a field is empty when it is absent, null, blank
 * text, -1 (Lofty's "unset" for numbers), or an empty list; true/false values are never empty, but a contact
 * restriction (Do Not Text/Call/Email, Unsubscribed) given on is always set: a restriction is never lost. Objects
 * (the inquiry, a property, the Other Fields JSON) are compared key by key; custom fields by name (a multi-value one
 * gets the items it lacks added). Emails, phones
 * and tags are not here: they are added to the lead's in both modes (the caller), never replaced.
 */

/** Body fields that add to the lead rather than replace a value: sent as the caller built them. */
const ADDED = new Set(['emails', 'phones', 'tags', 'tagsAdd', 'tagsRemove', 'clearAllTags']);
/** Contact restrictions: turning one on is sent in both modes. */
const RESTRICTIONS = new Set(['cannotText', 'cannotCall', 'cannotEmail', 'unsubscription']);
/** Where LeadResponse keeps what the body sends under another name. */
const READ_AS: Record<string, string> = { inquiry: 'leadInquiry', customAttributeList: 'customAttributes', property: 'leadPropertyList' };
/** A property is the same one when these parts match (Lofty merges a property sent without ID into it). */
const ADDRESS = ['streetAddress', 'city', 'state', 'zipCode'];

const isObject = (v: unknown): v is IDataObject => v !== null && typeof v === 'object' && !Array.isArray(v);

export function isEmpty(value: unknown): boolean {
	if (value === undefined || value === null) return true;
	if (typeof value === 'string') return ['', '-1', '[]'].includes(value.trim());
	if (typeof value === 'number') return value === -1 || Number.isNaN(value);
	if (typeof value === 'bigint') return value === -1n;
	if (Array.isArray(value)) return value.length === 0;
	if (isObject(value)) return Object.values(value).every(isEmpty);
	return false;
}

/** The same value (numbers and IDs compare by their digits, lists and objects by their parts). */
function same(a: unknown, b: unknown): boolean {
	if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => same(v, b[i]));
	if (isObject(a) && isObject(b)) return Object.keys(a).every((k) => same(a[k], b[k]));
	const scalar = (v: unknown) => ['string', 'number', 'bigint', 'boolean'].includes(typeof v);
	return scalar(a) && scalar(b) && String(a) === String(b);
}

/** The part of `value` that fills what `current` lacks; undefined when nothing does. Kept values are listed. */
function fill(value: unknown, current: unknown, path: string, kept: string[]): unknown {
	if (isEmpty(current)) return value;
	if (isObject(value) && isObject(current)) {
		const out: IDataObject = {};
		for (const [k, v] of Object.entries(value)) {
			const part = fill(v, current[k], `${path}.${k}`, kept);
			if (part !== undefined) out[k] = part;
		}
		return Object.keys(out).length ? out : undefined;
	}
	if (!same(value, current)) kept.push(path);
	return undefined;
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : '');

/** The lead's property a property write lands on: by its ID, else the one at the same address. */
function propertyOf(lead: IDataObject, property: IDataObject): IDataObject | undefined {
	const list = Array.isArray(lead.leadPropertyList) ? (lead.leadPropertyList as IDataObject[]).filter(isObject) : [];
	if (property.id !== undefined && property.id !== null && String(property.id) !== '0') return list.find((p) => String(p.id) === String(property.id));
	return list.find((p) => ADDRESS.every((f) => text(p[f]) === text(property[f])));
}

function fillProperty(property: IDataObject, lead: IDataObject, kept: string[]): IDataObject | undefined {
	const target = propertyOf(lead, property);
	if (!target) return property;
	const out: IDataObject = {};
	for (const [k, v] of Object.entries(property)) {
		if (k === 'id' || ADDRESS.includes(k)) continue;
		const part = fill(v, target[k], `property.${k}`, kept);
		if (part !== undefined) out[k] = part;
	}
	if (!Object.keys(out).length) return undefined;
	// Which property to write: its ID and its address as Lofty has it (not as given: "1 ELM ST" must not replace "1 Elm St").
	// IDs travel as exact integers (bigint), as every ID the node sends.
	if (/^\d+$/.test(String(target.id ?? ''))) out.id = BigInt(String(target.id)) as unknown as IDataObject[string];
	else if (property.id !== undefined) out.id = property.id;
	for (const k of ADDRESS) {
		const value = isEmpty(target[k]) ? property[k] : target[k];
		if (value !== undefined) out[k] = value;
	}
	return out;
}

/** The chosen items of a multi-value (multi-choice) custom field value: a JSON list or its text; undefined for other values. */
function choicesOf(value: unknown): string[] | undefined {
	let list = value;
	if (typeof value === 'string' && value.trim().startsWith('[')) {
		try {
			list = JSON.parse(value);
		} catch {
			return undefined;
		}
	}
	return Array.isArray(list) && list.every((v) => ['string', 'number'].includes(typeof v)) ? list.map(String) : undefined;
}

/**
 * Custom fields by name: an empty one is filled, a set one keeps its value (listed in keptFields), except a
 * multi-value field when `addChoices`, which gets the given items it lacks added to its own (as tags, emails and
 * phones are).
 */
function fillCustomFields(list: unknown[], lead: IDataObject, kept: string[], addChoices: boolean): IDataObject[] | undefined {
	const current = Array.isArray(lead.customAttributes) ? (lead.customAttributes as IDataObject[]).filter(isObject) : [];
	const out: IDataObject[] = [];
	for (const attribute of list.filter(isObject)) {
		const had = current.find((c) => c.attributeName === attribute.attributeName);
		if (!had || isEmpty(had.value)) {
			out.push(attribute);
			continue;
		}
		const given = choicesOf(attribute.value);
		const has = choicesOf(had.value);
		if (given && has && addChoices) {
			const known = new Set(has.map((v) => v.toLowerCase()));
			const added = given.filter((v) => !known.has(v.toLowerCase()));
			if (added.length) out.push({ ...attribute, value: JSON.stringify([...has, ...added]) });
			continue;
		}
		if (!same(given ?? attribute.value, has ?? had.value)) kept.push(`customFields.${String(attribute.attributeName)}`);
	}
	return out.length ? out : undefined;
}

/** An update body whose multi-value custom fields keep the lead's current items before the given ones. */
export function withCurrentChoices(body: IDataObject, lead: IDataObject): IDataObject {
	if (!Array.isArray(body.customAttributeList)) return body;
	const current = Array.isArray(lead.customAttributes) ? (lead.customAttributes as IDataObject[]).filter(isObject) : [];
	const list = (body.customAttributeList as unknown[]).filter(isObject).map((attribute) => {
		const given = choicesOf(attribute.value);
		const has = choicesOf(current.find((c) => c.attributeName === attribute.attributeName)?.value);
		if (!given || !has) return attribute;
		const known = new Set(has.map((v) => v.toLowerCase()));
		return { ...attribute, value: JSON.stringify([...has, ...given.filter((v) => !known.has(v.toLowerCase()))]) };
	});
	return { ...body, customAttributeList: list };
}

/** The update body cut to what the lead lacks, and the fields whose different value was kept. */
export function onlyEmptyFields(body: IDataObject, lead: IDataObject, addChoices = true): { body: IDataObject; kept: string[] } {
	const out: IDataObject = {};
	const kept: string[] = [];
	for (const [key, value] of Object.entries(body)) {
		let part: unknown;
		if (ADDED.has(key) || (RESTRICTIONS.has(key) && value === true)) part = value;
		else if (key === 'customAttributeList' && Array.isArray(value)) part = fillCustomFields(value, lead, kept, addChoices);
		else if (key === 'property' && isObject(value)) part = fillProperty(value, lead, kept);
		else part = fill(value, lead[READ_AS[key] ?? key], key, kept);
		if (part !== undefined) out[key] = part as IDataObject[keyof IDataObject];
	}
	return { body: out, kept };
}

/**
 * The lead as far as this process knows it after writing `body` to it: for a lead Lofty cannot read yet, what the
 * next Only Fill Empty Fields compares against.
 */
export function afterWrite(lead: IDataObject, body: IDataObject): IDataObject {
	const next: IDataObject = { ...lead };
	for (const [key, value] of Object.entries(body)) {
		if (ADDED.has(key)) continue;
		if (key === 'inquiry' && isObject(value)) next.leadInquiry = { ...(isObject(lead.leadInquiry) ? lead.leadInquiry : {}), ...value };
		else if (key === 'customAttributeList' && Array.isArray(value)) {
			const names = new Set(value.filter(isObject).map((a) => a.attributeName));
			const before = Array.isArray(lead.customAttributes) ? (lead.customAttributes as IDataObject[]) : [];
			next.customAttributes = [...before.filter((a) => !names.has(a.attributeName)), ...(value as IDataObject[])];
		} else if (key === 'property' && isObject(value)) {
			const before = Array.isArray(lead.leadPropertyList) ? (lead.leadPropertyList as IDataObject[]) : [];
			const target = propertyOf(lead, value);
			next.leadPropertyList = target ? before.map((p) => (p === target ? { ...p, ...value } : p)) : [...before, value];
		} else next[key] = value;
	}
	return next;
}
