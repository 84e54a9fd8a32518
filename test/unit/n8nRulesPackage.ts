/**
 * What n8n's community-node rules look at, gathered once from the package as it ships (test/unit/n8nRules.test.ts):
 * package.json, each node (its file, source text, built description and codex file), each credential (file, source,
 * class name and `name` field), the icons. A rule is a function of these facts, so a deliberately broken copy
 * (n8nRulesBroken.ts) is the same facts with one thing changed. Also the TypeScript syntax helpers the source rules
 * share (n8nRulesSource.ts).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as ts from 'typescript';
import type { INodeProperties, INodePropertyCollection, INodeTypeDescription } from 'n8n-workflow';

import { Lofty } from '../../nodes/Lofty/Lofty.node';
import { LoftyTrigger } from '../../nodes/LoftyTrigger/LoftyTrigger.node';
import { LoftyPollingTrigger } from '../../nodes/LoftyPollingTrigger/LoftyPollingTrigger.node';
import { LoftyApi } from '../../credentials/LoftyApi.credentials';
import { LoftyOAuth2Api } from '../../credentials/LoftyOAuth2Api.credentials';

export const ROOT = join(__dirname, '..', '..');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface NodeFacts {
	/** relative to the repository, e.g. nodes/Lofty/Lofty.node.ts */
	file: string;
	source: string;
	description: INodeTypeDescription;
	/** the sibling .node.json codex file's content, when there is one */
	codex?: Json;
}

export interface CredentialFacts {
	file: string;
	source: string;
	/** the class declared in the file that implements ICredentialType, and its `name` field (read from the source) */
	className: string;
	name: string;
	icon: unknown;
}

export interface PackageFacts {
	packageJson: Json;
	/** every TypeScript file under nodes/: { file, source } */
	sources: Array<{ file: string; source: string }>;
	nodes: NodeFacts[];
	credentials: CredentialFacts[];
	/** an icon file's SVG text, by its `file:` path as the description gives it */
	svg: (iconPath: string) => string;
}

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

function nodeFacts(file: string, description: INodeTypeDescription): NodeFacts {
	const codexFile = file.replace(/\.ts$/, '.json');
	let codex: Json;
	try {
		codex = JSON.parse(read(codexFile));
	} catch {
		codex = undefined;
	}
	return { file, source: read(file), description, codex };
}

/** A credential file's facts from its source text (a broken copy passes its own text). */
export function credentialFacts(file: string, icon: unknown, source = read(file)): CredentialFacts {
	const cls = classesIn(source, file).find((c) => implementsName(c, 'ICredentialType'));
	const nameField = cls?.members.find((m): m is ts.PropertyDeclaration => ts.isPropertyDeclaration(m) && m.name.getText() === 'name');
	const name = nameField?.initializer && ts.isStringLiteral(nameField.initializer) ? nameField.initializer.text : '';
	return { file, source, className: cls?.name?.text ?? '', name, icon };
}

/** The package as it ships. */
export function loadPackage(): PackageFacts {
	return {
		packageJson: JSON.parse(read('package.json')),
		sources: tsFilesUnder('nodes').map((file) => ({ file, source: read(file) })),
		nodes: [
			nodeFacts('nodes/Lofty/Lofty.node.ts', new Lofty().description),
			nodeFacts('nodes/LoftyTrigger/LoftyTrigger.node.ts', new LoftyTrigger().description),
			nodeFacts('nodes/LoftyPollingTrigger/LoftyPollingTrigger.node.ts', new LoftyPollingTrigger().description),
		],
		credentials: [credentialFacts('credentials/LoftyApi.credentials.ts', new LoftyApi().icon), credentialFacts('credentials/LoftyOAuth2Api.credentials.ts', new LoftyOAuth2Api().icon)],
		svg: (iconPath) => read(join('icons', basename(iconPath))),
	};
}

function tsFilesUnder(dir: string): string[] {
	return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
		e.isDirectory() ? tsFilesUnder(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
	);
}

/** A deep copy to break (functions kept). */
export function copyOf(pkg: PackageFacts): PackageFacts {
	return { ...pkg, sources: pkg.sources.map((s) => ({ ...s })), packageJson: structuredClone(pkg.packageJson), nodes: pkg.nodes.map((n) => ({ ...n, description: structuredClone(n.description), codex: structuredClone(n.codex) })), credentials: pkg.credentials.map((c) => ({ ...c })) };
}

/** Every parameter of a description with where it stands: top level, in collections, in fixedCollection groups. */
export function parameters(properties: INodeProperties[], at = ''): Array<{ where: string; p: INodeProperties }> {
	return properties.flatMap((p) => {
		const where = `${at}${p.name}`;
		const nested =
			p.type === 'collection'
				? parameters((p.options ?? []) as INodeProperties[], `${where}.`)
				: p.type === 'fixedCollection'
					? ((p.options ?? []) as INodePropertyCollection[]).flatMap((group) => parameters(group.values ?? [], `${where}.${group.name}.`))
					: [];
		return [{ where, p }, ...nested];
	});
}

/** Every parameter of every node, named `<file name>: <path>`. */
export const allParameters = (pkg: PackageFacts) => pkg.nodes.flatMap((n) => parameters(n.description.properties).map((x) => ({ ...x, where: `${basename(n.file)}: ${x.where}` })));

// ---- TypeScript syntax, for the rules that read source files ----

export function parse(source: string, file = 'x.ts'): ts.SourceFile {
	return ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
}

/** Every node of the tree under `root` (itself included). */
export function walk(root: ts.Node): ts.Node[] {
	const out: ts.Node[] = [];
	const visit = (n: ts.Node) => {
		out.push(n);
		n.forEachChild(visit);
	};
	visit(root);
	return out;
}

export const classesIn = (source: string, file?: string): ts.ClassDeclaration[] => walk(parse(source, file)).filter(ts.isClassDeclaration);

/** Whether the class implements `name` (INodeType, ICredentialType). */
export function implementsName(cls: ts.ClassDeclaration, name: string): boolean {
	return (cls.heritageClauses ?? []).some((h) => h.token === ts.SyntaxKind.ImplementsKeyword && h.types.some((t) => t.expression.getText() === name));
}

/** The class's `execute` method, if it has one. */
export function executeMethod(cls: ts.ClassDeclaration): ts.MethodDeclaration | undefined {
	return cls.members.find((m): m is ts.MethodDeclaration => ts.isMethodDeclaration(m) && m.name.getText() === 'execute');
}

/** Whether `node` is a call `this.<method>(...)`. */
/** The source with the body of its node class's execute() replaced by `body` (a broken copy of a node file). */
export function withExecuteBody(source: string, body: string): string {
	const method = classesIn(source).map(executeMethod).find((m) => m?.body);
	if (!method?.body) throw new Error('no execute() with a body in this source');
	return `${source.slice(0, method.body.getStart())}{\n${body}\n}${source.slice(method.body.getEnd())}`;
}

export function isThisCall(node: ts.Node, method: string): boolean {
	return ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.expression.kind === ts.SyntaxKind.ThisKeyword && node.expression.name.text === method;
}
