/**
 * GET /v1.0/teamFeatures/lead-pipelines: the team's lead pipeline entries (the stages leads move
 * through), `{_metadata: {collection, limit, offset, total, scrollId}, pipelines: [{id, name}]}`.
 *
 * From the OpenAPI: `name` filters by substring (empty = all); `currPage` is zero-based (minimum 0,
 * default 0); `pageSize` minimum 1, default 10; `_metadata.total` is the size before paging.
 * Where the spec is silent: the name match ignores case; no maximum page size; a bound broken gives
 * 400 INVALID_PARAMETER (20012). The entries are the store's stages, so a stage written through
 * the lead endpoints is listed too; the module adds two stages with IDs above 2^53.
 */
import { intParam } from '../../core/params';
import type { Route } from '../../core/router';
import type { Store } from '../../core/store';

/** Stages added by this module's seed (after the lead seed's eight stages). */
export const EXTRA_STAGES: Array<{ id: bigint; name: string }> = [
	{ id: 9007199254741301n, name: 'Past Client' },
	{ id: 9007199254741302n, name: 'Sphere of Influence' },
];

export function seedLeadPipeline(store: Store): void {
	for (const s of EXTRA_STAGES) if (!store.stages.some((x) => x.id === s.id)) store.stages.push({ ...s });
}

export const leadPipelineRoutes: Route[] = [
	{
		method: 'GET',
		pattern: '/v1.0/teamFeatures/lead-pipelines',
		handler: ({ query, store }) => {
			const name = (query.get('name') ?? '').trim().toLowerCase();
			const currPage = intParam(query, 'currPage', { def: 0, min: 0 });
			const pageSize = intParam(query, 'pageSize', { def: 10, min: 1 });
			const all = store.stages.filter((s) => name === '' || s.name.toLowerCase().includes(name));
			const offset = currPage * pageSize;
			return {
				body: {
					_metadata: { collection: 'pipelines', limit: pageSize, offset, total: all.length, scrollId: null },
					pipelines: all.slice(offset, offset + pageSize).map((s) => ({ id: s.id, name: s.name })),
				},
			};
		},
	},
];
