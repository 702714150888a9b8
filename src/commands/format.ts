// Sizes in command messages, as the sidebar shows them (one formatter for both).
import { formatBytes as formatSize } from '../views/format';

export function formatBytes(bytes: number): string {
  return formatSize(bytes) ?? '?';
}
