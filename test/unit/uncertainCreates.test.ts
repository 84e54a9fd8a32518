/**
 * Creates without a certain answer (resources/lead/uncertainCreates.ts) and who they hold back (upsert.ts
 * mayBeThePerson): consulted only under the keys an item matches by, and a phone alone only when the item's own rules
 * would take that create's person for the item's.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { RECENT_LEADS_TTL_MS, emailKey, phoneKey, personKeys } from '../../nodes/Lofty/resources/lead/keys';
import {
	type UncertainCreate,
	earlierItem,
	executionOf,
	forgetUncertainCreates,
	rememberUncertainCreate,
	settleUncertainCreate,
	uncertainCreateFor,
} from '../../nodes/Lofty/resources/lead/uncertainCreates';
import { type Person, mayBeThePerson } from '../../nodes/Lofty/resources/lead/upsert';

afterEach(() => forgetUncertainCreates());

const PHONE = '(415) 555-0142';
const NOW = 1_000_000;
const ann: UncertainCreate = {
	execution: '7',
	itemIndex: 0,
	readableBy: NOW + 3750,
	what: 'lost',
	keys: personKeys(['ann@example.com'], [PHONE]),
	person: { firstName: 'Ann', lastName: 'Lee', emails: ['ann@example.com'] },
};

/** The item's person as Create or Update reads it: the match fields Match By allows, with their keys. */
function person(values: IDataObject): Person {
	const by = values.matchBy ?? 'emailThenPhone';
	const fields = (by === 'email' ? ['email'] : by === 'phone' ? ['phone'] : ['email', 'phone'])
		.filter((f) => typeof values[f] === 'string')
		.map((f) => ({ field: f as 'email' | 'phone', value: values[f] as string, key: f === 'email' ? emailKey(values[f] as string) : phoneKey(values[f] as string) }));
	return { fields, emails: values.email ? [values.email as string] : [], phones: values.phone ? [values.phone as string] : [] };
}
const mayBe = (values: IDataObject, create = ann) => mayBeThePerson(values, person(values), create);

describe('mayBeThePerson', () => {
	it('an email the item matches by is the person, whatever else differs', () => {
		expect(mayBe({ email: 'ann@example.com', phone: '4155559999', firstName: 'Someone' })).toBe(true);
		expect(mayBe({ matchBy: 'email', email: 'ANN@example.com ' })).toBe(true);
	});

	it('no key the item matches by is shared: not the person (Match By Email never by the phone)', () => {
		expect(mayBe({ matchBy: 'email', email: 'bob@example.com', phone: PHONE, firstName: 'Ann', lastName: 'Lee' })).toBe(false);
		expect(mayBe({ email: 'bob@example.com', phone: '4155559999' })).toBe(false);
		expect(mayBe({ matchBy: 'phone', email: 'ann@example.com', phone: '4155559999' })).toBe(false);
	});

	it('Match By Phone: the phone is the person', () => {
		expect(mayBe({ matchBy: 'phone', phone: PHONE, firstName: 'Bob', email: 'bob@example.com' })).toBe(true);
	});

	it('Email, Then Phone with the phone alone: the item\'s rules (If Only the Phone Matches) decide', () => {
		const bob = { email: 'bob@example.com', phone: PHONE, firstName: 'Bob' };
		expect(mayBe(bob)).toBe(false);
		expect(mayBe({ ...bob, phoneOnly: 'nameAgrees' })).toBe(false);
		expect(mayBe({ ...bob, phoneOnly: 'update' })).toBe(true);
		// The same names: only the other email differs, which "Update It When the Name Agrees" lets through.
		const annAgain = { email: 'ann.work@example.com', phone: PHONE, firstName: 'ann ', lastName: 'LEE' };
		expect(mayBe(annAgain)).toBe(false);
		expect(mayBe({ ...annAgain, phoneOnly: 'nameAgrees' })).toBe(true);
		// No email given, the same name: nothing tells them apart.
		expect(mayBe({ phone: PHONE, firstName: 'Ann' })).toBe(true);
		expect(mayBe({ phone: PHONE, firstName: 'Ann', lastName: 'Park' })).toBe(false);
	});
});

describe('the uncertain creates of a process', () => {
	it('are found under any key they were remembered by, per account, until they expire', () => {
		rememberUncertainCreate('acct', ann, NOW);
		expect(uncertainCreateFor('acct', [phoneKey('+1 415 555 0142')], undefined, NOW)).toBe(ann);
		expect(uncertainCreateFor('acct', [emailKey('ann@example.com')], undefined, NOW)).toBe(ann);
		expect(uncertainCreateFor('other', [emailKey('ann@example.com')], undefined, NOW)).toBeUndefined();
		expect(uncertainCreateFor('acct', [emailKey('bob@example.com')], undefined, NOW)).toBeUndefined();
		expect(uncertainCreateFor('acct', [emailKey('ann@example.com')], undefined, NOW + RECENT_LEADS_TTL_MS)).toBeUndefined();
	});

	it('the latest of those that may be the person; the others are passed over', () => {
		const later: UncertainCreate = { ...ann, itemIndex: 1, readableBy: ann.readableBy + 10, keys: [phoneKey(PHONE)], person: { firstName: 'Cy', emails: [] } };
		rememberUncertainCreate('acct', ann, NOW);
		rememberUncertainCreate('acct', later, NOW);
		const keys = [emailKey('ann@example.com'), phoneKey(PHONE)];
		expect(uncertainCreateFor('acct', keys, undefined, NOW)).toBe(later);
		expect(uncertainCreateFor('acct', [...keys].reverse(), undefined, NOW)).toBe(later);
		expect(uncertainCreateFor('acct', keys, (c) => c !== later, NOW)).toBe(ann);
		expect(uncertainCreateFor('acct', keys, () => false, NOW)).toBeUndefined();
	});

	it('settling one forgets only the keys that still name it', () => {
		const later: UncertainCreate = { ...ann, itemIndex: 1, keys: [phoneKey(PHONE)] };
		rememberUncertainCreate('acct', ann);
		rememberUncertainCreate('acct', later);
		settleUncertainCreate('acct', ann);
		expect(uncertainCreateFor('acct', [emailKey('ann@example.com')])).toBeUndefined();
		expect(uncertainCreateFor('acct', [phoneKey(PHONE)])).toBe(later);
	});

	it('a new process (forgetUncertainCreates) knows none of them', () => {
		rememberUncertainCreate('acct', ann, NOW);
		forgetUncertainCreates();
		expect(uncertainCreateFor('acct', [emailKey('ann@example.com')], undefined, NOW)).toBeUndefined();
	});

	it('the earlier item is named by its execution', () => {
		const ctx = (id?: string) => ({ getExecutionId: () => id }) as unknown as IExecuteFunctions;
		expect(earlierItem(ctx('7'), ann)).toBe('item 0 of this execution');
		expect(earlierItem(ctx('8'), ann)).toBe('item 0 of execution 7');
		const own = ctx(undefined);
		expect(executionOf(own)).toMatch(/^#\d+$/);
		expect(executionOf(own)).toBe(executionOf(own));
		expect(earlierItem(own, { ...ann, execution: executionOf(own) })).toBe('item 0 of this execution');
		expect(earlierItem(ctx(undefined), { ...ann, execution: executionOf(own) })).toBe('item 0 of an earlier execution');
	});
});

describe('the uncertain creates of a process: edges', () => {
	it('of two equally late, the one under the first key', () => {
		const byPhone: UncertainCreate = { ...ann, itemIndex: 1, keys: [phoneKey(PHONE)] };
		const byEmail: UncertainCreate = { ...ann, itemIndex: 2, keys: [emailKey('ann@example.com')] };
		rememberUncertainCreate('acct', byPhone, NOW);
		rememberUncertainCreate('acct', byEmail, NOW);
		expect(uncertainCreateFor('acct', [emailKey('ann@example.com'), phoneKey(PHONE)], undefined, NOW)).toBe(byEmail);
		expect(uncertainCreateFor('acct', [phoneKey(PHONE), emailKey('ann@example.com')], undefined, NOW)).toBe(byPhone);
	});

	it('an execution without an ID from n8n (none, or empty) is numbered by this process', () => {
		const none = {} as unknown as IExecuteFunctions;
		const empty = { getExecutionId: () => '' } as unknown as IExecuteFunctions;
		expect(executionOf(none)).toMatch(/^#\d+$/);
		expect(executionOf(empty)).toMatch(/^#\d+$/);
		expect(executionOf(empty)).not.toBe(executionOf(none));
		expect(executionOf({ getExecutionId: () => 12 } as unknown as IExecuteFunctions)).toBe('12');
	});
});
