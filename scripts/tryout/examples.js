/**
 * The example workflows of examples/ in the try-out (scripts/start.js): which to import (not the Lofty Trigger
 * one while the built package has no trigger node), their MCP Client Tool nodes pointed at this run's tool
 * server, and the import of those that changed since the last run (the webhook example published).
 */
'use strict';

const fs = require('fs');
const path = require('path');
const { EXAMPLES_DIR, TRIGGER_FILE, TRIGGER_TYPE, MCP_PATH, PUBLISH, sha } = require('./config');
const { log } = require('./logs');
const { writeState } = require('./folder');

/**
 * Whether the installed package ships the Lofty Trigger: its file exists and package.json's "n8n" section
 * lists it (n8n loads only the listed nodes). Returns null, or why not.
 */
function triggerMissing(pkgDir) {
	if (!fs.existsSync(path.join(pkgDir, TRIGGER_FILE))) return `the built package has no ${TRIGGER_FILE}`;
	const listed = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).n8n?.nodes ?? [];
	if (!listed.includes(TRIGGER_FILE)) return `package.json "n8n.nodes" does not list ${TRIGGER_FILE} yet`;
	return null;
}

/** The examples to import: examples/*.json, without the Lofty Trigger one while the package has no trigger node. */
function loadExamples(pkgDir) {
	const why = triggerMissing(pkgDir);
	const hasTrigger = why === null;
	const list = [];
	const skipped = [];
	for (const f of fs.readdirSync(EXAMPLES_DIR).filter((n) => n.endsWith('.json')).sort()) {
		const text = fs.readFileSync(path.join(EXAMPLES_DIR, f), 'utf8');
		const wf = JSON.parse(text);
		if (!hasTrigger && wf.nodes.some((n) => n.type === TRIGGER_TYPE)) {
			skipped.push({ file: f, wf, why });
			continue;
		}
		list.push({ file: f, wf, hash: sha(text) });
	}
	return { list, skipped };
}

/** An example's MCP Client Tool nodes get this run's tool-server address (the sandbox's port may differ from 4010). */
function pointAtToolServer(example, url) {
	const nodes = example.wf.nodes.filter((n) => n.type === '@n8n/n8n-nodes-langchain.mcpClientTool' && n.parameters.endpointUrl !== url);
	if (!nodes.length) return;
	for (const n of nodes) n.parameters.endpointUrl = url;
	example.hash = sha(`${example.hash} ${url}`);
}

/** The examples that changed since the last run, imported with `n8n import:workflow` (and published when in PUBLISH). */
async function importExamples({ n8n, inputDir, pkgDir, sandbox, state }) {
	const { list: examples, skipped } = loadExamples(pkgDir);
	for (const e of examples) pointAtToolServer(e, `${sandbox.url}${MCP_PATH}`);
	for (const s of skipped)
		log(`examples/${s.file}: not imported (it needs the ${TRIGGER_TYPE} node): ${s.why}`);
	const changed = examples.filter((e) => state.imports[`workflow:${e.wf.id}`] !== e.hash);
	if (changed.length) {
		const wfDir = path.join(inputDir, 'workflows');
		fs.mkdirSync(wfDir);
		for (const e of changed) fs.writeFileSync(path.join(wfDir, `${e.wf.id}.json`), JSON.stringify(e.wf));
		await n8n(['import:workflow', '--separate', `--input=${wfDir}`]);
		for (const e of changed) {
			if (PUBLISH.has(e.wf.id)) await n8n(['publish:workflow', `--id=${e.wf.id}`]);
			state.imports[`workflow:${e.wf.id}`] = e.hash;
		}
		writeState(state);
		log(`imported ${changed.map((e) => e.file).join(', ')}`);
	} else log('examples unchanged since the last run: not re-imported');
	return { examples, skipped };
}

/**
 * The banner's lines for the imported examples that serve tools over MCP (n8n's MCP Server Trigger): the address an
 * MCP client connects to, and the Bearer token it sends.
 */
function mcpServerLines(base, examples) {
	const lines = [];
	for (const e of examples) {
		const trigger = e.wf.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.mcpTrigger');
		if (!trigger) continue;
		lines.push(`  MCP server:  ${base}/mcp/${trigger.parameters.path}  (Lofty tools for Claude Desktop and other MCP clients: HTTP Streamable,`);
		lines.push('               header "Authorization: Bearer <the API key above>"; docs/ai-agents.md says how to connect)');
	}
	return lines;
}

module.exports = { triggerMissing, loadExamples, pointAtToolServer, importExamples, mcpServerLines };
