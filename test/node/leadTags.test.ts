import type { ILoadOptionsFunctions, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { SEED_IDS } from '../../sandbox';
import { getTags } from '../../nodes/Lofty/methods/tag';
import { createContext } from '../harness/context';
import { apiKeyCredential, byId, node, oauthCredential, run, runError, useSandbox } from '../harness/sandbox';

/**
 * Tag fields (issue 19, point 2): picked from the team's tags or given by an expression, split at commas, trimmed,
 * repeats dropped ignoring case, spelled as the team's existing tag; a new name is created as typed.
 */

const sandbox = useSandbox();
const LIST_TAG = '/v1.0/teamFeatures/listTag';

/** Tag names of a lead, as the sandbox stores them (sorted). */
async function tagsOf(leadId: string): Promise<string[]> {
	const [item] = await run(sandbox(), { resource: 'lead', operation: 'get', leadId: byId(leadId) }, { typeVersion: 1 });
	return ((item.json.tags as Array<{ tagName: string }>) ?? []).map((t) => t.tagName).sort();
}

/** Every tag name the team's list holds (to see that no second spelling was created). */
async function teamTags(): Promise<string[]> {
	const items = await run(sandbox(), { resource: 'tag', operation: 'getAll' });
	return items.map((i) => i.json.tagName as string);
}

const create = (tags: unknown, extra: Record<string, unknown> = {}) =>
	run(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Tess', additionalFields: { tags, ...extra } }, { typeVersion: 1.1 });

describe('Tag fields: names as a person means them', () => {
	it('a name in another case takes the team tag\'s spelling; no second tag appears', async () => {
		const [item] = await create(['hot lead', 'vip']);
		expect(await tagsOf(item.json.leadId as string)).toEqual(['Hot Lead', 'VIP']);
		const names = await teamTags();
		expect(names.filter((n) => n.toLowerCase() === 'hot lead')).toEqual(['Hot Lead']);
	});

	it('a list from an expression and comma-separated text give the same tags (split, trimmed, empties and repeats dropped)', async () => {
		const [fromList] = await create(['Buyer', 'Web Form']);
		const [fromText] = await create(' Buyer ,Web Form,, buyer ');
		const [fromMixed] = await create(['Buyer, Web Form', '', 'WEB FORM']);
		const expected = ['Buyer', 'Web Form'];
		expect(await tagsOf(fromList.json.leadId as string)).toEqual(expected);
		expect(await tagsOf(fromText.json.leadId as string)).toEqual(expected);
		expect(await tagsOf(fromMixed.json.leadId as string)).toEqual(expected);
		expect((await teamTags()).filter((n) => n.includes(','))).toEqual([]);
	});

	it('a new name is created as typed, and later items of the run use that first spelling', async () => {
		const spellings = ['open House Feb', 'Open house feb', 'OPEN HOUSE FEB'];
		const items = await run(
			sandbox(),
			(i) => ({ resource: 'lead', operation: 'create', firstName: `Guest ${i}`, additionalFields: { tags: [spellings[i]] } }),
			{ items: [{}, {}, {}], typeVersion: 1.1 },
		);
		for (const item of items) expect(await tagsOf(item.json.leadId as string)).toEqual(['open House Feb']);
		expect((await teamTags()).filter((n) => n.toLowerCase() === 'open house feb')).toEqual(['open House Feb']);
	});

	it('reads the team\'s tags once per execution, and not at all for items without tags', async () => {
		await run(
			sandbox(),
			(i) => ({ resource: 'lead', operation: 'create', firstName: `Guest ${i}`, additionalFields: { tags: ['vip', 'zillow', 'Referral'][i] } }),
			{ items: [{}, {}, {}], typeVersion: 1.1 },
		);
		expect(sandbox().count('GET', LIST_TAG)).toBe(1);
		await run(sandbox(), { resource: 'lead', operation: 'create', firstName: 'No Tags', additionalFields: { lastName: 'Plain' } });
		expect(sandbox().count('GET', LIST_TAG)).toBe(1);
	});

	it.each([1, 1.1])('a workflow saved by version %s (Tags and Tags to Add on Create, lists of text) still runs, with the team\'s spellings', async (typeVersion) => {
		// Versions 1 and 1.1 showed both fields under Create's Additional Fields (1.2 shows Tags only).
		const [item] = await run(
			sandbox(),
			{ resource: 'lead', operation: 'create', firstName: 'Old', additionalFields: { tags: ['investor ', 'Web Form'], tagsAdd: ['vip'] } },
			{ typeVersion },
		);
		expect(await tagsOf(item.json.leadId as string)).toEqual(['Investor', 'VIP', 'Web Form']);
		// Tags to Add is sent as such (with the team's spelling), as before.
		const post = sandbox().requests.find((r) => r.method === 'POST' && r.path === '/v1.0/leads');
		expect(JSON.parse(String(post?.body))).toMatchObject({ tagsAdd: ['VIP'] });
	});

	it('n8n keeps a version 1 workflow\'s tag values when it loads the workflow (no field the node dropped)', () => {
		// n8n runs every saved node's parameters through getNodeParameters; a value without a field is dropped there.
		const saved: INodeParameters = { resource: 'lead', operation: 'create', firstName: 'Old', additionalFields: { tags: ['Web Form'], tagsAdd: ['vip'] } };
		const loaded = (typeVersion: number) =>
			NodeHelpers.getNodeParameters(node.description.properties, saved, false, false, { typeVersion }, node.description)?.additionalFields;
		for (const typeVersion of [1, 1.1]) expect(loaded(typeVersion)).toEqual({ tags: ['Web Form'], tagsAdd: ['vip'] });
		// Version 1.2 has no Tags to Add on Create: the same values in a 1.2 node keep Tags only.
		expect(loaded(1.2)).toEqual({ tags: ['Web Form'] });
	});

	it('when the tag list cannot be read (an OAuth2 app without its scope) the lead is still written, the names as given, and the output says so', async () => {
		const credential = oauthCredential(sandbox(), sandbox().issueToken({ scopes: ['POST /v1.0/leads'] }));
		const [item] = await run(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Scope', additionalFields: { tags: ['VIP'] } }, { credential });
		expect(item.json.leadId).toMatch(/^\d+$/);
		expect(item.json.tagsNote).toMatch(/^The team's tag list \(GET \/v1\.0\/teamFeatures\/listTag\) could not be read \(Lofty error \(HTTP 403 200100\)/);
		expect(sandbox().count('POST', '/v1.0/leads')).toBe(1);
		// Without tags the list is not read at all, and nothing is said.
		const [plain] = await run(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Scope' }, { credential });
		expect(plain.json.tagsNote).toBeUndefined();
		expect(sandbox().count('GET', LIST_TAG)).toBe(1);
	});

	it('refuses a tag longer than 64 characters and an object, naming the field, before anything is sent', async () => {
		const long = await runError(sandbox(), { resource: 'lead', operation: 'create', firstName: 'X', additionalFields: { tags: ['ok', 'y'.repeat(65)] } });
		expect(long.message).toBe('Invalid value for "Tags": must be at most 64 characters, got 65');
		const object = await runError(sandbox(), { resource: 'lead', operation: 'create', firstName: 'X', additionalFields: { tags: [{ name: 'VIP' }] } });
		expect(object.message).toMatch(/^Invalid value for "Tags": must be tag names \(a list or text separated by commas\)/);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Tag fields on Update, Get Many and Create or Update', () => {
	const lead = SEED_IDS.bigLeadId;
	const update = (updateFields: Record<string, unknown>) => run(sandbox(), { resource: 'lead', operation: 'update', leadId: byId(lead), updateFields });

	it('Tags to Add and Tags to Remove use the team\'s spelling: "hot lead" removes Hot Lead', async () => {
		await update({ tagsAdd: 'hot lead, cold' });
		expect(await tagsOf(lead)).toEqual(expect.arrayContaining(['Cold', 'Hot Lead']));
		await update({ tagsRemove: ['HOT LEAD'] });
		const after = await tagsOf(lead);
		expect(after).toContain('Cold');
		expect(after).not.toContain('Hot Lead');
	});

	it('Replace All Tags With leaves exactly the given tags', async () => {
		await update({ tags: 'referral,Brand New' });
		expect(await tagsOf(lead)).toEqual(['Brand New', 'Referral']);
	});

	it('Has Any Tag finds the same leads whatever the case typed', async () => {
		const ids = async (anyTags: unknown) =>
			(await run(sandbox(), { resource: 'lead', operation: 'getAll', returnAll: true, filters: { anyTags } })).map((i) => i.json.leadId).sort();
		const exact = await ids(['VIP']);
		expect(exact.length).toBeGreaterThan(0);
		expect(await ids('vip')).toEqual(exact);
	});

	it('Create or Update adds the tags with the team\'s spelling', async () => {
		const [item] = await run(sandbox(), { resource: 'lead', operation: 'upsert', firstName: 'Up', email: 'tags-upsert@example.com', additionalFields: { tags: 'first-time buyer' } }, { typeVersion: 1.1 });
		expect(await tagsOf(item.json.leadId as string)).toEqual(['First-Time Buyer']);
	});
});

describe('Tag fields in the editor', () => {
	const props = node.description.properties;
	const inCollections = (list: INodeProperties[]): INodeProperties[] => list.flatMap((p) => [p, ...inCollections((p.options ?? []).filter((o): o is INodeProperties => 'displayName' in o))]);
	const all = inCollections(props);
	/** The fields a collection of a lead operation offers in a node of `typeVersion` (the editor's own check). */
	const shown = (operation: string, collection: string, typeVersion = node.description.defaultVersion as number) =>
		((props.find((p) => p.name === collection && p.displayOptions?.show?.operation?.includes(operation) && p.displayOptions?.show?.resource?.includes('lead'))?.options ?? []) as INodeProperties[]).filter((p) =>
			NodeHelpers.displayParameter({}, p, { typeVersion }, node.description),
		);

	it('every lead tag field is a dropdown of the team\'s tags (multi-select, no per-entry Add button)', () => {
		const tagFields = all.filter((p) => /\btags?\b/i.test(p.displayName) && p.type !== 'boolean' && !/ID/.test(p.displayName) && p.name !== 'tagNames');
		expect(tagFields.length).toBeGreaterThanOrEqual(7);
		for (const p of tagFields) {
			expect([p.displayName, p.type, p.typeOptions?.loadOptionsMethod]).toEqual([p.displayName, 'multiOptions', 'getTags']);
			expect(p.hint).toMatch(/^Pick your Lofty tags.*switch to Expression/);
			// n8n's editor flags no name that is not in the team's list (a new tag, an example's tag) as "not supported".
			expect(p.allowArbitraryValues).toBe(true);
		}
	});

	it('the dropdown lists names that start with a letter or digit first (a tag named "*" last), each once', async () => {
		const ctx = createContext(node, { params: { authentication: 'apiKey' }, credential: apiKeyCredential(sandbox()) }) as unknown as ILoadOptionsFunctions;
		const options = await getTags.call(ctx);
		const names = options.map((o) => o.name);
		expect(names[0]).toBe('Cold');
		expect(names.at(-1)).toBe('*');
		expect(new Set(names).size).toBe(names.length);
	});

	it('one clear set of tag fields per operation: Create "Tags"; Update "Tags to Add", "Replace All Tags With", "Tags to Remove"', () => {
		const labels = (operation: string, collection: string, typeVersion?: number) =>
			shown(operation, collection, typeVersion).filter((p) => /\btags?\b/i.test(p.displayName)).map((p) => p.displayName).sort();
		// A node added today (1.2): Create has Tags only.
		expect(node.description.defaultVersion).toBe(1.4);
		expect(labels('create', 'additionalFields')).toEqual(['Tags']);
		// Versions 1 and 1.1 keep Tags to Add for their saved workflows (n8n drops a saved value its field list lacks).
		for (const typeVersion of [1, 1.1]) expect(labels('create', 'additionalFields', typeVersion)).toEqual(['Tags', 'Tags to Add']);
		expect(shown('create', 'additionalFields', 1.1).find((p) => p.name === 'tagsAdd')?.description).toMatch(/same as Tags .*; use Tags\. /);
		// Every other operation: the same fields in every version.
		for (const typeVersion of [1, 1.1, 1.2]) {
			expect(labels('update', 'updateFields', typeVersion)).toEqual(['Clear All Tags', 'Replace All Tags With', 'Tags to Add', 'Tags to Remove']);
			expect(labels('upsert', 'additionalFields', typeVersion)).toEqual(['Tags']);
		}
		expect(all.map((p) => p.displayName)).not.toContain('Tags (Replace All)');
	});

	it('no list field has an "Add ... to Add" style button; rows of fields have an "Add <one row>" button', () => {
		const buttons = all.map((p) => p.typeOptions?.multipleValueButtonText).filter((t): t is string => typeof t === 'string');
		expect(buttons.length).toBeGreaterThan(0);
		for (const text of buttons) expect(text).toMatch(/^Add [A-Z][\w-]*( [A-Z][\w-]*)*$/);
		expect(buttons).not.toContain('Add Tags to Add');
		const rows = all.filter((p) => p.type === 'fixedCollection' && p.typeOptions?.multipleValues).map((p) => [p.displayName, p.placeholder]);
		expect(rows).toEqual(expect.arrayContaining([['Assignees', 'Add Assignee'], ['Custom Fields (By ID)', 'Add Custom Field']]));
	});
});
