import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import type { ResourceDef } from './types';

/**
 * The other Lofty tools given to the same AI agent or MCP server, as the model sees them, so a tool's message can
 * name the tool that finds a record ("Search_Leads") instead of an operation the model never saw. n8n names a tool
 * after its node (every run of characters other than letters, digits, "_" and "-" becomes "_", at most 64) and runs
 * it in the context of the node it serves (the AI Agent, the MCP Server Trigger), whose `ai_tool` inputs are the
 * tools. When n8n does not tell (another kind of run), there are no peers and the message says what the tool does.
 */

/** A Lofty tool beside this one: the name the model calls it by, and its operation. */
export interface PeerTool {
	name: string;
	resource: string;
	operation: string;
}

/** The name a model calls a tool by (n8n-workflow's nodeNameToToolName). */
export function toolNameOf(nodeName: string): string {
	const name = nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_');
	return name.length > 64 ? name.slice(0, 64).replace(/[_-]+$/, '') : name;
}

/** The nodes that may be the one this tool serves: the node of the run's execute data, and its source nodes. */
function servedNodes(ctx: IExecuteFunctions, self: INode): string[] {
	const data = ctx.getExecuteData?.() as { node?: { name?: string }; source?: Record<string, Array<{ previousNode?: string } | null> | null> | null } | undefined;
	const names = [data?.node?.name];
	for (const list of Object.values(data?.source ?? {})) for (const source of list ?? []) names.push(source?.previousNode);
	return names.filter((name): name is string => typeof name === 'string' && name !== self.name);
}

/** The Lofty tools of the agent or server this tool serves (itself included), or undefined when n8n does not say. */
export function peerTools(ctx: IExecuteFunctions, resources: ResourceDef[]): PeerTool[] | undefined {
	try {
		const self = ctx.getNode();
		for (const served of servedNodes(ctx, self)) {
			const tools = ctx.getParentNodes(served, { connectionType: 'ai_tool', depth: 1, includeNodeParameters: true });
			if (!tools.some((t) => t.name === self.name)) continue;
			return tools
				.filter((t) => !t.disabled && t.type === self.type)
				.map((t) => {
					const parameters = (t.parameters ?? {}) as IDataObject;
					const resource = typeof parameters.resource === 'string' ? parameters.resource : 'lead';
					const first = resources.find((r) => r.value === resource)?.operations[0]?.value ?? '';
					return { name: toolNameOf(t.name), resource, operation: typeof parameters.operation === 'string' ? parameters.operation : first };
				});
		}
	} catch {
		// Not a run that knows its agent: the message says what the tool to use does.
	}
	return undefined;
}
