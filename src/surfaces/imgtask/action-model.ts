/** The catalog id an image-task action is priced and routed as, from its button's customId. */
export function actionModelOf(customId: string): string {
  const kind = /^MJ::JOB::([a-z_]+)::/i.exec(customId)?.[1]?.toLowerCase();
  if (kind === 'upsample') return 'imgtask-upscale';
  if (kind === 'variation' || kind === 'low_variation' || kind === 'high_variation') return 'imgtask-variation';
  if (kind === 'reroll') return 'imgtask-reroll';
  return 'imgtask-action';
}

/** The MJ proxy's action word for a task acting on a button. */
export function actionWordOf(customId: string): string {
  const model = actionModelOf(customId);
  if (model === 'imgtask-upscale') return 'UPSCALE';
  if (model === 'imgtask-variation') return 'VARIATION';
  if (model === 'imgtask-reroll') return 'REROLL';
  return 'ACTION';
}
