/**
 * For each ported rule, a deliberately broken copy of the package (test/unit/n8nRules.test.ts): the package's own
 * facts (n8nRulesPackage.ts) with the one thing changed that the rule's doc shows as incorrect, so that the rule is
 * seen to fail on it. A change that no longer finds what it edits throws, rather than leave a copy unbroken.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { type Json, type PackageFacts, credentialFacts, withExecuteBody } from './n8nRulesPackage';

const lofty = (pkg: PackageFacts) => pkg.nodes.find((n) => n.file.endsWith('/Lofty.node.ts'))!;
const prop = (pkg: PackageFacts, name: string) => lofty(pkg).description.properties.find((p) => p.name === name)!;
const resourceOptions = (pkg: PackageFacts) => prop(pkg, 'resource').options as INodePropertyOptions[];

function edit(text: string, from: string | RegExp, to: string): string {
	const out = text.replace(from, to);
	if (out === text) throw new Error(`broken copy: ${String(from)} not found`);
	return out;
}

/** The first credential, re-read from its source text edited by `change`, under `file` (default: its own). */
function breakCredential(pkg: PackageFacts, change: (source: string) => string, file?: string): void {
	const c = pkg.credentials[0];
	pkg.credentials[0] = credentialFacts(file ?? c.file, c.icon, change(c.source));
}

function breakExecute(pkg: PackageFacts, body: string): void {
	const node = lofty(pkg);
	node.source = withExecuteBody(node.source, body);
}

export const BROKEN: Record<string, (pkg: PackageFacts) => void> = {
	'require-param-default': (pkg) => {
		const timeout = (prop(pkg, 'requestOptions').options as INodeProperties[]).find((p) => p.name === 'timeout')!;
		delete (timeout as Json).default;
	},
	'hint-max-length': (pkg) => {
		prop(pkg, 'requestOptions').hint = 'The query must be an array of operations with the required selection and the optional filtering, sorting and pagination fields';
	},
	'no-duplicate-param-options': (pkg) => {
		const options = resourceOptions(pkg);
		options.push({ ...options[0], value: 'person' }, { name: 'Someone', value: options[1].value });
	},
	'no-asterisk-in-option-names': (pkg) => {
		resourceOptions(pkg)[0].name = '* All';
	},
	'options-sorted-alphabetically': (pkg) => {
		resourceOptions(pkg).reverse();
	},
	'non-required-fields-in-collection': (pkg) => {
		lofty(pkg).description.properties.push({ displayName: 'Page Size', name: 'pageSize', type: 'number', default: 50 });
	},
	'open-ended-node-fields': (pkg) => {
		lofty(pkg).description.properties.push({ displayName: 'Configuration', name: 'configuration', type: 'json', default: '{}' });
	},
	'node-class-description-name-camelcase': (pkg) => {
		lofty(pkg).description.name = 'Lofty Node';
	},
	'node-class-description-non-core-color': (pkg) => {
		(lofty(pkg).description.defaults as Json).color = '#FF6D5A';
	},
	'single-credential-per-node': (pkg) => {
		delete lofty(pkg).description.credentials![1].displayOptions;
	},
	'valid-node-categories': (pkg) => {
		lofty(pkg).codex.categories = ['Marketing', 'Bananas'];
	},
	'valid-codex-categories': (pkg) => {
		lofty(pkg).codex.subcategories = ['Helpers'];
	},
	'no-ai-codex-category': (pkg) => {
		lofty(pkg).codex.categories = ['AI'];
	},
	'no-codex-subcategories': (pkg) => {
		lofty(pkg).codex.subcategories = { 'Core Nodes': ['Helpers'] };
	},
	'no-logic-or-flow-nodes': (pkg) => {
		lofty(pkg).codex.categories = ['Sales', 'Logic'];
	},
	'require-community-node-keyword': (pkg) => {
		pkg.packageJson.keywords = ['n8n', 'automation'];
	},
	'require-mit-license': (pkg) => {
		pkg.packageJson.license = 'Apache-2.0';
	},
	'no-monorepo': (pkg) => {
		pkg.packageJson.repository = { ...pkg.packageJson.repository, directory: 'packages/n8n-nodes-lofty' };
	},
	'cred-class-name-suffix': (pkg) => breakCredential(pkg, (s) => edit(s, /export class LoftyApi\b/, 'export class Lofty'), 'credentials/Lofty.credentials.ts'),
	'cred-class-name-field-conventions': (pkg) => breakCredential(pkg, (s) => edit(s, "name = 'loftyApi'", "name = 'Lofty'")),
	'cred-filename-against-convention': (pkg) => breakCredential(pkg, (s) => s, 'credentials/LoftyKey.credentials.ts'),
	'node-filename-against-convention': (pkg) => {
		lofty(pkg).file = 'nodes/Lofty/LoftyCrm.node.ts';
	},
	'icon-contrast': (pkg) => {
		const svg = pkg.svg;
		lofty(pkg).description.icon = { light: 'file:../../icons/black.svg', dark: 'file:../../icons/black.svg' };
		pkg.svg = (path) => (path.endsWith('black.svg') ? '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><path d="M0 0h64v64H0z"/></svg>' : svg(path));
	},
	'require-continue-on-fail': (pkg) => {
		lofty(pkg).source = edit(lofty(pkg).source, 'if (this.continueOnFail()) {', 'if (false) {');
	},
	'node-operation-error-itemindex': (pkg) =>
		breakExecute(
			pkg,
			`const items = this.getInputData();
			const returnData: INodeExecutionData[] = [];
			for (let i = 0; i < items.length; i++) {
				try {
					returnData.push(...(await executeOperation(this, findOperation('lead', 'get')!.op, i)).map((json) => ({ json })));
				} catch (error) {
					if (this.continueOnFail()) continue;
					throw new NodeOperationError(this.getNode(), error as Error);
				}
			}
			return [returnData];`,
		),
	'prefer-declarative-style': (pkg) =>
		breakExecute(
			pkg,
			`const items = this.getInputData();
			const returnData: INodeExecutionData[] = [];
			for (const item of items) {
				try {
					const json = await this.helpers.httpRequestWithAuthentication.call(this, 'loftyApi', { method: 'GET', url: \`https://api.lofty.com/v1.0/leads/\${item.json.leadId}\` });
					returnData.push({ json });
				} catch (error) {
					if (this.continueOnFail()) continue;
					throw error;
				}
			}
			return [returnData];`,
		),
	'no-hardcoded-ids': (pkg) => {
		const node = pkg.sources.find((s) => s.file.endsWith('transport/request.ts'))!;
		node.source += "\nconst options = { qs: { partner_id: 'fixed-partner' } };\n";
	},
};
