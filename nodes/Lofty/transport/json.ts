/**
 * Lossless JSON for Lofty: entity IDs are 64-bit integers and exceed 2^53, where a plain
 * JSON.parse silently rounds them. Integer literals that are not safe integers are turned
 * into strings before parsing; everything else parses as usual. No dependency and no reliance
 * on the reviver's source-text argument (absent on Node 20).
 */

function isDigit(code: number): boolean {
	return code >= 48 && code <= 57;
}

/** Parses JSON text, returning integers beyond Number.MAX_SAFE_INTEGER as exact digit strings. */
export function parseJson(text: string): unknown {
	let out: string[] | undefined;
	let copiedUpTo = 0;
	const length = text.length;
	let i = 0;
	while (i < length) {
		const code = text.charCodeAt(i);
		if (code === 34 /* " */) {
			i++;
			while (i < length) {
				const c = text.charCodeAt(i);
				if (c === 92 /* \ */) i += 2;
				else if (c === 34) break;
				else i++;
			}
			i++;
			continue;
		}
		if (code === 45 /* - */ || isDigit(code)) {
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
			// 16+ characters is the cheapest pre-check: every unsafe integer has at least 16 digits.
			if (integer && i - start >= 16) {
				const literal = text.slice(start, i);
				if (!Number.isSafeInteger(Number(literal))) {
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
