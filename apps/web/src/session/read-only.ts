import { useSession } from './session-context.ts';

/** Why a control that writes is disabled in sudo mode (spec §6: an admin only looks). */
export const READ_ONLY_REASON = 'Viewing only: changes are disabled in sudo mode.';

/** The reason every control that writes is disabled, or null when the user may change things. */
export function useReadOnlyReason(): string | null {
  return useSession().sudo ? READ_ONLY_REASON : null;
}
