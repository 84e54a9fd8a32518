const { src, dest } = require('gulp');

/** Copies the SVG icons next to the compiled code, where the node and credentials reference them. */
function buildIcons() {
	return src('icons/*.svg').pipe(dest('dist/icons'));
}

exports['build:icons'] = buildIcons;
