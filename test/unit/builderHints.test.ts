/**
 * Ready for n8n's AI workflow builder (issue 39): the three nodes carry n8n-workflow 2.41's `builderHint` (a search hint,
 * the other two Lofty nodes as related nodes), the fields models fill wrongly carry a parameter hint (IDs as text, tag
 * names, times with an offset), and no hint text breaks n8n's lint rule no-builder-hint-leakage (no wire-format
 * expression, no connection-type name).
 */
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { Lofty } from '../../nodes/Lofty/Lofty.node';
import { LoftyPollingTrigger } from '../../nodes/LoftyPollingTrigger/LoftyPollingTrigger.node';
import { LoftyTrigger } from '../../nodes/LoftyTrigger/LoftyTrigger.node';

const NODES: INodeTypeDescription[] = [new Lofty().description, new LoftyTrigger().description, new LoftyPollingTrigger().description];
const TYPES = ['n8n-nodes-lofty.lofty', 'n8n-nodes-lofty.loftyTrigger', 'n8n-nodes-lofty.loftyPollingTrigger'];

/** Every property, inside collections and fixed collections too. */
function allProperties(list: INodeProperties[]): INodeProperties[] {
	return list.flatMap((p) => [p, ...allProperties(((p.options ?? []) as Array<INodeProperties & { values?: INodeProperties[] }>).flatMap((o) => (o.values ? o.values : 'displayName' in o && 'type' in o ? [o] : [])))]);
}

/** The strings a builder reads, as n8n's lint rule checks them. */
function leaks(text: string): string[] {
	const found: string[] = [];
	if (/={{/.test(text)) found.push('expression');
	const names = text.match(/\bai_(agent|chain|document|embedding|languageModel|memory|outputParser|retriever|reranker|textSplitter|tool|vectorStore)\b/g);
	if (names) found.push(...names);
	return found;
}

describe("builder hints for n8n's AI workflow builder", () => {
	it.each(NODES.map((d, i) => [d.name, d, TYPES[i]] as const))('%s: a search hint, and the other two Lofty nodes as related nodes', (_name, description, type) => {
		expect(description.builderHint?.searchHint).toMatch(/Lofty/);
		const related = description.builderHint?.relatedNodes ?? [];
		expect(related.map((r) => r.nodeType).sort()).toEqual(TYPES.filter((t) => t !== type).sort());
		for (const r of related) expect(r.relationHint.length).toBeGreaterThan(20);
	});

	it('the Lofty node points the builder away from HTTP Request, to Create or Update, and says what reaches a person', () => {
		expect(new Lofty().description.builderHint?.searchHint).toMatch(/instead of HTTP Request.*Create or Update.*real person/s);
	});

	it('IDs, tag names and times carry a parameter hint; every hint is a sentence', () => {
		const props = allProperties(new Lofty().description.properties);
		const of = (type: string) => props.filter((p) => p.type === type);
		expect(of('resourceLocator').length).toBeGreaterThan(50);
		for (const p of of('resourceLocator')) expect([p.name, p.builderHint?.propertyHint]).toEqual([p.name, expect.stringMatching(/ID/)]);
		for (const p of of('dateTime')) expect([p.name, p.builderHint?.propertyHint]).toEqual([p.name, expect.stringMatching(/UTC offset/)]);
		const tags = props.filter((p) => p.type === 'multiOptions' && p.allowArbitraryValues);
		expect(tags.length).toBeGreaterThan(3);
		for (const p of tags) expect([p.name, p.builderHint?.propertyHint]).toEqual([p.name, expect.stringMatching(/^Tag names as text/)]);
		const ids = props.filter((p) => p.type === 'string' && /Id$/.test(p.name) && !p.typeOptions?.multipleValues);
		expect(ids.filter((p) => !p.builderHint).map((p) => p.name)).toEqual([]);
	});

	it("no hint text leaks wire format (n8n's lint rule no-builder-hint-leakage)", () => {
		const texts: string[] = [];
		for (const d of NODES) {
			texts.push(d.builderHint?.searchHint ?? '', ...(d.builderHint?.relatedNodes ?? []).map((r) => r.relationHint));
			for (const p of allProperties(d.properties)) if (p.builderHint) texts.push(p.builderHint.propertyHint);
		}
		expect(texts.length).toBeGreaterThan(100);
		expect(texts.flatMap(leaks)).toEqual([]);
		expect(leaks('={{ $json.leadId }} to ai_tool')).toEqual(['expression', 'ai_tool']);
	});
});
