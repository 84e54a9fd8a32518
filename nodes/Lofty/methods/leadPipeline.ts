import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { STAGE_LIST_PATH, STAGE_PAGES, stageNames } from '../model/stages';
import { paginate } from '../transport/pagination';
import { loftyRequest } from '../transport/request';
import type { MethodSet } from './types';

/**
 * Lead pipeline stages for stage dropdowns. The value is the stage NAME, because lead writes and
 * the lead filter (`stage`) take stage names.
 */
export async function getLeadStages(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const stages = await paginate(STAGE_PAGES, async (qs) => await loftyRequest(this, { method: 'GET', path: STAGE_LIST_PATH, qs }), Infinity);
	// Pipeline order is meaningful (New before Closed), so it is kept.
	return stageNames(stages as IDataObject[]).map((name) => ({ name, value: name }));
}

/** List searches (resource locators) and dropdowns of the Lead Pipeline resource. */
export const leadPipelineMethods: MethodSet = { listSearch: {}, loadOptions: { getLeadStages } };
