/**
 * Words the editor shows, as a person reads them: the Lofty Trigger's canvas subtitle names the chosen events, its
 * panel explains how to test with a real event, its Docs link keeps the README anchor, the filter labels read as
 * sentences, and in every collection a sort direction sits right under the sort field it qualifies.
 */
import type { INodeProperties } from 'n8n-workflow';

import { Lofty } from '../../nodes/Lofty/Lofty.node';
import { collectionOrder } from '../../nodes/Lofty/model/describe';
import { LoftyPollingTrigger } from '../../nodes/LoftyPollingTrigger/LoftyPollingTrigger.node';
import { LoftyTrigger } from '../../nodes/LoftyTrigger/LoftyTrigger.node';

const trigger = new LoftyTrigger().description;

/** Evaluates a `={{ ... }}` subtitle as n8n's editor does for simple expressions: `$parameter` in scope. */
function subtitleFor(events: unknown[]): string {
	const expression = String(trigger.subtitle);
	const body = /^=\{\{([\s\S]*)\}\}$/.exec(expression)![1];
	return new Function('$parameter', `return (${body});`)({ events }) as string;
}

describe('Lofty Trigger: what the editor shows', () => {
	test('the canvas subtitle names the chosen events, in the order chosen (not "Events: 2")', () => {
		expect(subtitleFor([6, 12])).toBe('Call, Pipeline Change');
		expect(subtitleFor([12, 2])).toBe('Pipeline Change, Lead Info');
		expect(subtitleFor([])).toBe('');
		expect(subtitleFor(['7'])).toBe('Email');
	});

	test('the test panel says how to test with a real event and how to go live, not n8n\'s generic words', () => {
		const panel = trigger.triggerPanel as { header: string; executionsHelp: { active: string; inactive: string }; activationHint: { active: string; inactive: string } };
		expect(panel.header).toBe('Test with a real Lofty event');
		expect(panel.executionsHelp.inactive).toMatch(/Execute step/);
		expect(panel.executionsHelp.inactive).toMatch(/sandbox page <i>Make events<\/i>/);
		expect(panel.executionsHelp.inactive).toMatch(/data-key="activate"/);
		expect(panel.executionsHelp.active).toMatch(/data-key="executions"/);
		expect(panel.activationHint.inactive).toMatch(/publish it/);
	});

	test('the Docs links are the README sections themselves (n8n would put its query after the #; docLinks.test.ts checks the headings exist)', () => {
		expect(trigger.documentationUrl).toBe('https://github.com/n8n-nodes-lofty/n8n-nodes-lofty#lofty-trigger');
		expect(new Lofty().description.documentationUrl).toMatch(/^https:\/\/github\.com\/n8n-nodes-lofty\/n8n-nodes-lofty#/);
		expect(new LoftyPollingTrigger().description.documentationUrl).toBe('https://github.com/n8n-nodes-lofty/n8n-nodes-lofty#lofty-polling-trigger');
	});

	test('the filter options read as sentences, without "Names or IDs" glued to them', () => {
		const options = (trigger.properties.find((p) => p.name === 'options')!.options as INodeProperties[]).map((o) => o.displayName);
		expect(options).toEqual(
			expect.arrayContaining(['Only When Stage Changes From', 'Only When Stage Changes To', 'Only When These Fields Changed']),
		);
		expect(options.filter((o) => /Names or IDs$/.test(o))).toEqual([]);
	});
});

describe('collections: a sort direction right under its sort field', () => {
	const collections = new Lofty().description.properties.filter((p) => p.type === 'collection');

	test('Lead > Get Many: "Sort By", then "Descending"', () => {
		const options = collections.find(
			(c) => c.displayOptions?.show?.resource?.[0] === 'lead' && c.displayOptions?.show?.operation?.[0] === 'getAll' && (c.options as INodeProperties[]).some((o) => o.name === 'sort'),
		);
		const names = (options!.options as INodeProperties[]).map((o) => o.displayName);
		expect(names.indexOf('Descending')).toBe(names.indexOf('Sort By') + 1);
	});

	test('everywhere: each collection with a sort field has its direction right after it, the rest by label', () => {
		let checked = 0;
		for (const c of collections) {
			const options = c.options as INodeProperties[];
			const at = options.findIndex((o) => o.name === 'sort');
			const direction = options.findIndex((o) => o.name === 'desc' || o.name === 'order');
			if (at < 0 || direction < 0) continue;
			checked += 1;
			expect(direction).toBe(at + 1);
			const rest = options.filter((_, i) => i !== direction).map((o) => o.displayName);
			expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b)));
		}
		expect(checked).toBeGreaterThanOrEqual(4);
	});

	test('the rule: directions move after the field; without one, plain label order', () => {
		const p = (displayName: string, name: string) => ({ displayName, name, type: 'string', default: '' }) as INodeProperties;
		expect(collectionOrder([p('Sort By', 'sort'), p('Descending', 'desc'), p('Archived', 'a'), p('Zone', 'z')]).map((o) => o.displayName)).toEqual(['Archived', 'Sort By', 'Descending', 'Zone']);
		expect(collectionOrder([p('Order', 'order'), p('Limit Days', 'l'), p('Sort By', 'sort')]).map((o) => o.displayName)).toEqual(['Limit Days', 'Sort By', 'Order']);
		expect(collectionOrder([p('Descending', 'desc'), p('Area', 'a')]).map((o) => o.displayName)).toEqual(['Area', 'Descending']);
	});
});
