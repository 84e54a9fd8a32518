import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { loftyRequest } from '../transport/request';
import type { OperationContext, OperationDef } from './types';

/** Said with a failure of the tag-list read, which a write with tags makes first. */
const READING_TAGS =
	"This happened reading the team's tag list (GET /v1.0/teamFeatures/listTag, Tag > Get Many), which the node reads to spell the tag names given as the team's tags; nothing was written. An OAuth2 app needs that endpoint among its scopes.";

/** Lofty's list of the lead tags the user can see (Tag > Get Many, the tag dropdowns). */
export const TAG_LIST_PATH = '/v1.0/teamFeatures/listTag';

/**
 * The team's tag spellings by lower-case name, read once per execution (the context object is the execution's).
 * Lofty matches tag names exactly: `hot lead` beside the team's `Hot Lead` would become a second tag.
 */
const spellings = new WeakMap<object, Promise<Map<string, string>>>();

async function teamSpellings(ctx: IExecuteFunctions, itemIndex: number): Promise<Map<string, string>> {
	let found = spellings.get(ctx);
	if (!found) {
		found = loftyRequest(ctx, { method: 'GET', path: TAG_LIST_PATH, idempotent: true }, itemIndex).then((response) => {
			const byLower = new Map<string, string>();
			for (const tag of Array.isArray(response) ? (response as IDataObject[]) : []) {
				const name = typeof tag.tagName === 'string' ? tag.tagName.trim() : '';
				if (name && !byLower.has(name.toLowerCase())) byLower.set(name.toLowerCase(), name);
			}
			return byLower;
		});
		spellings.set(ctx, found);
		// A failed listing is not kept: the next item asks again (and reports its own error).
		found.catch(() => spellings.delete(ctx));
	}
	return await found;
}

/**
 * Gives each tag name of the operation's tag fields the spelling of the team's existing tag with that name in
 * another case. A name the team does not have stays as typed, and Lofty creates the tag so; later items of the same
 * execution then use that first spelling too. No request is made when the item gives no tag names.
 */
export async function matchTagSpellings(op: OperationDef, context: OperationContext): Promise<void> {
	const fields = op.params.filter((p) => p.type === 'tagList' && Array.isArray(context.values[p.name]));
	if (fields.length === 0) return;
	let known: Map<string, string>;
	try {
		known = await teamSpellings(context.ctx, context.itemIndex);
	} catch (error) {
		const node = context.ctx.getNode();
		if (!(error instanceof NodeApiError)) throw new NodeOperationError(node, error as Error, { itemIndex: context.itemIndex });
		if (!String(error.description ?? '').includes(READING_TAGS)) error.description = [error.description, READING_TAGS].filter(Boolean).join(' ');
		// Re-wrapping a NodeApiError hands back the same error.
		throw new NodeApiError(node, error as unknown as JsonObject);
	}
	for (const p of fields) {
		const names = (context.values[p.name] as string[]).map((name) => {
			const lower = name.toLowerCase();
			if (!known.has(lower)) known.set(lower, name);
			return known.get(lower) as string;
		});
		// Two entries that differ only in case are already one; the team's spelling cannot make a new repeat.
		context.values[p.name] = names.filter((name, i) => names.indexOf(name) === i);
	}
}
