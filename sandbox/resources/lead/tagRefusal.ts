/**
 * How the sandbox words its refusal of lead tags in the shape the tagWrites reading does not take
 * (docs/api-readings.md, row 21): `parseError` (default) as Jackson words it, a 400 JSON parse error naming the field
 * in its reference chain; `plain` in plain words, as a validating Lofty may say it: 400 20012
 * "INVALID_PARAMETER: tags must be objects {tagName}". Either way nothing is written.
 *
 *   leadTagRefusal(sandbox.store).phrasing = 'plain';
 */
import { ApiError } from '../../core/errors';
import type { Store } from '../../core/store';

export class LeadTagRefusal {
	phrasing: 'parseError' | 'plain' = 'parseError';
}

export const leadTagRefusal = (store: Store): LeadTagRefusal => store.ext('leadTagRefusal', () => new LeadTagRefusal());

/** The refusal of `field` sent as names when the account takes objects (`objects`), or the other way round. */
export function tagShapeRefusal(store: Store, field: string, takes: 'strings' | 'objects', request: string, sample?: string): ApiError {
	if (leadTagRefusal(store).phrasing === 'plain') {
		return new ApiError(400, 20012, `INVALID_PARAMETER: ${field} must be ${takes === 'objects' ? 'objects {tagName}' : 'tag names (strings)'}`);
	}
	const chain = `(through reference chain: ${request}["${field}"]->java.util.ArrayList[0])`;
	return takes === 'strings'
		? new ApiError(400, 20012, `JSON parse error: Cannot deserialize value of type \`java.lang.String\` from Object value (token \`JsonToken.START_OBJECT\`) ${chain}`)
		: new ApiError(
				400,
				20012,
				`JSON parse error: Cannot construct instance of \`LeadTagVo\` (although at least one Creator exists): no String-argument constructor/factory method to deserialize from String value ('${sample ?? ''}') ${chain}`,
			);
}
