import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { buildRequest, requestSettings } from '../../model/execute';
import { addsChoices } from '../../model/customFields';
import { InvalidValue } from '../../model/params';
import type { OperationContext, OperationDef, RecordsRead } from '../../model/types';
import { accountOf, loftyRequest } from '../../transport/request';
import { afterWrite, onlyEmptyFields, withCurrentChoices } from './fillEmpty';
import { type KnownLead, type NotMerged, emailKey, forget, normalPhone, personKeys, phoneKey, otherPeople, phoneSearchValues, recall, remember, setApartBy } from './keys';
import { tagField } from './fields';
import { type UncertainCreate, earlierItem, settleUncertainCreate, uncertainCreateFor } from './uncertainCreates';
import { createThenRead, currentLead, failure, notFound, readAfterWrite, send } from './writeRead';

/**
 * Lead > Create or Update: finds the person by email, else by phone (Lofty's precise search), then updates the one
 * match, creates a lead when there is none, and with several either updates the most recently created or fails the
 * item with the IDs found. When the lead exists, by default only its empty fields are filled (fillEmpty.ts).
 *
 * One lead per person: Lofty makes a new lead readable only after a short delay, so a search right after the create
 * can miss it. Work for the same person (any shared email or phone) runs one after the other in this n8n process,
 * across its executions (the operation's turn, model/turns.ts; Lead > Create takes it too), and the leads created
 * here or by Lead > Create (writeRead.ts createThenRead), or given a new email or phone here, are remembered for a few
 * minutes by every email and phone (keys.ts): a later item or execution updates that lead (one Lead > Create made is
 * searched for too, since the person may have others). A create that got no certain answer is remembered too
 * (uncertainCreates.ts): a later item that may be its person (mayBeThePerson) searches again once Lofty can read
 * that lead, and never creates a second one.
 */

export type MatchBy = 'emailThenPhone' | 'email' | 'phone';
export type WhenExists = 'fillEmpty' | 'updateAll';

interface MatchField {
	field: 'email' | 'phone';
	value: string;
	key: string;
}

/** The match fields to try, in order, with their values (empty ones left out). */
function matchFields(values: IDataObject): MatchField[] {
	const by = values.matchBy as MatchBy;
	const fields: Array<'email' | 'phone'> = by === 'email' ? ['email'] : by === 'phone' ? ['phone'] : ['email', 'phone'];
	return fields
		.filter((field) => typeof values[field] === 'string' && (values[field] as string) !== '')
		.map((field) => {
			const value = values[field] as string;
			return { field, value, key: field === 'email' ? emailKey(value) : phoneKey(value) };
		});
}

/** Which match fields must be given, checked before anything is sent (each value's own rule is its field's, model/contacts.ts). */
export function checkMatch(op: OperationContext): void {
	const { values } = op;
	const by = values.matchBy as MatchBy;
	if (by === 'email' && values.email === undefined) throw new InvalidValue('Email', 'is required when Match By is Email');
	if (by === 'phone' && values.phone === undefined) throw new InvalidValue('Phone', 'is required when Match By is Phone');
	if (values.email === undefined && values.phone === undefined) throw new InvalidValue('Email', 'give an email or a phone to find the lead by');
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** `extra` added to `existing` unless already there (compared by `same`); undefined when nothing is new. */
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

const lower = (v: string) => v.trim().toLowerCase();

/**
 * Leads with exactly this email or phone, most recently created first. The answers are checked against the same
 * rule as the memory (a phone by its normalised form), whatever the search compared.
 */
async function search(op: OperationContext, f: MatchField): Promise<KnownLead[]> {
	const has = f.field === 'email' ? (l: IDataObject) => strings(l.emails).some((e) => lower(e) === lower(f.value)) : (l: IDataObject) => strings(l.phones).some((p) => phoneKey(p) === f.key);
	for (const value of f.field === 'phone' ? phoneSearchValues(f.value) : [f.value]) {
		const qs = { [f.field]: value, preciseSearchFlag: true, sort: 'CreateTime', desc: true, limit: 100 };
		const answer = (await loftyRequest(op.ctx, { method: 'GET', path: '/v1.0/leads', qs, ...requestSettings(op.ctx, op.itemIndex), idempotent: true }, op.itemIndex)) as IDataObject;
		const leads = Array.isArray(answer?.leads) ? (answer.leads as IDataObject[]).filter(has) : [];
		if (leads.length) return leads.map((l) => ({ leadId: String(l.leadId), emails: strings(l.emails), phones: strings(l.phones), fields: l, recent: false }));
	}
	return [];
}

export interface LeadWrites {
	create: OperationDef;
	update: OperationDef;
	/** The lead fields of the Simplified output (with the match outcome). */
	simplify: string[];
}

export interface Person {
	fields: MatchField[];
	emails: string[];
	phones: string[];
}

function personOf(values: IDataObject): Person {
	return {
		fields: matchFields(values),
		emails: [...(values.email ? [values.email as string] : []), ...strings(values.emails)],
		phones: [...(values.phone ? [values.phone as string] : []), ...strings(values.phones)],
	};
}

export async function createOrUpdate(op: OperationContext, writes: LeadWrites): Promise<IDataObject> {
	return await matchAndWrite(op, writes, await accountOf(op.ctx), personOf(op.values), true);
}

interface Found {
	matches: KnownLead[];
	matchedBy?: string;
	remembered: boolean;
	notMerged: NotMerged[];
}

/** The leads Lofty's search found, with the remembered lead first (the newest) when the search did not show it yet. */
export function withKnown(searched: KnownLead[], known: KnownLead | undefined): KnownLead[] {
	return !known || searched.some((l) => l.leadId === known.leadId) ? searched : [known, ...searched];
}

/** The person's leads: from memory or Lofty's search, by the first match field that finds any, less those of other people. */
async function find(op: OperationContext, account: string, person: Person, useMemory: boolean): Promise<Found> {
	let found: Found = { matches: [], remembered: false, notMerged: [] };
	for (const f of person.fields) {
		const known = useMemory ? recall(account, f.key) : undefined;
		// A remembered lead that may have others (Lead > Create made it): Lofty is searched too, and it joins the answer.
		const leads = known?.alone ? [known] : withKnown(await search(op, f), known);
		if (leads.length) {
			found = { matches: leads, matchedBy: f.field, remembered: leads[0] === known, notMerged: [] };
			break;
		}
	}
	// A lead found only by the phone may be someone else who shares it (a spouse, an office line, a typo).
	if (found.matchedBy === 'phone' && op.values.matchBy !== 'phone') found.notMerged = otherPeople(op.values, person.emails, found.matches);
	if (found.notMerged.length) found.matches = found.matches.filter((m) => !found.notMerged.some((n) => n.leadId === m.leadId));
	return found;
}

/**
 * Whether an earlier create without a certain answer may have made the item's person's lead, by the keys the item
 * matches by: an email it shares is the person; a phone alone is with Match By Phone, and otherwise only when the
 * item's own rules would take a lead with that create's names and emails for the person (If Only the Phone Matches).
 */
export function mayBeThePerson(values: IDataObject, person: Person, create: UncertainCreate): boolean {
	const shared = person.fields.filter((f) => create.keys.includes(f.key));
	if (shared.some((f) => f.field === 'email')) return true;
	if (!shared.length) return false;
	return values.matchBy === 'phone' || setApartBy(values, person.emails, create.person, create.person.emails).length === 0;
}

/**
 * When nobody's lead was found but an earlier create that may have made it got no certain answer (uncertainCreates.ts):
 * the search again once Lofty can read what that create made. Still nothing: the item fails naming the earlier item,
 * since creating now could make the person's second lead.
 */
async function afterUncertainCreate(op: OperationContext, account: string, person: Person, found: Found, useMemory: boolean): Promise<Found> {
	if (found.matches.length) return found;
	const earlier = uncertainCreateFor(
		account,
		person.fields.map((f) => f.key),
		(create) => mayBeThePerson(op.values, person, create),
	);
	if (!earlier) return found;
	const wait = earlier.readableBy - Date.now();
	if (wait > 0) await sleep(wait);
	const again = await find(op, account, person, useMemory);
	if (again.matches.length) {
		settleUncertainCreate(account, earlier);
		return again;
	}
	const item = earlierItem(op.ctx, earlier);
	const apart = again.notMerged.length ? ` Lofty shows ${again.notMerged.map((n) => `lead ${n.leadId}`).join(', ')} with this phone, which Options > If Only the Phone Matches takes for another person.` : '';
	throw new NodeOperationError(op.ctx.getNode(), `A create for this person by ${item} got no certain answer, and Lofty shows no lead for them yet: this item created none, so that the person does not get two`, {
		itemIndex: op.itemIndex,
		description: `${item} failed with "${earlier.what}", so Lofty may have made the lead without saying so.${apart} Search Lofty for the person (Lead > Get Many by email or phone): if the lead is there, run this item again and it is updated; if not, run it again after a few minutes (the earlier create is forgotten after 5 minutes), or create the lead with Lead > Create.`,
	});
}

async function matchAndWrite(op: OperationContext, writes: LeadWrites, account: string, person: Person, useMemory: boolean): Promise<IDataObject> {
	const { values } = op;
	const tags = values.tags as string[] | undefined;
	const { matches, matchedBy, remembered, notMerged } = await afterUncertainCreate(op, account, person, await find(op, account, person, useMemory), useMemory);

	if (matches.length === 0) {
		const { path, body } = buildRequest(writes.create, {
			...values,
			emails: person.emails.length ? dedupe(person.emails, lower) : undefined,
			phones: person.phones.length ? dedupe(person.phones, normalPhone) : undefined,
			tags,
		});
		// The lead made is remembered there (writeRead.ts), as Lead > Create's is.
		const created = await createThenRead(op, writes.create, path, body as IDataObject, true);
		return { action: 'created', ...(notMerged.length ? { notMergedWith: notMerged } : {}), ...created.lead, leadId: created.leadId };
	}

	if (matches.length > 1 && values.onMultiple === 'fail') {
		const ids = matches.map((m) => m.leadId);
		throw new NodeOperationError(op.ctx.getNode(), `${ids.length} leads match this ${matchedBy}: ${ids.join(', ')}`, {
			itemIndex: op.itemIndex,
			description: 'Nothing was changed. Merge the duplicates in Lofty, or set Options > If Several Match to "Update the Most Recently Created".',
		});
	}
	const target = matches[0];
	const mode: WhenExists = values.whenExists === 'updateAll' ? 'updateAll' : 'fillEmpty';
	// A remembered lead is read first: the update sends whole email and phone lists, and fills only empty fields.
	const current = remembered ? await currentLead(op, target.leadId, target.recent ? target.fields : undefined) : target.fields;
	if (current === undefined) {
		// A remembered lead Lofty could read before and not now: gone (deleted, merged). Find the person again.
		forget(account, personKeys(target.emails, target.phones));
		return await matchAndWrite(op, writes, account, person, false);
	}
	const had = {
		emails: Array.isArray(current.emails) ? strings(current.emails) : target.emails,
		phones: Array.isArray(current.phones) ? strings(current.phones) : target.phones,
	};
	const emails = union(had.emails, person.emails, lower);
	const phones = union(had.phones, person.phones, normalPhone);
	const built = buildRequest(writes.update, {
		...values,
		leadId: target.leadId,
		emails,
		phones,
		tags: values.replaceTags === true ? tags : undefined,
		tagsAdd: values.replaceTags === true ? undefined : tags,
	});
	// Multi-Choice Values (1.4; before, Only Fill Empty Fields added the choices the lead lacks and Update All replaced).
	const adds = addsChoices(op.ctx, op.itemIndex, mode === 'fillEmpty');
	const { body, kept } = mode === 'fillEmpty' ? onlyEmptyFields(built.body as IDataObject, current, adds) : { body: adds ? withCurrentChoices(built.body as IDataObject, current) : (built.body as IDataObject), kept: [] };
	const changes = Object.keys(body).length > 0;
	if (changes) {
		try {
			await send(op, writes.update.method, built.path, body);
		} catch (error) {
			// A remembered lead that is gone from Lofty (deleted, merged): nothing was written; find the person again.
			if (remembered && notFound(error)) {
				forget(account, personKeys(target.emails, target.phones));
				return await matchAndWrite(op, writes, account, person, false);
			}
			throw failure(op, error);
		}
	}
	const read = await readAfterWrite(op, target.leadId, target.recent && 'recent');
	const known: KnownLead = {
		leadId: target.leadId,
		emails: emails ?? had.emails,
		phones: phones ?? had.phones,
		fields: read.readable ? read.lead : afterWrite(current, body),
		recent: target.recent && !read.readable,
		alone: matches.length === 1,
	};
	// A lead Lofty may not let search yet, and any email or phone it was just given, are found from memory.
	const before = personKeys(had.emails, had.phones);
	const fresh = target.recent ? personKeys(known.emails, known.phones) : personKeys(known.emails, known.phones).filter((k) => !before.includes(k));
	if (fresh.length) remember(account, fresh, known);
	const others = matches.slice(1).map((m) => m.leadId);
	return {
		action: changes ? 'updated' : 'unchanged',
		matchedBy,
		...(others.length ? { otherMatches: others } : {}),
		...(kept.length ? { keptFields: kept } : {}),
		...read.lead,
		leadId: target.leadId,
	};
}

/** The list without repeats (compared by `same`). */
function dedupe(list: string[], same: (v: string) => string): string[] {
	return list.filter((v, i) => list.findIndex((w) => same(w) === same(v)) === i);
}

const CREATE_ONLY = ['assignGroupId', 'welcomeEmail', 'leadAlert', 'content', 'isPin'];

/**
 * The operation: the fields of Create (tags are added to a known lead unless Replace Tags is on), the match
 * settings, and the custom-field mapper. Its table entry names Create's endpoint; Update's and the search are used too.
 */
/**
 * The leads Create or Update reads before it writes (model/turns.ts, records read): the lead a path names, and the
 * leads a search answers. What it decides from them then meets Lead > Update and the other writes of those leads.
 */
const leadsRead: RecordsRead = (request, answer) => {
	const byPath = /^\/v1\.0\/leads\/(\d+)$/.exec(request.path);
	if (byPath) return [`leadId=${byPath[1]}`];
	const leads = request.method === 'GET' && request.path === '/v1.0/leads' ? (answer as { leads?: unknown } | undefined)?.leads : undefined;
	return Array.isArray(leads) ? leads.map((l: { leadId?: unknown }) => `leadId=${String(l?.leadId)}`) : [];
};
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
		effect: 'write',
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
					{ name: 'Email', value: 'email', description: 'Only leads with this exact email' },
					{
						name: 'Email, Then Phone',
						value: 'emailThenPhone',
						description: 'Look for the email; when no lead has it, for the phone (that lead must be the same person: Options > If Only the Phone Matches)',
					},
					{ name: 'Phone', value: 'phone', description: 'Only leads with this exact phone number' },
				],
				default: 'emailThenPhone',
				description: 'How the existing lead is found (exact match)',
			},
			{ name: 'email', label: 'Email', type: 'string', in: 'local', top: true, contact: 'email', placeholder: 'name@email.com', description: 'Finds the lead, and is added to its emails' },
			{
				name: 'phone',
				label: 'Phone',
				type: 'string',
				in: 'local',
				top: true,
				maxLength: 20,
				contact: 'leadPhone',
				placeholder: 'e.g. 4155551234',
				description:
					'Finds the lead (when Match By allows), and is added to its phones as +14155551234. Compared with its country code (10 digits without one are a US number); an extension is ignored in the match.',
			},
			...fields,
			tagField('tags', 'Tags', "Tags added to the lead's tags (see Options > Replace Tags)"),
			{
				name: 'onMultiple',
				label: 'If Several Match',
				type: 'options',
				in: 'local',
				group: 'options',
				options: [
					{ name: 'Fail the Item', value: 'fail', description: 'Nothing is changed; the error lists the matching leads' },
					{ name: 'Update the Most Recently Created', value: 'updateNewest', description: 'The newest of the matching leads is updated; the output lists the others' },
				],
				default: 'updateNewest',
				description: 'What to do when several leads have the email (or phone)',
			},
			{
				name: 'whenExists',
				label: 'When the Lead Exists',
				type: 'options',
				in: 'local',
				group: 'options',
				options: [
					{
						name: 'Only Fill Empty Fields',
						value: 'fillEmpty',
						description: "Fields the lead already has keep their value (the output lists them in keptFields); emails, phones and tags are added",
					},
					{ name: 'Update All Given Fields', value: 'updateAll', description: 'Every field given replaces the lead\'s value; emails, phones and tags are added' },
				],
				default: 'fillEmpty',
				description: 'Whether a lead that already exists gets the values given, or keeps what Lofty already knows',
			},
			{
				name: 'phoneOnly',
				label: 'If Only the Phone Matches',
				type: 'options',
				in: 'local',
				group: 'options',
				options: [
					{ name: 'Always Update It', value: 'update', description: 'The lead with the phone is updated whatever its name and emails' },
					{
						name: 'Create a New Lead When Anything Differs',
						value: 'newLead',
						description:
							"The lead with the phone is updated only when its name agrees and it has no email or the item's email; otherwise a new lead is created and the output's notMergedWith says which lead and why",
					},
					{ name: 'Update It When the Name Agrees', value: 'nameAgrees', description: 'Other emails do not stop the update (the item\'s email is added); another name does' },
				],
				default: 'newLead',
				description:
					"With Match By \"Email, Then Phone\", when no lead has the item's email but one has its phone: whether that lead is the item's person. Spouses, colleagues on an office line and typos share phones.",
			},
			{ name: 'replaceTags', label: 'Replace Tags', type: 'boolean', in: 'local', group: 'options', description: "Whether the tags given replace a known lead's tags instead of being added to them" },
		],
		validate(op) {
			checkMatch(op);
			writes.create.validate?.(op);
		},
		run: async (op) => await createOrUpdate(op, writes),
		// The item's turn: the person, by each email and phone it gives (they all end up on the lead), in every
		// execution of this process, since what it writes depends on what the search found.
		turn: {
			keys: (values) => {
				const person = personOf(values);
				return personKeys(person.emails, person.phones);
			},
			scope: 'account',
			reads: leadsRead,
		},
		simplify: ['action', 'matchedBy', 'otherMatches', 'notMergedWith', 'keptFields', 'note', ...writes.simplify, 'customAttributes'],
		simplifyFrom: 1.1,
		customFields: writes.create.customFields,
	};
}
