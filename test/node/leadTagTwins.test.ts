import { SEED_IDS } from '../../sandbox';
import { byId, oauthCredential, run, runError, useSandbox } from '../harness/sandbox';

/**
 * Tag names against the team's list (issue 26, tag twins; issue 28, item 4; issue 30, a list that cannot be read):
 * a name the team has exactly is sent as given; only a name without an exact match takes the team's one spelling in
 * another case; with several such spellings none is chosen. Filters name existing tags or fail before sending.
 */

const sandbox = useSandbox();
const LIST_TAG = '/v1.0/teamFeatures/listTag';

async function tagsOf(leadId: string): Promise<string[]> {
	const [item] = await run(sandbox(), { resource: 'lead', operation: 'get', leadId: byId(leadId) }, { typeVersion: 1 });
	return ((item.json.tags as Array<{ tagName: string }>) ?? []).map((t) => t.tagName).sort();
}

/** Gives a seed lead exactly these tags, in the sandbox's store (as if written in Lofty's own app). */
function tagInLofty(leadId: string, tags: string[]): string {
	const lead = sandbox().store.getLead(BigInt(leadId))!;
	lead.tags = tags.map((name) => sandbox().store.makeTag(name, BigInt(SEED_IDS.demoUserId)));
	return leadId;
}

const create = (tags: unknown, firstName = 'Twin') => run(sandbox(), { resource: 'lead', operation: 'create', firstName, additionalFields: { tags } });
const update = (leadId: string, updateFields: Record<string, unknown>) => run(sandbox(), { resource: 'lead', operation: 'update', leadId: byId(leadId), updateFields });
const getMany = (filters: Record<string, unknown>, extra = {}) => run(sandbox(), { resource: 'lead', operation: 'getAll', returnAll: true, filters }, extra);
/** The tag filter values Lofty was asked for, per Get Many request. */
const filtersSent = (name: string) => sandbox().requests.filter((r) => r.method === 'GET' && r.path === '/v1.0/leads').map((r) => r.query[name]);

describe('Tag twins: the team has both "Hot Lead" and "hot lead"', () => {
	let twin: string;
	beforeEach(() => {
		twin = tagInLofty(SEED_IDS.bigLeadId2, ['hot lead']);
	});

	it('Create with "hot lead" (an exact name of the team) gets "hot lead", not "Hot Lead"', async () => {
		const [item] = await create(['hot lead']);
		expect(await tagsOf(item.json.leadId as string)).toEqual(['hot lead']);
	});

	it('"HOT LEAD" matches two spellings: none is chosen, the name goes as given', async () => {
		const [item] = await create(['HOT LEAD', 'vip']);
		// "vip" has one spelling in the team ("VIP") and takes it.
		expect(await tagsOf(item.json.leadId as string)).toEqual(['HOT LEAD', 'VIP']);
	});

	it('Tags to Remove "hot lead" removes "hot lead" and keeps "Hot Lead"; Tags to Add "Hot Lead" adds that one', async () => {
		await update(twin, { tagsAdd: ['Hot Lead'] });
		expect(await tagsOf(twin)).toEqual(['Hot Lead', 'hot lead']);
		await update(twin, { tagsRemove: ['hot lead'] });
		expect(await tagsOf(twin)).toEqual(['Hot Lead']);
	});

	it('Replace All Tags With "hot lead" leaves exactly "hot lead"', async () => {
		await update(SEED_IDS.bigLeadId, { tags: ['hot lead', 'zillow'] });
		expect(await tagsOf(SEED_IDS.bigLeadId)).toEqual(['Zillow', 'hot lead']);
	});

	it('Has Any Tag "hot lead" asks Lofty for "hot lead" and reads those leads only', async () => {
		const items = await getMany({ anyTags: ['hot lead'] });
		expect(filtersSent('anyTags')).toEqual(['hot lead']);
		expect(items.map((i) => i.json.leadId)).toEqual([twin]);
	});

	it('Has All Tags "HOT LEAD" fails before sending, naming both spellings', async () => {
		const error = await runError(sandbox(), { resource: 'lead', operation: 'getAll', returnAll: true, filters: { allTags: ['HOT LEAD'] } });
		expect(error.message).toBe('Invalid value for "Has All Tags": "HOT LEAD" is not a tag of the team, which has "Hot Lead" and "hot lead" (Lofty matches tags exactly); pick the one you mean from the list');
		expect(filtersSent('allTags')).toEqual([]);
	});
});

describe('A Get Many tag filter naming a tag the team does not have', () => {
	it('fails before sending and names the nearest tag ("Hot Leads": "Hot Lead")', async () => {
		const error = await runError(sandbox(), { resource: 'lead', operation: 'getAll', returnAll: true, filters: { anyTags: ['VIP', 'Hot Leads'] } });
		expect(error.message).toBe(
			'Invalid value for "Has Any Tag": the team has no tag "Hot Leads", so no lead could match; the nearest is "Hot Lead". Pick tags from the list (Lofty matches tags exactly)',
		);
		expect(sandbox().count('GET', '/v1.0/leads')).toBe(0);
	});

	it('a name in another case with one spelling is that tag ("vip": "VIP")', async () => {
		const items = await getMany({ anyTags: 'vip' });
		expect(filtersSent('anyTags')).toEqual(['VIP']);
		expect(items.length).toBeGreaterThan(0);
	});

	it('when the tag list cannot be read, the filter is sent as given and the items say so', async () => {
		const credential = oauthCredential(sandbox(), sandbox().issueToken({ scopes: ['GET /v1.0/leads'] }));
		const items = await getMany({ anyTags: ['VIP'] }, { credential });
		expect(filtersSent('anyTags')).toEqual(['VIP']);
		expect(items.length).toBeGreaterThan(0);
		for (const item of items) expect(item.json.tagsNote).toMatch(/could not be read \(.*403.*\), so the tag names were used as given/);
	});
});

describe('A tag write does not depend on the team\'s tag list', () => {
	it('an OAuth2 app without the list in its scopes (403 200100) writes the names as given and says so', async () => {
		const credential = oauthCredential(sandbox(), sandbox().issueToken({ scopes: ['POST /v1.0/leads', 'GET /v1.0/leads/{leadId}'] }));
		const [item] = await run(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Scope', additionalFields: { tags: ['VIP', 'New One'] } }, { credential });
		expect(await tagsOf(item.json.leadId as string)).toEqual(['New One', 'VIP']);
		expect(item.json.tagsNote).toMatch(
			/^The team's tag list \(GET \/v1\.0\/teamFeatures\/listTag\) could not be read \(Lofty error \(HTTP 403 200100\): .*\), so the tag names were used as given, not matched to the spelling of the team's tags\. An OAuth2 app needs that endpoint among its scopes\.$/,
		);
	});

	it('a failing list (5xx) is read once per execution; every item is written, with the note', async () => {
		sandbox().faults.inject({ kind: '500', times: 10, match: { method: 'GET', path: LIST_TAG } });
		const items = await run(sandbox(), (i) => ({ resource: 'lead', operation: 'update', leadId: byId(SEED_IDS.bigLeadId), updateFields: { tagsAdd: [['vip', 'Fresh'][i]] } }), {
			items: [{}, {}],
		});
		expect(items.map((i) => typeof i.json.tagsNote)).toEqual(['string', 'string']);
		// As given: "vip" is not matched to "VIP" (Lofty creates "vip"), which the note says.
		expect(await tagsOf(SEED_IDS.bigLeadId)).toEqual(expect.arrayContaining(['Fresh', 'vip']));
		expect(sandbox().count('GET', LIST_TAG)).toBeLessThanOrEqual(2);
	});

	it('with the list readable, no note', async () => {
		const [item] = await create(['VIP']);
		expect(item.json.tagsNote).toBeUndefined();
	});
});
