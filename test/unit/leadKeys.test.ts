/** Lead > Create or Update's person keys: the phone rule, and the bounded record of recent leads shared by executions. */
import type { IDataObject } from 'n8n-workflow';

import {
	PersonMemory,
	RECENT_LEADS_MAX,
	RECENT_LEADS_TTL_MS,
	type KnownLead,
	differences,
	emailKey,
	forget,
	forgetRecentLeads,
	normalPhone,
	otherPeople,
	personKeys,
	phoneKey,
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


describe('the match keys and what tells two people apart', () => {
	it('an email key ignores case and spaces; a phone key is the normalised phone; a person\'s keys once each', () => {
		expect(emailKey(' Ann@Example.COM ')).toBe('email:ann@example.com');
		expect(phoneKey('(415) 555-0101')).toBe('phone:+14155550101');
		expect(personKeys(['a@x.com', 'A@x.com'], ['4155550101', '+1 415 555 0101'])).toEqual(['email:a@x.com', 'phone:+14155550101']);
		expect(personKeys([], [])).toEqual([]);
		// A +1 number that is not 10 digits long is searched as its digits only.
		expect(phoneSearchValues('+1 555 0101')).toEqual(['15550101']);
	});

	it('names differ only when both have one, loosely (case, accents, spacing); emails only when both have some and none is shared', () => {
		const person = { firstName: ' José  María ', lastName: 'Lee', emails: ['J@x.com '] };
		expect(differences(person, { firstName: 'jose maria', lastName: 'LEE' }, ['j@x.com'])).toEqual([]);
		expect(differences(person, { firstName: 'Jose', lastName: 'Park' }, ['k@x.com'])).toEqual([
			{ field: 'firstName', lead: 'Jose' },
			{ field: 'lastName', lead: 'Park' },
			{ field: 'emails', lead: 'k@x.com' },
		]);
		expect(differences({ emails: [] }, { firstName: 'Jose', lastName: 7 }, ['k@x.com'])).toEqual([]);
		expect(differences({ firstName: 'Ann', lastName: ' ', emails: ['a@x.com'] }, { lastName: 'Lee' }, [])).toEqual([]);
		expect(differences({ firstName: 'Ann', emails: ['a@x.com'] }, { firstName: 'Ann' }, [' A@X.com', 'b@x.com'])).toEqual([]);
	});

	it('otherPeople: the leads found by the phone alone the rules keep apart, with why; the lead\'s own emails when it has a list', () => {
		const lead = (leadId: string, fields: IDataObject, emails: string[] = []): KnownLead => ({ leadId, emails, phones: [], fields, recent: false });
		const item = { firstName: 'Ann', lastName: 'Lee' };
		const matches = [
			lead('1', { firstName: 'Bob', lastName: 'Lee', emails: ['bob@x.com', 7] }, ['ann@x.com']),
			lead('2', { firstName: 'Ann' }, ['other@x.com']),
			lead('3', { firstName: 'ann', emails: ['ann@x.com'] }, ['zzz@x.com']),
		];
		expect(otherPeople(item, ['ann@x.com'], matches)).toEqual([
			{
				leadId: '1',
				matchedBy: 'phone',
				differs: ['firstName', 'emails'],
				why: 'Lead 1 has this phone but another first name (Bob) and other emails (bob@x.com), so it was taken for another person (Options > If Only the Phone Matches)',
			},
			{
				leadId: '2',
				matchedBy: 'phone',
				differs: ['emails'],
				why: 'Lead 2 has this phone but other emails (other@x.com), so it was taken for another person (Options > If Only the Phone Matches)',
			},
		]);
		expect(otherPeople({ ...item, phoneOnly: 'update' }, ['ann@x.com'], matches)).toEqual([]);
		expect(otherPeople({ lastName: 'Park' }, [], matches.slice(0, 1)).map((m) => m.why)).toEqual([
			'Lead 1 has this phone but another last name (Lee), so it was taken for another person (Options > If Only the Phone Matches)',
		]);
	});
});

describe('PersonMemory', () => {
	it('a key set again lives from then on and counts as the newest; an expired entry is dropped when read; deleting forgets only those keys', () => {
		const memory = new PersonMemory<string>();
		memory.set('acc', ['a', 'b'], 'first', 1000);
		memory.set('acc', ['a'], 'again', 2000);
		expect(memory.get('acc', 'a', 1000 + RECENT_LEADS_TTL_MS)).toBe('again');
		expect(memory.get('acc', 'b', 1000 + RECENT_LEADS_TTL_MS - 1)).toBe('first');
		expect(memory.size).toBe(2);
		expect(memory.get('acc', 'b', 1000 + RECENT_LEADS_TTL_MS)).toBeUndefined();
		expect(memory.size).toBe(1);
		memory.set('acc', ['c'], 'c', 2000);
		memory.delete('acc', ['a', 'missing']);
		expect(memory.get('acc', 'a', 2000)).toBeUndefined();
		expect(memory.get('acc', 'c', 2000)).toBe('c');
		memory.clear();
		expect(memory.size).toBe(0);
	});

	it('a key set again at the cap is not dropped as the oldest', () => {
		const memory = new PersonMemory<number>();
		for (let i = 0; i < RECENT_LEADS_MAX; i++) memory.set('acc', [`k${i}`], i, 1000);
		memory.set('acc', ['k0'], -1, 1000);
		memory.set('acc', ['new'], 1, 1000);
		expect(memory.size).toBe(RECENT_LEADS_MAX);
		expect(memory.get('acc', 'k0', 1000)).toBe(-1);
		expect(memory.get('acc', 'k1', 1000)).toBeUndefined();
	});

	it('forget drops a remembered lead\'s keys', () => {
		forgetRecentLeads();
		const known: KnownLead = { leadId: '1', emails: [], phones: [], fields: {}, recent: true };
		remember('acc', ['email:a@x.com', 'email:b@x.com'], known, 1000);
		forget('acc', ['email:a@x.com']);
		expect(recall('acc', 'email:a@x.com', 1000)).toBeUndefined();
		expect(recall('acc', 'email:b@x.com', 1000)).toBe(known);
	});
});

describe('the phone search and the person tests: edges', () => {
	it('a number of another country as long as a North American one is searched by its own digits only', () => {
		expect(phoneSearchValues('+49 30 1234567')).toEqual(['49301234567']);
	});

	it('names: runs of spaces count as one, a space itself counts; one shared email is enough; the lead\'s emails all named', () => {
		expect(differences({ firstName: 'Mary  Ann', emails: [] }, { firstName: 'mary ann' }, [])).toEqual([]);
		expect(differences({ firstName: 'Mary Ann', emails: [] }, { firstName: 'Maryann' }, [])).toEqual([{ field: 'firstName', lead: 'Maryann' }]);
		expect(differences({ emails: ['a@x.com', 'new@x.com'] }, {}, ['A@x.com'])).toEqual([]);
		expect(differences({ emails: ['z@x.com'] }, {}, ['a@x.com', 'b@x.com'])).toEqual([{ field: 'emails', lead: 'a@x.com, b@x.com' }]);
	});
});
