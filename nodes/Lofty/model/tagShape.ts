import type { IDataObject } from 'n8n-workflow';

import type { BuiltRequest, OtherReading } from './types';

/** The lead body fields that carry tag names (create: tags, tagsAdd; update: also tagsRemove). */
export const TAG_BODY_FIELDS = ['tags', 'tagsAdd', 'tagsRemove'];

/** Whether a refusal is Lofty failing to read a tag list in the shape sent (a JSON parse error naming tags). */
function tagShapeRefused(failure: { httpCode: number; message: string }): boolean {
	if (failure.httpCode !== 400 && failure.httpCode !== 500) return false;
	const { message } = failure;
	return /tag/i.test(message) && /JSON parse|deserializ|construct instance|String value|START_OBJECT|START_ARRAY|Unrecognized token/i.test(message);
}

/** The tag fields of a body written in the other shape: names become `{tagName}` and `{tagName}` becomes names. */
function reshaped(body: IDataObject): IDataObject | undefined {
	let changed = false;
	const out: IDataObject = { ...body };
	for (const field of TAG_BODY_FIELDS) {
		const list = body[field];
		if (!Array.isArray(list) || list.length === 0) continue;
		out[field] = list.map((entry) => {
			if (typeof entry === 'string') return { tagName: entry };
			const name = (entry as IDataObject | null)?.tagName;
			return typeof name === 'string' ? name : entry;
		}) as IDataObject[];
		changed = true;
	}
	return changed ? out : undefined;
}

/**
 * Lead tag writes (docs/api-readings.md, row 21): the spec and the OpenAPI take tag names (`["VIP"]`); Lofty's lead
 * management guide writes `[{"tagName": "VIP"}]`. The node sends names; a refusal that says the tag list could not be
 * read in that shape (the write was not applied) sends the same request once more with objects, and the account
 * keeps that shape in this n8n process. Should the account later refuse objects in the same way, names again.
 */
export const TAG_SHAPE_READING: OtherReading = {
	name: 'tagObjects',
	remember: 'account',
	bothWays: true,
	detect: (failure, request) => tagShapeRefused(failure) && reshaped((request.body ?? {}) as IDataObject) !== undefined,
	rewrite(request: BuiltRequest): BuiltRequest {
		const body = request.body;
		if (!body || Array.isArray(body)) return request;
		const other = reshaped(body);
		return other ? { ...request, body: other } : request;
	},
};
