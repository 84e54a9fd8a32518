/** Lead > Create or Update's person keys: the phone rule, and the bounded record of recent leads shared by executions. */
import {
	RECENT_LEADS_MAX,
	RECENT_LEADS_TTL_MS,
	type KnownLead,
	forgetRecentLeads,
	normalPhone,
	phoneSearchValues,
	recall,
	recentLeadCount,
	remember,
	setApartBy,
} from '../../nodes/Lofty/resources/lead/keys';
import { withKnown } from '../../nodes/Lofty/resources/lead/upsert';

describe('normalPhone', () => {
	it.each([
		// One North American number however written, extensions dropped.
		['(415) 555-0101', '+14155550101'],
		['+1 415 555 0101', '+14155550101'],
		['1-415-555-0101', '+14155550101'],
		['415.555.0101 x12', '+14155550101'],
		['4155550101 ext. 5', '+14155550101'],
		['+1 (415) 555-0101 extension 300', '+14155550101'],
		['415-555-0101 #7', '+14155550101'],
		// Other countries keep their code: these two must not meet.
		['+44 7700 900123', '+447700900123'],
		['+1 770-090-0123', '+17700900123'],
		['0044 7700 900123', '+447700900123'],
		['447700900123', '+447700900123'],
		['+49 30 1234567', '+49301234567'],
		// No country known: only the same digits.
		['07700 900123', '07700900123'],
		['555-0101', '5550101'],
	])('%s -> %s', (written, normal) => {
		expect(normalPhone(written)).toBe(normal);
	});

	it('the search sends digits only: a US number as its 10 digits (the OpenAPI example), then with its 1; another with its country code', () => {
		expect(['(415) 555-0101 x9', '+44 7700 900123', '+1 770-090-0123', '07700 900123'].map(phoneSearchValues)).toEqual([
			['4155550101', '14155550101'],
			['447700900123'],
			['7700900123', '17700900123'],
			['07700900123'],
		]);
	});
});

describe('the record of recent leads', () => {
	beforeEach(() => forgetRecentLeads());
	const lead = (leadId: string): KnownLead => ({ leadId, emails: [], phones: [], fields: {}, recent: true });

	it('is per account: another account does not see it', () => {
		remember('account A', ['email:a@example.com'], lead('1'), 1000);
		expect(recall('account A', 'email:a@example.com', 1001)?.leadId).toBe('1');
		expect(recall('account B', 'email:a@example.com', 1001)).toBeUndefined();
	});

	it('forgets an entry after its time to live', () => {
		remember('acc', ['email:a@example.com'], lead('1'), 1000);
		expect(recall('acc', 'email:a@example.com', 1000 + RECENT_LEADS_TTL_MS - 1)?.leadId).toBe('1');
		expect(recall('acc', 'email:a@example.com', 1000 + RECENT_LEADS_TTL_MS)).toBeUndefined();
		expect(recentLeadCount()).toBe(0);
	});

	it('holds at most its cap, dropping the oldest, and drops expired entries as new ones come', () => {
		for (let i = 0; i < RECENT_LEADS_MAX + 50; i++) remember('acc', [`email:${i}@example.com`], lead(String(i)), 1000);
		expect(recentLeadCount()).toBe(RECENT_LEADS_MAX);
		expect(recall('acc', 'email:0@example.com', 1001)).toBeUndefined();
		expect(recall('acc', `email:${RECENT_LEADS_MAX + 49}@example.com`, 1001)?.leadId).toBe(String(RECENT_LEADS_MAX + 49));
		remember('acc', ['email:late@example.com'], lead('late'), 1000 + RECENT_LEADS_TTL_MS);
		expect(recentLeadCount()).toBe(1);
	});
});

describe('setApartBy: what keeps a lead found by the phone alone from being the item\'s person', () => {
	const lead = { firstName: 'Ann', lastName: 'Lee' };
	const bob = { firstName: 'Bob', lastName: 'Lee' };
	it('"Create a New Lead When Anything Differs" (the default): another name or other emails', () => {
		expect(setApartBy(bob, ['bob@example.com'], lead, ['ann@example.com']).map((d) => d.field)).toEqual(['firstName', 'emails']);
		expect(setApartBy({ ...bob, phoneOnly: 'newLead' }, [], lead, ['ann@example.com']).map((d) => d.field)).toEqual(['firstName']);
		expect(setApartBy({ firstName: 'ANN' }, ['ann2@example.com'], lead, ['ann@example.com'])).toEqual([{ field: 'emails', lead: 'ann@example.com' }]);
		expect(setApartBy({ firstName: 'Ann' }, ['ann@example.com'], lead, ['Ann@Example.com', 'x@example.com'])).toEqual([]);
	});
	it('"Update It When the Name Agrees": another name only', () => {
		expect(setApartBy({ firstName: 'Ann', phoneOnly: 'nameAgrees' }, ['ann2@example.com'], lead, ['ann@example.com'])).toEqual([]);
		expect(setApartBy({ ...bob, phoneOnly: 'nameAgrees' }, ['bob@example.com'], lead, ['ann@example.com'])).toEqual([{ field: 'firstName', lead: 'Ann' }]);
	});
	it('"Always Update It": nothing', () => {
		expect(setApartBy({ ...bob, phoneOnly: 'update' }, ['bob@example.com'], lead, ['ann@example.com'])).toEqual([]);
	});
});

describe('withKnown: a remembered lead that may have others joins what the search found', () => {
	const lead = (leadId: string): KnownLead => ({ leadId, emails: [], phones: [], fields: {}, recent: false });
	it('first when the search does not show it yet; once when it does; the search alone without one', () => {
		const known = lead('3');
		expect(withKnown([lead('2'), lead('1')], known).map((l) => l.leadId)).toEqual(['3', '2', '1']);
		const found = [lead('3'), lead('1')];
		expect(withKnown(found, known)).toBe(found);
		expect(withKnown([], known)).toEqual([known]);
		expect(withKnown(found, undefined)).toBe(found);
	});
});

