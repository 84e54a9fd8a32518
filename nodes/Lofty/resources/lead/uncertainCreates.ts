/**
 * Lead creates whose outcome is uncertain (no answer, a cut connection, a 5xx, a 2xx with Lofty's internal-error code:
 * transport/writeOutcome.ts), by Lead > Create or Create or Update (writeRead.ts createThenRead): Lofty may
 * hold a lead for the person that nobody here knows the ID of, and that its search does not show before its read
 * delay has passed. Remembered by account and by every email and phone the create sent, in this n8n process, for as
 * long as the recent leads (keys.ts), with the person it named, so that Create or Update for that person (by the keys
 * it matches by and its own rules, upsert.ts mayBeThePerson) searches again once the read delay has passed, updates
 * the lead it finds, and otherwise fails naming the earlier item instead of creating a second lead.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { type PersonDetails, PersonMemory } from './keys';

export interface UncertainCreate {
	/** The execution that sent it (n8n's execution ID, else a number of this process) and its item index. */
	execution: string;
	itemIndex: number;
	/** When Lofty's search shows the lead if the create was applied (epoch ms, this process's clock). */
	readableBy: number;
	/** What the create got instead of Lofty's answer. */
	what: string;
	/** Every key it was remembered under. */
	keys: string[];
	/** The person it named (names and emails), which tells them apart from another who shares a phone (keys.ts). */
	person: PersonDetails;
}

const entries = new PersonMemory<UncertainCreate>();

const executionNumbers = new WeakMap<object, string>();
let executions = 0;

/** The execution as the earlier item is named: n8n's execution ID, else a number of this process. */
export function executionOf(ctx: IExecuteFunctions): string {
	const id = typeof ctx.getExecutionId === 'function' ? ctx.getExecutionId() : undefined;
	if (id) return String(id);
	let own = executionNumbers.get(ctx);
	if (!own) executionNumbers.set(ctx, (own = `#${++executions}`));
	return own;
}

export function rememberUncertainCreate(account: string, create: UncertainCreate, now = Date.now()): void {
	entries.set(account, create.keys, create, now);
}

/** The latest uncertain create under any of the keys that `mayBe` the item's person (all by default). */
export function uncertainCreateFor(account: string, keys: string[], mayBe: (create: UncertainCreate) => boolean = () => true, now = Date.now()): UncertainCreate | undefined {
	let found: UncertainCreate | undefined;
	for (const key of keys) {
		const create = entries.get(account, key, now);
		if (create && (!found || create.readableBy > found.readableBy) && mayBe(create)) found = create;
	}
	return found;
}

/** Forgets an uncertain create under all its keys (its lead was found). */
export function settleUncertainCreate(account: string, create: UncertainCreate): void {
	entries.delete(
		account,
		create.keys.filter((key) => entries.get(account, key) === create),
	);
}

/** The earlier item, as an error names it. */
export function earlierItem(ctx: IExecuteFunctions, create: UncertainCreate): string {
	const where = create.execution === executionOf(ctx) ? 'of this execution' : create.execution.startsWith('#') ? 'of an earlier execution' : `of execution ${create.execution}`;
	return `item ${create.itemIndex} ${where}`;
}

/** Forgets everything (tests: a fresh process). */
export function forgetUncertainCreates(): void {
	entries.clear();
}
