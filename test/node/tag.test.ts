import { SEED_IDS } from '../../sandbox';
import { getTags } from '../../nodes/Lofty/methods/tag';
import { createContext } from '../harness/context';
import { apiKeyCredential, node, run, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();

describe('Tag: Get Many', () => {
	it('returns the team-wide tags and the user\'s own private tags, one item each, IDs exact', async () => {
		const items = await run(sandbox(), { resource: 'tag', operation: 'getAll' });
		const names = items.map((i) => i.json.tagName);
		expect(names).toEqual(expect.arrayContaining(['Hot Lead', 'VIP', 'My Sphere']));
		expect(names).not.toContain("Oscar's Private");
		expect(names).not.toContain('Other Team Tag');
		const hot = items.find((i) => i.json.tagName === 'Hot Lead')!.json;
		expect(hot.tagId).toBe('9007199254740995');
		expect(hot.creatorUserId).toBe(SEED_IDS.demoUserId);
		expect(sandbox().count('GET', '/v1.0/teamFeatures/listTag')).toBe(1);
	});

	it('shows another agent only their own private tags', async () => {
		const items = await run(sandbox(), { resource: 'tag', operation: 'getAll' }, { credential: apiKeyCredential(sandbox(), sandbox().otherAgentApiKey) });
		const names = items.map((i) => i.json.tagName);
		expect(names).toContain("Oscar's Private");
		expect(names).not.toContain('My Sphere');
	});

	it('lists a tag after it was put on a lead', async () => {
		await run(sandbox(), {
			resource: 'lead',
			operation: 'update',
			leadId: { __rl: true, mode: 'id', value: SEED_IDS.bigLeadId },
			updateFields: { tagsAdd: ['Brand New Tag'] },
		});
		const items = await run(sandbox(), { resource: 'tag', operation: 'getAll' });
		expect(items.map((i) => i.json.tagName)).toContain('Brand New Tag');
	});
});

describe('Tag: getTags dropdown', () => {
	it('offers each tag name once, sorted (names starting with a letter or digit first), valued by name', async () => {
		const ctx = createContext(node, { params: { authentication: 'apiKey' }, credential: apiKeyCredential(sandbox()) });
		const options = await getTags.call(ctx as never);
		const names = options.map((o) => o.name);
		const plain = names.filter((n) => /^[\p{L}\p{N}]/u.test(n));
		expect(names).toEqual([...plain.sort((a, b) => a.localeCompare(b)), '*']);
		expect(new Set(names).size).toBe(names.length);
		expect(options.find((o) => o.name === 'VIP')).toEqual({ name: 'VIP', value: 'VIP' });
	});
});
