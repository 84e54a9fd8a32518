import axios from 'axios';

import { SEED_IDS } from '../../sandbox';
import { byId, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();

/** Tag names of a lead record (Lofty returns tag objects with `tagName`). */
const tagNames = (lead: Record<string, unknown>) =>
	((lead.tags as Array<string | { tagName: string }>) ?? []).map((t) => (typeof t === 'string' ? t : t.tagName)).sort();

async function fetchLead(leadId: string) {
	const [item] = await run(sandbox(), { resource: 'lead', operation: 'get', leadId: byId(leadId) });
	return item.json;
}

describe('Lead: Create', () => {
	it('creates a lead with tags and lets routing assign an agent', async () => {
		const [item] = await run(sandbox(), {
			resource: 'lead',
			operation: 'create',
			firstName: 'Ada',
			additionalFields: { lastName: 'Lovelace', emails: ['ada@example.com'], tags: ['VIP'], tagsAdd: ['Investor'], stage: 'New' },
		});
		expect(typeof item.json.leadId).toBe('string');
		expect(item.pairedItem).toEqual({ item: 0 });
		const lead = await fetchLead(item.json.leadId as string);
		expect(lead.firstName).toBe('Ada');
		expect(tagNames(lead)).toEqual(['Investor', 'VIP']);
		expect(String(lead.assignedUserId)).toMatch(/^\d+$/);
	});

	it('assigns directly to the chosen agent, sending the 64-bit ID exactly', async () => {
		const [item] = await run(sandbox(), {
			resource: 'lead',
			operation: 'create',
			firstName: 'Grace',
			additionalFields: { assignedUserId: SEED_IDS.demoUserId },
		});
		const lead = await fetchLead(item.json.leadId as string);
		expect(lead.assignedUserId).toBe(SEED_IDS.demoUserId);
	});

	it('refuses Ownership Scope Office without an Ownership ID before sending', async () => {
		const error = await runError(sandbox(), {
			resource: 'lead',
			operation: 'create',
			firstName: 'Al',
			additionalFields: { ownershipScope: 'OFFICE' },
		});
		expect(error.message).toMatch(/Ownership ID/);
		expect(sandbox().count('POST', '/v1.0/leads')).toBe(0);
	});

	it('refuses a first name longer than 30 characters, naming the field', async () => {
		const error = await runError(sandbox(), { resource: 'lead', operation: 'create', firstName: 'x'.repeat(31) });
		expect(error.message).toBe('Invalid value for "First Name": must be at most 30 characters, got 31');
	});
});

describe('Lead: Get', () => {
	it('returns an ID above 2^53 exactly, unwrapping {lead: ...}', async () => {
		const lead = await fetchLead(SEED_IDS.bigLeadId);
		expect(lead.leadId).toBe(SEED_IDS.bigLeadId);
		expect(lead.lead).toBeUndefined();
	});

	it('takes the lead from a Lofty URL', async () => {
		const [item] = await run(sandbox(), {
			resource: 'lead',
			operation: 'get',
			leadId: { __rl: true, mode: 'url', value: `https://crm.lofty.com/admin/home/lead/detail/${SEED_IDS.bigLeadId2}` },
		});
		expect(item.json.leadId).toBe(SEED_IDS.bigLeadId2);
	});

	it('fails with LEAD_NOT_EXIST for a lead of another agent', async () => {
		const error = await runError(sandbox(), { resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.notSharedLeadId) });
		expect(error.message).toMatch(/HTTP 404 LEAD_NOT_EXIST/);
		expect(error.description).toMatch(/cannot see it/);
	});

	it('finds a trashed lead only with Include Trashed', async () => {
		await runError(sandbox(), { resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.trashedLeadId) });
		const [item] = await run(sandbox(), { resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.trashedLeadId), options: { withTrash: true } });
		expect(item.json.leadId).toBe(SEED_IDS.trashedLeadId);
	});

	it('rejects an ID that is not a whole number without calling Lofty, saying IDs are digits and where By URL is', async () => {
		const error = await runError(sandbox(), { resource: 'lead', operation: 'get', leadId: byId('12ab') });
		expect(error.message).toMatch(/^Invalid value for "Lead": must be a Lofty ID/);
		expect(sandbox().requests).toHaveLength(0);
		// A name typed where the ID belongs: the message says what an ID is and that a link works By URL.
		const named = await runError(sandbox(), { resource: 'lead', operation: 'get', leadId: byId('Jane Doe') });
		expect(named.message).toMatch(/got Jane Doe; a lead ID is digits only \(e\.g\. \d+\), or switch the field to By URL and paste the link from Lofty, or to From List to search$/);
		// A record without a Lofty URL shape offers only the list.
		const deal = await runError(sandbox(), { resource: 'transaction', operation: 'get', leadId: byId(SEED_IDS.bigLeadId), transactionId: byId('Main St deal') });
		expect(deal.message).toMatch(/a transaction ID is digits only \(e\.g\. 10001\), or switch the field to From List to search$/);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Lead: Get Many', () => {
	async function total(params: Record<string, string> = {}) {
		const response = await axios.get(`${sandbox().url}/v1.0/leads`, {
			params: { limit: 1, ...params },
			headers: { Authorization: `token ${sandbox().apiKey}`, 'Content-Type': 'application/json' },
		});
		sandbox().reset();
		return response.data._metadata.total as number;
	}

	it('Return All makes exactly ceil(N/100) requests and returns every lead', async () => {
		const n = await total();
		expect(n).toBeGreaterThan(200);
		const items = await run(sandbox(), { resource: 'lead', operation: 'getAll', returnAll: true });
		expect(items).toHaveLength(n);
		expect(new Set(items.map((i) => i.json.leadId)).size).toBe(n);
		expect(sandbox().count('GET', '/v1.0/leads')).toBe(Math.ceil(n / 100));
		expect(items.map((i) => i.json.leadId)).toContain(SEED_IDS.bigLeadId);
	});

	it('Limit stops as soon as it is reached', async () => {
		const items = await run(sandbox(), { resource: 'lead', operation: 'getAll', returnAll: false, limit: 130 });
		expect(items).toHaveLength(130);
		expect(sandbox().count('GET', '/v1.0/leads')).toBe(2);
		expect(sandbox().requests.map((r) => r.query.limit)).toEqual(['100', '30']);
	});

	it('applies filters', async () => {
		const items = await run(sandbox(), {
			resource: 'lead',
			operation: 'getAll',
			returnAll: true,
			filters: { anyTags: ['VIP', 'Investor'], sort: 'CreateTime', desc: false },
		});
		expect(items.length).toBeGreaterThan(0);
		for (const { json } of items) expect(tagNames(json).some((t) => t === 'VIP' || t === 'Investor')).toBe(true);
		// The tag names were matched against the team's tags first (one read), then the leads searched.
		expect(sandbox().requests.map((r) => r.path).slice(0, 2)).toEqual(['/v1.0/teamFeatures/listTag', '/v1.0/leads']);
		expect(sandbox().requests[1].query).toMatchObject({ anyTags: 'VIP,Investor', sort: 'CreateTime', desc: 'false' });
	});

	it('returns only the asked fields', async () => {
		const items = await run(sandbox(), { resource: 'lead', operation: 'getAll', limit: 3, filters: { returnFields: ['firstName'] } });
		for (const { json } of items) expect(Object.keys(json).sort()).toEqual(['firstName', 'leadId']);
	});

	it('rejects a Limit below 1', async () => {
		const error = await runError(sandbox(), { resource: 'lead', operation: 'getAll', limit: 0 });
		expect(error.message).toMatch(/"Limit": must be a whole number of at least 1/);
	});
});

describe('Lead: Update', () => {
	const update = (updateFields: Record<string, unknown>) =>
		run(sandbox(), { resource: 'lead', operation: 'update', leadId: byId(SEED_IDS.bigLeadId), updateFields });

	it('replaces, adds and removes tags in the spec order', async () => {
		await update({ tags: ['A', 'B'] });
		expect(tagNames(await fetchLead(SEED_IDS.bigLeadId))).toEqual(['A', 'B']);
		await update({ tagsAdd: ['C'], tagsRemove: ['A', 'not-there'] });
		expect(tagNames(await fetchLead(SEED_IDS.bigLeadId))).toEqual(['B', 'C']);
	});

	it('clears all tags', async () => {
		await update({ clearAllTags: true });
		expect(tagNames(await fetchLead(SEED_IDS.bigLeadId))).toEqual([]);
	});

	it('refuses Clear All Tags with other tag fields before sending', async () => {
		const error = await runError(sandbox(), {
			resource: 'lead',
			operation: 'update',
			leadId: byId(SEED_IDS.bigLeadId),
			updateFields: { clearAllTags: true, tagsAdd: ['X'] },
		});
		expect(error.message).toMatch(/"Clear All Tags": removes every tag/);
		expect(sandbox().count('PUT', '/v1.0/leads/{id}')).toBe(0);
	});

	it('refuses an update with no fields', async () => {
		const error = await runError(sandbox(), { resource: 'lead', operation: 'update', leadId: byId(SEED_IDS.bigLeadId) });
		expect(error.message).toMatch(/add at least one field/);
	});

	it('changes the stage', async () => {
		const [item] = await update({ stage: 'Hot' });
		expect(item.json.leadId).toBe(SEED_IDS.bigLeadId);
		expect((await fetchLead(SEED_IDS.bigLeadId)).stage).toBe('Hot');
	});
});

describe('Lead: Delete', () => {
	it('moves the lead to the trash and says so', async () => {
		const [item] = await run(sandbox(), { resource: 'lead', operation: 'delete', leadId: byId(SEED_IDS.bigLeadId), reason: 'duplicate' });
		expect(item.json).toMatchObject({ deleted: true, leadId: SEED_IDS.bigLeadId });
		const error = await runError(sandbox(), { resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.bigLeadId) });
		expect(error.message).toMatch(/LEAD_NOT_EXIST/);
	});

	it('requires a reason', async () => {
		const error = await runError(sandbox(), { resource: 'lead', operation: 'delete', leadId: byId(SEED_IDS.bigLeadId), reason: ' ' });
		expect(error.message).toBe('Invalid value for "Reason": is required');
	});
});

describe('Lead: inquiry, property, assignment, activity', () => {
	it('adds an inquiry', async () => {
		const [item] = await run(sandbox(), {
			resource: 'lead',
			operation: 'addInquiry',
			leadId: byId(SEED_IDS.bigLeadId),
			inquiryFields: { priceMin: 300000, priceMax: 500000, propertyType: ['Condo'], locations: '[{"city":"Austin","stateCode":"TX"}]' },
		});
		expect(item.json.leadId).toBe(SEED_IDS.bigLeadId);
		const lead = await fetchLead(SEED_IDS.bigLeadId);
		expect(lead.leadInquiry).toMatchObject({ priceMin: 300000, priceMax: 500000, propertyType: ['Condo'] });
	});

	it('refuses an empty inquiry', async () => {
		const error = await runError(sandbox(), { resource: 'lead', operation: 'addInquiry', leadId: byId(SEED_IDS.bigLeadId) });
		expect(error.message).toMatch(/Inquiry Fields/);
	});

	it('adds a property and refuses one without any address part', async () => {
		await run(sandbox(), {
			resource: 'lead',
			operation: 'updateProperty',
			leadId: byId(SEED_IDS.bigLeadId),
			propertyFields: { streetAddress: '1 Main St', city: 'Austin', bedrooms: 3 },
		});
		const lead = await fetchLead(SEED_IDS.bigLeadId);
		expect(lead.leadPropertyList).toEqual(expect.arrayContaining([expect.objectContaining({ streetAddress: '1 Main St', city: 'Austin' })]));
		const error = await runError(sandbox(), {
			resource: 'lead',
			operation: 'updateProperty',
			leadId: byId(SEED_IDS.bigLeadId),
			propertyFields: { bedrooms: 3 },
		});
		expect(error.message).toMatch(/Street Address, City, State or Zip Code/);
	});

	it('assigns an agent by account', async () => {
		const me = await axios.get(`${sandbox().url}/v1.0/members`, {
			params: { limit: 2 },
			headers: { Authorization: `token ${sandbox().apiKey}`, 'Content-Type': 'application/json' },
		});
		const other = me.data.members[1];
		await run(sandbox(), {
			resource: 'lead',
			operation: 'assign',
			leadId: byId(SEED_IDS.bigLeadId),
			assignees: { values: [{ role: 'Agent', assignee: other.email }] },
		});
		expect(String((await fetchLead(SEED_IDS.bigLeadId)).assignedUserId)).toBe(String(other.memberUserId));
	});

	it('logs a site activity with its time in epoch milliseconds', async () => {
		await run(sandbox(), {
			resource: 'lead',
			operation: 'addActivity',
			leadId: byId(SEED_IDS.bigLeadId),
			type: 'Search',
			created: '2026-03-01T10:00:00.000Z',
			text: 'Condo in Austin',
			link: 'https://example.com/search',
			picture: 'https://example.com/p.png',
		});
		const items = await run(sandbox(), { resource: 'lead', operation: 'getSiteActivities', leadId: byId(SEED_IDS.bigLeadId), returnAll: true });
		expect(items.map((i) => i.json)).toEqual(expect.arrayContaining([expect.objectContaining({ text: 'Condo in Austin', created: Date.parse('2026-03-01T10:00:00.000Z') })]));
	});
});

describe('Lead: Resolve Assignee', () => {
	it('previews the routing result', async () => {
		const items = await run(sandbox(), { resource: 'lead', operation: 'resolveAssignee', firstName: 'Zed', email: 'zed@example.com' });
		expect(items.length).toBeGreaterThan(0);
	});

	it.each([
		[{ firstName: '', email: 'a@b.c' }, 'First Name', 'PARAM_FIRST_NAME_FILL'],
		[{ firstName: 'A', email: '' }, 'Email', 'PARAM_EMAIL_MUST_FILL'],
	])('checks %j before sending', async (fields, field, code) => {
		const error = await runError(sandbox(), { resource: 'lead', operation: 'resolveAssignee', ...fields });
		expect(error.message).toBe(`Invalid value for "${field}": is required (Lofty would answer ${code})`);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Lead: activities and saved searches', () => {
	it('pages site activities 100 at a time', async () => {
		const items = await run(sandbox(), { resource: 'lead', operation: 'getSiteActivities', leadId: byId(SEED_IDS.activityLeadId), returnAll: true });
		expect(items).toHaveLength(320);
		expect(sandbox().requests.map((r) => r.query.curPage)).toEqual(['0', '1', '2', '3']);
	});

	it('pages communication activities by currentId', async () => {
		const all = await run(sandbox(), { resource: 'lead', operation: 'getActivities', leadId: byId(SEED_IDS.activityLeadId), returnAll: true });
		expect(all).toHaveLength(45);
		sandbox().reset();
		const some = await run(sandbox(), { resource: 'lead', operation: 'getActivities', leadId: byId(SEED_IDS.activityLeadId), limit: 20 });
		expect(some.map((i) => i.json.id)).toEqual(all.slice(0, 20).map((i) => i.json.id));
	});

	it('filters saved searches by origin and activity', async () => {
		const agentOnly = await run(sandbox(), {
			resource: 'lead',
			operation: 'getSavedSearches',
			leadId: byId(SEED_IDS.savedSearchLeadId),
			options: { source: ['AGENT_CREATED'], includeInactive: true },
		});
		expect(agentOnly.length).toBeGreaterThan(0);
		for (const { json } of agentOnly) expect(json.source).toBe('AGENT_CREATED');
		const activeAll = await run(sandbox(), { resource: 'lead', operation: 'getSavedSearches', leadId: byId(SEED_IDS.savedSearchLeadId) });
		const withInactive = await run(sandbox(), {
			resource: 'lead',
			operation: 'getSavedSearches',
			leadId: byId(SEED_IDS.savedSearchLeadId),
			options: { includeInactive: true },
		});
		expect(withInactive.length).toBeGreaterThan(activeAll.length);
	});
});

describe('items: pairing and Continue On Fail', () => {
	const ids = [SEED_IDS.bigLeadId, 'not-an-id', SEED_IDS.notSharedLeadId, SEED_IDS.bigLeadId2];
	const params = (i: number) => ({ resource: 'lead', operation: 'get', leadId: byId(ids[i]) });

	it('turns failed items into error items and completes the others', async () => {
		const items = await run(sandbox(), params, { items: ids.map(() => ({})), continueOnFail: true });
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(items[0].json.leadId).toBe(SEED_IDS.bigLeadId);
		expect(items[1].json.error).toMatch(/Invalid value for "Lead"/);
		expect(items[2].json).toMatchObject({ httpCode: '404', code: 'LEAD_NOT_EXIST' });
		expect(items[3].json.leadId).toBe(SEED_IDS.bigLeadId2);
	});

	it('without it, stops at the failing item and names it', async () => {
		const error = await runError(sandbox(), params, { items: ids.map(() => ({})) });
		expect(error.context?.itemIndex).toBe(1);
	});
});
