import { InvalidValue, show } from './invalid';

/**
 * Emails and phone numbers as every field that writes one checks them (ParamDef `contact`): one rule each, before
 * anything is sent. Lead phones are also stored in one normal form (`storedPhone`), the form the spec's examples
 * use (+14155551234), so that Lofty, the node's matching and a person reading the lead see the same number.
 *
 * Phone rule (E.164-like; the country code is kept, so +44 7700 900123 and +1 770-090-0123 are different numbers):
 * 1. An extension at the end is set apart: `x123`, `ext. 5`, `ext 5`, `extension 5`, `#5`.
 * 2. Written with `+` or the international prefix `00`: the digits are the country code and the number.
 * 3. Otherwise, by its digits: 10 digits are a North American number (+1, Lofty is a US service); 11 digits
 *    starting with 1 are that with its country code; 12 to 15 digits not starting with 0 carry their country code
 *    without the `+`.
 * 4. Anything else (a national number with a trunk 0 such as 07700 900123, a short local number) has no known
 *    country: it is its bare digits.
 * A phone is valid with 7 to 15 digits (E.164 has at most 15) written with digits, spaces and + ( ) - . / only.
 */

const EXTENSION = /\s*(?:(?:ext(?:ension)?\.?|x|#)\s*(\d{1,6}))\s*$/i;

/** The number without its extension, and the extension's digits ('' when none). */
function splitExtension(phone: string): { number: string; extension: string } {
	const match = EXTENSION.exec(phone);
	return match ? { number: phone.slice(0, match.index), extension: match[1] } : { number: phone, extension: '' };
}

/** A phone in its normalised form: `+<country code><number>`, or its bare digits when no country is known. */
export function normalPhone(phone: string): string {
	const { number } = splitExtension(phone);
	const digits = number.replace(/\D/g, '');
	if (number.trim().startsWith('+')) return `+${digits}`;
	if (/^00[1-9]/.test(digits) && digits.length >= 10) return `+${digits.slice(2)}`;
	if (digits.length === 10) return `+1${digits}`;
	if (digits.length === 11 && digits.startsWith('1')) return `+${digits}`;
	if (digits.length >= 12 && digits.length <= 15 && !digits.startsWith('0')) return `+${digits}`;
	return digits;
}

/** What is wrong with a phone, or undefined when it is one. */
function phoneProblem(phone: string): string | undefined {
	const { number } = splitExtension(phone.trim());
	if (!/^\+?[\d\s().\-/]+$/.test(number.trim())) return 'may hold only digits, spaces and + ( ) - . / (and an extension such as x12 at the end)';
	const digits = normalPhone(number).replace(/\D/g, '').length;
	if (digits < 7) return 'has too few digits (at least 7)';
	if (digits > 15) return 'has too many digits (at most 15 with the country code)';
	return undefined;
}

/** Checks a phone number; `field` names the field in the error. */
export function checkPhone(field: string, phone: string): string {
	const problem = phoneProblem(phone);
	if (problem) throw new InvalidValue(field, `must be a phone number such as 4155551234, got ${JSON.stringify(show(phone))}: it ${problem}`);
	return phone.trim();
}

/** The form a lead's phone is stored in: the normal form, and ` x<extension>` when one was given. */
export function storedPhone(phone: string): string {
	const { extension } = splitExtension(phone.trim());
	return extension ? `${normalPhone(phone)} x${extension}` : normalPhone(phone);
}

const EMAIL = /^[^\s@",;<>()[\]]+@[^\s@",;<>()[\]]+\.[^\s@",;<>()[\].]+$/;

/** Checks an email address; `field` names the field in the error. */
export function checkEmail(field: string, email: string): string {
	const text = email.trim();
	if (!EMAIL.test(text) || text.includes('..')) throw new InvalidValue(field, `must be an email address such as jane@example.com, got ${JSON.stringify(show(email))}`);
	return text;
}
