import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { buildRequest, requestSettings } from '../model/execute';
import { serialised } from '../model/keyedLock';
import { InvalidValue } from '../model/params';
import type { OperationContext, OperationDef } from '../model/types';
import { loftyRequest } from '../transport/request';
import { tagField } from './leadFields';

/**
 * Lead > Create or Update: finds the person by email, else by phone (Lofty's precise search), then updates the one
 * match, creates a lead when there is none, and with several either updates the most recently created or fails the
 * item with the IDs found.
 *
 * Two items about the same new person in one run: Lofty makes a new lead readable only after a short delay, so a
 * search right after the create can miss it. Items that share an email or phone therefore run one after the other,
 * and the leads this run created are remembered by their email and phone: the second item updates the first one's
 * lead. The memory lasts for one run of the node.
 */

export type MatchBy = 'emailThenPhone' | 'email' | 'phone';

interface Known {
	leadId: string;
	emails: string[];
	phones: string[];
}

const emailKey = (email: string) => `email:${email.trim().toLowerCase()}`;
const digits = (phone: string) => phone.replace(/\D/g, '');
/** One number however written: its last 10 digits (a +1 country code or not). */
const phoneNumber = (phone: string) => digits(phone).slice(-10);
const phoneKey = (phone: string) => `phone:${phoneNumber(phone)}`;

/** Leads created in this run, by match key. */
const created = new WeakMap<object, Map<string, Known>>();

function createdIn(ctx: IExecuteFunctions): Map<string, Known> {
	let found = created.get(ctx);
	if (!found) created.set(ctx, (found = new Map()));
	return found;
}

/** The match fields to try, in order, with their values (empty ones left out). */
function matchFields(values: IDataObject): Array<{ field: 'email' | 'phone'; value: string; key: string }> {
	const by = values.matchBy as MatchBy;
	const fields: Array<'email' | 'phone'> = by === 'email' ? ['email'] : by === 'phone' ? ['phone'] : ['email', 'phone'];
	return fields
		.filter((field) => typeof values[field] === 'string' && (values[field] as string) !== '')
		.map((field) => {
			const value = values[field] as string;
			return { field, value, key: field === 'email' ? emailKey(value) : phoneKey(value) };
		});
}

/** The rules of the match fields, checked before anything is sent. */
export function checkMatch(op: OperationContext): void {
	const { values } = op;
	const by = values.matchBy as MatchBy;
	if (by === 'email' && values.email === undefined) throw new InvalidValue('Email', 'is required when Match By is Email');
	if (by === 'phone' && values.phone === undefined) throw new InvalidValue('Phone', 'is required when Match By is Phone');
	if (values.email === undefined && values.phone === undefined) throw new InvalidValue('Email', 'give an email or a phone to find the lead by');
	if (typeof values.email === 'string' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email)) {
		throw new InvalidValue('Email', `must be an email address such as jane@example.com, got ${JSON.stringify(values.email)}`);
	}
	if (typeof values.phone === 'string' && digits(values.phone).length < 3) {
		throw new InvalidValue('Phone', `must be a phone number such as 4155551234, got ${JSON.stringify(values.phone)}`);
	}
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** `extra` added to `existing` unless already there (emails case-insensitively, phones by their digits); undefined when nothing is new. */
function union(existing: string[], extra: string[], same: (v: string) => string): string[] | undefined {
	const seen = new Set(existing.map(same));
	const added = extra.filter((v) => {
		const k = same(v);
		if (seen.has(k)) return false;
		seen.add(k);
		return true;
	});
	return added.length ? [...existing, ...added] : undefined;
}

async function send(op: OperationContext, def: OperationDef, values: IDataObject): Promise<IDataObject> {
	const { path, qs, body } = buildRequest(def, values);
	const answer = await loftyRequest(op.ctx, { method: def.method, path, qs, body, ...requestSettings(op.ctx, op.itemIndex) }, op.itemIndex);
	return answer !== null && typeof answer === 'object' && !Array.isArray(answer) ? (answer as IDataObject) : {};
}

/** Leads whose email or phone is exactly the given one, most recently created first. */
async function search(op: OperationContext, field: 'email' | 'phone', value: string): Promise<IDataObject[]> {
	const qs = { [field]: value, preciseSearchFlag: true, sort: 'CreateTime', desc: true, limit: 100 };
	const answer = (await loftyRequest(op.ctx, { method: 'GET', path: '/v1.0/leads', qs, ...requestSettings(op.ctx, op.itemIndex), idempotent: true }, op.itemIndex)) as IDataObject;
	return Array.isArray(answer?.leads) ? (answer.leads as IDataObject[]) : [];
}

/**
 * The lead after the write. A lead just created may not be readable yet (Lofty persists it asynchronously): the read
 * is tried again for a few seconds, then the item carries what is known.
 */
async function readBack(op: OperationContext, leadId: string, justCreated: boolean): Promise<IDataObject> {
	// Created in this run: Lofty may answer 404 for a few seconds.
	const waits = justCreated ? [250, 500, 1000, 2000] : [];
	for (let attempt = 0; ; attempt++) {
		try {
			const answer = (await loftyRequest(op.ctx, { method: 'GET', path: `/v1.0/leads/${leadId}`, ...requestSettings(op.ctx, op.itemIndex) }, op.itemIndex)) as IDataObject;
			return (answer?.lead as IDataObject | undefined) ?? answer;
		} catch (error) {
			const notYet = error instanceof NodeApiError && String(error.httpCode) === '404' && attempt < waits.length;
			if (!notYet) {
				if (justCreated && error instanceof NodeApiError && String(error.httpCode) === '404') {
					return { leadId, note: 'Lofty has not made the new lead readable yet; read it later with Lead > Get' };
				}
				if (error instanceof NodeApiError) throw new NodeApiError(op.ctx.getNode(), error as unknown as JsonObject);
				throw new NodeOperationError(op.ctx.getNode(), error as Error, { itemIndex: op.itemIndex });
			}
			await sleep(waits[attempt]);
		}
	}
}

export interface LeadWrites {
	create: OperationDef;
	update: OperationDef;
	/** The lead fields of the Simplified output (with the match outcome). */
	simplify: string[];
}

export async function createOrUpdate(op: OperationContext, writes: LeadWrites): Promise<IDataObject> {
	const fields = matchFields(op.values);
	return await serialised(op.ctx, fields.map((f) => f.key), async () => await matchAndWrite(op, writes, fields));
}

async function matchAndWrite(op: OperationContext, writes: LeadWrites, fields: ReturnType<typeof matchFields>): Promise<IDataObject> {
	const { values } = op;
	const memory = createdIn(op.ctx);
	const emails = [...(values.email ? [values.email as string] : []), ...strings(values.emails)];
	const phones = [...(values.phone ? [values.phone as string] : []), ...strings(values.phones)];
	const tags = values.tags as string[] | undefined;

	let matches: Array<{ leadId: string; emails: string[]; phones: string[] }> = [];
	let matchedBy: string | undefined;
	/** The match is a lead this run created, which Lofty may not let read yet. */
	let createdThisRun = false;
	for (const f of fields) {
		const known = memory.get(f.key);
		const found = known ? [known] : (await search(op, f.field, f.value)).map((l) => ({ leadId: String(l.leadId), emails: strings(l.emails), phones: strings(l.phones) }));
		if (found.length) {
			matches = found;
			matchedBy = f.field;
			createdThisRun = known !== undefined;
			break;
		}
	}

	if (matches.length === 0) {
		const answer = await send(op, writes.create, { ...values, emails: emails.length ? lowerDedupe(emails) : undefined, phones: phones.length ? phones : undefined, tags });
		const leadId = String(answer.leadId);
		for (const f of fields) memory.set(f.key, { leadId, emails, phones });
		return { action: 'created', ...(await readBack(op, leadId, true)), leadId };
	}

	if (matches.length > 1 && values.onMultiple === 'fail') {
		const ids = matches.map((m) => m.leadId);
		throw new NodeOperationError(op.ctx.getNode(), `${ids.length} leads match this ${matchedBy}: ${ids.join(', ')}`, {
			itemIndex: op.itemIndex,
			description: 'Nothing was changed. Merge the duplicates in Lofty, or set Options > If Several Match to "Update the Most Recently Created".',
		});
	}
	const target = matches[0];
	const update: IDataObject = {
		...values,
		leadId: target.leadId,
		emails: union(target.emails, emails, (v) => v.toLowerCase()),
		phones: union(target.phones, phones, phoneNumber),
		tags: values.replaceTags === true ? tags : undefined,
		tagsAdd: values.replaceTags === true ? undefined : tags,
	};
	await send(op, writes.update, update);
	const known = { leadId: target.leadId, emails: (update.emails as string[] | undefined) ?? target.emails, phones: (update.phones as string[] | undefined) ?? target.phones };
	for (const f of fields) if (memory.has(f.key)) memory.set(f.key, known);
	const others = matches.slice(1).map((m) => m.leadId);
	return { action: 'updated', matchedBy, ...(others.length ? { otherMatches: others } : {}), ...(await readBack(op, target.leadId, createdThisRun)), leadId: target.leadId };
}

/** The list without repeats (emails compare case-insensitively). */
function lowerDedupe(list: string[]): string[] {
	return list.filter((v, i) => list.findIndex((w) => w.toLowerCase() === v.toLowerCase()) === i);
}

const CREATE_ONLY = ['assignGroupId', 'welcomeEmail', 'leadAlert', 'content', 'isPin'];

/**
 * The operation: the fields of Create (tags are added to a known lead unless Replace Tags is on), the match
 * settings, and the custom-field mapper. Its table entry names Create's endpoint; Update's and the search are used too.
 */
export function createOrUpdateOperation(writes: LeadWrites): OperationDef {
	const fields = writes.create.params
		.filter((p) => !p.required && !['tags', 'tagsAdd'].includes(p.name))
		.map((p) => (CREATE_ONLY.includes(p.name) ? { ...p, description: `${p.description ?? p.label} (new leads only)` } : p));
	return {
		value: 'upsert',
		name: 'Create or Update',
		action: 'Create or update a lead',
		description: 'Create a new record, or update the current one if it already exists (upsert)',
		method: 'POST',
		path: '/v1.0/leads',
		params: [
			{ ...writes.create.params.find((p) => p.name === 'firstName')!, hint: undefined },
			{
				name: 'matchBy',
				label: 'Match By',
				type: 'options',
				in: 'local',
				required: true,
				options: [
					{ name: 'Email, Then Phone', value: 'emailThenPhone', description: 'Look for the email; when no lead has it, for the phone' },
					{ name: 'Email', value: 'email', description: 'Only leads with this exact email' },
					{ name: 'Phone', value: 'phone', description: 'Only leads with this exact phone number' },
				],
				default: 'emailThenPhone',
				description: 'How the existing lead is found (exact match)',
			},
			{ name: 'email', label: 'Email', type: 'string', in: 'local', top: true, placeholder: 'name@email.com', description: 'Finds the lead, and is added to its emails' },
			{ name: 'phone', label: 'Phone', type: 'string', in: 'local', top: true, maxLength: 20, placeholder: 'e.g. 4155551234', description: 'Finds the lead (when Match By allows), and is added to its phones' },
			...fields,
			tagField('tags', 'Tags', "Tags added to the lead's tags (see Options > Replace Tags)"),
			{
				name: 'onMultiple',
				label: 'If Several Match',
				type: 'options',
				in: 'local',
				group: 'options',
				options: [
					{ name: 'Update the Most Recently Created', value: 'updateNewest', description: 'The newest of the matching leads is updated; the output lists the others' },
					{ name: 'Fail the Item', value: 'fail', description: 'Nothing is changed; the error lists the matching leads' },
				],
				default: 'updateNewest',
				description: 'What to do when several leads have the email (or phone)',
			},
			{ name: 'replaceTags', label: 'Replace Tags', type: 'boolean', in: 'local', group: 'options', description: "Whether the tags given replace a known lead's tags instead of being added to them" },
		],
		validate(op) {
			checkMatch(op);
			writes.create.validate?.(op);
		},
		run: async (op) => await createOrUpdate(op, writes),
		simplify: ['action', 'matchedBy', 'otherMatches', 'note', ...writes.simplify],
		simplifyFrom: 1.1,
		customFields: writes.create.customFields,
	};
}
