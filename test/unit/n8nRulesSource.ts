/**
 * n8n's community-node rules newer than 0.32.0 that read the source of node files, ported from their docs in n8n's
 * repository (packages/@n8n/eslint-plugin-community-nodes/docs/rules/) on TypeScript's syntax tree, as the rules do
 * on ESLint's: require-continue-on-fail, node-operation-error-itemindex, prefer-declarative-style (each on the node
 * classes of *.node.ts files) and no-hardcoded-ids (on every file under nodes/, where the rule reads *.node.ts only).
 * That every path an item takes honours Continue On Fail and names its item is checked by running the node:
 * test/unit/n8nRulesItems.test.ts.
 */
import { basename } from 'node:path';
import * as ts from 'typescript';

import type { Rule } from './n8nRulesDescription';
import { type PackageFacts, classesIn, executeMethod, implementsName, isThisCall, parse, walk } from './n8nRulesPackage';

/** Each node class of the package's node files with its `execute` method, where it has one. */
function executeMethods(pkg: PackageFacts): Array<{ where: string; method: ts.MethodDeclaration }> {
	return pkg.nodes.flatMap((n) =>
		classesIn(n.source, n.file)
			.filter((c) => implementsName(c, 'INodeType'))
			.flatMap((c) => {
				const method = executeMethod(c);
				return method?.body ? [{ where: `${basename(n.file)}: ${c.name?.text}.execute`, method }] : [];
			}),
	);
}

const isGetInputData = (n: ts.Node) => isThisCall(n, 'getInputData');

/** The item loops of an execute method: `for` whose test reads `<items>.length`, `for...of` over the items. */
function itemLoops(method: ts.MethodDeclaration): ts.Statement[] {
	const nodes = walk(method.body!);
	const itemVars = new Set(
		nodes.filter(ts.isVariableDeclaration).flatMap((d) => (ts.isIdentifier(d.name) && d.initializer && isGetInputData(d.initializer) ? [d.name.text] : [])),
	);
	const lengthOfItems = (e: ts.Expression) => ts.isPropertyAccessExpression(e) && e.name.text === 'length' && ts.isIdentifier(e.expression) && itemVars.has(e.expression.text);
	return nodes.filter((n): n is ts.Statement => {
		if (ts.isForStatement(n)) return !!n.condition && ts.isBinaryExpression(n.condition) && (lengthOfItems(n.condition.left) || lengthOfItems(n.condition.right));
		if (ts.isForOfStatement(n)) return (ts.isIdentifier(n.expression) && itemVars.has(n.expression.text)) || isGetInputData(n.expression);
		return false;
	});
}

/** A `new NodeOperationError(...)` / `new NodeApiError(...)` whose options name no item (a variable or spread counts). */
function lacksItemIndex(n: ts.Node): n is ts.NewExpression {
	if (!ts.isNewExpression(n) || !ts.isIdentifier(n.expression) || !['NodeOperationError', 'NodeApiError'].includes(n.expression.text)) return false;
	const options = n.arguments?.[2];
	if (!options) return true;
	if (!ts.isObjectLiteralExpression(options)) return false;
	return !options.properties.some((p) => ts.isSpreadAssignment(p) || p.name?.getText() === 'itemIndex');
}

const HTTP_HELPER = /\bhelpers\s*\.\s*(httpRequest|httpRequestWithAuthentication|request|requestWithAuthentication|requestOAuth1|requestOAuth2)\b/;
const ID_NAME = /^(partner|affiliate|reseller|account|tenant|customer|client)_?id$/i;
const isStringLiteral = (e: ts.Node | undefined) => !!e && (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e));

export const SOURCE_RULES: Rule[] = [
	{
		name: 'require-continue-on-fail',
		check: (pkg) => executeMethods(pkg).filter(({ method }) => !walk(method.body!).some((n) => isThisCall(n, 'continueOnFail'))).map(({ where }) => where),
	},
	{
		name: 'node-operation-error-itemindex',
		check: (pkg) =>
			executeMethods(pkg).flatMap(({ where, method }) =>
				itemLoops(method)
					.flatMap((loop) => walk(loop).filter(lacksItemIndex))
					.map((n) => `${where}: ${n.getText().split('\n')[0].slice(0, 100)}`),
			),
	},
	{
		// a programmatic node whose execute() sends one HTTP request per item, and nothing the rule exempts
		name: 'prefer-declarative-style',
		check: (pkg) =>
			executeMethods(pkg).flatMap(({ where, method }) => {
				const body = method.body!.getText();
				if (/getWorkflowStaticData|binary|prepareBinaryData|while\s*\(|do\s*\{/.test(body)) return [];
				return itemLoops(method).flatMap((loop) => {
					const calls = walk(loop).filter((n) => ts.isCallExpression(n) && HTTP_HELPER.test(n.expression.getText()));
					const nested = walk(loop).some((n) => n !== loop && (ts.isForStatement(n) || ts.isForOfStatement(n) || ts.isForInStatement(n)));
					return calls.length === 1 && !nested ? [`${where}: one request per item (${calls[0].getText().split('(')[0]})`] : [];
				});
			}),
	},
	{
		name: 'no-hardcoded-ids',
		check: (pkg) =>
			pkg.sources.flatMap(({ file, source }) =>
				walk(parse(source, file))
					.filter((n) => {
						if (ts.isPropertyAssignment(n)) return ID_NAME.test(n.name.getText().replace(/^['"]|['"]$/g, '')) && isStringLiteral(n.initializer);
						if (ts.isVariableDeclaration(n) || ts.isPropertyDeclaration(n)) return ts.isIdentifier(n.name) && ID_NAME.test(n.name.text) && isStringLiteral(n.initializer);
						if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
							const name = ts.isPropertyAccessExpression(n.left) ? n.left.name.text : ts.isIdentifier(n.left) ? n.left.text : '';
							return ID_NAME.test(name) && isStringLiteral(n.right);
						}
						return false;
					})
					.map((n) => `${file}: ${n.getText().slice(0, 80)}`),
			),
	},
];
