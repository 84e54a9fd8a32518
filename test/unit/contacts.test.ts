/** One rule for emails and one for phones, reused by every field that writes one (model/contacts.ts). */
import { checkEmail, checkPhone, normalPhone, storedPhone } from '../../nodes/Lofty/model/contacts';
import { RESOURCES } from '../../nodes/Lofty/resources';
import type { ParamDef } from '../../nodes/Lofty/model/types';

describe('the email rule', () => {
	it.each(['jane@example.com', ' Jane.Doe+list@mail.example.co.uk ', 'a@b.c'])('accepts %j', (email) => {
		expect(checkEmail('Email', email)).toBe(email.trim());
	});
	it.each(['not-an-email', 'jane@', '@example.com', 'jane@example', 'jane doe@example.com', 'a@b..c', 'jane@example.com, bob@example.com'])('refuses %j', (email) => {
		expect(() => checkEmail('Email', email)).toThrow(`Email: must be an email address such as jane@example.com, got ${JSON.stringify(email)}`);
	});
});

describe('the phone rule', () => {
	it.each(['4155550101', '(415) 555-0101', '+44 7700 900123', '415.555.0101 x12', '555-0101', '+49 30 1234567'])('accepts %j', (phone) => {
		expect(checkPhone('Phone', phone)).toBe(phone.trim());
	});
	it.each([
		['n/a', 'may hold only digits'],
		['call me', 'may hold only digits'],
		['jane@example.com', 'may hold only digits'],
		['12345', 'too few digits'],
		['+1 415 555 0101 0101 0101', 'too many digits'],
		['415+5550101', 'may hold only digits'],
	])('refuses %j (%s)', (phone, why) => {
		expect(() => checkPhone('Phone', phone)).toThrow(why);
	});
	it('a lead phone is stored in its normal form, an extension kept', () => {
		expect(['(415) 555-0101', '1-415-555-0101', '+44 7700 900123', '415.555.0101 ext. 12', '07700 900123'].map(storedPhone)).toEqual([
			'+14155550101',
			'+14155550101',
			'+447700900123',
			'+14155550101 x12',
			'07700900123',
		]);
		// The stored form is matched as the typed one.
		expect(normalPhone(storedPhone('415.555.0101 ext. 12'))).toBe(normalPhone('415.555.0101 ext. 12'));
		expect(storedPhone(storedPhone('415.555.0101 ext. 12'))).toBe('+14155550101 x12');
	});
});

describe('every field that writes an email or a phone has the rule', () => {
	const fieldsOf = (params: ParamDef[]): ParamDef[] => params.flatMap((p) => [p, ...fieldsOf(p.fields ?? [])]);
	const writes = RESOURCES.flatMap((r) =>
		r.operations.filter((op) => op.method !== 'GET').flatMap((op) => fieldsOf(op.params).map((p) => ({ where: `${r.name} > ${op.name} > ${p.label}`, p }))),
	);
	// Text fields named for an email address or a phone number (not a subject, a body or a switch).
	const contactFields = writes.filter(
		({ p }) => ['string', 'stringList'].includes(p.type) && p.in !== 'query' && /(^|\s)(e-?mails?|phones?|phone number)$/i.test(p.label.replace(/ Name or ID$/, '')) && !p.loadOptions,
	);

	it('finds the fields (lead writes, Resolve Assignee, Brokermint, Manual Log, Send SMS)', () => {
		expect(contactFields.length).toBeGreaterThanOrEqual(12);
	});
	it.each(contactFields.map(({ where, p }) => [where, p]))('%s', (_where, p) => {
		expect(['email', 'phone', 'leadPhone']).toContain((p as ParamDef).contact);
	});
});
