import type { INodeProperties } from 'n8n-workflow';

import { Lofty } from '../../nodes/Lofty/Lofty.node';
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

	it('lists resources and operations alphabetically, with Title Case names and actions', () => {
		const resources = properties.find((p) => p.name === 'resource')?.options?.map((o) => o.name) ?? [];
		expect(resources).toEqual([...resources].sort((a, b) => a.localeCompare(b)));
		for (const resource of RESOURCES) {
			const picker = properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource.value));
			const names = picker?.options?.map((o) => o.name) ?? [];
			expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
			for (const op of resource.operations) {
				expect(op.name).toMatch(/^[A-Z][a-z]*( [A-Z(][\w()]*)*$/);
				expect(op.action).toMatch(/^[A-Z][a-z]/);
			}
		}
	});

	it('shows required fields first, then Return All and Limit on lists, Simplify, then one collection of optional fields', () => {
		for (const resource of RESOURCES) {
			for (const op of resource.operations) {
				const shown = shownFor(resource.value, op.value).filter((p) => p.type !== 'notice');
				const required = op.params.filter((p) => p.required).map((p) => p.name);
				expect(shown.slice(0, required.length).map((p) => p.name)).toEqual(required);
				const rest = shown.slice(required.length).map((p) => p.name);
				const expected = [
					...(op.pagination ? ['returnAll', 'limit'] : []),
					...(op.simplify ? ['simplify'] : []),
					...(op.params.some((p) => !p.required) ? [expect.any(String)] : []),
				];
				expect(rest).toEqual(expected);
			}
		}
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
