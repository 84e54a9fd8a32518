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
} from '../../nodes/Lofty/resources/lead/keys';

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
