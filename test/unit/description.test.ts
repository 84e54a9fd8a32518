import type { INodeProperties } from 'n8n-workflow';

import { Lofty } from '../../nodes/Lofty/Lofty.node';
import { collectionsOf } from '../../nodes/Lofty/model/collections';
import { RESOURCES } from '../../nodes/Lofty/resources';

const description = new Lofty().description;
const properties = description.properties;

function shownFor(resource: string, operation: string): INodeProperties[] {
	return properties.filter((p) => {
		const show = p.displayOptions?.show;
		return show?.resource?.includes(resource) && show?.operation?.includes(operation);
	});
}

describe('node description derived from the resource tables', () => {
	it('is usable as an AI tool and offers both credentials', () => {
		expect(description.usableAsTool).toBe(true);
		expect(description.credentials?.map((c) => c.name)).toEqual(['loftyApi', 'loftyOAuth2Api']);
	});

	it('choosing a credential always changes Authentication, which the Custom Fields mappers depend on (they list again)', () => {
		// As n8n's editor does when a credential is chosen or picked by itself: Authentication becomes the first option
		// the chosen credential type is shown for (getAuthTypeForNodeCredential).
		const auth = properties.find((p) => p.name === 'authentication') as INodeProperties;
		const options = (auth.options ?? []).map((o) => (o as { value: string }).value);
		const chosenFor = (type: string) => {
			const shownFor = description.credentials?.find((c) => c.name === type)?.displayOptions?.show?.authentication ?? [];
			return options.find((value) => shownFor.includes(value));
		};
		expect([chosenFor('loftyApi'), chosenFor('loftyOAuth2Api')]).toEqual(['apiKey', 'oAuth2']);
		// A new node's value is neither, and shows the API-key credential (read as the API key, see request.ts).
		expect(options).not.toContain(auth.default);
		expect(description.credentials?.find((c) => c.name === 'loftyApi')?.displayOptions?.show?.authentication).toContain(auth.default);
		const mappers = properties.filter((p) => p.type === 'resourceMapper');
		expect(mappers.length).toBeGreaterThan(0);
		for (const p of mappers) expect(p.typeOptions?.loadOptionsDependsOn).toContain('authentication');
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
				const required = op.params.filter((p) => p.required || p.top).map((p) => p.name);
				expect(shown.slice(0, required.length).map((p) => p.name)).toEqual(required);
				const rest = shown.slice(required.length).map((p) => p.name);
				const collections = collectionsOf(op).map((c) => c.name);
				const expected = [
					...(op.pagination ? ['returnAll', 'limit'] : []),
					...(op.simplify ? [...(op.simplifyFrom ? [] : ['simplify']), 'output', 'outputFields'] : []),
					...(op.customFields && op.method !== 'GET' ? ['customFieldValues', 'customFieldChoices'] : []),
					...collections,
				];
				expect({ op: `${resource.value}.${op.value}`, rest }).toEqual({ op: `${resource.value}.${op.value}`, rest: expected });
				// Output settings sit under Options, after the operation's own optional fields.
				expect(collections.slice(1)).toEqual(collections.length > 1 ? ['options'] : []);
			}
		}
	});

	it('shows Simplify to version 1 workflows and the Output choice from version 1.1', () => {
		expect(description.version).toEqual([1, 1.1, 1.2, 1.3]);
		expect(description.defaultVersion).toBe(1.3);
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
