import type { OperationDef, ResourceDef } from '../model/types';
import { lead } from './lead';
import { systemLog } from './systemLog';

/** Every resource the Lofty node offers; the node's fields and its execution both come from here. */
export const RESOURCES: ResourceDef[] = [lead, systemLog];

export function findOperation(resource: string, operation: string): OperationDef | undefined {
	return RESOURCES.find((r) => r.value === resource)?.operations.find((op) => op.value === operation);
}
