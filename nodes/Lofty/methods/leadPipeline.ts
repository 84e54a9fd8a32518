import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { paginate } from '../transport/pagination';
import { loftyRequest } from '../transport/request';
import type { MethodSet } from './types';

/**
 * Lead pipeline stages for stage dropdowns. The value is the stage NAME, because lead writes and
 * the lead filter (`stage`) take stage names.
 */
export async function getLeadStages(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const stages = await paginate(
		{ style: 'page', pageParam: 'currPage', sizeParam: 'pageSize', firstPage: 0, maxPageSize: 100, itemsKey: 'pipelines', totalKey: '_metadata.total' },
		async (qs) => await loftyRequest(this, { method: 'GET', path: '/v1.0/teamFeatures/lead-pipelines', qs }),
		Infinity,
	);
	const seen = new Set<string>();
	const options: INodePropertyOptions[] = [];
	for (const stage of stages as IDataObject[]) {
		const name = typeof stage.name === 'string' ? stage.name.trim() : '';
		if (!name || seen.has(name)) continue;
		seen.add(name);
		options.push({ name, value: name });
	}
	// Pipeline order is meaningful (New before Closed), so it is kept.
	return options;
}

/** List searches (resource locators) and dropdowns of the Lead Pipeline resource. */
export const leadPipelineMethods: MethodSet = { listSearch: {}, loadOptions: { getLeadStages } };
