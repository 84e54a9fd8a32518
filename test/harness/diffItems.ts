/**
 * Generated item lists for the differential tests (test/resilience/differential.test.ts, twoExecutions.test.ts):
 * items of the node's write operations (taken from the resource tables), drawn from small
 * pools of the sandbox's seeded records so that many items share a record, some bad (refused before sending) or aimed
 * at records Lofty refuses. Items on one record or person differ from each other: names, stages, tags, and mapped
 * custom fields on some items only, so that an item overtaking another changes the result.
 *
 * The generator draws every choice from a list of numbers that fast-check generates (`itemLists`): fast-check shrinks a
 * failing list toward fewer and smaller numbers, and a choice past the list's end is the first option, so a failure
 * shrinks toward the fewest items with the first record of each pool and the fewest optional fields, and prints the
 * item list itself.
 */
import fc from 'fast-check';

import { collectionOf } from '../../nodes/Lofty/model/describe';
import { MAPPER_PARAM } from '../../nodes/Lofty/model/customFieldsEditor';
import type { OperationDef, ParamDef } from '../../nodes/Lofty/model/types';
import { RESOURCES } from '../../nodes/Lofty/resources';
import { SEED_IDS } from '../../sandbox';
import { CALENDAR_SEED } from '../../sandbox/resources/calendar';
import { NOTE_SEED } from '../../sandbox/resources/note';
import { ROUTING_IDS } from '../../sandbox/resources/routing';
import { SALES_AGENT_IDS } from '../../sandbox/resources/salesAgent';
import { TASK_SEED } from '../../sandbox/resources/task';
import { TX_SEED } from '../../sandbox/resources/transaction';
import { WEBHOOK_IDS } from '../../sandbox/resources/webhook';
import { byId } from './sandbox';

export type Params = Record<string, unknown>;

/** A write operation of the node, as the tables list it. */
export interface WriteOp {
	resource: string;
	op: OperationDef;
}

/** Every operation that changes something in Lofty (POST, PUT, DELETE or PATCH, not a list), from the resource tables. */
export function writeOperations(): WriteOp[] {
	const writes = (op: OperationDef) => op.method !== 'GET' && op.pagination === undefined;
	return RESOURCES.flatMap((r) => r.operations.filter(writes).map((op) => ({ resource: r.value, op })));
}

const MISSING = '999999999999999';

/** Records the items share: a few per kind, and one Lofty does not know. */
const POOLS: Record<string, string[]> = {
	leadId: [SEED_IDS.bigLeadId, SEED_IDS.bigLeadId2, SEED_IDS.activityLeadId, MISSING],
	transactionId: [TX_SEED.purchaseId, TX_SEED.listingId, TX_SEED.leaseId, MISSING],
	taskId: [TASK_SEED.openTaskId, TASK_SEED.finishedTaskId, TASK_SEED.appointmentId, MISSING],
	appointmentId: [TASK_SEED.appointmentId, TASK_SEED.finishedAppointmentId, MISSING],
	calendarId: [CALENDAR_SEED.task, CALENDAR_SEED.appointment, CALENDAR_SEED.finishedTask, `${MISSING}-task`],
	noteId: [NOTE_SEED.pinned, NOTE_SEED.manual, MISSING],
	officeId: [SEED_IDS.northOfficeId, SEED_IDS.downtownOfficeId, SEED_IDS.northTeamAOfficeId, MISSING],
	parentId: [SEED_IDS.mainOfficeId, SEED_IDS.northOfficeId],
	groupId: [SEED_IDS.mainOfficeId, SEED_IDS.northOfficeId],
	agentId: [SEED_IDS.otherAgentUserId, SALES_AGENT_IDS.noNumberUserId, MISSING],
	ruleId: [ROUTING_IDS.zillowRuleId, ROUTING_IDS.luxuryRuleId, MISSING],
	subscribeId: [WEBHOOK_IDS.demoLead, WEBHOOK_IDS.demoCall, MISSING],
	id: [SALES_AGENT_IDS.demoSalesAgentId, MISSING],
	leadIds: [SEED_IDS.bigLeadId, SEED_IDS.activityLeadId, SEED_IDS.bigLeadId2],
};
const OTHER_IDS = [SEED_IDS.bigLeadId, SEED_IDS.demoUserId, MISSING];

/** Text fields with a format of their own. */
const TEXTS: Array<[RegExp, (n: number) => string]> = [
	[/email/i, (n) => `diff${n}@example.com`],
	[/phone/i, (n) => `51255501${n}${n}`],
	[/url|link|picture|header/i, (n) => `https://example.com/diff/${n}`],
	[/country/i, () => 'US'],
	[/code$/i, () => '1'],
	[/state$/i, () => 'TX'],
	[/zip/i, (n) => `7870${n}`],
];

const CHOICES: Record<string, string[]> = {
	transactionType: ['Purchase', 'Listing', 'Lease'],
	transactionStatus: ['Under Contract', 'Closed', 'Under Contract', 'Pending'],
	timeZoneCode: ['America/Chicago', 'America/New_York'],
	stage: ['New', 'Active', 'Hot', 'Nurture'],
};

const FIRST_NAMES = ['Ann', 'Ben', 'Cleo', 'Dev'];

/** A source of choices in [0, 1) read from generated numbers; 0 (the first option) once they run out. */
export function choiceStream(choices: readonly number[]): () => number {
	let next = 0;
	return () => (next < choices.length ? choices[next++] / 2 ** 31 : 0);
}

/**
 * Lists of choices for ItemGenerator: fast-check's numbers, which shrink toward fewer and smaller ones. Of any length
 * up to the maximum (`size: 'max'`): fast-check's default size would stop at 10 numbers, and every choice after them
 * would be the first option.
 */
export const choices = fc.array(fc.nat({ max: 2 ** 31 - 1 }), { maxLength: 400, size: 'max' });

/** Generated lists of items, mapped from choices (a failure prints the items and shrinks with the choices). */
export const itemLists = <T>(make: (generator: ItemGenerator) => T): fc.Arbitrary<T> => choices.map((list) => make(new ItemGenerator(choiceStream(list))));

export class ItemGenerator {
	constructor(readonly random: () => number) {}

	int(n: number): number {
		return Math.floor(this.random() * n);
	}

	pick<T>(list: readonly T[]): T {
		return list[this.int(list.length)];
	}

	/** True with probability p; false for the choice 0, so that a shrunk list takes no optional path. */
	chance(p: number): boolean {
		return this.random() >= 1 - p;
	}

	/** Mostly the first record of the pool (so that items share it), else any, now and then one Lofty does not know. */
	private idFor(p: ParamDef): string {
		const pool = POOLS[p.name] ?? (p.type === 'locator' && p.locator?.idKind === 'text' ? POOLS.calendarId : OTHER_IDS);
		return this.chance(0.55) ? pool[0] : this.pick(pool);
	}

	/** A value for one field that the node accepts (Lofty may still refuse it). */
	value(p: ParamDef): unknown {
		const n = this.int(4);
		switch (p.type) {
			case 'id':
				return this.idFor(p);
			case 'locator':
				return byId(this.idFor(p));
			case 'idList':
				return [this.pick(POOLS[p.name] ?? POOLS.leadIds)];
			case 'string': {
				if (CHOICES[p.name]) return this.pick(CHOICES[p.name]);
				const format = TEXTS.find(([re]) => re.test(p.name));
				return format ? format[1](n) : `${p.label} ${n}`;
			}
			case 'number': {
				const min = p.min ?? 0;
				const max = p.max ?? min + 10;
				return min + this.int(Math.min(max - min, 10) + 1);
			}
			case 'boolean':
				return this.chance(0.5);
			case 'options':
				return CHOICES[p.name] ? this.pick(CHOICES[p.name]) : (p.options?.length ? this.pick(p.options).value : `x${n}`);
			case 'multiOptions':
				return p.options?.length ? [this.pick(p.options).value] : [];
			case 'json':
				return p.jsonShape === 'array' ? '[]' : '{}';
			case 'dateTime':
				return `2026-0${1 + n}-1${n}T1${n}:00:00Z`;
			case 'stringList':
				return [`Diff ${n}`];
			case 'tagList':
				// A list, or comma-separated text in another case than a tag an earlier item may have made.
				return n % 2 ? [`Diff ${n}`] : `diff ${n - 1}, Buyer`;
			case 'fixedCollection':
				return { values: [Object.fromEntries((p.fields ?? []).filter((f) => f.required).map((f) => [f.name, this.value(f)]))] };
		}
	}

	/** One item of `op`: its required fields, some optional ones, now and then a bad value or mapped custom fields. */
	item({ resource, op }: WriteOp): Params {
		const params: Params = { resource, operation: op.value };
		const optional = op.params.filter((p) => !p.required && !p.top);
		for (const p of op.params.filter((q) => q.required || q.top)) params[p.name] = this.value(p);
		const chosen = optional.filter(() => this.chance(0.35));
		// Updates refuse an empty change: one optional field at least.
		if (chosen.length === 0 && optional.length) chosen.push(this.pick(optional));
		for (const p of chosen) {
			const collection = collectionOf(op, p).name;
			params[collection] = { ...(params[collection] as Params | undefined), [p.name]: this.value(p) };
		}
		// A transaction belongs to its lead: the seeded ones to the big lead.
		if (op.params.some((p) => p.name === 'transactionId') && 'leadId' in params && this.chance(0.85)) params.leadId = byId(SEED_IDS.bigLeadId);
		if (op.customFields && this.chance(0.6)) params[MAPPER_PARAM] = this.mapped(op);
		if (op.value === 'upsert') this.upsert(params);
		// A bad value: the node refuses the item before sending anything.
		const ids = op.params.filter((p) => p.required && (p.type === 'id' || p.type === 'locator'));
		if (ids.length && this.chance(0.08)) params[ids[0].name] = ids[0].type === 'locator' ? byId('not-an-id') : 'not-an-id';
		return params;
	}

	/** Mapped custom fields: lead fields by name, transaction fields by ID (the sandbox's seeded fields). */
	private mapped(op: OperationDef): Params {
		const choices: Array<[string, unknown]> =
			op.customFields?.what === 'transaction'
				? [['1002', `Lender ${this.int(5)}`], ['1003', this.int(10)], ['1001', this.pick(['1', '2'])]]
				: [['Preferred School District', `District ${this.int(5)}`], ['Household Size', this.int(6)], ['Financing', this.pick(['Cash', 'FHA'])]];
		const value = Object.fromEntries(choices.filter(() => this.chance(0.5)).concat([this.pick(choices)]));
		return { mappingMode: 'defineBelow', value, matchingColumns: [], schema: [] };
	}

	/**
	 * Create or Update: a few new people, found by email or phone, with keys that come and go, each item with its own
	 * first name (the lead shows which item created it).
	 */
	private upsert(params: Params): void {
		const person = this.int(3);
		params.matchBy = this.pick(['emailThenPhone', 'email', 'phone']);
		params.email = this.chance(0.8) ? `upsert${person}@example.com` : '';
		params.phone = this.chance(0.6) ? `+1 512 555 03${person}${person}` : '';
		if (params.matchBy !== 'phone' && !params.email) params.email = `upsert${person}@example.com`;
		if (params.matchBy === 'phone' && !params.phone) params.phone = `+1 512 555 03${person}${person}`;
		params.firstName = `${this.pick(FIRST_NAMES)} ${person}`;
	}

	/**
	 * An item list for one resource: two items on one record or person first (pair), then each of its write
	 * operations at least twice, in random order.
	 */
	itemsFor(ops: WriteOp[], extra: number): Params[] {
		const list = [...ops, ...ops, ...Array.from({ length: extra }, () => this.pick(ops))];
		for (let i = list.length - 1; i > 0; i--) {
			const j = this.int(i + 1);
			[list[i], list[j]] = [list[j], list[i]];
		}
		const withLookups = ops.filter(({ op }) => op.customFields || op.params.some((p) => p.type === 'tagList'));
		return [...this.pair(this.pick(withLookups.length ? withLookups : ops)), ...list.map((w) => this.item(w))];
	}

	/**
	 * Two items of one operation on the same record or person, with their own values: the first with lookups to make
	 * before it writes (mapped custom fields, tag names: the execution's first, so they are not known yet), the second
	 * with none, so that it would reach Lofty first if nothing kept it in its turn.
	 */
	pair(w: WriteOp): Params[] {
		const first = this.item(w);
		const second = this.item(w);
		const same = w.op.params.filter((p) => (p.required || p.top) && (['id', 'locator', 'idList'].includes(p.type) || ['email', 'phone', 'matchBy'].includes(p.name)));
		for (const p of same) second[p.name] = first[p.name];
		if (w.op.customFields) first[MAPPER_PARAM] = this.mapped(w.op);
		delete second[MAPPER_PARAM];
		const tags = w.op.params.filter((p) => p.type === 'tagList' && !p.required);
		if (tags.length) {
			const tag = this.pick(tags);
			const collection = collectionOf(w.op, tag).name;
			first[collection] = { ...(first[collection] as Params | undefined), [tag.name]: this.value(tag) };
		}
		for (const p of tags) delete (second[collectionOf(w.op, p).name] as Params | undefined)?.[p.name];
		return [first, second];
	}

	/**
	 * Two executions' item lists whose writes do not contradict each other: both write to the same few leads,
	 * transactions and new people, each its own fields (names, mapped custom fields, tags), so that one after the
	 * other in either order ends in the same Lofty state.
	 */
	twoExecutions(count: number): [Params[], Params[]] {
		const sides = this.chance(0.5) ? ([0, 1] as const) : ([1, 0] as const);
		return [this.sideItems(sides[0], count), this.sideItems(sides[1], count)];
	}

	private sideItems(side: 0 | 1, count: number): Params[] {
		return Array.from({ length: count }, () => {
			const kind = this.pick(['upsert', 'leadUpdate', 'transactionUpdate'] as const);
			const tag = [`Side ${'AB'[side]} ${this.int(3)}`];
			// Each side's own lead custom field, on some items only.
			const leadField = this.chance(0.5) ? { [['Preferred School District', 'Household Size'][side]]: side === 0 ? `District ${this.int(5)}` : this.int(6) } : undefined;
			const mapper = (value: Params | undefined) => (value ? { [MAPPER_PARAM]: { mappingMode: 'defineBelow', value, matchingColumns: [], schema: [] } } : {});
			if (kind === 'upsert') {
				const person = this.int(2);
				// Fields empty on a new lead (not the source: Lofty sets "Open API" on a create, which Only Fill Empty Fields
				// would keep when the other side creates the lead first, a result one after the other can give too).
				const own = side === 0 ? { lastName: `Last ${this.int(4)}` } : { referredBy: `Referrer ${this.int(4)}` };
				return {
					resource: 'lead',
					operation: 'upsert',
					matchBy: 'emailThenPhone',
					email: `pair${person}@example.com`,
					phone: this.chance(0.5) ? `+1 512 555 04${person}${person}` : '',
					firstName: `Person ${person}`,
					additionalFields: { ...own, ...(this.chance(0.5) ? { tags: tag } : {}) },
					options: { whenExists: this.pick(['fillEmpty', 'updateAll']) },
					...mapper(leadField),
				};
			}
			if (kind === 'leadUpdate') {
				const own = side === 0 ? { firstName: `First ${this.int(4)}` } : { lastName: `Last ${this.int(4)}` };
				return {
					resource: 'lead',
					operation: 'update',
					leadId: byId(this.pick([SEED_IDS.bigLeadId, SEED_IDS.bigLeadId2])),
					updateFields: { ...own, ...(this.chance(0.5) ? { tagsAdd: tag } : {}) },
					...mapper(leadField),
				};
			}
			// Transaction custom fields: Lofty replaces the whole list, so each write carries the values it read.
			const txField = side === 0 ? { '1002': `Lender ${this.int(5)}` } : this.chance(0.5) ? { '1003': this.int(10) } : { '1001': this.pick(['1', '2']) };
			return {
				resource: 'transaction',
				operation: 'update',
				leadId: byId(SEED_IDS.bigLeadId),
				transactionId: byId(this.pick([TX_SEED.purchaseId, TX_SEED.listingId])),
				...(side === 0 ? { updateFields: { transactionName: `Deal ${this.int(4)}` } } : {}),
				...mapper(txField),
			};
		});
	}
}
