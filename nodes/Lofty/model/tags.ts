import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { loftyRequest } from '../transport/request';
import { InvalidValue } from './invalid';
import type { OperationContext, OperationDef, ParamDef } from './types';

/** Lofty's list of the lead tags the user can see (Tag > Get Many, the tag dropdowns). */
export const TAG_LIST_PATH = '/v1.0/teamFeatures/listTag';

/** How long a tag write waits for the team's tag list (every wait: pacing, retries, the answer) before it writes the names as given. */
export const TAG_LIST_BUDGET_MS = 15_000;

/** The team's tag names: every spelling, by lower-case name (Lofty matches tags exactly, so "Hot Lead" and "hot lead" can both exist). */
type Spellings = Map<string, string[]>;

/** The list of the execution, or why it could not be read. */
type TeamList = { spellings: Spellings } | { unreadable: string };

/** Read once per execution (the context object is the execution's); a failure too is kept for the execution. */
const lists = new WeakMap<object, Promise<TeamList>>();

function add(spellings: Spellings, name: string): void {
	const key = name.toLowerCase();
	const known = spellings.get(key);
	if (!known) spellings.set(key, [name]);
	else if (!known.includes(name)) known.push(name);
}

/** Why the list could not be read, in a few words (the status and Lofty's code, or the error's message). */
function reason(error: unknown): string {
	if (error instanceof NodeApiError) return error.message;
	return error instanceof Error ? error.message : String(error);
}

async function teamList(ctx: IExecuteFunctions, itemIndex: number): Promise<TeamList> {
	let found = lists.get(ctx);
	if (!found) {
		found = loftyRequest(ctx, { method: 'GET', path: TAG_LIST_PATH, idempotent: true, readRetries: 1, deadline: Date.now() + TAG_LIST_BUDGET_MS }, itemIndex).then(
			(response) => {
				const spellings: Spellings = new Map();
				for (const tag of Array.isArray(response) ? (response as IDataObject[]) : []) {
					const name = typeof tag.tagName === 'string' ? tag.tagName.trim() : '';
					if (name) add(spellings, name);
				}
				return { spellings };
			},
			(error: unknown) => ({ unreadable: reason(error) }),
		);
		lists.set(ctx, found);
	}
	return await found;
}

/**
 * The name to send for `name`: as given when the team has it exactly; else the team's one spelling of it in another
 * case; as given when the team has several such spellings (none is chosen) or none.
 */
export function spellingOf(spellings: Spellings, name: string): string {
	const known = spellings.get(name.toLowerCase()) ?? [];
	if (known.includes(name) || known.length !== 1) return name;
	return known[0];
}

/** Edit distance of two short names (insertions, deletions, substitutions). */
export function distance(a: string, b: string): number {
	let row = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		const next = [i];
		for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
		row = next;
	}
	return row[b.length];
}

/** The team's tag nearest to `name` (by edit distance, ignoring case), if the team has any tag. */
export function nearestTag(spellings: Spellings, name: string): string | undefined {
	let best: { name: string; d: number } | undefined;
	const wanted = name.toLowerCase();
	for (const [key, names] of spellings) {
		const d = distance(wanted, key);
		if (!best || d < best.d || (d === best.d && names[0] < best.name)) best = { name: names[0], d };
	}
	return best?.name;
}

/** A filter's names, each an existing tag of the team: exact, or its one spelling in another case; anything else is refused. */
function filterNames(p: ParamDef, names: string[], spellings: Spellings): string[] {
	return names.map((name) => {
		const known = spellings.get(name.toLowerCase()) ?? [];
		if (known.includes(name)) return name;
		if (known.length === 1) return known[0];
		if (known.length > 1) {
			throw new InvalidValue(p.label, `"${name}" is not a tag of the team, which has ${known.map((k) => `"${k}"`).join(' and ')} (Lofty matches tags exactly); pick the one you mean from the list`);
		}
		const nearest = nearestTag(spellings, name);
		const hint = nearest ? `the nearest is "${nearest}"` : 'the team has no tags';
		throw new InvalidValue(p.label, `the team has no tag "${name}", so no lead could match; ${hint}. Pick tags from the list (Lofty matches tags exactly)`);
	});
}

/**
 * Spells the names of the operation's tag fields as the team's tags (spellingOf), reading the team's list once per
 * execution: writes keep a name the team does not have, and Lofty creates the tag so (later items of the execution
 * then use that spelling); a filter (a query field) refuses a name that is not a tag of the team, naming the nearest
 * one. When the list cannot be read, the names go out as given: the answer says so (the returned note). No request is
 * made when the item gives no tag names.
 */
export async function matchTagSpellings(op: OperationDef, context: OperationContext): Promise<string | undefined> {
	const fields = op.params.filter((p) => p.type === 'tagList' && Array.isArray(context.values[p.name]));
	if (fields.length === 0) return undefined;
	const list = await teamList(context.ctx, context.itemIndex);
	if ('unreadable' in list) {
		return `The team's tag list (GET ${TAG_LIST_PATH}) could not be read (${list.unreadable}), so the tag names were used as given, not matched to the spelling of the team's tags. An OAuth2 app needs that endpoint among its scopes.`;
	}
	for (const p of fields) {
		const given = context.values[p.name] as string[];
		if (p.in === 'query') {
			context.values[p.name] = filterNames(p, given, list.spellings);
			continue;
		}
		const names = given.map((name) => spellingOf(list.spellings, name));
		// A new name added is a spelling of the team's from now on (Lofty creates it as sent).
		if (p.name !== 'tagsRemove') for (const name of names) add(list.spellings, name);
		context.values[p.name] = names.filter((name, i) => names.indexOf(name) === i);
	}
	return undefined;
}
