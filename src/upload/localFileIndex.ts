// The files uploaded from this machine. Their ids, per base URL, stay in globalState (the Files
// view shows them when a server has no file list endpoint). Where each upload came from, and
// which files each task created here was given, live in a JSON file in the extension's global
// storage folder (uploadRecordFile.ts), on the machine that has the files: an artifact revising
// one of them is shown against (and written back to) the workspace file it came from, and only
// when the run's task was given that file. The origins an older version kept in globalState
// move to that file once.
import type * as vscode from 'vscode';
import type { UploadOrigin } from '../review/types';
import { readUploadRecord, withRecordLock, writeUploadRecord } from './uploadRecordDisk';
import {
  bounded,
  emptyRecord,
  MAX_TASK_FILES,
  mergeRecords,
  recordFromLegacy,
  type ServiceRecord,
  type UploadRecord,
} from './uploadRecordFile';

const STATE_KEY = 'agentRuntime.uploadedFiles';
/** Where an older version kept the origins; read once into the record file, then cleared. */
export const LEGACY_ORIGINS_KEY = 'agentRuntime.uploadOrigins';
/** The record file's name in the extension's global storage folder. */
export const UPLOAD_RECORD_FILE = 'upload-record.json';
/** Enough for a long working history without letting globalState grow without bound. */
const MAX_REMEMBERED = 500;

export class LocalFileIndex {
  private record: UploadRecord = emptyRecord();
  private loading: Promise<void> | undefined;
  /** Writes one after another, so two changes from this window never race each other. */
  private writing: Promise<unknown> = Promise.resolve();

  /** `recordPath`: the record file (in the extension's global storage folder). */
  constructor(
    private readonly state: vscode.Memento,
    private readonly baseUrl: () => string,
    private readonly recordPath: string,
  ) {}

  /** Ids of files uploaded to the current service from here, newest first. */
  list(): string[] {
    return this.all()[this.baseUrl()] ?? [];
  }

  add(ids: readonly string[]): Thenable<void> {
    const all = this.all();
    const current = all[this.baseUrl()] ?? [];
    all[this.baseUrl()] = [...ids, ...current.filter((id) => !ids.includes(id))].slice(0, MAX_REMEMBERED);
    return this.state.update(STATE_KEY, all);
  }

  /**
   * Reads the record file again (another window may have written it) and, the first time, moves
   * an older version's origins out of globalState into it. Call before reading origin() or taskFiles().
   */
  async refresh(): Promise<void> {
    await this.change(() => undefined);
  }

  /**
   * Remembers where uploads came from (keyed by file id, so two files named alike in two
   * workspace folders stay apart) and lists their ids like add().
   */
  async addUploads(origins: readonly UploadOrigin[]): Promise<void> {
    await this.add(origins.map((o) => o.fileId));
    await this.change((service) => {
      for (const origin of origins) {
        if (origin.fileId !== '__proto__') {
          service.origins[origin.fileId] = { ...origin };
        }
      }
      return true;
    });
  }

  /** Remembers the files a task created here was given: only those can be revised by its runs. */
  async recordTask(taskId: string, fileIds: readonly string[]): Promise<void> {
    if (taskId === '__proto__') {
      return;
    }
    await this.change((service) => {
      service.tasks[taskId] = {
        fileIds: [...new Set(fileIds)].slice(0, MAX_TASK_FILES),
        createdAt: new Date().toISOString(),
      };
      return true;
    });
  }

  /** The files the task `taskId` was given, when it was created here (for the current service). */
  taskFiles(taskId: string): string[] | undefined {
    const service = this.service();
    return service && Object.hasOwn(service.tasks, taskId) ? [...service.tasks[taskId].fileIds] : undefined;
  }

  /** Where the upload `fileId` came from, when it was uploaded from here to the current service (as of the last refresh or change). */
  origin(fileId: string): UploadOrigin | undefined {
    const service = this.service();
    return service && Object.hasOwn(service.origins, fileId) ? { ...service.origins[fileId] } : undefined;
  }

  async remove(id: string): Promise<void> {
    const all = this.all();
    all[this.baseUrl()] = (all[this.baseUrl()] ?? []).filter((x) => x !== id);
    await this.state.update(STATE_KEY, all);
    await this.change((service) => {
      if (!Object.hasOwn(service.origins, id)) {
        return false;
      }
      delete service.origins[id];
      return true;
    });
  }

  private service(): ServiceRecord | undefined {
    const url = this.baseUrl();
    return Object.hasOwn(this.record.services, url) ? this.record.services[url] : undefined;
  }

  /**
   * Reads the file, applies `edit` to the current service's part (true: it changed something),
   * and writes the file back when it did. Queued behind this window's earlier changes.
   */
  private change(edit: (service: ServiceRecord) => boolean | undefined): Promise<void> {
    const run = async (): Promise<void> => {
      // A failed migration is tried again by the next change.
      this.loading ??= this.migrate().catch((err: unknown) => {
        this.loading = undefined;
        throw err;
      });
      await this.loading;
      await withRecordLock(this.recordPath, async () => {
        const { record } = await readUploadRecord(this.recordPath);
        const url = this.baseUrl();
        const service: ServiceRecord = Object.hasOwn(record.services, url)
          ? record.services[url]
          : { origins: {}, tasks: {}, touchedAt: '' };
        if (edit(service)) {
          service.touchedAt = new Date().toISOString();
          record.services[url] = service;
          await writeUploadRecord(this.recordPath, record);
        }
        this.record = bounded(record);
      });
    };
    const next = this.writing.then(run, run);
    this.writing = next.catch(() => undefined);
    return next;
  }

  /** Once per index: an older version's origins in globalState go into the file, then out of globalState. */
  private async migrate(): Promise<void> {
    const legacy = this.state.get<unknown>(LEGACY_ORIGINS_KEY);
    if (legacy !== undefined) {
      await withRecordLock(this.recordPath, async () => {
        const { record } = await readUploadRecord(this.recordPath);
        // What the file already says wins; then the old copy is dropped (never read twice).
        await writeUploadRecord(this.recordPath, mergeRecords(record, recordFromLegacy(legacy)));
      });
      await this.state.update(LEGACY_ORIGINS_KEY, undefined);
    }
    this.record = (await readUploadRecord(this.recordPath)).record;
  }

  private all(): Record<string, string[]> {
    const value = this.state.get<unknown>(STATE_KEY);
    return typeof value === 'object' && value !== null ? { ...(value as Record<string, string[]>) } : {};
  }
}
