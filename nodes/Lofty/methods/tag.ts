import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { TAG_LIST_PATH } from '../model/tags';
import { loftyRequest } from '../transport/request';
import type { MethodSet } from './types';

/**
 * Lead tags for tag dropdowns. The value is the tag NAME, because lead writes and lead filters
 * (`tags`, `tagsAdd`, `tagsRemove`, `allTags`, `anyTags`) take names, not tag IDs.
 */
export async function getTags(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const response = await loftyRequest(this, { method: 'GET', path: TAG_LIST_PATH });
	const tags = Array.isArray(response) ? (response as IDataObject[]) : [];
	const seen = new Set<string>();
	const options: INodePropertyOptions[] = [];
	for (const t of tags) {
		const name = typeof t.tagName === 'string' ? t.tagName.trim() : '';
		if (!name || seen.has(name)) continue;
		seen.add(name);
		options.push({ name, value: name });
	}
	// Names that start with a letter or digit first, then the rest (a tag named "*" is listed last, not first).
	const plain = (name: string) => (/^[\p{L}\p{N}]/u.test(name) ? 0 : 1);
	return options.sort((a, b) => plain(a.name) - plain(b.name) || a.name.localeCompare(b.name));
}

/** List searches (resource locators) and dropdowns of the Tag resource. */
export const tagMethods: MethodSet = { listSearch: {}, loadOptions: { getTags } };
