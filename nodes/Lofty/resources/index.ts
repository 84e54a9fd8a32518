import type { OperationDef, ResourceDef } from '../model/types';
import { lead } from './lead';
import { systemLog } from './systemLog';

/** Every resource the Lofty node offers; the node's fields and its execution both come from here. */
export const RESOURCES: ResourceDef[] = [lead, systemLog];

export function findOperation(resource: string, operation: string): { resource: ResourceDef; op: OperationDef } | undefined {
	const found = RESOURCES.find((r) => r.value === resource);
	const op = found?.operations.find((o) => o.value === operation);
	return found && op ? { resource: found, op } : undefined;
}
