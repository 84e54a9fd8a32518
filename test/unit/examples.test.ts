/**
 * The example workflows (examples/*.json) as the editor reads them: every parameter of a package node fits its
 * property (no text in a multi-value field, option values that exist, no parameter the editor does not know or
 * does not show) and every package node is at the version a node added today gets. The checker is run on broken
 * copies too, so a check that lets everything through fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INode } from 'n8n-workflow';

import { Lofty } from '../../nodes/Lofty/Lofty.node';
import { LoftyPollingTrigger } from '../../nodes/LoftyPollingTrigger/LoftyPollingTrigger.node';
import { LoftyTrigger } from '../../nodes/LoftyTrigger/LoftyTrigger.node';
import { checkWorkflow, newestVersion, type PackageNode } from './exampleCheck';

const ROOT = join(__dirname, '..', '..');
const PACKAGE = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string }).name;
const DIR = join(ROOT, 'examples');

// n8n gives the AI-tool variant of a node two parameters of its own (the tool's description).
const NODES: Record<string, PackageNode> = {
	lofty: { description: new Lofty().description, toolParameters: ['descriptionType', 'toolDescription'] },
	loftyTrigger: { description: new LoftyTrigger().description },
	loftyPollingTrigger: { description: new LoftyPollingTrigger().description },
};

interface Workflow {
	name: string;
	nodes: INode[];
	settings?: Record<string, unknown>;
}

const examples = readdirSync(DIR)
	.filter((f) => f.endsWith('.json'))
	.sort()
	.map((file) => ({ file, wf: JSON.parse(readFileSync(join(DIR, file), 'utf8')) as Workflow }));

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const node = (wf: Workflow, name: string): INode => {
	const found = wf.nodes.find((n) => n.name === name);
	if (!found) throw new Error(`no node "${name}"`);
	return found;
};

describe('example workflows, as the editor reads them', () => {
	it('there are examples, and each has package nodes', () => {
		expect(examples.length).toBeGreaterThanOrEqual(5);
		for (const { file, wf } of examples) expect([file, wf.nodes.some((n) => n.type.startsWith(`${PACKAGE}.`))]).toEqual([file, true]);
	});

	it.each(examples.map((e) => [e.file, e.wf] as const))('%s: every package node parameter fits its property, at the newest version', (_file, wf) => {
		expect(checkWorkflow(wf, PACKAGE, NODES)).toEqual([]);
	});
});

describe('the example checker finds what the editor would misread', () => {
	const intake = examples.find((e) => e.file === 'lead-intake-webhook.json')?.wf as Workflow;
	const followUp = examples.find((e) => e.file === 'follow-up-tasks.json')?.wf as Workflow;

	it('a tag given as text in a multi-value field (shown one entry per letter)', () => {
		const wf = clone(intake);
		const upsert = wf.nodes.find((n) => n.parameters.operation === 'upsert') as INode;
		(upsert.parameters.additionalFields as Record<string, unknown>).tags = 'Web Form';
		expect(checkWorkflow(wf, PACKAGE, NODES)).toEqual([expect.stringMatching(new RegExp(`^${upsert.name}: additionalFields\\.tags: .*expects a list.*"Web Form"`))]);
	});

	it('an older node version, an unknown parameter, an option value that does not exist, a field of another operation', () => {
		const wf = clone(followUp);
		const create = wf.nodes.find((n) => n.parameters.resource === 'task' && n.parameters.operation === 'create') as INode;
		create.typeVersion = 1;
		create.parameters.dueAtt = 'tomorrow';
		create.parameters.type = 'Phone';
		create.parameters.returnAll = true; // a field of Get Many, not shown on Create
		const problems = checkWorkflow(wf, PACKAGE, NODES);
		expect(problems).toEqual(
			expect.arrayContaining([
				`${create.name}: typeVersion 1, but a node added today is ${newestVersion(NODES.lofty.description)}`,
				`${create.name}: dueAtt: unknown parameter`,
				expect.stringMatching(new RegExp(`^${create.name}: type: not one of the options .*"Call".*got "Phone"`)),
				`${create.name}: returnAll: not shown for these settings (displayOptions)`,
			]),
		);
		expect(problems).toHaveLength(4);
	});

	it('a wrong value inside a collection, a locator without its mode, a number as text; expressions pass', () => {
		const wf = clone(followUp);
		const create = wf.nodes.find((n) => n.parameters.resource === 'task' && n.parameters.operation === 'create') as INode;
		create.parameters.leadId = '123';
		create.parameters.additionalFields = { nonsense: 1 };
		const leads = wf.nodes.find((n) => n.parameters.resource === 'lead' && n.parameters.operation === 'getAll') as INode;
		leads.parameters.limit = '5';
		const problems = checkWorkflow(wf, PACKAGE, NODES);
		expect(problems).toEqual(
			expect.arrayContaining([
				expect.stringMatching(new RegExp(`^${create.name}: leadId: resourceLocator expects`)),
				`${create.name}: additionalFields.nonsense: unknown parameter`,
				expect.stringMatching(new RegExp(`^${leads.name}: limit: number expects a number`)),
			]),
		);
		leads.parameters.limit = '={{ 2 + 3 }}';
		expect(checkWorkflow(wf, PACKAGE, NODES).filter((p) => p.startsWith(`${leads.name}: limit`))).toEqual([]);
	});

	it('the Lofty Trigger shows Fetch Full Record only where it is on (so a stored "off" is a hidden parameter)', () => {
		const trigger = examples.find((e) => e.file === 'lead-and-pipeline-trigger.json')?.wf as Workflow;
		const wf = clone(trigger);
		const lofty = wf.nodes.find((n) => n.type === `${PACKAGE}.loftyTrigger`) as INode;
		lofty.parameters.fetchFullRecord = true;
		expect(checkWorkflow(wf, PACKAGE, NODES)).toEqual([]);
		lofty.parameters.fetchFullRecord = false;
		expect(checkWorkflow(wf, PACKAGE, NODES)).toEqual([`${lofty.name}: fetchFullRecord: not shown for these settings (displayOptions)`]);
	});

	it('a node type the package does not have', () => {
		const wf = clone(followUp);
		node(wf, wf.nodes[1].name).type = `${PACKAGE}.loftyy`;
		expect(checkWorkflow(wf, PACKAGE, NODES)).toEqual([`${wf.nodes[1].name}: the package has no node ${PACKAGE}.loftyy`]);
	});
});
