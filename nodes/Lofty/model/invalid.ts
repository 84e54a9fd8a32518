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
