import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { loftyRequest } from '../transport/request';
import type { MethodSet } from './types';

/** The Sales Agent of the user behind the credential (a user has at most one), for the settings update. */
export async function getCurrentSalesAgent(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const agent = (await loftyRequest(this, { method: 'GET', path: '/v2.0/sales-agents/current' })) as IDataObject | undefined;
	if (!agent || agent.id === undefined || agent.id === null) return [];
	const name = [agent.assistantName, agent.agentName ? `for ${agent.agentName as string}` : undefined].filter(Boolean).join(' ');
	return [{ name: name || `Sales Agent ${String(agent.id)}`, value: String(agent.id) }];
}

/** List searches (resource locators) and dropdowns of the Sales Agent resource. */
export const salesAgentMethods: MethodSet = { listSearch: {}, loadOptions: { getCurrentSalesAgent } };
