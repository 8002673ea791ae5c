import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ContextQuery } from '../../../read-store/src/context-query';
import { PageAfter } from '../../../read-store/src/read-store.port';
import { MaintenanceDirectory, MaintenanceWindowView, WindowOccurrence } from './maintenance-directory';

export type MaintenanceQuestion =
  | { type: 'GetMaintenanceWindow'; accountId: string; id: string }
  /** One page, newest first, one row more than `limit`. */
  | { type: 'ListMaintenanceWindows'; accountId: string; limit: number; after?: PageAfter }
  /** The account's windows in an occurrence at `at` (ISO), repeating ones included, with that occurrence. */
  | { type: 'WindowsActiveAt'; accountId: string; at: string };

export interface MaintenanceAnswers {
  GetMaintenanceWindow: { window: MaintenanceWindowView; revision: bigint } | null;
  ListMaintenanceWindows: MaintenanceWindowView[];
  WindowsActiveAt: WindowOccurrence[];
}

export class MaintenanceQuery<T extends MaintenanceQuestion['type']> extends ContextQuery<MaintenanceQuestion, MaintenanceAnswers, T> {}

@QueryHandler(MaintenanceQuery)
export class MaintenanceQueryHandler implements IQueryHandler<MaintenanceQuery<MaintenanceQuestion['type']>> {
  constructor(private readonly windows: MaintenanceDirectory) {}

  async execute({ query }: MaintenanceQuery<MaintenanceQuestion['type']>): Promise<MaintenanceAnswers[MaintenanceQuestion['type']]> {
    switch (query.type) {
      case 'GetMaintenanceWindow':
        return this.windows.get(query.accountId, query.id);
      case 'ListMaintenanceWindows':
        return this.windows.list(query.accountId, query.limit, query.after);
      case 'WindowsActiveAt':
        return this.windows.windowsActiveAt(query.accountId, new Date(query.at));
    }
  }
}
