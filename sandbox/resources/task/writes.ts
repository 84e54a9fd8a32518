/**
 * Changes to task and appointment records shared by the task routes (V1, V2) and Calendar V2, so that a change
 * emits the same webhook event whichever route made it (api-spec.md "Payloads": listId 10 createdTask, updatedTask,
 * finishedTask, deletedTask; listId 11 the same with Appt). Reopening has no event of its own: it is an update.
 */
import { emitTask } from '../webhook/delivery/emit';
import type { Store } from '../../core/store';
import { type TaskRecord, taskState } from './state';

export function createEntry(store: Store, fields: Omit<TaskRecord, 'id'>, now: number): TaskRecord {
	const entry = taskState(store).add(fields);
	emitTask(store, 'created', entry, now);
	return entry;
}

/** Call after changing fields of an entry. */
export function entryUpdated(store: Store, entry: TaskRecord, now: number): void {
	entry.lastUpdate = now;
	emitTask(store, 'updated', entry, now);
}

/**
 * Finishes (true) or reopens (false) an entry; false when it already was so. Finishing emits `finished`, reopening
 * an update (it has no event of its own).
 */
export function setFinished(store: Store, entry: TaskRecord, finished: boolean, now: number): boolean {
	if (entry.finishFlag === finished) return false;
	entry.finishFlag = finished;
	entry.finishTime = finished ? now : null;
	entry.lastUpdate = now;
	emitTask(store, finished ? 'finished' : 'updated', entry, now);
	return true;
}

/** Soft delete: the record keeps its place (a my-tasks cursor on it still works) but no route resolves it. */
export function deleteEntry(store: Store, entry: TaskRecord, now: number): void {
	entry.deleteFlag = true;
	entry.lastUpdate = now;
	emitTask(store, 'deleted', entry, now);
}
