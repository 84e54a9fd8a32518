import type { INodeProperties } from 'n8n-workflow';

import { Lofty } from '../../nodes/Lofty/Lofty.node';
import { collectionsOf } from '../../nodes/Lofty/model/collections';
import { RESOURCES } from '../../nodes/Lofty/resources';

const description = new Lofty().description;
const properties = description.properties;

/** Whether a field is shown in a node of `version` (its `@version` conditions, as n8n reads them). */
function atVersion(p: INodeProperties, version: number): boolean {
	const conditions = p.displayOptions?.show?.['@version'] as Array<number | { _cnd: { lt?: number; gte?: number } }> | undefined;
	if (!conditions) return true;
	return conditions.some((c) => (typeof c === 'number' ? c === version : (c._cnd.lt === undefined || version < c._cnd.lt) && (c._cnd.gte === undefined || version >= c._cnd.gte)));
}

function shownFor(resource: string, operation: string, version = description.defaultVersion as number): INodeProperties[] {
	return properties.filter((p) => {
		const show = p.displayOptions?.show;
		return show?.resource?.includes(resource) && show?.operation?.includes(operation) && atVersion(p, version);
	});
}

/** The custom-field fields of a write in the newest version: the mapper, the choices and, on an update, Multi-Choice Values. */
function customFieldNames(resource: string, op: { method: string; value: string }): string[] {
	const own = resource === 'transaction' ? ['transactionCustomFieldValues', 'transactionCustomFieldChoices'] : ['customFieldValues', 'customFieldChoices'];
	return [...own, ...(op.method === 'PUT' || op.value === 'upsert' ? ['multiChoiceMode'] : [])];
}

describe('node description derived from the resource tables', () => {
	it('is usable as an AI tool and offers both credentials', () => {
		expect(description.usableAsTool).toBe(true);
		expect(description.credentials?.map((c) => c.name)).toEqual(['loftyApi', 'loftyOAuth2Api']);
	});

	it('no custom-field list depends on another parameter: n8n 2.41.1 empties a mapper when those values change, also while the panel switches nodes', () => {
		// Issue 46: the editor computed the depended-on values from the input node a person had clicked on the panel's
		// edge, found them changed, and saved `customFieldValues: {value: {}}` with every field removed.
		const lists = properties.filter((p) => ['customFieldValues', 'transactionCustomFieldValues', 'customFieldChoices', 'transactionCustomFieldChoices'].includes(p.name));
		expect(lists.length).toBeGreaterThanOrEqual(8);
		for (const p of lists) expect({ name: p.name, dependsOn: p.typeOptions?.loadOptionsDependsOn }).toEqual({ name: p.name, dependsOn: undefined });
	});

	it('transaction custom fields have names of their own from 1.4 (a switch from Lead lists them anew); earlier versions keep theirs', () => {
		const names = (version: number, resource: string, operation: string) => shownFor(resource, operation, version).map((p) => p.name).filter((n) => /ustomField|multiChoice/.test(n));
		expect(names(1.3, 'transaction', 'update')).toEqual(['customFieldValues', 'customFieldChoices']);
		expect(names(1.4, 'transaction', 'update')).toEqual(['transactionCustomFieldValues', 'transactionCustomFieldChoices', 'multiChoiceMode']);
		expect(names(1.4, 'transaction', 'create')).toEqual(['transactionCustomFieldValues', 'transactionCustomFieldChoices']);
		expect(names(1.3, 'lead', 'update')).toEqual(['customFieldValues', 'customFieldChoices']);
		expect(names(1.4, 'lead', 'update')).toEqual(['customFieldValues', 'customFieldChoices', 'multiChoiceMode']);
		expect(names(1.4, 'lead', 'upsert')).toEqual(['customFieldValues', 'customFieldChoices', 'multiChoiceMode']);
		expect(names(1.4, 'lead', 'create')).toEqual(['customFieldValues', 'customFieldChoices']);
	});

	it('Multi-Choice Custom Fields says what happens to the current choices, in the words of the version', () => {
		const choices = (version: number, operation: string) => shownFor('lead', operation, version).find((p) => p.name === 'customFieldChoices')?.description ?? '';
		expect(choices(1.3, 'update')).toMatch(/they replace the field's current choices\.$/);
		expect(choices(1.3, 'upsert')).toMatch(/"Only Fill Empty Fields" the choices the lead lacks are added/);
		expect(choices(1.4, 'update')).toMatch(/Multi-Choice Values says whether they join the choices the lead has or replace them/);
		expect(choices(1.4, 'create')).not.toMatch(/replace/);
		const mode = shownFor('lead', 'update', 1.4).find((p) => p.name === 'multiChoiceMode');
		expect(mode?.default).toBe('add');
		expect(mode?.options?.map((o) => (o as { name: string }).name)).toEqual(['Add to the Current Choices', 'Replace the Current Choices']);
	});

	it('lists resources and operations alphabetically, with Title Case names and actions', () => {
		const resources = properties.find((p) => p.name === 'resource')?.options?.map((o) => o.name) ?? [];
		expect(resources).toEqual([...resources].sort((a, b) => a.localeCompare(b)));
		for (const resource of RESOURCES) {
			const picker = properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource.value));
			const names = picker?.options?.map((o) => o.name) ?? [];
			expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
			for (const op of resource.operations) {
				expect(op.name).toMatch(/^[A-Z][a-z]*( (or|[A-Z(][\w()]*))*$/);
				expect(op.action).toMatch(/^[A-Z][a-z]/);
			}
		}
	});

	it('shows required fields first, then Return All and Limit on lists, the output choice, the custom-field mapper, then the collections of optional fields', () => {
		for (const resource of RESOURCES) {
			for (const op of resource.operations) {
				const shown = shownFor(resource.value, op.value).filter((p) => p.type !== 'notice');
				const newest = description.defaultVersion as number;
				const required = op.params.filter((p) => (p.required || p.top) && (p.before === undefined || newest < p.before) && (p.from === undefined || newest >= p.from)).map((p) => p.name);
				expect(shown.slice(0, required.length).map((p) => p.name)).toEqual(required);
				const rest = shown.slice(required.length).map((p) => p.name);
				const collections = collectionsOf(op).map((c) => c.name);
				const expected = [
					...(op.pagination ? ['returnAll', 'limit'] : []),
					...(op.simplify ? ['output', 'outputFields'] : []),
					...(op.customFields && op.method !== 'GET' ? customFieldNames(resource.value, op) : []),
					...collections,
				];
				expect({ op: `${resource.value}.${op.value}`, rest }).toEqual({ op: `${resource.value}.${op.value}`, rest: expected });
				// Output settings sit under Options, after the operation's own optional fields.
				expect(collections.slice(1)).toEqual(collections.length > 1 ? ['options'] : []);
			}
		}
	});

	it('shows Simplify to version 1 workflows and the Output choice from version 1.1', () => {
		expect(description.version).toEqual([1, 1.1, 1.2, 1.3, 1.4]);
		expect(description.defaultVersion).toBe(1.4);
		const simplify = properties.filter((p) => p.name === 'simplify');
		const output = properties.filter((p) => p.name === 'output');
		expect(simplify.length).toBeGreaterThan(0);
		for (const p of simplify) expect(p.displayOptions?.show?.['@version']).toEqual([1]);
		for (const p of output) {
			expect(p.displayOptions?.show?.['@version']).toEqual([{ _cnd: { gte: 1.1 } }]);
			expect(p.default).toBe('simplified');
			expect(p.options?.map((o) => (o as { name: string }).name)).toEqual(['Raw', 'Selected Fields', 'Simplified']);
		}
		// Lead Get had no Simplify in version 1: no switch there, so those workflows keep the full record.
		expect(shownFor('lead', 'get').map((p) => p.name)).not.toContain('simplify');
		expect(shownFor('lead', 'get').map((p) => p.name)).toContain('output');
	});

	it('never shows two fields with the same name for one operation', () => {
		for (const resource of RESOURCES) {
			for (const op of resource.operations) {
				const names = shownFor(resource.value, op.value).map((p) => p.name);
				expect(new Set(names).size).toBe(names.length);
			}
		}
	});

	it('describes every boolean as "Whether ..."', () => {
		const booleans = (list: INodeProperties[]): INodeProperties[] =>
			list.flatMap((p) => [...(p.type === 'boolean' ? [p] : []), ...booleans(((p.options ?? []) as INodeProperties[]).filter((o) => 'type' in o))]);
		for (const p of booleans(properties)) expect(p.description).toMatch(/^Whether /);
	});
});
