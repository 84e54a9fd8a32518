/**
 * Lossless JSON for the sandbox.
 *
 * Lofty identifiers are 64-bit integers that exceed 2^53, so:
 * - parseJson() keeps every integer numeral outside the safe range as a `bigint`
 *   (exact digits); other numbers stay JS numbers.
 * - stringifyJson() writes `bigint` values as bare integer numerals, exactly as
 *   the real API writes its int64 fields.
 */

export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

export class JsonSyntaxError extends Error {
	constructor(
		message: string,
		readonly position: number,
	) {
		super(message);
		this.name = 'JsonSyntaxError';
	}
}

const INT_RE = /^-?(0|[1-9]\d*)$/;

class Parser {
	private pos = 0;
	constructor(private readonly text: string) {}

	parse(): JsonValue {
		this.ws();
		const value = this.value();
		this.ws();
		if (this.pos < this.text.length) this.fail('Unexpected trailing content');
		return value;
	}

	private fail(message: string): never {
		throw new JsonSyntaxError(`${message} at position ${this.pos}`, this.pos);
	}

	private ws(): void {
		while (this.pos < this.text.length) {
			const c = this.text.charCodeAt(this.pos);
			if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.pos++;
			else break;
		}
	}

	private value(): JsonValue {
		const c = this.text[this.pos];
		if (c === '{') return this.object();
		if (c === '[') return this.array();
		if (c === '"') return this.string();
		if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
		if (this.text.startsWith('true', this.pos)) return this.literal('true', true);
		if (this.text.startsWith('false', this.pos)) return this.literal('false', false);
		if (this.text.startsWith('null', this.pos)) return this.literal('null', null);
		return this.fail(c === undefined ? 'Unexpected end of input' : `Unexpected character '${c}'`);
	}

	private literal<T extends JsonValue>(word: string, value: T): T {
		this.pos += word.length;
		return value;
	}

	private object(): JsonValue {
		const out: { [key: string]: JsonValue } = {};
		this.pos++;
		this.ws();
		if (this.text[this.pos] === '}') {
			this.pos++;
			return out;
		}
		for (;;) {
			this.ws();
			if (this.text[this.pos] !== '"') this.fail('Expected property name');
			const key = this.string();
			this.ws();
			if (this.text[this.pos] !== ':') this.fail("Expected ':'");
			this.pos++;
			this.ws();
			const v = this.value();
			Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
			this.ws();
			const c = this.text[this.pos++];
			if (c === '}') return out;
			if (c !== ',') this.fail("Expected ',' or '}'");
		}
	}

	private array(): JsonValue {
		const out: JsonValue[] = [];
		this.pos++;
		this.ws();
		if (this.text[this.pos] === ']') {
			this.pos++;
			return out;
		}
		for (;;) {
			this.ws();
			out.push(this.value());
			this.ws();
			const c = this.text[this.pos++];
			if (c === ']') return out;
			if (c !== ',') this.fail("Expected ',' or ']'");
		}
	}

	private string(): string {
		this.pos++;
		let out = '';
		for (;;) {
			const c = this.text[this.pos++];
			if (c === undefined) this.fail('Unterminated string');
			if (c === '"') return out;
			if (c === '\\') {
				const e = this.text[this.pos++];
				switch (e) {
					case '"':
					case '\\':
					case '/':
						out += e;
						break;
					case 'b':
						out += '\b';
						break;
					case 'f':
						out += '\f';
						break;
					case 'n':
						out += '\n';
						break;
					case 'r':
						out += '\r';
						break;
					case 't':
						out += '\t';
						break;
					case 'u': {
						const hex = this.text.slice(this.pos, this.pos + 4);
						if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('Bad unicode escape');
						out += String.fromCharCode(parseInt(hex, 16));
						this.pos += 4;
						break;
					}
					default:
						this.fail('Bad escape');
				}
			} else if (c.charCodeAt(0) < 0x20) {
				this.fail('Control character in string');
			} else {
				out += c;
			}
		}
	}

	private number(): number | bigint {
		const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.pos, this.pos + 400));
		if (!m) this.fail('Bad number');
		const raw = m[0];
		this.pos += raw.length;
		if (INT_RE.test(raw)) {
			const n = Number(raw);
			return Number.isSafeInteger(n) ? n : BigInt(raw);
		}
		return Number(raw);
	}
}

/** Parse JSON text; integers beyond ±(2^53-1) come back as `bigint`. Throws JsonSyntaxError. */
export function parseJson(text: string): JsonValue {
	return new Parser(text).parse();
}

function quote(s: string): string {
	return JSON.stringify(s);
}

/** Serialize; `bigint` is written as a bare integer numeral; `undefined` members are skipped. */
export function stringifyJson(value: unknown): string {
	if (value === null) return 'null';
	switch (typeof value) {
		case 'bigint':
			return value.toString();
		case 'number':
			return Number.isFinite(value) ? String(value) : 'null';
		case 'boolean':
			return value ? 'true' : 'false';
		case 'string':
			return quote(value);
		case 'undefined':
		case 'function':
		case 'symbol':
			return 'null';
		default:
			break;
	}
	if (Array.isArray(value)) return `[${value.map((v) => stringifyJson(v === undefined ? null : v)).join(',')}]`;
	if (value instanceof Date) return quote(value.toISOString());
	const parts: string[] = [];
	for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
		if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
		parts.push(`${quote(k)}:${stringifyJson(v)}`);
	}
	return `{${parts.join(',')}}`;
}

/**
 * Read an int64 value from a parsed body or query: accepts a JS integer, a `bigint`,
 * or a numeric string (as Java backends do). Returns undefined for null/undefined,
 * and null when the value is not an integer.
 */
export function toInt64(value: unknown): bigint | undefined | null {
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'bigint') return value;
	if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : null;
	if (typeof value === 'string') {
		const s = value.trim();
		return /^-?\d+$/.test(s) && s.length <= 20 ? BigInt(s) : null;
	}
	return null;
}
