/**
 * Texts the examples write into Lofty read well whatever the record lacks: the follow-up-tasks example's task
 * description ("Welcome call: <name> (new lead, source: ...)") for a lead with and without a last name or source.
 * Each `{{ }}` is evaluated as plain JavaScript with `$json`, which is what these expressions use.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const wf = JSON.parse(readFileSync(join(__dirname, '..', '..', 'examples', 'follow-up-tasks.json'), 'utf8')) as {
	nodes: Array<{ name: string; parameters: Record<string, unknown> }>;
};

function render(template: string, $json: Record<string, unknown>): string {
	return template.replace(/^=/, '').replace(/\{\{([\s\S]*?)\}\}/g, (_, expr: string) => String(new Function('$json', `return (${expr});`)($json)));
}

describe('examples/follow-up-tasks.json: the task description', () => {
	const content = String(wf.nodes.find((n) => n.name === 'Create Follow-up Task')!.parameters.content);

	test.each([
		[{ firstName: 'Ada', lastName: 'Lovelace', source: 'Zillow' }, 'Welcome call: Ada Lovelace (new lead, source: Zillow)'],
		[{ firstName: 'Ada', lastName: '', source: '' }, 'Welcome call: Ada (new lead, source: unknown)'],
		[{ firstName: 'Ada', source: 'Website' }, 'Welcome call: Ada (new lead, source: Website)'],
	])('%j: %s (one space between words)', ($json, expected) => {
		expect(render(content, $json)).toBe(expected);
	});
});
