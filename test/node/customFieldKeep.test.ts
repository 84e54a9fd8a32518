/**
 * Issue 46, item 1: a list the editor asks for never drops a custom field a person set. n8n's mapper keeps a value only
 * for a field its list has (it prunes the others when the list comes back), so the list always holds the fields the
 * node has values for: with Lofty's type when Lofty lists them, as the node last listed them (marked) when it does
 * not, and without a credential; Lofty's failure is an error, which n8n answers by keeping the values as they are.
 * The editor check does what the person did (test/e2e/editorKeep.ts).
 */
import type { ILoadOptionsFunctions, ResourceMapperField } from 'n8n-workflow';

import * as lists from '../../nodes/Lofty/methods/customFieldMapping';
import { createContext } from '../harness/context';
import { apiKeyCredential, node, useSandbox } from '../harness/sandbox';
import { observe } from '../secrets/observe';

/** A list method whose answer or error (what the editor shows) goes to the secret watch, as the harness does for runs. */
function watched<A extends unknown[], R>(list: (this: ILoadOptionsFunctions, ...args: A) => Promise<R>) {
	return async function (this: ILoadOptionsFunctions, ...args: A): Promise<R> {
		try {
			const answer = await list.apply(this, args);
			observe('Lofty load options', answer);
			return answer;
		} catch (error) {
			observe('Lofty load options error', error);
			throw error;
		}
	};
}
const getLeadCustomFieldChoices = watched(lists.getLeadCustomFieldChoices);
const getLeadCustomFieldMapping = watched(lists.getLeadCustomFieldMapping);
const getTransactionCustomFieldMapping = watched(lists.getTransactionCustomFieldMapping);

const sandbox = useSandbox();

/** The schema entry the editor saved for a field, as n8n's mapper keeps it. */
const saved = (id: string, displayName: string, type = 'string'): ResourceMapperField =>
	({ id, displayName, type, required: false, defaultMatch: false, canBeUsedToMatch: false, display: true, removed: false }) as ResourceMapperField;

/** A load-options context whose node holds `held` in `param` (the editor sends the node's parameters with the request). */
function holding(param: string, held: unknown, options: { credential?: boolean; typeVersion?: number } = {}): ILoadOptionsFunctions {
	const ctx = createContext(node, { params: { authentication: 'apiKey' }, credential: apiKeyCredential(sandbox()), typeVersion: options.typeVersion ?? 1.4 }) as unknown as ILoadOptionsFunctions;
	const bare = { ...ctx.getNode(), credentials: options.credential === false ? undefined : ctx.getNode().credentials };
	return Object.assign(Object.create(ctx) as ILoadOptionsFunctions, {
		getNode: () => bare,
		getCurrentNodeParameter: (name: string) => (name === param ? held : undefined),
	});
}

const mapper = (value: Record<string, unknown> | null, schema: ResourceMapperField[] = []) => ({ mappingMode: 'defineBelow', value, matchingColumns: [], schema });

describe('the Custom Fields list never drops a field the node holds a value for', () => {
	it('a field set in the node is listed shown (removed: false), the others to add; as Lofty types them', async () => {
		const { fields } = await getLeadCustomFieldMapping.call(holding('customFieldValues', mapper({ Financing: 'FHA', 'Must-Haves': '={{ $json.body.mustHaves }}', 'Budget Ceiling': null })));
		const byId = Object.fromEntries(fields.map((f) => [f.id, f]));
		expect(byId.Financing).toMatchObject({ displayName: 'Financing', type: 'options', removed: false });
		expect(byId['Must-Haves']).toMatchObject({ displayName: 'Must-Haves (List)', type: 'string', removed: false });
		// Cleared (null) is not set: offered to add again.
		expect(byId['Budget Ceiling']).toMatchObject({ removed: true });
		expect(fields.filter((f) => f.removed === false).map((f) => f.id).sort()).toEqual(['Financing', 'Must-Haves']);
	});

	it('a set field Lofty does not list (renamed, deleted, another account) stays, as the node last listed it, marked "(Not in Lofty)"', async () => {
		const held = mapper({ 'Old Field': 'kept', Financing: 'FHA' }, [saved('Old Field', 'Old Field', 'number'), saved('Financing', 'Financing', 'options')]);
		const { fields } = await getLeadCustomFieldMapping.call(holding('customFieldValues', held));
		expect(fields.find((f) => f.id === 'Old Field')).toMatchObject({ displayName: 'Old Field (Not in Lofty)', type: 'number', removed: false, display: true });
		// Listed again, it is not marked twice.
		const again = mapper({ 'Old Field': 'kept' }, fields);
		expect((await getLeadCustomFieldMapping.call(holding('customFieldValues', again))).fields.find((f) => f.id === 'Old Field')?.displayName).toBe('Old Field (Not in Lofty)');
	});

	it('without a credential: the set fields as the node last listed them, unmarked, and asks Lofty nothing', async () => {
		const before = sandbox().requests.length;
		const held = mapper({ Financing: 'FHA' }, [saved('Financing', 'Financing', 'options'), { ...saved('Budget Ceiling', 'Budget Ceiling', 'number'), removed: true }]);
		const answer = await getLeadCustomFieldMapping.call(holding('customFieldValues', held, { credential: false }));
		expect(answer.fields).toEqual([expect.objectContaining({ id: 'Financing', displayName: 'Financing', type: 'options', removed: false })]);
		expect(sandbox().requests.length).toBe(before);
	});

	it("transaction fields from 1.4 are held under their own name, before under the lead fields' name", async () => {
		const held = mapper({ '1002': 'Jane' });
		const now = await getTransactionCustomFieldMapping.call(holding('transactionCustomFieldValues', held));
		expect(now.fields.find((f) => f.id === '1002')?.removed).toBe(false);
		const before = await getTransactionCustomFieldMapping.call(holding('customFieldValues', held, { typeVersion: 1.3 }));
		expect(before.fields.find((f) => f.id === '1002')?.removed).toBe(false);
	});

	it("Lofty's failure is the list's error (n8n keeps the values), not an empty list (which n8n would prune them to)", async () => {
		sandbox().faults.inject({ kind: '500', status: 500, message: 'down', match: { path: '/v1.0/teamFeatures/listCustomField' }, times: 5 });
		try {
			await expect(getLeadCustomFieldMapping.call(holding('customFieldValues', mapper({ Financing: 'FHA' })))).rejects.toThrow();
		} finally {
			sandbox().faults.clear();
		}
	});
});

describe('Multi-Choice Custom Fields without a credential', () => {
	it('says what to do (n8n shows a failed list\'s message), not an empty list that n8n shows as "No data"', async () => {
		await expect(getLeadCustomFieldChoices.call(holding('customFieldChoices', [], { credential: false }))).rejects.toThrow(/once a credential is chosen above; then close this node and open it again/);
		expect((await getLeadCustomFieldChoices.call(holding('customFieldChoices', []))).map((o) => o.name)).toEqual(expect.arrayContaining(['Must-Haves: Pool']));
	});
});
