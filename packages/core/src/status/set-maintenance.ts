import type { ServiceContext } from '../shared/context.ts';
import { maintenanceSettingKey } from './status-rules.ts';

export interface SetMaintenanceOptions {
  on: boolean;
}

/** The operator's switch: public stats report maintenance while it is on. */
export async function setMaintenance(ctx: ServiceContext, { on }: SetMaintenanceOptions): Promise<void> {
  const value = on ? 'on' : 'off';
  await ctx.db.serviceSetting.upsert({ where: { key: maintenanceSettingKey }, create: { key: maintenanceSettingKey, value }, update: { value } });
}
