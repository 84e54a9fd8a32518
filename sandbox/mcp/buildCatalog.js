/**
 * Writes sandbox/mcp/catalog.json, what the emulated tool server's `search_apis` and `describe_api` answer from: every
 * operation of the vendor's OpenAPI (../shared/reference/lofty-openapi.json) with its summary, description, path and
 * query parameters and the top-level fields of its JSON body. Run again when the reference changes:
 *   node sandbox/mcp/buildCatalog.js
 */
const fs = require('node:fs');
const path = require('node:path');

const SOURCE = path.join(__dirname, '..', '..', '..', 'shared', 'reference', 'lofty-openapi.json');
const TARGET = path.join(__dirname, 'catalog.json');

const short = (text, max) => {
	const t = String(text ?? '').replace(/\s+/g, ' ').trim();
	return t.length > max ? `${t.slice(0, max - 3)}...` : t;
};

function main() {
	const openapi = JSON.parse(fs.readFileSync(SOURCE, 'utf8'));
	const schemas = openapi.components?.schemas ?? {};
	const resolve = (schema) => {
		let s = schema;
		for (let i = 0; s && s.$ref && i < 5; i++) s = schemas[s.$ref.split('/').pop()];
		return s ?? {};
	};
	const typeOf = (schema) => {
		const s = resolve(schema);
		if (s.type === 'array') return `array of ${typeOf(s.items)}`;
		return [s.type ?? 'object', s.format].filter(Boolean).join(' ');
	};
	const operations = [];
	for (const [p, methods] of Object.entries(openapi.paths)) {
		for (const [method, op] of Object.entries(methods)) {
			const parameters = (op.parameters ?? [])
				.filter((x) => x.in !== 'header')
				.map((x) => ({ name: x.name, in: x.in, required: Boolean(x.required), type: typeOf(x.schema), description: short(x.description, 200) }));
			let body;
			const schema = op.requestBody?.content?.['application/json']?.schema;
			if (schema) {
				const s = resolve(schema);
				const target = s.type === 'array' ? resolve(s.items) : s;
				const required = new Set(target.required ?? []);
				body = {
					type: s.type === 'array' ? 'array' : 'object',
					fields: Object.entries(target.properties ?? {}).map(([name, f]) => ({ name, type: typeOf(f), required: required.has(name), description: short(resolve(f).description ?? f.description, 160) })),
				};
			}
			operations.push({
				method: method.toUpperCase(),
				path: p,
				tag: op.tags?.[0] ?? '',
				summary: short(op.summary, 120),
				description: short(op.description, 600),
				parameters,
				...(body ? { body } : {}),
			});
		}
	}
	operations.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
	fs.writeFileSync(TARGET, `${JSON.stringify({ source: 'lofty-openapi.json', operations }, null, '\t')}\n`);
	process.stdout.write(`catalog: ${operations.length} operations -> ${path.relative(process.cwd(), TARGET)}\n`);
}

main();
