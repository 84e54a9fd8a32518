import type { IDataObject } from 'n8n-workflow';

import { answeredOutcome } from '../transport/writeOutcome';
import type { BuiltRequest, OtherReading } from './types';

/** The lead body fields that carry tag names (create: tags, tagsAdd; update: also tagsRemove). */
export const TAG_BODY_FIELDS = ['tags', 'tagsAdd', 'tagsRemove'];

/** The words that name a tag field or the tag type in a refusal (`LeadTagVo`: Jackson's name of a `{tagName}` entry). */
const TAG_WORDS = /\b(?:tags|tagsAdd|tagsRemove|tagName|LeadTagVo)\b/;
/** Jackson's list of a request's known properties, which names every field (tags too) whatever was refused. */
const KNOWN_PROPERTIES = /\(\d+ known properties:[^)]*\)/g;

/**
 * Whether a refusal is about the tag list (Lofty read the body and refused it, so nothing was applied): a 400, or a
 * 2xx whose business error code refuses it (transport/writeOutcome.ts), whose message names a tag field or the tag
 * type as a whole word, e.g. a JSON parse error with `["tags"]` in its reference
 * chain or `INVALID_PARAMETER: tags must be objects {tagName}`. A parse error about `stage` does not name one; a 5xx
 * may have been applied.
 */
export function tagShapeRefused(failure: { httpCode: number; code?: string | number; message: string }): boolean {
	const refused = failure.httpCode === 400 || (failure.httpCode >= 200 && failure.httpCode < 300 && answeredOutcome(failure) === 'refused');
	return refused && TAG_WORDS.test(failure.message.replace(KNOWN_PROPERTIES, ''));
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
 * management guide writes `[{"tagName": "VIP"}]`. The node sends names; a 400 that names a tag field (the write was
 * not applied) sends the same request once more with objects, and once Lofty answers that 2xx the account keeps that
 * shape in this n8n process. Should the account later refuse objects in the same way, names again.
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
