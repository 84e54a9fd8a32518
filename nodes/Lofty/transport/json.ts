/**
 * Lossless JSON for Lofty: entity IDs are 64-bit integers and exceed 2^53, where a plain
 * JSON.parse silently rounds them. Integer literals that are not safe integers are turned
 * into strings before parsing; everything else parses as usual. No dependency and no reliance
 * on the reviver's source-text argument (absent on Node 20).
 */

function isDigit(code: number): boolean {
	return code >= 48 && code <= 57;
}

/** Keys whose integer values are identifiers: `id`, `leadId`, `agentIds`, `subscribeID` ... */
const ID_KEY = /^(?:id|ids)$|[a-z0-9](?:Id|Ids|ID|IDs)$/;

/**
 * Parses JSON text. Integers beyond Number.MAX_SAFE_INTEGER become exact digit strings; with
 * `idsAsStrings`, every integer under an identifier key (see ID_KEY) becomes a string too, so a
 * lead ID has one type whatever its size.
 */
export function parseJson(text: string, options: { idsAsStrings?: boolean } = {}): unknown {
	let out: string[] | undefined;
	let copiedUpTo = 0;
	const length = text.length;
	// For each open container, the key its values belong to (arrays inherit their own key).
	const keys: Array<string | undefined> = [];
		let i = 0;
	while (i < length) {
		const code = text.charCodeAt(i);
		if (code === 34 /* " */) {
			const start = i + 1;
			i++;
			while (i < length) {
				const c = text.charCodeAt(i);
				if (c === 92 /* \ */) i += 2;
				else if (c === 34) break;
				else i++;
			}
			const end = i;
			i++;
			if (options.idsAsStrings) {
				let j = i;
				while (j < length && text.charCodeAt(j) <= 32) j++;
				if (text.charCodeAt(j) === 58 /* : */) keys[keys.length - 1] = text.slice(start, end);
			}
			continue;
		}
		if (code === 123 /* { */) {
			keys.push(undefined);
		} else if (code === 91 /* [ */) {
			keys.push(keys[keys.length - 1]);
		} else if (code === 125 /* } */ || code === 93 /* ] */) {
			keys.pop();
		} else if (code === 45 /* - */ || isDigit(code)) {
			const start = i;
			let integer = true;
			i++;
			while (i < length) {
				const c = text.charCodeAt(i);
				if (isDigit(c)) i++;
				else if (c === 46 || c === 101 || c === 69 || c === 43 || c === 45) {
					integer = false;
					i++;
				} else break;
			}
			if (integer) {
				const literal = text.slice(start, i);
				const key = keys[keys.length - 1];
				// 16+ characters is a cheap pre-check: every unsafe integer has at least 16 digits.
				const unsafe = i - start >= 16 && !Number.isSafeInteger(Number(literal));
				if (unsafe || (options.idsAsStrings && key !== undefined && ID_KEY.test(key))) {
					out ??= [];
					out.push(text.slice(copiedUpTo, start), '"', literal, '"');
					copiedUpTo = i;
				}
			}
			continue;
		}
		i++;
	}
	if (out === undefined) return JSON.parse(text);
	out.push(text.slice(copiedUpTo));
	return JSON.parse(out.join(''));
}

/**
 * Serialises a request body. A bigint is written as a bare integer literal, so 64-bit IDs the
 * user typed as strings reach the API as exact JSON numbers.
 */
export function stringifyJson(value: unknown): string {
	if (typeof value === 'bigint') return value.toString();
	if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
	if (Array.isArray(value)) {
		return `[${value.map((v) => (v === undefined ? 'null' : stringifyJson(v))).join(',')}]`;
	}
	const parts: string[] = [];
	for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
		if (v === undefined || typeof v === 'function') continue;
		parts.push(`${JSON.stringify(key)}:${stringifyJson(v)}`);
	}
	return `{${parts.join(',')}}`;
}
