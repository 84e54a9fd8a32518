/**
 * What the tools cost an agent, in tokens of OpenAI's o200k_base encoding (gpt-tokenizer, pure JavaScript, offline):
 * each tool's definition as the MCP client lists it (name, description, input schema, as JSON), and each call's
 * default output as the tool answers it (the text a model reads). Other models' tokenizers count differently; the
 * ratios between tools hold roughly.
 */
import { encode } from 'gpt-tokenizer';

import type { McpTool } from './env';
import type { Step } from './player';

export const ENCODING = 'o200k_base (gpt-tokenizer)';

export const tokens = (text: string): number => encode(text).length;

export interface ToolCost {
	tool: string;
	definition: number;
	calls: number;
	/** tokens of the answers: mean and most */
	meanOutput: number;
	maxOutput: number;
}

/** The definition of each tool, and what its calls in the given runs answered. */
export function toolCosts(tools: McpTool[], steps: Step[]): { rows: ToolCost[]; definitions: number } {
	const rows = tools.map((t) => {
		const outputs = steps.filter((s) => s.tool === t.name).map((s) => tokens(s.text));
		return {
			tool: t.name,
			definition: tokens(JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
			calls: outputs.length,
			meanOutput: outputs.length ? Math.round(outputs.reduce((a, b) => a + b, 0) / outputs.length) : 0,
			maxOutput: outputs.length ? Math.max(...outputs) : 0,
		};
	});
	return { rows, definitions: rows.reduce((a, r) => a + r.definition, 0) };
}

/** Tokens a run's calls moved: the arguments sent and the answers read. */
export function runTokens(steps: Step[]): number {
	return steps.reduce((a, s) => a + tokens(JSON.stringify(s.args)) + tokens(s.text), 0);
}
