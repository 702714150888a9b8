// How many attachments a task may have, per service, as learnt from its own 400
// too_many_attachments answers. Kept in memory only: a service may raise its limit, and the
// next refusal teaches the new one.
const limits = new Map<string, number>();

export function knownAttachmentLimit(serviceUrl: string): number | undefined {
  return limits.get(serviceUrl);
}

export function rememberAttachmentLimit(serviceUrl: string, limit: number | undefined): void {
  if (limit !== undefined && Number.isSafeInteger(limit) && limit > 0) {
    limits.set(serviceUrl, limit);
  }
}
