import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { type FetchPage, type Pagination, paginate } from '../transport/pagination';
import { InvalidValue } from './invalid';
import { itemRead } from './itemRead';
import { distance } from './tags';
import type { OperationContext, OperationDef, ParamDef } from './types';

/**
 * Lead stages by name, checked as tag filters are (model/tags.ts): Lofty takes a lead's stage by its name and creates
 * a stage it does not have (a typo in a tool's argument, "Super Hot", became a twelfth stage of the pipeline). So a
 * stage a write or a filter names is looked up in the team's stages (read once per execution) before anything is
 * sent: the team's spelling when only the case differs, else the item is refused, naming the nearest stage.
 */

/** The team's lead pipeline stages (Lead Pipeline > Get Many, the stage dropdowns). */
export const STAGE_LIST_PATH = '/v1.0/teamFeatures/lead-pipelines';

/** How the stage list pages (zero-based page numbers; `_metadata.total` is the number of stages). */
export const STAGE_PAGES: Pagination = { style: 'page', pageParam: 'currPage', sizeParam: 'pageSize', firstPage: 0, maxPageSize: 100, itemsKey: 'pipelines', totalKey: '_metadata.total' };

/** The stage names of a list's entries, each once, in the pipeline's order. */
export function stageNames(entries: IDataObject[]): string[] {
	const names: string[] = [];
	for (const entry of entries) {
		const name = typeof entry.name === 'string' ? entry.name.trim() : '';
		if (name && !names.includes(name)) names.push(name);
	}
	return names;
}

/** A stage field: its dropdown lists the team's stages. */
export const isStageField = (p: ParamDef): boolean => p.loadOptions === 'getLeadStages';

type TeamStages = { names: string[] } | { unreadable: string };

/** Read once per execution (the context object is the execution's); a failure too is kept for the execution. */
const lists = new WeakMap<object, Promise<TeamStages>>();

async function teamStages(ctx: IExecuteFunctions, itemIndex: number): Promise<TeamStages> {
	let found = lists.get(ctx);
	if (!found) {
		const fetchPage: FetchPage = async (qs) => await itemRead(ctx, itemIndex, { method: 'GET', path: STAGE_LIST_PATH, qs });
		found = paginate(STAGE_PAGES, fetchPage, Infinity).then(
			(entries) => ({ names: stageNames(entries) }),
			(error: unknown) => ({ unreadable: error instanceof NodeApiError || error instanceof Error ? error.message : String(error) }),
		);
		lists.set(ctx, found);
	}
	return await found;
}

/** The team's stage nearest to `name` (edit distance, ignoring case). */
function nearest(names: string[], name: string): string | undefined {
	const wanted = name.toLowerCase();
	return [...names].sort((a, b) => distance(wanted, a.toLowerCase()) - distance(wanted, b.toLowerCase()) || a.localeCompare(b))[0];
}

/**
 * Spells the operation's stage names as the team's stages; a name the team does not have is refused before anything
 * is sent, naming the nearest. When the list cannot be read, a write is refused (it could add a stage) and a filter
 * goes out as given (an unknown stage matches no lead): the returned note says so. No request is made without a stage.
 */
export async function matchStages(op: OperationDef, context: OperationContext): Promise<string | undefined> {
	const fields = op.params.filter((p) => isStageField(p) && typeof context.values[p.name] === 'string' && String(context.values[p.name]).trim() !== '');
	if (fields.length === 0) return undefined;
	const list = await teamStages(context.ctx, context.itemIndex);
	for (const p of fields) {
		const given = String(context.values[p.name]).trim();
		if ('unreadable' in list) {
			if (p.in === 'query') return `The team's stages (GET ${STAGE_LIST_PATH}) could not be read (${list.unreadable}), so the stage "${given}" was used as given.`;
			throw new InvalidValue(p.label, `"${given}" could not be checked against the team's stages (GET ${STAGE_LIST_PATH}: ${list.unreadable}), so nothing was sent (Lofty adds a stage it does not have); try again, or give an OAuth2 app that endpoint's scope`);
		}
		// The team's spelling: Lofty matches a stage name without regard to case, but keeps it as written.
		const same = list.names.filter((name) => name.toLowerCase() === given.toLowerCase());
		if (same.length > 0) {
			context.values[p.name] = same.includes(given) ? given : same[0];
			continue;
		}
		const near = nearest(list.names, given);
		const hint = near ? `the nearest is "${near}"` : 'the team has no stages';
		const shown = list.names.length > 15 ? `${list.names.slice(0, 15).join(', ')}, ...` : list.names.join(', ');
		throw new InvalidValue(p.label, `the team's lead pipeline has no stage "${given}"; ${hint}. Give one of the team's stages (${shown}), or add the stage in Lofty first`);
	}
	return undefined;
}
