/**
 * Imported first (run.ts). Compiled test code (test/e2e/n8nServer.ts) requires ../../scripts/* relative to itself,
 * which from .build/bench-agents/test/e2e is .build/bench-agents/scripts: link that to the real folder (as
 * bench/scriptsLink.ts does for `npm run bench`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const link = path.resolve(__dirname, '..', '..', 'scripts');
if (!fs.existsSync(link)) {
	fs.rmSync(link, { force: true }); // a dangling link
	fs.symlinkSync(path.resolve(__dirname, '..', '..', '..', '..', 'scripts'), link, 'dir');
}
