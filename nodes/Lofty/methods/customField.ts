import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { loftyRequest } from '../transport/request';
import type { MethodSet } from './types';

/**
 * The team's custom lead fields for dropdowns. The value is the field NAME (`attributeName`),
 * which is how lead writes address a custom field (`customAttributeList[].attributeName`).
 */
export async function getCustomFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const response = await loftyRequest(this, { method: 'GET', path: '/v1.0/teamFeatures/listCustomField' });
	const fields = Array.isArray(response) ? (response as IDataObject[]) : [];
	return fields
		.filter((f) => typeof f.attributeName === 'string' && f.attributeName.trim() !== '')
		.map((f) => ({
			name: f.attributeName as string,
			value: f.attributeName as string,
			description: typeof f.attributeType === 'string' ? `Type: ${f.attributeType}` : undefined,
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** List searches (resource locators) and dropdowns of the Custom Field resource. */
export const customFieldMethods: MethodSet = { listSearch: {}, loadOptions: { getCustomFields } };
