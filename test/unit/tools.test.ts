/**
 * As an AI agent's tool, n8n names a Lofty node after the node (special characters become "_"; n8n 2.8.x does not
 * shorten the result) and describes it as "<action> in Lofty". OpenAI accepts tool names of letters, digits, "_" and
 * "-", at most 64 characters, and descriptions up to 1024 characters: the default names (the action text, as the
 * editor names a node added for an action, with " in Lofty") and the descriptions must fit for every operation, with
 * the effect a destructive or sending operation's action states (model/effects.ts).
 */
import { Lofty } from '../../nodes/Lofty/Lofty.node';
import { actionOf } from '../../nodes/Lofty/model/effects';
import { RESOURCES } from '../../nodes/Lofty/resources';

const OPENAI_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const toolName = (nodeName: string) => nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_');

describe('the Lofty node as an AI tool', () => {
	const defaults = new Lofty().description.defaults.name as string;
	const operations = RESOURCES.flatMap((r) => r.operations.map((op) => ({ resource: r.value, op })));

	it.each(operations.map(({ resource, op }) => [`${resource}.${op.value}`, actionOf(op)] as const))('%s: default tool name and description are valid for OpenAI', (_key, action) => {
		for (const nodeName of [action, `${action} in ${defaults}`, `${defaults} Tool`]) expect(toolName(nodeName)).toMatch(OPENAI_TOOL_NAME);
		const description = `${action} in ${defaults}`;
		expect(description.length).toBeLessThanOrEqual(1024);
	});

	it('within a resource, every operation has its own action text (an agent tells the tools apart by it)', () => {
		const actions = operations.map(({ resource, op }) => `${resource}:${op.action}`);
		expect(new Set(actions).size).toBe(actions.length);
	});
});
