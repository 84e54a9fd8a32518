import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { paramBuilderHint } from './builderHints';
import { collectionsOf } from './collections';
import { DATE_HINT, dateHint } from './dates';
import { customFieldProperties } from './customFieldsEditor';
import { actionOf, descriptionOf } from './effects';
import { outputProperties } from './output';
import type { LocatorDef, ParamDef, ResourceDef } from './types';

export { collectionOf, collectionsOf, optionalCollection } from './collections';

function byName<T extends { name: string }>(a: T, b: T): number {
	return a.name.localeCompare(b.name);
}

function loadOptionsOf(p: ParamDef): INodeProperties['typeOptions'] {
	if (!p.loadOptions) return undefined;
	return p.loadOptionsDependsOn ? { loadOptionsMethod: p.loadOptions, loadOptionsDependsOn: p.loadOptionsDependsOn } : { loadOptionsMethod: p.loadOptions };
}

/** "Add Email" for Emails, "Add Group" for "Groups (Deprecated)", "Add Tag Name" for Tag Names: one more entry of the list. */
export function addButtonText(label: string): string {
	const noun = label.replace(/\s*\(.*\)\s*$/, '');
	return `Add ${noun.replace(/ies$/, 'y').replace(/([^s])s$/, '$1')}`;
}

/** What the By ID mode says to text that is not an ID: what an ID looks like and the other ways to give the record. */
export function idModeError(p: ParamDef): string {
	const what = p.label.toLowerCase();
	if (p.locator?.idKind === 'text') return `Not a valid ${what} ID: an ID has no spaces, e.g. ${p.locator.idPlaceholder}`;
	const other = p.locator?.urlRegex ? 'choose By URL for a link from Lofty, or From List to search' : 'choose From List to search';
	return `Not a valid ${what} ID: an ID is digits only, e.g. ${p.locator?.idPlaceholder ?? '651095960136641'}; ${other}`;
}

/** The editor field for one parameter; `show` is omitted for fields inside a collection. */
export function toProperty(p: ParamDef, shown?: INodeProperties['displayOptions']): INodeProperties {
	const versions = p.before !== undefined ? [{ _cnd: { lt: p.before } }] : p.from !== undefined ? [{ _cnd: { gte: p.from } }] : undefined;
	const show = versions ? { ...shown, show: { ...shown?.show, '@version': versions } } : shown;
	const base = {
		displayName: p.label,
		name: p.name,
		required: p.required || undefined,
		description: p.description,
		hint: p.hint,
		builderHint: paramBuilderHint(p),
		placeholder: p.placeholder,
		displayOptions: show,
	};
	const strip = (prop: INodeProperties): INodeProperties => {
		for (const key of Object.keys(prop) as Array<keyof INodeProperties>) {
			if (prop[key] === undefined) delete prop[key];
		}
		return prop;
	};
	switch (p.type) {
		case 'locator': {
			const locator = p.locator as LocatorDef;
			const idRegex = locator.idKind === 'text' ? '^\\s*\\S+\\s*$' : '^\\s*\\d+\\s*$';
			const property = strip({
				...base,
				type: 'resourceLocator',
				default: { mode: 'list', value: '' },
				modes: [
					{
						displayName: 'From List',
						name: 'list',
						type: 'list',
						placeholder: `Select a ${p.label.toLowerCase()}...`,
						typeOptions: { searchListMethod: locator.searchMethod, searchable: true, searchFilterRequired: false },
					},
					{
						displayName: 'By ID',
						name: 'id',
						type: 'string',
						placeholder: `e.g. ${locator.idPlaceholder}`,
						validation: [{ type: 'regex', properties: { regex: idRegex, errorMessage: idModeError(p) } }],
					},
					{
						displayName: 'By URL',
						name: 'url',
						type: 'string',
						placeholder: locator.urlPlaceholder,
						extractValue: { type: 'regex', regex: locator.urlRegex ?? '' },
						validation: [{ type: 'regex', properties: { regex: `.*${locator.urlRegex}.*`, errorMessage: `Not a Lofty ${p.label.toLowerCase()} URL` } }],
					},
				],
			});
			// Records without a known Lofty URL shape are picked from the list or by ID only.
			if (!locator.urlRegex) property.modes = property.modes?.filter((mode) => mode.name !== 'url');
			return property;
		}
		case 'string':
		case 'id':
			if (p.loadOptions) {
				return strip({ ...base, type: 'options', typeOptions: loadOptionsOf(p), default: '' });
			}
			return strip({ ...base, type: 'string', default: (p.default as string) ?? '' });
		case 'number':
			return strip({
				...base,
				type: 'number',
				default: (p.default as number) ?? 0,
				typeOptions: p.min !== undefined || p.max !== undefined ? { minValue: p.min, maxValue: p.max } : undefined,
			});
		case 'boolean':
			return strip({ ...base, type: 'boolean', default: (p.default as boolean) ?? false });
		case 'options':
			return strip({
				...base,
				type: 'options',
				options: p.loadOptions ? undefined : p.options,
				typeOptions: loadOptionsOf(p),
				default: (p.default as string) ?? (p.options?.[0]?.value as string) ?? '',
			});
		case 'multiOptions':
			return strip({
				...base,
				type: 'multiOptions',
				options: p.loadOptions ? undefined : p.options,
				typeOptions: loadOptionsOf(p),
				default: (p.default as string[]) ?? [],
			});
		case 'tagList':
			// allowArbitraryValues: n8n's editor does not flag a name that is not (yet) in the team's list as "not supported"
			// (a new tag given in Expression mode, a tag of a shipped example).
			return strip({ ...base, type: 'multiOptions', typeOptions: loadOptionsOf({ ...p, loadOptions: p.loadOptions ?? 'getTags' }), allowArbitraryValues: true, default: [] });
		case 'dateTime':
			return strip({ ...base, hint: p.hint ?? DATE_HINT, type: 'dateTime', default: '' });
		case 'json':
			return strip({ ...base, type: 'json', default: (p.default as string) ?? (p.jsonShape === 'array' ? '[]' : '{}') });
		case 'stringList':
		case 'idList':
			return strip({
				...base,
				type: 'string',
				typeOptions: { multipleValues: true, multipleValueButtonText: addButtonText(p.label) },
				default: [],
			});
		case 'fixedCollection':
			return strip({
				...base,
				// The button that adds a row reads the placeholder: "Add Assignee" for Assignees.
				placeholder: p.placeholder ?? addButtonText(p.label),
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				options: [{ displayName: p.label, name: 'values', values: (p.fields ?? []).map((f) => toProperty(f)) }],
			});
	}
}

/** A sort direction (Descending, Order) and the sort field it qualifies (Sort By), by parameter name. */
const SORT_DIRECTION = /^(desc|asc|order|sortOrder|direction)$/;
const SORT_FIELD = /^(sort|sortBy|orderBy|sortField)$/;

/**
 * A collection's options in the order n8n lists and shows them: by label, except that a sort direction comes right
 * after the sort field it qualifies ("Sort By", then "Descending"), wherever the alphabet puts either.
 */
export function collectionOrder(options: INodeProperties[]): INodeProperties[] {
	const sorted = [...options].sort((a, b) => a.displayName.localeCompare(b.displayName));
	const field = sorted.find((o) => SORT_FIELD.test(o.name));
	const directions = sorted.filter((o) => SORT_DIRECTION.test(o.name));
	if (!field || directions.length === 0) return sorted;
	const rest = sorted.filter((o) => !directions.includes(o));
	rest.splice(rest.indexOf(field) + 1, 0, ...directions);
	return rest;
}

/** Derives the node's resource, operation and field properties from the resource tables. */
export function describeResources(resources: ResourceDef[]): INodeProperties[] {
	// A resource appears once it has operations.
	const sorted = resources.filter((r) => r.operations.length > 0).sort(byName);
	const firstResource = sorted.find((r) => r.value === 'lead')?.value ?? sorted[0].value;
	const properties: INodeProperties[] = [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: sorted.map((r) => ({ name: r.name, value: r.value, description: r.description })),
			default: firstResource,
		},
	];
	for (const resource of sorted) {
		const operations: INodePropertyOptions[] = resource.operations
			.map((op) => ({ name: op.name, value: op.value, action: actionOf(op), description: descriptionOf(op) }))
			.sort(byName);
		const firstOperation = resource.operations[0].value;
		properties.push({
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource.value] } },
			options: operations,
			default: firstOperation,
		});
	}
	for (const resource of sorted) {
		for (const op of resource.operations) {
			const show = { show: { resource: [resource.value], operation: [op.value] } };
			// Date fields say where an offset-less date's zone comes from (the operation's Time Zone, else the workflow's).
			const hinted = (p: ParamDef): ParamDef => (p.type === 'dateTime' && !p.hint ? { ...p, hint: dateHint(op) } : p);
			if (op.notice) {
				properties.push({ displayName: op.notice, name: `${op.value}Notice`, type: 'notice', default: '', displayOptions: show });
			}
			for (const p of op.params.filter((param) => param.required || param.top)) properties.push(toProperty(hinted(p), show));
			if (op.pagination) {
				properties.push(
					{
						displayName: 'Return All',
						name: 'returnAll',
						type: 'boolean',
						default: false,
						description: 'Whether to return all results or only up to a given limit',
						displayOptions: show,
					},
					{
						displayName: 'Limit',
						name: 'limit',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: 50,
						description: 'Max number of results to return',
						displayOptions: { show: { ...show.show, returnAll: [false] } },
					},
				);
			}
			properties.push(...outputProperties(op, show));
			if (op.customFields && op.method !== 'GET') properties.push(...customFieldProperties(op, show));
			for (const { name, title, params } of collectionsOf(op)) {
				properties.push({
					displayName: title,
					name,
					type: 'collection',
					placeholder: title === 'Filters' ? 'Add Filter' : title === 'Options' ? 'Add Option' : 'Add Field',
					default: {},
					displayOptions: show,
					options: collectionOrder(params.map((p) => toProperty(hinted(p)))),
				});
			}
		}
	}
	return properties;
}

/** The canvas subtitle, e.g. "Get Many: System Log", looked up from the tables rather than the raw values. */
export function subtitleExpression(resources: ResourceDef[]): string {
	const names: Record<string, string> = {};
	for (const r of resources) for (const op of r.operations) names[`${r.value}:${op.value}`] = `${op.name}: ${r.name}`;
	return `={{ ${JSON.stringify(names)}[$parameter["resource"] + ":" + $parameter["operation"]] }}`;
}
