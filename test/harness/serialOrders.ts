/**
 * The fault-injecting differential test's model (test/resilience/faultDifferential.test.ts): lead items that meet on
 * people and leads, what each does when it runs alone on a given Lofty, and every final state some serial order of
 * them gives. An item whose output says it was applied is in the order; one that says it was not applied is left
 * out; one whose output says it may have been applied (or that has no output: the run failed before it ended) is in
 * or out.
 */

/** Create or Update of a person (by email), or Lead > Update of a lead known by its person. */
export interface ModelItem {
	kind: 'upsert' | 'update';
	person: number;
	lastName: string;
	/** Create or Update only: Only Fill Empty Fields, or Update All Given Fields. */
	fillEmpty?: boolean;
}

export type Outcome = 'applied' | 'notApplied' | 'uncertain';

/** Per person: the last names of their leads (sorted), in a form that compares as text. */
export type ModelState = string[][];

/** What one item does to the state: a copy of it, changed. */
function apply(state: ModelState, item: ModelItem): ModelState {
	const next = state.map((leads) => [...leads]);
	const leads = next[item.person];
	if (item.kind === 'update') {
		// Lead > Update of the person's first lead (the one made before the run).
		if (leads.length) leads[0] = item.lastName;
		return next;
	}
	if (leads.length === 0) leads.push(item.lastName);
	else if (!item.fillEmpty || leads[0] === '') leads[0] = item.lastName;
	return next;
}

const key = (state: ModelState) => JSON.stringify(state);

/** Every final state of some serial order of the items (outcomes as above), from `start`; memoised by subset and state. */
export function serialStates(start: ModelState, items: ModelItem[], outcomes: Outcome[]): Set<string> {
	const results = new Set<string>();
	const seen = new Set<string>();
	const walk = (state: ModelState, done: number) => {
		const id = `${done}|${key(state)}`;
		if (seen.has(id)) return;
		seen.add(id);
		let open = false;
		for (let i = 0; i < items.length; i++) {
			if (done & (1 << i)) continue;
			open = true;
			if (outcomes[i] !== 'notApplied') walk(apply(state, items[i]), done | (1 << i));
			if (outcomes[i] !== 'applied') walk(state, done | (1 << i));
		}
		if (!open) results.add(key(state));
	};
	walk(start, 0);
	return results;
}

/** The state as the sandbox has it: per person, the last names of the leads with their email. */
export function stateOf(leads: Array<{ emails: string[]; lastName?: string | null; deletedAt?: unknown }>, emails: string[]): ModelState {
	return emails.map((email) =>
		leads
			.filter((l) => !l.deletedAt && l.emails.some((e) => e.toLowerCase() === email))
			.map((l) => l.lastName ?? '')
			.sort(),
	);
}

export { key as stateKey };
