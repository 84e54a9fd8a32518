import type { OperationDef, OperationEffect } from './types';

/**
 * What the texts of an operation say about its effect (the class in its table): a person picking an action and a model
 * picking a tool (n8n describes a tool as "<action> in Lofty") read that a destructive operation cannot be undone and
 * that a sending one reaches a real person.
 */
const ACTION_NOTE: Partial<Record<OperationEffect, string>> = {
	destructive: 'cannot be undone',
	sends: 'reaches a person',
};

const DESCRIPTION_NOTE: Partial<Record<OperationEffect, string>> = {
	destructive: 'This cannot be undone: the Lofty API cannot restore what it removes.',
	sends: 'This reaches a real person at once and cannot be called back.',
};

/** The action text as shown and as a tool's description: the table's action, with its effect in brackets. */
export function actionOf(op: Pick<OperationDef, 'action' | 'effect'>): string {
	const note = ACTION_NOTE[op.effect];
	return note ? `${op.action} (${note})` : op.action;
}

/** The operation's description, with what its effect means for the person or model running it. */
export function descriptionOf(op: Pick<OperationDef, 'description' | 'effect'>): string {
	const note = DESCRIPTION_NOTE[op.effect];
	if (!note) return op.description;
	return `${op.description.replace(/[.\s]+$/, '')}. ${note}`;
}
