import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** A value the user gave that breaks a rule: the message names the field and the rule. */
export class InvalidValue extends Error {
	constructor(
		readonly field: string,
		readonly rule: string,
	) {
		super(`${field}: ${rule}`);
	}
}

/** A value quoted in an error message, cut to a readable length. */
export function show(value: unknown): string {
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** `after`: the value was found wanting only after Lofty answered (its reading of the contract), so the description says that. */
export function invalid(ctx: IExecuteFunctions, itemIndex: number, error: InvalidValue, after?: 'refused' | 'answered'): NodeOperationError {
	// Rules may quote the rejected value, which can be huge.
	const rule = error.rule.length > 300 ? `${error.rule.slice(0, 297)}...` : error.rule;
	const description =
		after === 'refused'
			? 'Lofty refused the request, so nothing was changed. Correct the field and run again.'
			: after === 'answered'
				? "Lofty's answer cannot give what the field asks for. Correct the field and run again."
				: 'Nothing was sent to Lofty for this item. Correct the field and run again.';
	return new NodeOperationError(ctx.getNode(), `Invalid value for "${error.field}": ${rule}`, { itemIndex, description });
}
