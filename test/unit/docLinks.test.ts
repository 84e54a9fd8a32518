/**
 * The links of the documentation hold: every relative link in README.md, CONTRIBUTING.md and docs/ names a file
 * that exists and, with a #, a heading of that file (GitHub's anchors); every Docs link of the nodes and credentials
 * (documentationUrl, the codex's primaryDocumentation) names a heading of the README.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const REPO = 'https://github.com/n8n-nodes-lofty/n8n-nodes-lofty';

/** Markdown outside fenced code blocks. */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '');

/** The anchors GitHub gives a Markdown file's headings (a repeated heading gets -1, -2, ...). */
function anchors(file: string): Set<string> {
	const seen = new Map<string, number>();
	const out = new Set<string>();
	for (const [, title] of prose(readFileSync(file, 'utf8')).matchAll(/^#{1,6} (.+)$/gm)) {
		const base = title
			.trim()
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\s_-]/gu, '')
			.replace(/ /g, '-');
		const n = seen.get(base) ?? 0;
		seen.set(base, n + 1);
		out.add(n ? `${base}-${n}` : base);
	}
	return out;
}

const docs = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

describe('documentation links', () => {
	it.each(docs)('%s: every relative link names a file that exists, and a heading there', (doc) => {
		const broken: string[] = [];
		for (const [, target] of prose(readFileSync(join(ROOT, doc), 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)) {
			if (/^[a-z]+:/.test(target)) continue;
			const [file, anchor] = target.split('#');
			const path = file ? normalize(join(ROOT, dirname(doc), file)) : join(ROOT, doc);
			if (!existsSync(path)) broken.push(`${target}: no file ${relative(ROOT, path)}`);
			else if (anchor && path.endsWith('.md') && !anchors(path).has(anchor)) broken.push(`${target}: no heading #${anchor} in ${relative(ROOT, path)}`);
		}
		expect(broken).toEqual([]);
	});

	it("every Docs link of the nodes and credentials names a heading of the README", () => {
		const sources = ['nodes/Lofty', 'nodes/LoftyTrigger', 'nodes/LoftyPollingTrigger', 'credentials'].flatMap((dir) =>
			readdirSync(join(ROOT, dir))
				.filter((f) => /\.(node\.ts|node\.json|credentials\.ts)$/.test(f))
				.map((f) => `${dir}/${f}`),
		);
		const readme = anchors(join(ROOT, 'README.md'));
		const links = sources.flatMap((file) =>
			[...readFileSync(join(ROOT, file), 'utf8').matchAll(new RegExp(`${REPO.replace(/[.]/g, '\\.')}#([\\w-]+)`, 'g'))].map((m) => ({ file, anchor: m[1] })),
		);
		expect(links.length).toBeGreaterThanOrEqual(8);
		// GitHub's own anchor for the README on the repository page
		expect(links.filter(({ anchor }) => anchor !== 'readme' && !readme.has(anchor))).toEqual([]);
	});
});
